package compat

import (
	"go/ast"
	"go/token"
	"go/types"

	"grundy/engine/prelude"
)

// nilCompares: two comparisons with nil that yaegi v0.16.1 gets wrong.
//
// Nil on the left, nil != p (written "Yoda style", or by a programmer
// from C), is written with nil on the right: yaegi compiles x != nil and
// nil != x both to a test of its first operand (interp/cfg.go: n.gen =
// isNotNil for aNotEqual, where == picks the operand that is not nil), so
// nil != p tested the nil itself and was false for every p, silently (if
// nil != err { ... } never ran). The swap changes no value.
//
// A conversion to an interface compared with nil, any(v) == nil (the
// generic "is it nil" test), error(p) != nil, is a call of a helper that
// takes the value as an interface: yaegi tests the converted value
// itself, so any(3) == nil panicked "reflect: call of reflect.Value.IsNil
// on int Value", any(p) != nil was false for a nil *Pos and any(s) == nil
// true for a nil slice (Go: an interface holding a typed nil is not nil),
// in a generic function for the type arguments that are not interfaces.
// A conversion of an interface (error(nil), any(err)) is left as it is:
// its nil is the interface's.
//
//	nil != p        =>  p != nil
//	any(v) == nil   =>  _grundyIsNil(v)
//	any(v) != nil   =>  !_grundyIsNil(v)
var nilCompares = Pass{
	Name:     "nilcompares",
	Run:      runNilCompares,
	Kinds:    []ast.Node{(*ast.BinaryExpr)(nil)},
	Snippets: []string{"nil_on_the_left", "converted_nil_compares"},
}

func runNilCompares(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		b, ok := cur.Node().(*ast.BinaryExpr)
		if !ok || b.Op != token.EQL && b.Op != token.NEQ {
			return true
		}
		if isNil(c, b.X) && !isNil(c, b.Y) {
			b.X, b.Y = b.Y, b.X
		}
		if !isNil(c, b.Y) {
			return true
		}
		v := c.convertedToIface(b.X)
		if v == nil {
			return true
		}
		var e ast.Expr = &ast.CallExpr{Fun: ident(prelude.IsNil, b.Pos()), Lparen: b.Pos(), Args: []ast.Expr{v}, Rparen: b.End()}
		c.Types.Types[e] = types.TypeAndValue{Type: types.Typ[types.Bool]}
		if b.Op == token.NEQ {
			e = &ast.UnaryExpr{OpPos: b.Pos(), Op: token.NOT, X: e}
			c.Types.Types[e] = types.TypeAndValue{Type: types.Typ[types.Bool]}
		}
		cur.Replace(e)
		return true
	})
}

// convertedToIface is v when e is I(v), a conversion to an interface
// type of a value that is not an interface (or is of a type parameter).
func (c *Cell) convertedToIface(e ast.Expr) ast.Expr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !c.Types.IsType(call.Fun) || !types.IsInterface(c.Types.TypeOf(call.Fun)) {
		return nil
	}
	at := c.Types.TypeOf(call.Args[0])
	if at == nil || isNil(c, call.Args[0]) {
		return nil
	}
	if _, isParam := types.Unalias(at).(*types.TypeParam); !isParam && types.IsInterface(at) {
		return nil
	}
	return call.Args[0]
}
