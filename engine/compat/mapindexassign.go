package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// mapIndexAssign: in "k, m[k] = v1, v2" Go evaluates the map and the key
// of m[k] before it assigns anything, so m[k] is m[old k]. yaegi v0.16.1
// evaluates a map index on the left when it assigns to it, after the
// assignments before it in the tuple (slices and pointers are evaluated
// first, as in Go), and wrote m["b"]. The map and key of each map index
// after the first place are bound first:
//
//	{ _grundyM1, _grundyK2 := m, k; k, _grundyM1[_grundyK2] = v1, v2 }
//
// Only operands without calls or receives are bound (binding one with a
// call could move the call before those of places left of it); constants
// need none.
var mapIndexAssign = Pass{
	Name:     "mapindexassign",
	Run:      runMapIndexAssign,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"map_index_in_tuple_assignment"},
}

func runMapIndexAssign(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		as, ok := cur.Node().(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) < 2 || cur.Index() < 0 {
			return true
		}
		var lhs, rhs []ast.Expr
		bind := func(kind string, e ast.Expr) ast.Expr {
			if tv, ok := c.Types.Types[e]; ok && tv.Value != nil {
				return e
			}
			t := c.Temp(kind)
			lhs, rhs = append(lhs, ident(t, as.Pos())), append(rhs, e)
			return ident(t, e.Pos())
		}
		for _, l := range as.Lhs[1:] {
			ix, ok := ast.Unparen(l).(*ast.IndexExpr)
			if !ok || !c.isMap(ix.X) || !sideEffectFree(ix.X) || !sideEffectFree(ix.Index) {
				continue
			}
			ix.X, ix.Index = bind("M", ix.X), bind("K", ix.Index)
		}
		if len(lhs) == 0 {
			return true
		}
		cur.Replace(&ast.BlockStmt{Lbrace: as.Pos(), List: []ast.Stmt{define(as.Pos(), lhs, rhs...), as}, Rbrace: as.End()})
		return true
	})
}

func (c *Cell) isMap(e ast.Expr) bool {
	t := c.Types.TypeOf(e)
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// sideEffectFree reports whether evaluating e calls nothing and receives
// nothing.
func sideEffectFree(e ast.Expr) bool {
	return !contains(e, true, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			return true
		case *ast.UnaryExpr:
			return n.Op == token.ARROW
		}
		return false
	})
}
