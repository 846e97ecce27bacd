package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// structAsserts: x.(T), T a cell struct type, x of an interface type
// whose value may be yaegi's wrapper for a native interface (any,
// fmt.Stringer, games.Game): a struct value converted to a native
// interface is kept in a wrapper (interp/value.go:262, with the whole
// value in it: see grundyrt.Rewrap), whose type is not T, so the
// assertion failed, also through any (any(g).(withDoc) was false and a
// type switch took its default), silently. The assertion asks the value
// inside the wrapper:
//
//	any(s).(P)  =>  any(grundyrt.InWrapper(any(s))).(P)
//
// (In an any: yaegi's assertion of a native function's result takes the
// first field of a struct, and a struct without fields has none.) A type
// switch's subject is asked so by typeSwitches.
var structAsserts = Pass{
	Name:     "structasserts",
	Run:      runStructAsserts,
	Kinds:    []ast.Node{(*ast.TypeAssertExpr)(nil)},
	Snippets: []string{"struct_assert_through_native_interface"},
}

func runStructAsserts(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		x, ok := cur.Node().(*ast.TypeAssertExpr)
		if ok && x.Type != nil && c.inWrapper(c.Types.TypeOf(x.X), c.Types.TypeOf(x.Type)) {
			x.X = inWrapperCall(x.X)
		}
		return true
	})
}

// inWrapper reports whether a value of xt, an interface type, asserted to
// t may be a value of t in yaegi's wrapper for a native interface: t is a
// cell struct type with methods or a pointer to one, and xt not error (whose values the error passes
// rebuild) nor an interface a cell declares with methods (whose values
// keep their types).
func (c *Cell) inWrapper(xt, t types.Type) bool {
	if xt == nil || t == nil || !emptyIface(xt) {
		return false
	}
	if _, ok := deref(t).Underlying().(*types.Struct); !ok || !typecheck.IsCellType(deref(t)) {
		return false
	}
	if types.NewMethodSet(types.NewPointer(deref(t))).Len() == 0 {
		return false // (no native interface holds its values)
	}
	return true
}

// inWrapperCall is any(grundyrt.InWrapper(x)): x, or the value in it
// when it is yaegi's wrapper (see structAsserts).
func inWrapperCall(x ast.Expr) ast.Expr {
	return &ast.CallExpr{Fun: ident("any", x.Pos()), Lparen: x.Pos(), Args: []ast.Expr{rtCall(prelude.RTInWrapper, x.Pos(), x)}, Rparen: x.End()}
}
