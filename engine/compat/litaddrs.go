package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// litAddrs: the address of an array, slice or map literal (&[2]int{i, j},
// &Board{...} with type Board [9]int8, &[]int{i}, &map[string]int{...},
// and the &T{...} elidedAddrs writes). yaegi v0.16.1 builds such a
// literal in its node's place in the frame and & takes that place's
// address (interp/run.go, arrayLit and mapLit Set the new value into
// it), so every time one literal ran in a frame it gave the same
// pointer: appended in a loop, every element was the last one's ([2 20]
// [2 20] [2 20]), and a write through one was seen through all,
// silently. (A struct literal's address is new each time.) The literal
// becomes the element of a one-element slice literal, whose array is
// new each time:
//
//	&[2]int{i, j}  =>  &[][2]int{[2]int{i, j}}[0]
//
// A literal of a generic type's instance inside generic code is
// instanceLits' (a variable of its own each time).
var litAddrs = Pass{
	Name:     "litaddrs",
	Run:      runLitAddrs,
	Kinds:    []ast.Node{(*ast.CompositeLit)(nil)},
	Snippets: []string{"address_of_array_literal_in_loop"},
	After:    []string{"elidedaddrs"},
}

func runLitAddrs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		u, ok := cur.Node().(*ast.UnaryExpr)
		if !ok || u.Op != token.AND {
			return true
		}
		lit, ok := ast.Unparen(u.X).(*ast.CompositeLit)
		if !ok {
			return true
		}
		t := c.Types.TypeOf(lit)
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem() // (an elided &T{...}, which the oracle typed as the pointer it stands for)
		}
		if t == nil || hasTypeParam(t) {
			return true
		}
		switch typeUnder(t).(type) {
		case *types.Array, *types.Slice, *types.Map:
		default:
			return true
		}
		pos := lit.Pos()
		elem, ok := c.TypeExpr(t, pos)
		if !ok {
			return true
		}
		st := types.NewSlice(t)
		one := &ast.CompositeLit{Type: &ast.ArrayType{Lbrack: pos, Elt: elem}, Lbrace: pos, Elts: []ast.Expr{lit}, Rbrace: lit.End()}
		c.Types.Types[one] = types.TypeAndValue{Type: st}
		first := &ast.IndexExpr{X: one, Lbrack: lit.End(), Index: &ast.BasicLit{ValuePos: lit.End(), Kind: token.INT, Value: "0"}, Rbrack: lit.End()}
		c.Types.Types[first] = types.TypeAndValue{Type: t}
		u.X = first
		return true
	})
}
