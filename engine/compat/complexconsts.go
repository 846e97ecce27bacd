package compat

import (
	"go/ast"
	"go/parser"
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
//	imag(complex64(c))   =>  float32(2.0)
//
// A conversion of a typed complex constant to a complex type is written so
// too: yaegi's conversion of a typed complex constant hands
// reflect.Value.Convert an int64 ("value of type int64 cannot be
// converted to type complex128"), so complex128(q) of a const q
// complex64 did not compile:
//
//	complex128(q)  =>  complex128((0.10000000149011612 + 0.20000000298023224i))
//
// (only the operand is written: the conversion keeps its node).
var complexConsts = Pass{
	Name:     "complexconsts",
	Run:      runComplexConsts,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"complex_constant_builtins", "complex_typed_constant_conversion"},
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

// isComplexConst: a complex, real or imag call, or a conversion of a
// typed constant to a complex type.
func (c *Cell) isComplexConst(n ast.Node) bool {
	return c.isComplexBuiltin(n) || c.isComplexConversion(n)
}

func (c *Cell) isComplexConversion(n ast.Node) bool {
	call, ok := n.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !c.Types.IsType(call.Fun) {
		return false
	}
	t := c.Types.TypeOf(call)
	if t == nil {
		return false
	}
	b, _ := t.Underlying().(*types.Basic)
	return b != nil && b.Info()&types.IsComplex != 0 && c.typedConstOperand(call.Args[0])
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
	call := cur.Node().(*ast.CallExpr)
	tv, ok := c.Types.Types[call]
	if !ok || tv.Value == nil {
		return true
	}
	src, ok := constSource(tv.Value, tv.Type)
	if !ok {
		return true
	}
	x, err := parser.ParseExpr(src)
	if err != nil {
		return true
	}
	x = AtPos(x, call.Pos())
	if c.isComplexConversion(call) {
		// The conversion itself stays, typed: later passes ask the oracle
		// about it (a cell type's conversion keeps its name for %T).
		c.Types.Types[x] = c.Types.Types[call.Args[0]]
		call.Args[0] = x
		return true
	}
	if !isUntyped(tv.Type) {
		t, ok := c.TypeExpr(tv.Type, call.Pos())
		if !ok {
			return true
		}
		x = &ast.CallExpr{Fun: t, Lparen: call.Pos(), Args: []ast.Expr{x}, Rparen: call.Pos()}
	}
	cur.Replace(x)
	return true
}
