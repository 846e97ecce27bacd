package compat

import (
	"go/ast"
	"go/types"
)

// complexConsts: a call of the builtin complex, real or imag whose value
// is a constant is written as that constant. yaegi v0.16.1 folds such a
// call itself but keeps untyped complex constants as go/constant values,
// which its real and imag read with reflect.Value.Complex
// (interp/run.go:4076 and :4084, realConst and imagConst: "call of
// reflect.Value.Complex on interface Value"), and its type check of
// complex calls a native package's untyped float constant (math.Pi) an
// "untyped float64" unlike the literal's "untyped float"
// (interp/typecheck.go:822: "mismatched types untyped float and untyped
// float64"; interp/type.go:619, in a declaration: "invalid types int and
// struct"), so real(3+4i), imag(c) of a constant c and complex(0,
// math.Pi) did not compile. The oracle has the exact value, of the same
// kind and type:
//
//	real(3 + 4i)         =>  3.0
//	complex(0, math.Pi)  =>  (0.0 + (884279719003555.0 / 281474976710656)*1i)
//	imag(complex64(c))   =>  (float32)(2.0)
//
// The operand of a conversion that is a typed complex constant is written
// so too (here, and in the conversions other passes write: convertTo): yaegi's conversion of a typed complex constant hands
// reflect.Value.Convert an int64 ("value of type int64 cannot be
// converted to type complex128"), so complex128(q) of a const q
// complex64 did not compile:
//
//	complex128(q)  =>  complex128((0.10000000149011612 + 0.20000000298023224i))
//	T(w)           =>  T((0.0 + 2.0i))    (in a generic function)
//
// and so is a map's key that is one, which yaegi looked up as a
// constant.Value (a panic in reflect.Value.MapIndex):
//
//	m[q]  =>  m[complex64((0.10000000149011612 + 0.20000000298023224i))]
var complexConsts = Pass{
	Name:     "complexconsts",
	Run:      runComplexConsts,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil), (*ast.IndexExpr)(nil)},
	Snippets: []string{"complex_constant_builtins", "complex_typed_constant_conversion", "complex_typed_constant_key", "complex_typed_constant_generic"},
}

func runComplexConsts(c *Cell) {
	for _, root := range c.Roots() {
		if contains(root, false, c.isComplexConst) {
			applyIn(root, c.complexConst)
		}
	}
}

func (c *Cell) isComplexBuiltin(n ast.Node) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok || !c.isBuiltin(call.Fun) {
		return false
	}
	switch call.Fun.(*ast.Ident).Name {
	case "complex", "real", "imag":
		return true
	}
	return false
}

// isComplexConst: a complex, real or imag call, a conversion of a typed
// complex constant, or a map index that is one.
func (c *Cell) isComplexConst(n ast.Node) bool {
	return c.isComplexBuiltin(n) || c.isComplexConversion(n) || c.isComplexKey(n)
}

func (c *Cell) isComplexKey(n ast.Node) bool {
	ix, ok := n.(*ast.IndexExpr)
	if !ok || !c.typedComplexConst(ix.Index) {
		return false
	}
	_, isMap := typeUnder(c.Types.TypeOf(ix.X)).(*types.Map)
	return isMap
}

func (c *Cell) isComplexConversion(n ast.Node) bool {
	call, ok := n.(*ast.CallExpr)
	return ok && len(call.Args) == 1 && c.Types.IsType(call.Fun) && c.typedComplexConst(call.Args[0])
}

// typedComplexConst reports whether e is a constant of a complex type
// (not untyped).
func (c *Cell) typedComplexConst(e ast.Expr) bool {
	tv := c.Types.Types[e]
	if tv.Value == nil || tv.Type == nil {
		return false
	}
	b, _ := tv.Type.Underlying().(*types.Basic)
	return b != nil && b.Info()&types.IsComplex != 0 && c.typedConstOperand(e)
}

// exactComplex is e as an operand yaegi can convert: a typed complex
// constant written as its exact untyped value, typed as e was; other
// expressions as they are.
func (c *Cell) exactComplex(e ast.Expr) ast.Expr {
	if !c.typedComplexConst(e) {
		return e
	}
	tv := c.Types.Types[e]
	x := c.constExpr(tv.Value, types.Typ[types.UntypedComplex], e.Pos())
	if x == nil {
		return e
	}
	c.Types.Types[x] = tv
	return x
}

// typedConstOperand reports whether constant expression x involves a typed
// constant or a conversion. (Its recorded type cannot tell: the oracle
// records an untyped operand with the type it is converted to.)
func (c *Cell) typedConstOperand(x ast.Expr) bool {
	return contains(x, false, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			k, ok := c.Types.ObjectOf(n).(*types.Const)
			return ok && !isUntyped(k.Type())
		case *ast.CallExpr:
			return c.Types.IsType(n.Fun)
		}
		return false
	})
}

// complexConst replaces a constant call with its value (post-order, so an
// outer call is asked about after its arguments were written: the oracle
// typed the original outer node).
func (c *Cell) complexConst(cur Cursor) bool {
	if !c.isComplexConst(cur.Node()) {
		return true
	}
	if c.isComplexKey(cur.Node()) {
		ix := cur.Node().(*ast.IndexExpr)
		ix.Index = c.convertTo(c.Types.TypeOf(ix.Index), ix.Index)
		return true
	}
	call := cur.Node().(*ast.CallExpr)
	if c.isComplexConversion(call) {
		// Only the operand is written: the conversion keeps its node, which
		// later passes ask the oracle about (a cell type's conversion keeps
		// its name for %T), and may be to a type parameter.
		call.Args[0] = c.exactComplex(call.Args[0])
		return true
	}
	tv, ok := c.Types.Types[call]
	if !ok || tv.Value == nil {
		return true
	}
	if x := c.constExpr(tv.Value, tv.Type, call.Pos()); x != nil {
		cur.Replace(x)
	}
	return true
}
