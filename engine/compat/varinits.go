package compat

import (
	"go/ast"
	"go/token"
	"go/types"
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
// A variable whose type the cell cannot name keeps its initializer.
var varInits = Pass{
	Name:     "varinits",
	Run:      runVarInits,
	Kinds:    []ast.Node{(*ast.ValueSpec)(nil)},
	Snippets: []string{"decl_order_var_init_in_place"},
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
			typed, ok := c.withoutValues(vs)
			if !ok {
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
		t, ok := c.TypeExpr(v.Type(), id.Pos())
		if !ok {
			return nil, false
		}
		spec := &ast.ValueSpec{Names: []*ast.Ident{id}, Type: t}
		if c.Types.IsPackage(id.Name) {
			// yaegi refuses "var big T" where big names a package
			// (interp/gta.go:127), not "var big = v".
			zero, _ := c.TypeExpr(v.Type(), id.Pos())
			spec.Values = []ast.Expr{&ast.StarExpr{Star: id.Pos(), X: &ast.CallExpr{Fun: ident("new", id.Pos()), Lparen: id.Pos(), Args: []ast.Expr{zero}, Rparen: id.Pos()}}}
		}
		specs = append(specs, spec)
	}
	return specs, true
}

// assignInPlace puts "names = values" among the cell's statements where
// the declaration vs stood.
func (c *Cell) assignInPlace(vs *ast.ValueSpec) {
	pos := vs.Pos()
	var lhs []ast.Expr
	for _, id := range vs.Names {
		lhs = append(lhs, ident(id.Name, id.Pos()))
	}
	as := &ast.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, TokPos: pos, Rhs: vs.Values}
	if c.Stmts == nil {
		c.Stmts = &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{as}, Rbrace: vs.End()}
		return
	}
	list := c.Stmts.List
	i := 0
	for i < len(list) && list[i].Pos() <= pos {
		i++
	}
	c.Stmts.List = append(list[:i], append([]ast.Stmt{as}, list[i:]...)...)
}
