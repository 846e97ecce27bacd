package compat

import (
	"go/ast"
	"go/types"
)

// minMax: the builtins min and max (Go 1.21), which yaegi v0.16.1 lacks.
// The prelude declares them as generic functions, and yaegi infers a type
// argument from the first argument it meets (interp/generic.go:211,
// inferTypesFromCall), so min(1, x) with x a float64 ran as min[int]. A
// constant first argument is converted to the call's type, which the
// oracle knows: min(float64(1), x).
var minMax = Pass{
	Name:     "minmax",
	Run:      runMinMax,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"builtin_min_untyped_first", "builtin_min_max"},
}

func runMinMax(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || len(call.Args) < 2 || !c.isBuiltin(call.Fun) {
			return true
		}
		if name := call.Fun.(*ast.Ident).Name; name != "min" && name != "max" {
			return true
		}
		t := c.Types.TypeOf(call)
		first, ok := c.Types.Types[call.Args[0]]
		if t == nil || !ok || first.Value == nil {
			return true
		}
		conv, ok := c.TypeExpr(types.Default(t), call.Args[0].Pos())
		if !ok {
			return true
		}
		a := call.Args[0]
		call.Args[0] = &ast.CallExpr{Fun: conv, Args: []ast.Expr{a}, Lparen: a.Pos(), Rparen: a.End()}
		return true
	})
}
