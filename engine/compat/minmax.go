package compat

import (
	"go/ast"
	"go/types"
)

// minMax: the builtins min and max (Go 1.21), which yaegi v0.16.1 lacks.
// The prelude declares them as generic functions of one variadic
// parameter (a -0 argument would otherwise arrive as +0), and yaegi can
// infer no type argument from variadic arguments, nor the right one from
// the first argument of several (min(1, x) with x a float64 ran as
// min[int]). The call gets the type argument the oracle knows: min(1, x)
// becomes min[float64](1, x).
var minMax = Pass{
	Name:     "minmax",
	Run:      runMinMax,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"builtin_min_untyped_first", "builtin_min_max"},
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
		if targ, ok := c.TypeExpr(types.Default(t), call.Fun.Pos()); ok {
			setTypeArgs(call, padTypeParam(cur, []ast.Expr{targ}, []types.Type{types.Default(t)}))
		}
		return true
	})
}
