package compat

import (
	"go/ast"
	"go/types"
)

// funcIfaceValues: a function the cells declare, handed by its name to a
// parameter of an interface type of an interpreted function (kind(sq),
// func kind(v any)) or converted to an interface (any(sq)). yaegi v0.16.1
// puts the function's node there (interp/run.go, the funcT case of a
// call's arguments takes genValue), not a Go function: %T said
// *interp.node, reflect's Kind ptr, and v.(func(int) int) was false (or
// its call dereferenced nil), silently. A conversion to its own
// signature makes the Go function yaegi stores everywhere else (see
// returnFuncs):
//
//	kind(sq)  =>  kind((func(int) int)(sq))
var funcIfaceValues = Pass{
	Name:     "funcifacevalues",
	Run:      runFuncIfaceValues,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"declared_func_in_interface_param"},
}

func runFuncIfaceValues(c *Cell) {
	asFunc := func(e *ast.Expr) {
		id, ok := ast.Unparen(*e).(*ast.Ident)
		if !ok {
			return
		}
		fn, ok := c.Types.ObjectOf(id).(*types.Func)
		if !ok || fn.Pkg() != c.Types.Pkg || fn.Signature().Recv() != nil || fn.Signature().TypeParams().Len() > 0 {
			return
		}
		if te, ok := c.TypeExpr(fn.Type(), id.Pos()); ok {
			*e = &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: id.Pos(), X: te, Rparen: id.Pos()}, Lparen: id.Pos(), Args: []ast.Expr{id}, Rparen: id.End()}
		}
	}
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		if c.Types.IsType(call.Fun) {
			if t := c.Types.TypeOf(call.Fun); len(call.Args) == 1 && t != nil && types.IsInterface(t) {
				asFunc(&call.Args[0]) // any(sq)
			}
			return true
		}
		if !c.interpreted(call) || call.Ellipsis.IsValid() {
			return true
		}
		sig, ok := typeUnder(c.Types.TypeOf(call.Fun)).(*types.Signature)
		if !ok {
			return true
		}
		for i := range call.Args {
			if t := paramType(sig, i, false); t != nil && types.IsInterface(t) {
				asFunc(&call.Args[i])
			}
		}
		return true
	})
}
