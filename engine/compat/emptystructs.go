package compat

import (
	"go/ast"
	"go/types"
)

// emptyStructAsserts: x.(T), x of a native interface type with methods
// (games.Game, io.Reader) and T not an interface. yaegi v0.16.1 looks
// for its interface wrapper in the value's first field before comparing
// types (interp/run.go:508, vt.Field(0) of any struct value), and a
// value of a struct type without fields has none: asserting a
// games.Wythoff() (games.WythoffGame is struct{}) panicked with
// "reflect: Field index out of bounds", whatever T was. From any the
// assertion takes another path (interp/run.go:455), which does not
// look, so the operand goes through any first:
//
//	g.(games.WythoffGame)  →  any(g).(games.WythoffGame)
//
// typeSwitches writes its concrete cases so (see assertedFrom).
var emptyStructAsserts = Pass{
	Name:     "emptystructasserts",
	Run:      runEmptyStructAsserts,
	Kinds:    []ast.Node{(*ast.TypeAssertExpr)(nil)},
	Snippets: []string{"assert_native_empty_struct"},
}

func runEmptyStructAsserts(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		ta, ok := cur.Node().(*ast.TypeAssertExpr)
		if !ok || ta.Type == nil {
			return true
		}
		ta.X = c.assertedFrom(ta.X, c.Types.TypeOf(ta.X), c.Types.TypeOf(ta.Type))
		return true
	})
}

// assertedFrom is the operand x, of type xt, of an assertion to tt:
// any(x) when xt is a native interface with methods (error is
// errorAssert's) and tt a native type that is not an interface, x itself
// otherwise. A value of a cell type in a native interface is in a
// wrapper that only the path from xt opens (s.(*Ref) with s a
// fmt.Stringer said false from any).
func (c *Cell) assertedFrom(x ast.Expr, xt, tt types.Type) ast.Expr {
	switch {
	case xt == nil || !c.isNativeIface(xt) || !types.IsInterface(xt) || emptyIface(xt) || isError(xt),
		tt == nil || types.IsInterface(tt) || mentionsCellType(tt):
		return x
	}
	return &ast.CallExpr{Fun: ident("any", x.Pos()), Lparen: x.Pos(), Args: []ast.Expr{x}, Rparen: x.End()}
}
