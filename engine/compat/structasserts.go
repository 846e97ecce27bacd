package compat

import (
	"go/ast"
	"go/token"
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
//
// Likewise x.(T), T a native type with methods that implements an
// interface a cell declares: a library value put in such an interface and
// then in an any is in yaegi's valueInterface, which its assertion to a
// native type does not look inside (b.(*games.TakeBreak) was false, and
// a type switch's case *games.TakeBreak was not taken):
//
//	b.(*games.TakeBreak)  =>  any(grundyrt.Unwrap(b)).(*games.TakeBreak)
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
		} else if ok && x.Type != nil && c.inCellIface(c.Types.TypeOf(x.X), c.Types.TypeOf(x.Type)) {
			x.X = unwrapCall(x.X, x.X.Pos())
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

// inWrapperBased reports whether a value of xt, an empty interface type,
// asserted to t, a cell type on a basic type, an array, a slice or a map
// with methods (type Nimber int with String), may be in yaegi's wrapper
// for a native interface (var s fmt.Stringer = Nimber(7); var a any = s):
// yaegi's assertion to t does not look inside (a.(Nimber) panicked "is
// stdlib._fmt_Stringer, not int"), so where the value is one, the value
// in it is asserted (grundyrt.HasTypeIn, MustHaveTypeIn; a type switch
// asks grundyrt.InWrapper after its own assertion said no).
func inWrapperBased(xt, t types.Type) bool {
	if !basedWrapperSubject(xt) || t == nil {
		return false
	}
	n := boxedType(t)
	return n != nil && typecheck.IsCellType(n) && types.NewMethodSet(types.NewPointer(n)).Len() > 0
}

// inCellIface reports whether a value of xt, an empty interface type or
// an interface a cell declares, asserted to t, a native type with methods
// (*games.TakeBreak), may be one kept in an interface a cell declares
// (var n Named = g; var b any = n): yaegi keeps it in its valueInterface,
// which its assertion to a native type does not look inside
// (b.(*games.TakeBreak) was false), so the assertion asks
// grundyrt.Unwrap(b). From an empty interface, only when t implements an
// interface with methods a cell declares.
func (c *Cell) inCellIface(xt, t types.Type) bool {
	if t == nil || types.IsInterface(t) {
		return false
	}
	if !wrapperSubject(xt) {
		// From a cell's own interface (n.(*games.SetGame), n a Named), whose
		// valueInterface yaegi's assertion does not look inside either.
		return cellTypeOrIfaceLit(xt) && !typecheck.IsCellType(deref(t)) && types.NewMethodSet(t).Len() > 0
	}
	n, ok := types.Unalias(deref(t)).(*types.Named)
	if !ok || typecheck.IsCellType(n) || n.Obj().Pkg() == nil || types.NewMethodSet(t).Len() == 0 {
		return false
	}
	for _, tn := range c.Types.CellTypes() {
		if it, ok := tn.Type().Underlying().(*types.Interface); ok && !it.Empty() && types.Implements(t, it) {
			return true
		}
	}
	return false
}

// libraryInCellIface reports whether a value of xt, an empty interface
// type, asserted to tt, a native interface type with methods (games.Game,
// fmt.Stringer), may be a library value kept in an interface a cell
// declares (var n Named = g; var b any = n): yaegi's assertion does not
// look inside its valueInterface, as for inCellIface. Only in a session
// that declares an interface type with methods.
func (c *Cell) libraryInCellIface(xt, tt types.Type) bool {
	if !wrapperSubject(xt) || tt == nil || typecheck.IsCellType(tt) || isTypeParam(tt) || !types.IsInterface(tt) || emptyIface(tt) {
		return false
	}
	for _, tn := range c.Types.CellTypes() {
		if it, ok := tn.Type().Underlying().(*types.Interface); ok && !it.Empty() {
			return true
		}
	}
	return false
}

// unwrapCall is _grundyUnwrap(x): x, or the value in yaegi's
// valueInterface when x holds one (see inCellIface), through an
// interpreted helper (see _grundyInWrapper).
func unwrapCall(x ast.Expr, pos token.Pos) ast.Expr {
	return &ast.CallExpr{Fun: ident(prelude.Unwrap, pos), Lparen: pos, Args: []ast.Expr{x}, Rparen: pos}
}

// wrapperSubject reports whether a value of xt may be yaegi's wrapper
// that an assertion does not look inside: xt is an empty interface.
func wrapperSubject(xt types.Type) bool { return xt != nil && emptyIface(xt) }

// basedWrapperSubject is wrapperSubject for an assertion to a cell type
// on a basic type, an array, a slice or a map: xt may be a native
// interface with methods too (tm.(Pos), tm an encoding.TextMarshaler
// holding a Pos [2]int), whose wrapper holds the value's box (see
// boxConv), which yaegi's assertion does not look inside.
func basedWrapperSubject(xt types.Type) bool {
	return wrapperSubject(xt) || xt != nil && isIfaceType(xt) && !typecheck.IsCellType(xt) && !isError(xt) && !hasTypeParam(xt)
}

// inWrapperCall is _grundyInWrapper(x): x, or the value in it when it
// is yaegi's wrapper (see structAsserts), through an interpreted helper,
// whose result a loop's assertion reads right each time round (see the
// helper).
func inWrapperCall(x ast.Expr) ast.Expr {
	return &ast.CallExpr{Fun: ident(prelude.InWrapper, x.Pos()), Lparen: x.Pos(), Args: []ast.Expr{x}, Rparen: x.End()}
}
