package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// structAssign: "x = T{...}" with T a struct type. yaegi v0.16.1 builds
// a struct literal assigned to a variable as a new value and puts it in
// the variable's frame slot (interp/run.go:2774, doComposite:
// getFrame(f, l).data[frameIndex] = a) instead of setting the variable:
// a pointer taken to x before (p := &x) still sees the old value, a named
// result so assigned is not what the caller gets, and "a, b = T{1}, T{2}"
// or a keyed literal (T{X: 5}) or one assigned in a closure leaves x
// as it was. The literal is taken by address and read back, which yaegi
// copies into the variable:
//
//	x = *&T{...}
var structAssign = Pass{
	Name:     "structassign",
	Run:      runStructAssign,
	Kinds:    []ast.Node{(*ast.CompositeLit)(nil)},
	Snippets: []string{"struct_literal_assigned_through_pointer"},
}

func runStructAssign(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		as, ok := cur.Node().(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, r := range as.Rhs {
			lit, ok := ast.Unparen(r).(*ast.CompositeLit)
			if !ok || !isVariable(as.Lhs[i]) {
				continue
			}
			if t := c.Types.TypeOf(lit); t == nil || !isStruct(t) || !isStruct(c.Types.TypeOf(as.Lhs[i])) {
				continue
			}
			as.Rhs[i] = &ast.StarExpr{Star: lit.Pos(), X: &ast.UnaryExpr{OpPos: lit.Pos(), Op: token.AND, X: lit}}
		}
		return true
	})
}

func isVariable(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name != "_"
}

func isStruct(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Struct)
	return ok
}
