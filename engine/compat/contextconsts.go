package compat

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// contextConsts: a constant that a return, a send or a switch case gives
// a complex type (return 2 from a func() complex128, ch <- 3 on a chan
// complex128, case 3: in a switch on a complex128), or an unsigned one it
// does not fit in an int64 (return 1<<63, case math.MaxUint64:), is
// converted to that type, as a conversion converts it the way Go does.
// yaegi v0.16.1 converts such a constant from the value it was written
// with (interp/run.go:3633, convertLiteralValue): through an int, which
// refuses a value beyond int64 ("constant 9223372036854775809 overflows
// int64", run.go:3669), and with reflect.Value.Convert, which converts no
// int or float to a complex number ("reflect.Value.Convert: value of type
// int cannot be converted to type complex128"): a panic when the function
// returned, a failed compilation for the send or the case. (Assignments,
// arguments and composite literals convert constants another way, which
// works.)
//
//	return 2          =>  return complex128(2)
//	case 1<<63 + 5:   =>  case uint64(1<<63 + 5):
//	return 0          =>  return T(0)  (in a generic function, T possibly complex)
//	var n int64 = 1e18 + 1  =>  var n int64 = int64(1e18 + 1)  (beyondFloat64)
var contextConsts = Pass{
	Name:     "contextconsts",
	Run:      runContextConsts,
	Kinds:    []ast.Node{(*ast.ReturnStmt)(nil), (*ast.SendStmt)(nil), (*ast.CaseClause)(nil), (*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil)},
	Snippets: []string{"complex_constant_return", "complex_constant_redefined", "complex_typed_constant_case", "uint64_constant_return", "huge_integer_constant_contexts", "integer_float_constant_contexts"},
}

func runContextConsts(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		switch x := cur.Node().(type) {
		case *ast.ReturnStmt:
			c.contextConstants(x.Results)
		case *ast.SendStmt:
			x.Value = c.contextConstants([]ast.Expr{x.Value})[0]
		case *ast.CaseClause:
			c.contextConstants(x.List)
		case *ast.AssignStmt:
			if x.Tok == token.ASSIGN || x.Tok == token.ADD_ASSIGN || x.Tok == token.SUB_ASSIGN || x.Tok == token.MUL_ASSIGN || x.Tok == token.QUO_ASSIGN {
				c.hugeConstants(x.Rhs)
			}
		case *ast.ValueSpec:
			if x.Type != nil {
				c.hugeConstants(x.Values)
			}
		}
		return true
	})
}

// contextConstants converts the constants among es that yaegi would
// convert wrong to their type, in place, and returns es.
func (c *Cell) contextConstants(es []ast.Expr) []ast.Expr {
	for i, e := range es {
		tv, ok := c.Types.Types[e]
		if !ok || tv.Value == nil || tv.Type == nil {
			continue
		}
		if !c.maybeComplex(tv.Type) && !beyondInt64(tv.Value) && !hugeIntegral(tv) && !beyondFloat64(tv) {
			continue
		}
		es[i] = c.convertTo(tv.Type, e)
	}
	return es
}

// hugeConstants converts, among the values of an assignment or a variable
// declaration, the integer constants beyond int64 (u = math.MaxUint64 - 1
// was refused: "constant 18446744073709551614 overflows int64"): the
// other constants there convert right.
func (c *Cell) hugeConstants(es []ast.Expr) {
	for i, e := range es {
		if tv, ok := c.Types.Types[e]; ok && tv.Value != nil && tv.Type != nil && (beyondInt64(tv.Value) || hugeIntegral(tv) || beyondFloat64(tv)) {
			es[i] = c.convertTo(tv.Type, e)
		}
	}
}

// hugeIntegral reports whether tv is a constant with an integer value
// beyond int64 given a float or complex type (return 1 << 70 from a
// func() float64; const h = 1 << 100; g = h * 2 with g a float64): yaegi
// works such an expression out as an int64 ("constant ... overflows
// int64"; from a function's return, a panic when it returned), and
// converts it right when it is the operand of a conversion.
func hugeIntegral(tv types.TypeAndValue) bool {
	if tv.Value == nil || tv.Type == nil {
		return false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	if !ok || b.Info()&(types.IsFloat|types.IsComplex) == 0 || b.Info()&types.IsUntyped != 0 {
		return false
	}
	v := tv.Value
	if v.Kind() == constant.Complex {
		if constant.Sign(constant.Imag(v)) != 0 {
			return false
		}
		v = constant.Real(v)
	}
	return beyondInt64(constant.ToInt(v))
}

// beyondFloat64 reports whether tv is a constant of an integer type that
// float64 cannot hold exactly (beyond 2^53): yaegi converts an untyped
// float constant to an integer type through a float64, so var n int64 =
// 1e18 + 1 was 1e18 (a conversion, int64(1e18 + 1), is exact).
func beyondFloat64(tv types.TypeAndValue) bool {
	b, ok := tv.Type.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 || b.Info()&types.IsUntyped != 0 || tv.Value.Kind() != constant.Int {
		return false
	}
	return constant.BitLen(tv.Value) > 53
}

// maybeComplex reports whether t is a complex type, or a type parameter
// that may be one (in a generic function the oracle keeps a constant's
// untyped value with the parameter's type).
func (c *Cell) maybeComplex(t types.Type) bool {
	if tp, ok := t.(*types.TypeParam); ok {
		return !typeSetAll(tp.Constraint(), notComplex)
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsComplex != 0
}

// beyondInt64 reports whether v is an integer an int64 cannot hold.
func beyondInt64(v constant.Value) bool {
	if v.Kind() != constant.Int {
		return false
	}
	_, fits := constant.Int64Val(v)
	return !fits
}

func notComplex(b *types.Basic) bool { return b.Info()&types.IsComplex == 0 }
