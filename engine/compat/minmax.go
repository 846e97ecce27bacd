package compat

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
)

// minMax: the builtins min and max (Go 1.21), which yaegi v0.16.1 lacks.
// The prelude declares them as generic functions of one variadic
// parameter (a -0 argument would otherwise arrive as +0), and yaegi can
// infer no type argument from variadic arguments, nor the right one from
// the first argument of several (min(1, x) with x a float64 ran as
// min[int]). The call gets the type argument the oracle knows: min(1, x)
// becomes min[float64](1, x). A call of constants is a constant, its
// value written in its place as Go folds it (max(1, 2) is 2): the
// generic call in the header of an if, for or switch among a cell's
// statements failed with "constant definition loop".
var minMax = Pass{
	Name:     "minmax",
	Run:      runMinMax,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"builtin_min_untyped_first", "builtin_min_max", "builtin_max_constant_header"},
}

func runMinMax(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || len(call.Args) < 1 || !c.isBuiltin(call.Fun) {
			return true
		}
		if name := call.Fun.(*ast.Ident).Name; name != "min" && name != "max" {
			return true
		}
		t := c.Types.TypeOf(call)
		if t == nil {
			return true
		}
		if v := c.Types.Types[call].Value; v != nil {
			if x := c.constExpr(v, t, call.Pos()); x != nil {
				cur.Replace(x)
				return true
			}
		}
		if targ, ok := c.TypeExpr(types.Default(t), call.Fun.Pos()); ok {
			setTypeArgs(call, padTypeParam(cur, []ast.Expr{targ}, []types.Type{types.Default(t)}))
		}
		return true
	})
}

// constExpr writes the constant v of type t as an expression at pos
// (T(v) for a typed constant), or nil when it cannot.
func (c *Cell) constExpr(v constant.Value, t types.Type, pos token.Pos) ast.Expr {
	src, ok := constSource(v, t)
	if !ok {
		return nil
	}
	x, err := parser.ParseExpr(src)
	if err != nil {
		return nil
	}
	x = AtPos(x, pos)
	if isUntyped(t) {
		return x
	}
	tx, ok := c.TypeExpr(t, pos)
	if !ok {
		return nil
	}
	return &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: pos, X: tx, Rparen: pos}, Lparen: pos, Args: []ast.Expr{x}, Rparen: pos}
}
