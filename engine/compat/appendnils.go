package compat

import (
	"go/ast"
	"go/types"
)

// appendNils: a nil appended to a slice of pointers, slices, maps,
// functions or channels, append(frontier, nil), is written as the
// element type's nil:
//
//	append(frontier, nil)  =>  append(frontier, (*Node)(nil))
//
// yaegi v0.16.1 keeps one type for every nil of a session, and the first
// nil given an interface's place (var err error = nil, a = nil with a an
// any, []any{nil}, f(nil) with an interface parameter, the bounds
// checks' own helper) marks that type typed for good (interp/type.go,
// defaultType, sets untyped = false on the type it was asked about,
// which is the universe's nil): from there on, in that cell and every
// later one, append of a nil took it for an interface value and panicked
// "reflect.Set: value of type interface {} is not assignable to type
// *main.Node". The nil's type written out does not depend on the mark.
var appendNils = Pass{
	Name:     "appendnils",
	Run:      runAppendNils,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"append_nil_after_interface_nil"},
}

func runAppendNils(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || !isIdent(call.Fun, "append") || !c.isBuiltin(call.Fun) || call.Ellipsis.IsValid() || len(call.Args) < 2 {
			return true
		}
		st, ok := typeUnder(c.Types.TypeOf(call.Args[0])).(*types.Slice)
		if !ok || types.IsInterface(st.Elem()) {
			return true
		}
		for i, a := range call.Args[1:] {
			if !isNil(c, a) {
				continue
			}
			tx, ok := c.TypeExpr(st.Elem(), a.Pos())
			if !ok {
				continue
			}
			conv := &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: a.Pos(), X: tx, Rparen: a.Pos()}, Lparen: a.Pos(), Args: []ast.Expr{a}, Rparen: a.End()}
			c.Types.Types[conv] = types.TypeAndValue{Type: st.Elem()}
			call.Args[1+i] = conv
		}
		return true
	})
}
