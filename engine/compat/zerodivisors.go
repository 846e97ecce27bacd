package compat

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// zeroDivisors: a float or complex variable divided by the constant 0
// (x / 0, x /= 0.0) is Go's +Inf, -Inf or NaN at run time; yaegi v0.16.1
// refuses any division by an untyped constant zero, "invalid operation:
// division by zero" (interp/typecheck.go:263, zeroConst), as Go does only
// for integers and constants. A typed zero gets through, so the divisor
// is written with the dividend's type:
//
//	x / 0  =>  x / float64(0)
//
// (An integer divided by a constant zero is refused by the oracle, in
// Go's words: see typeErrors.)
var zeroDivisors = Pass{
	Name:     "zerodivisors",
	Run:      runZeroDivisors,
	Kinds:    []ast.Node{(*ast.BinaryExpr)(nil), (*ast.AssignStmt)(nil)},
	Snippets: []string{"float_division_by_constant_zero"},
}

func runZeroDivisors(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.BinaryExpr:
			if n.Op == token.QUO {
				c.typedZero(n.X, &n.Y)
			}
		case *ast.AssignStmt:
			if n.Tok == token.QUO_ASSIGN && len(n.Rhs) == 1 {
				c.typedZero(n.Lhs[0], &n.Rhs[0])
			}
		}
		return true
	})
}

// typedZero writes the divisor y of x / y as T(0) when it is an untyped
// constant zero and x a float or complex variable of type T.
func (c *Cell) typedZero(x ast.Expr, y *ast.Expr) {
	ty, ok := c.Types.Types[*y]
	if !ok || ty.Value == nil || !numeric(ty.Value) || constant.Sign(ty.Value) != 0 {
		return
	}
	tx, ok := c.Types.Types[x]
	if !ok || tx.Value != nil || !floatDivision(tx.Type) {
		return
	}
	if t, ok := c.TypeExpr(tx.Type, (*y).Pos()); ok {
		*y = &ast.CallExpr{Fun: t, Lparen: (*y).Pos(), Args: []ast.Expr{*y}, Rparen: (*y).End()}
	}
}

// floatDivision reports whether a division by zero of a value of type t
// may give Inf or NaN rather than panic: t is a float or complex type, or
// a type parameter whose type set has one.
func floatDivision(t types.Type) bool {
	if tp, ok := t.(*types.TypeParam); ok {
		return !typeSetAll(tp.Constraint(), func(b *types.Basic) bool { return b.Info()&types.IsInteger != 0 })
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsFloat|types.IsComplex) != 0
}

// numeric reports whether v is a number (a cell with a type error may
// divide by "2").
func numeric(v constant.Value) bool {
	switch v.Kind() {
	case constant.Int, constant.Float, constant.Complex:
		return true
	}
	return false
}
