package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// genericLoopVars: a var declaration in the body of a loop nested in
// another loop of a generic function or method (for n := 0; n < 2; n++ {
// for _, c := range cs { var v T; ... } }). yaegi v0.16.1 generates an
// instance's code by walking its tree and generating, again, the code of
// each var declaration from the declaration on (interp/cfg.go, genRun:
// "case constDecl, varDecl: setExec(n.start)"); in an inner loop that
// broke the loops, whose bodies then never ran: a count of the inner
// iterations was 0, and a select the engine writes with such a variable
// (selects) never received, silently. Such a declaration becomes
// definitions, which have no var declaration's node:
//
//	var v T          =>  v := make([]T, 1)[0]
//	var v T = x      =>  v := make([]T, 1)[0]; v = x
//	var v = x        =>  v := x
//
// (make's element is the zero value of any T: new's of an interface type
// is not nil in yaegi, see newZeroNotNil.) It runs late, after the
// passes that write such declarations. A constant declared there, which
// breaks the loops alike, is refused, saying to declare it before them.
var genericLoopVars = Pass{
	Name:     "genericloopvars",
	Run:      runGenericLoopVars,
	Kinds:    []ast.Node{(*ast.DeclStmt)(nil)},
	Snippets: []string{"generic_nested_loop_vars"},
}

func runGenericLoopVars(c *Cell) {
	if c.Decls == nil {
		return
	}
	for _, d := range c.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || len(funcTypeParams(fd)) == 0 {
			continue
		}
		c.loopVarsIn(fd.Body, 0)
	}
}

// loopVarsIn rewrites the var declarations of n's statement lists at
// loop depth 2 and more (depth: the loops around n in its function).
func (c *Cell) loopVarsIn(n ast.Node, depth int) {
	ast.Inspect(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.FuncLit:
			c.loopVarsIn(m.Body, 0)
			return false
		case *ast.ForStmt:
			if m != n {
				c.loopVarsIn(m.Body, depth+1)
				return false
			}
		case *ast.RangeStmt:
			if m != n {
				c.loopVarsIn(m.Body, depth+1)
				return false
			}
		case *ast.BlockStmt:
			if depth >= 2 {
				m.List = c.defineLoopVars(m.List)
				madeInstanceZeros(m)
			}
		case *ast.CaseClause:
			if depth >= 2 {
				m.Body = c.defineLoopVars(m.Body)
			}
		case *ast.CommClause:
			if depth >= 2 {
				m.Body = c.defineLoopVars(m.Body)
			}
		}
		return true
	})
}

// defineLoopVars is list with its var declarations written as
// definitions (see genericLoopVars).
func (c *Cell) defineLoopVars(list []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	for _, s := range list {
		gd := declOf(s)
		if gd != nil && gd.Tok == token.CONST {
			c.Fail(gd.Pos(), "a constant declared in a loop nested in another loop of a generic function or method: the interpreter would not run those loops; declare it before the loops (or at top level)")
		}
		if gd == nil || gd.Tok != token.VAR {
			out = append(out, s)
			continue
		}
		defs, ok := c.varDefines(gd)
		if !ok {
			out = append(out, s)
			continue
		}
		out = append(out, defs...)
	}
	return out
}

// varDefines is gd, a var declaration, as definitions; false where a
// value names a variable gd declares (var x = x, of the outer x).
func (c *Cell) varDefines(gd *ast.GenDecl) ([]ast.Stmt, bool) {
	var out []ast.Stmt
	for _, sp := range gd.Specs {
		vs := sp.(*ast.ValueSpec)
		pos := vs.Pos()
		for _, v := range vs.Values {
			if contains(v, false, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				return ok && slices.ContainsFunc(vs.Names, func(d *ast.Ident) bool { return d.Name == id.Name })
			}) {
				return nil, false
			}
		}
		var lhs []ast.Expr
		for _, id := range vs.Names {
			lhs = append(lhs, id)
		}
		if vs.Type == nil {
			out = append(out, define(pos, lhs, vs.Values...))
			continue
		}
		var zeros []ast.Expr
		for range vs.Names {
			zeros = append(zeros, c.loopZero(vs.Type, pos))
		}
		out = append(out, define(pos, lhs, zeros...))
		if len(vs.Values) > 0 {
			var names []ast.Expr
			for _, id := range vs.Names {
				names = append(names, ident(id.Name, id.Pos()))
			}
			out = append(out, &ast.AssignStmt{Lhs: names, Tok: token.ASSIGN, TokPos: pos, Rhs: vs.Values})
		}
	}
	return out, true
}

// loopZero is the zero value of the type t names: *new(t) of a type the
// oracle knows is not an interface, else make([]t, 1)[0] (see
// madeInstanceZeros).
func (c *Cell) loopZero(t ast.Expr, pos token.Pos) ast.Expr {
	if typ := c.Types.TypeOf(t); typ != nil && !types.IsInterface(typ) && !isTypeParam(typ) && !writesInstance(t) {
		return zeroValue(t, pos)
	}
	return madeZero(t, pos)
}

// madeInstanceZeros writes *new(t) in b as make([]t, 1)[0] where t names
// an instance of a generic type (item[T, string], item[int, string]):
// in a loop nested in another loop of a generic function or method, yaegi
// v0.16.1's new of such a type found no type to make ("nil pointer
// dereference" in interp/run.go, _new), and a method so compiled ahead of
// its call (the engine declares instances' methods to the printer)
// returned zero values without running, silently. The passes write
// *new(t) for a var declaration and a composite literal of such a type.
func madeInstanceZeros(b *ast.BlockStmt) {
	applyIn(b, func(cur Cursor) bool {
		if star, ok := cur.Node().(*ast.StarExpr); ok {
			if call, ok := star.X.(*ast.CallExpr); ok && isIdent(call.Fun, "new") && len(call.Args) == 1 && writesInstance(call.Args[0]) {
				cur.Replace(madeZero(call.Args[0], star.Pos()))
			}
		}
		return true
	})
}

// writesInstance reports whether the type expression t writes an
// instance of a generic type (namesInstance, by its syntax: the passes'
// expressions may have no types).
func writesInstance(t ast.Expr) bool {
	return contains(t, false, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.IndexExpr, *ast.IndexListExpr:
			return true
		}
		return false
	})
}
