package compat

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// constQuotients: a constant expression with a division in it is written
// as the value the oracle computed. Go divides untyped integer constants
// as integers whatever type the result then takes (var f float64 = 7 / 2
// is 3); yaegi v0.16.1 first gives the operands the type the context
// wants (interp/cfg.go:108, the declared type "propagated" to the value;
// the same for an assignment, a named result, x += ...) and then divides
// as that type (interp/op.go:876, quoConst divides as integers only when
// the result is an untyped int), so the declaration above printed 3.5,
// "r = 3 / 2" into a float64 result 1.5, and "var d time.Duration = 3 / 2
// * time.Second" 0s:
//
//	var f float64 = 7 / 2           =>  var f float64 = 3.0
//	var d time.Duration = 3 / 2 * time.Second  =>  ... = time.Duration(1000000000)
//	return 7 / 2  (of a T ~float64)  =>  return T(3)
//
// Constant declarations are left to constValues, array lengths are
// integers already.
var constQuotients = Pass{
	Name:     "constquotients",
	Run:      runConstQuotients,
	Kinds:    []ast.Node{(*ast.BinaryExpr)(nil)},
	Snippets: []string{"const_untyped_division_float_context"},
}

func runConstQuotients(c *Cell) {
	for _, root := range c.Roots() {
		quotients := map[ast.Expr]bool{}
		ast.Inspect(root, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.GenDecl:
				return x.Tok != token.CONST
			case *ast.ArrayType:
				return false
			case *ast.BinaryExpr, *ast.ParenExpr, *ast.UnaryExpr:
				e := x.(ast.Expr)
				if c.numericConst(e) && contains(e, false, isQuotient) {
					quotients[e] = true
					return false
				}
			}
			return true
		})
		if len(quotients) == 0 {
			continue
		}
		applyIn(root, func(cur Cursor) bool {
			if e, ok := cur.Node().(ast.Expr); ok && quotients[e] {
				tv := c.Types.Types[e]
				if x := c.constValue(tv, e.Pos()); x != nil {
					c.Types.Types[x] = tv // later passes ask the value's type
					cur.Replace(x)
				}
			}
			return true
		})
	}
}

// numericConst reports whether the oracle knows e as a numeric constant
// (in a generic function, one given a type parameter's type: the oracle
// keeps its untyped value).
func (c *Cell) numericConst(e ast.Expr) bool {
	tv, ok := c.Types.Types[e]
	if !ok || tv.Value == nil || tv.Type == nil {
		return false
	}
	if _, ok := tv.Type.(*types.TypeParam); ok {
		return tv.Value.Kind() == constant.Int || tv.Value.Kind() == constant.Float
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsNumeric != 0
}

// constValue writes a constant as its value, of its type: T(3) for a
// type parameter T.
func (c *Cell) constValue(tv types.TypeAndValue, pos token.Pos) ast.Expr {
	tp, ok := tv.Type.(*types.TypeParam)
	if !ok {
		return c.constExpr(tv.Value, literalType(tv.Type), pos)
	}
	kind := types.Typ[types.UntypedInt]
	if tv.Value.Kind() == constant.Float {
		kind = types.Typ[types.UntypedFloat]
	}
	x := c.constExpr(tv.Value, kind, pos)
	tx, ok := c.TypeExpr(tp, pos)
	if x == nil || !ok {
		return nil
	}
	return &ast.CallExpr{Fun: tx, Lparen: pos, Args: []ast.Expr{x}, Rparen: pos}
}

func isQuotient(n ast.Node) bool {
	b, ok := n.(*ast.BinaryExpr)
	return ok && b.Op == token.QUO
}

// literalType is the type to write a constant of type t with: an untyped
// one where a literal has t by default (a plain 3.0 is a float64), so
// that the cell reads as written.
func literalType(t types.Type) types.Type {
	switch t {
	case types.Typ[types.Int]:
		return types.Typ[types.UntypedInt]
	case types.Typ[types.Float64]:
		return types.Typ[types.UntypedFloat]
	case types.Typ[types.Complex128]:
		return types.Typ[types.UntypedComplex]
	}
	return t
}
