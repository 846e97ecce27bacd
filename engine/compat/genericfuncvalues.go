package compat

import (
	"go/ast"
	"go/types"
)

// genericFuncValues: a generic function of the cells used as a value, not
// called: g := Map[int, string], apply(Conv[int, string]), var h
// func(int) int = Id. yaegi v0.16.1 instantiates a generic function with
// a list of type arguments only where it is called
// (interp/cfg.go:1108, "case c0.kind == indexListExpr"), and one used as a
// value with inferred type arguments not at all, so such a value failed
// to compile ("invalid type in assignment", "not a generic type", "cannot
// use type func(main.T) main.T"). It becomes the function literal that
// calls it, F[A, B] written out in the call (typeArgs then treats the
// call as any other):
//
//	func(_grundyP1 []int, _grundyP2 func(int) string) []string { return Map[int, string](_grundyP1, _grundyP2) }
var genericFuncValues = Pass{
	Name: "genericfuncvalues",
	Run:  runGenericFuncValues,
	// A bare name (var h func(int) int = Id) can be such a value, so no
	// kind of node tells; a cell without instances returns at once.
	Snippets: []string{"generics_func_values"},
}

func runGenericFuncValues(c *Cell) {
	if len(c.Types.Instances) == 0 {
		return
	}
	c.Apply(func(cur Cursor) bool {
		e, ok := cur.Node().(ast.Expr)
		if !ok {
			return true
		}
		id, _ := indexed(e)
		if id == nil {
			id, _ = e.(*ast.Ident)
			// The name of F[A] is the index expression's, which is
			// rewritten as a whole.
			switch cur.Parent().(type) {
			case *ast.IndexExpr, *ast.IndexListExpr:
				if cur.Name() == "X" {
					return true
				}
			}
		}
		if id == nil {
			return true
		}
		if call, ok := cur.Parent().(*ast.CallExpr); ok && cur.Name() == "Fun" && call.Fun == e {
			return true
		}
		if rangedOver(cur) {
			return true // for x := range Evens[int]
		}
		inst, ok := c.Types.Instances[id]
		fn, isFunc := c.Types.ObjectOf(id).(*types.Func)
		if !ok || !isFunc || fn.Pkg() == nil || fn.Pkg().Path() != "main" {
			return true
		}
		sig, ok := inst.Type.(*types.Signature)
		if !ok {
			return true
		}
		targs, ok := c.writtenTypeArgs(inst, e.Pos())
		if !ok {
			return true
		}
		lit := c.forwardLit(sig, e.Pos(), "P", func(args []ast.Expr) *ast.CallExpr {
			return &ast.CallExpr{Fun: withTypeArgs(id, targs), Args: args}
		})
		if lit != nil {
			c.Types.Types[lit] = types.TypeAndValue{Type: sig} // (for the passes after: fmtArgs names its type for %T)
			cur.Replace(lit)
		}
		return true
	})
}
