package compat

import (
	"go/ast"
	"go/types"
)

// promotedAsserts: x.(T), x of an interface type with methods, T a
// non-pointer type that has one of them only through an embedded pointer
// (type Named struct{ *Base }, Len on *Base). yaegi v0.16.1 checks an
// assertion to a concrete type as it compiles (interp/typecheck.go:624,
// typeAssertionExpr) and takes a method with a pointer receiver for one
// outside T's method set, although promoted through an embedded pointer
// it is in it, so the cell failed to compile: "impossible type
// assertion: main.Named does not implement main.Lener as "Len" method
// has a pointer receiver". An assertion from an empty interface is
// checked when it runs, so the value goes through one, out of yaegi's
// wrapper if it is in one (see structAsserts):
//
//	l.(Named)  =>  any(grundyrt.InWrapper(l)).(Named)
//
// A type switch's cases are checked when they run: they need nothing.
var promotedAsserts = Pass{
	Name:     "promotedasserts",
	Run:      runPromotedAsserts,
	Kinds:    []ast.Node{(*ast.TypeAssertExpr)(nil)},
	Snippets: []string{"assert_promoted_pointer_method"},
}

func runPromotedAsserts(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		x, ok := cur.Node().(*ast.TypeAssertExpr)
		if ok && x.Type != nil && promotedPtrMethod(c.Types.TypeOf(x.X), c.Types.TypeOf(x.Type)) {
			x.X = inWrapperCall(x.X)
		}
		return true
	})
}

// promotedPtrMethod reports whether t, not a pointer nor an interface,
// has a method of xt, an interface type, through an embedded pointer,
// with a pointer receiver.
func promotedPtrMethod(xt, t types.Type) bool {
	if xt == nil || t == nil || types.IsInterface(t) || isTypeParam(xt) || isTypeParam(t) {
		return false
	}
	if _, ptr := t.Underlying().(*types.Pointer); ptr {
		return false
	}
	it, ok := xt.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for i := range it.NumMethods() {
		m := it.Method(i)
		obj, index, _ := types.LookupFieldOrMethod(t, false, m.Pkg(), m.Name())
		fn, ok := obj.(*types.Func)
		if !ok || len(index) < 2 {
			continue
		}
		if recv := fn.Signature().Recv(); recv != nil {
			if _, ptr := recv.Type().Underlying().(*types.Pointer); ptr {
				return true
			}
		}
	}
	return false
}
