package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
)

// varInits: a top-level variable that the cell's functions or methods use
// is declared with the cell's declarations (cell.Hoist), as it would be in
// a Go file: yaegi v0.16.1 resolves a function's names when it compiles
// it, and the declarations compile before the statements, so a variable
// the statements declared would be undefined there. But yaegi runs a
// file's variable initializers as it runs the file (interp/program.go:165,
// "Wire and execute global vars"), before the cell's statements: in
// "fmt.Println(1); var x = f()" f ran first, and an initializer reading a
// variable that the statements above it change read the old value. The
// declaration keeps only the variable's type, from the oracle, and the
// value is assigned where the statement stood, in order:
//
//	var x T    // with the declarations
//	x = f()    // among the statements
//
// A variable of an earlier cell declared again with the same type is only
// assigned (see reused). (This also keeps generic calls, which yaegi
// cannot compile at package level, among the statements.) A variable whose type the cell cannot name
// keeps its initializer, unless that calls a generic function: refused. A
// variable named like a package gets *new(T) as its value.
var varInits = Pass{
	Name:     "varinits",
	Run:      runVarInits,
	Kinds:    []ast.Node{(*ast.ValueSpec)(nil)},
	Snippets: []string{"decl_order_var_init_in_place", "var_init_before_func_main"},
}

func runVarInits(c *Cell) {
	if c.Decls == nil {
		return
	}
	var decls []ast.Decl
	for _, d := range c.Decls.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			decls = append(decls, d)
			continue
		}
		var specs []ast.Spec
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			if len(vs.Values) == 0 {
				if c.allReused(vs) {
					c.assignInPlace(&ast.ValueSpec{Names: vs.Names, Values: c.zeros(vs)})
				} else {
					specs = append(specs, c.zeroForPackageNames(vs))
				}
				continue
			}
			typed, ok := c.withoutValues(vs)
			if !ok {
				if c.callsGeneric(vs.Values...) {
					c.Fail(vs.Pos(), "cannot write the type of %s here, which a generic call gives at package level: declare it with its type (var %s T) and assign it", vs.Names[0].Name, vs.Names[0].Name)
					return
				}
				specs = append(specs, vs)
				continue
			}
			specs = append(specs, typed...)
			c.assignInPlace(vs)
		}
		if len(specs) > 0 {
			gd.Specs = specs
			decls = append(decls, gd)
		}
	}
	c.Decls.Decls = decls
}

// withoutValues is the declaration of vs's variables with their types
// and no values (none for blank names); ok is false when vs has no values
// or a type cannot be written.
func (c *Cell) withoutValues(vs *ast.ValueSpec) (specs []ast.Spec, ok bool) {
	if len(vs.Values) == 0 {
		return nil, false
	}
	var named []*ast.Ident
	for _, id := range vs.Names {
		if id.Name != "_" {
			named = append(named, id)
		}
	}
	if len(named) == 0 {
		return nil, true
	}
	for _, id := range named {
		v, isVar := c.Types.ObjectOf(id).(*types.Var)
		if !isVar {
			return nil, false
		}
		if c.reused(id) {
			continue
		}
		t, ok := c.aliasedTypeExpr(v.Type(), id.Pos())
		if !ok {
			return nil, false
		}
		specs = append(specs, c.zeroForPackageNames(&ast.ValueSpec{Names: []*ast.Ident{id}, Type: t}))
	}
	return specs, true
}

// reused reports whether the variable id declares is one of an earlier
// cell declared again with the same type: the session's variable is
// assigned, not declared again, so that the functions compiled with it
// see the new value (yaegi would make a new variable, which they do not
// use).
func (c *Cell) reused(id *ast.Ident) bool {
	v, ok := c.Types.ObjectOf(id).(*types.Var)
	if !ok {
		return false
	}
	old, ok := c.Types.Earlier(SourceName(id.Name)).(*types.Var)
	return ok && types.Identical(old.Type(), v.Type())
}

func (c *Cell) allReused(vs *ast.ValueSpec) bool {
	for _, id := range vs.Names {
		if id.Name != "_" && !c.reused(id) {
			return false
		}
	}
	return true
}

// zeros are the zero values of vs's variables (which has a type), *new(T).
func (c *Cell) zeros(vs *ast.ValueSpec) []ast.Expr {
	var out []ast.Expr
	for _, id := range vs.Names {
		t, err := parser.ParseExpr(ExprString(vs.Type))
		if err != nil {
			return nil
		}
		out = append(out, c.zeroOf(c.Types.TypeOf(vs.Type), AtPos(t, id.Pos()), id.Pos()))
	}
	return out
}

// zeroForPackageNames gives the variables of vs (which has a type and no
// values) their zero values, *new(T), when one is named like a package:
// yaegi refuses "var big T" where big names a package (interp/gta.go:127),
// not "var big = v".
func (c *Cell) zeroForPackageNames(vs *ast.ValueSpec) *ast.ValueSpec {
	if vs.Type == nil || len(vs.Values) > 0 || !slices.ContainsFunc(vs.Names, func(id *ast.Ident) bool { return c.Types.IsPackage(id.Name) }) {
		return vs
	}
	vs.Values = c.zeros(vs)
	return vs
}

// assignInPlace puts "names = values" among the cell's statements where
// the declaration vs stood.
func (c *Cell) assignInPlace(vs *ast.ValueSpec) {
	pos := vs.Pos()
	var lhs []ast.Expr
	for _, id := range vs.Names {
		lhs = append(lhs, ident(id.Name, id.Pos()))
	}
	var as ast.Stmt = &ast.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, TokPos: pos, Rhs: vs.Values}
	if len(lhs) > 1 && len(vs.Values) == len(lhs) {
		as = c.sequentialValues(lhs, vs.Values, pos)
	}
	if c.Stmts == nil {
		c.Stmts = &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{as}, Rbrace: vs.End()}
		return
	}
	list := c.Stmts.List
	i := 0
	// (Before the call of the cell's func main, as Go gives package
	// variables their values before main runs: see mainFunc.)
	for i < len(list) && list[i].Pos() <= pos && !isMainCall(list[i]) {
		i++
	}
	c.Stmts.List = append(list[:i], append([]ast.Stmt{as}, list[i:]...)...)
}

// sequentialValues assigns values to the variables lhs names as
// a, b = x, y does, one at a time:
//
//	{ _grundyPA1 := x; _grundyPA2 := y; a = _grundyPA1; b = _grundyPA2 }
//
// (constants and nil assigned last as they are, keeping the variable's
// type; a blank's value goes to a variable of its own, a constant nowhere). yaegi v0.16.1's parallel assignment to package variables of an
// interface type from calls of methods through an interface
// (a, b := ms[0].Make(), ms[1].Make() in a cell whose function uses b)
// panicked in reflect.Set ("interface {} is not assignable to type
// interp.valueInterface").
func (c *Cell) sequentialValues(lhs, values []ast.Expr, pos token.Pos) ast.Stmt {
	// The calls first where a value reads what a later one's call may
	// change (e, f = s[0], mutate(s)), as Go makes them: see operandOrder,
	// which runs after and sees each value alone.
	first := c.callsFirst(values)
	var last []ast.Stmt
	for i, v := range values {
		blank := isIdent(lhs[i], "_")
		if tv, ok := c.Types.Types[ast.Unparen(v)]; ok && (tv.Value != nil || tv.IsNil()) {
			if !blank {
				last = append(last, &ast.AssignStmt{Lhs: []ast.Expr{lhs[i]}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{v}})
			}
			continue
		}
		if blank {
			// (its own variable: see reusedDefines)
			first = append(first, define(pos, []ast.Expr{ident(c.blankVar(v.Pos()), pos)}, v))
			continue
		}
		tmp := c.Temp("PA")
		first = append(first, define(pos, []ast.Expr{ident(tmp, pos)}, v))
		last = append(last, &ast.AssignStmt{Lhs: []ast.Expr{lhs[i]}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(tmp, pos)}})
	}
	if len(first) == 0 && len(last) == len(lhs) {
		// Constants only: q, r = 17/5, 17%5 as it is.
		return &ast.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, TokPos: pos, Rhs: values}
	}
	return &ast.BlockStmt{Lbrace: pos, List: append(first, last...), Rbrace: pos}
}
