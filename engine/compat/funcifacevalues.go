package compat

import (
	"go/ast"
	"go/types"
)

// funcIfaceValues: a function the cells declare, by its name, as a value
// of an interface type: handed to a parameter (kind(sq), func kind(v
// any)), returned (return sq from a function returning any), sent, stored
// in a field, an element or a map, or converted (any(sq)). yaegi v0.16.1
// puts the function's node there (interp/run.go, the funcT cases take
// genValue), not a Go function: %T said *interp.node, reflect's Kind ptr,
// and v.(func(int) int) was false (or its call dereferenced nil),
// silently. A conversion to its own
// signature makes the Go function yaegi stores everywhere else (see
// returnFuncs):
//
//	kind(sq)  =>  kind((func(int) int)(sq))
var funcIfaceValues = Pass{
	Name:     "funcifacevalues",
	Run:      runFuncIfaceValues,
	Kinds:    assignedKinds,
	Snippets: []string{"declared_func_in_interface_param"},
}

func runFuncIfaceValues(c *Cell) {
	asFunc := func(e ast.Expr) (ast.Expr, bool) {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil, false
		}
		fn, ok := c.Types.ObjectOf(id).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "main" || fn.Parent() != fn.Pkg().Scope() || fn.Signature().Recv() != nil || fn.Signature().TypeParams().Len() > 0 {
			return nil, false
		}
		return c.asGoFunc(id, fn.Type())
	}
	c.Apply(func(cur Cursor) bool {
		if call, ok := cur.Node().(*ast.CallExpr); ok && c.Types.IsType(call.Fun) {
			if t := c.Types.TypeOf(call.Fun); len(call.Args) == 1 && t != nil && types.IsInterface(t) {
				if x, ok := asFunc(call.Args[0]); ok {
					call.Args[0] = x // any(sq)
				}
			}
			return true
		}
		// (Not a native function's arguments: yaegi hands native code a Go
		// function, fmt.Printf("%T", sq) says func(int) int.)
		for _, v := range c.assignedValues(cur, c.interpreted) {
			if types.IsInterface(v.target) {
				if x, ok := asFunc(v.value); ok {
					v.set(x)
				}
			}
		}
		return true
	})
}
