package compat

import (
	"go/ast"
	"go/constant"
	"go/token"
	"math"
)

// constCompares: a comparison of constants of which one is beyond what an
// int64 or a float64 holds (const h = 1 << 500; h > 0, 1e400 > 1e399,
// u > 1<<63) is written as its value, which the oracle knows exactly.
// yaegi v0.16.1 does not fold comparisons: it compares its operands at run
// time in their default types (interp/typecheck.go:186 checks them,
// interp/run.go compares), so h > 0 and 1e400 > 1e399 were false, and
// 1<<63 + 5 > 1<<63 was refused ("constant 9223372036854775808 overflows
// int64"). Arithmetic on such constants folds exactly there; comparisons
// within int64 and float64 compare right and are left as they are (a
// function compiled again after a cell declares a constant again uses its
// new value).
//
// A comparison of complex constants (1i*1i == -1, 2i == 2i) is written as
// its value too: yaegi v0.16.1 keeps an untyped complex constant as a
// go/constant value its comparison cannot compile ("the interpreter
// cannot compile this"). So is one of constants a float64 holds only
// rounded (1e16+1 > 1e16, math.Pi > 3.14; see inexactFloat).
//
//	h > 0         =>  true
//	1i*1i == -1   =>  true
var constCompares = Pass{
	Name:     "constcompares",
	Run:      runConstCompares,
	Kinds:    []ast.Node{(*ast.BinaryExpr)(nil)},
	Snippets: []string{"const_huge_comparisons"},
}

func runConstCompares(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		b, ok := cur.Node().(*ast.BinaryExpr)
		if !ok || !isComparison(b.Op) {
			return true
		}
		v := c.Types.Types[b].Value
		if v == nil || v.Kind() != constant.Bool || !c.beyondDefault(b.X) && !c.beyondDefault(b.Y) && !c.inexactFloat(b) {
			return true
		}
		cur.Replace(ident(v.ExactString(), b.Pos()))
		return true
	})
}

func isComparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// inexactFloat reports whether e has a constant part that a float64
// holds only rounded (1e16 + 1, 1.0 / 3, math.Pi, 1 << 60 + 1): yaegi
// compares such constants in float64 (1e16+1 > 1e16 was false, math.Phi *
// math.Phi == math.Phi + 1 true), or did not compile the comparison
// (math.Pi > 3.14: "mismatched types untyped float64 and untyped float").
func (c *Cell) inexactFloat(e ast.Expr) bool {
	return c.constPart(e, func(_ ast.Expr, v constant.Value) bool {
		if v.Kind() != constant.Float && v.Kind() != constant.Int {
			return false
		}
		_, exact := constant.Float64Val(constant.ToFloat(v))
		return !exact
	})
}

// beyondDefault reports whether e is a constant that an int64 (an integer)
// or a float64 cannot hold, or a complex constant.
func (c *Cell) beyondDefault(e ast.Expr) bool {
	v := c.Types.Types[e].Value
	if v == nil {
		return false
	}
	switch v.Kind() {
	case constant.Int:
		return beyondInt64(v)
	case constant.Float:
		f, _ := constant.Float64Val(v)
		return math.IsInf(f, 0) || f == 0 && constant.Sign(v) != 0
	case constant.Complex:
		return true
	}
	return false
}
