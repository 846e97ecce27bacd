package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// structAsserts: x.(T), T a cell struct type (with methods) or a pointer
// to one, x of an empty interface type. A struct value converted to a
// native interface (fmt.Stringer, games.Game) is kept in yaegi's wrapper
// (interp/value.go:262, with the whole value in it: see grundyrt.Rewrap);
// put in an any, the wrapper's type is not T, so the assertion failed
// (any(g).(withDoc) was false and a type switch took its default),
// silently. The assertion asks the value inside the wrapper:
//
//	any(s).(P)  =>  any(grundyrt.InWrapper(any(s))).(P)
//
// (In an any: yaegi's assertion of a native function's result takes the
// first field of a struct, and a struct without fields has none.) On a
// value of a native interface with methods, yaegi takes the value out of
// the wrapper itself. A type switch's cases and the tries of an
// assertion to an interface (ifaceTries) ask so too.
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
// t may be a value of t in yaegi's wrapper for a native interface: xt may
// hold a wrapper (wrapperSubject), and t is a cell struct type with
// methods or a pointer to one.
func (c *Cell) inWrapper(xt, t types.Type) bool {
	if !wrapperSubject(xt) || t == nil {
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

// wrapperSubject reports whether a value of xt may be yaegi's wrapper
// that an assertion does not look inside: xt is an empty interface.
func wrapperSubject(xt types.Type) bool { return xt != nil && emptyIface(xt) }

// inWrapperCall is any(grundyrt.InWrapper(x)): x, or the value in it
// when it is yaegi's wrapper (see structAsserts).
func inWrapperCall(x ast.Expr) ast.Expr {
	return &ast.CallExpr{Fun: ident("any", x.Pos()), Lparen: x.Pos(), Args: []ast.Expr{rtCall(prelude.RTInWrapper, x.Pos(), x)}, Rparen: x.End()}
}
