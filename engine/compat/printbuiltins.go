package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
)

// printBuiltins: the builtins print and println. yaegi v0.16.1 writes
// them to standard output through fmt (interp/run.go, _println:
// fmt.Fprint(n.interp.stdout, ...)), where Go's runtime writes to standard
// error: a cell debugging with println printed into its results, and
// fmt's formats (a float32 with float64's digits). The call goes to the
// runtime's copy of Go's:
//
//	println("x", 1.5)   =>   grundyrt.Print(true, "x", 1.5)
var printBuiltins = Pass{
	Name:     "printbuiltins",
	Run:      runPrintBuiltins,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"println_to_stderr"},
}

func runPrintBuiltins(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return true
		}
		b, ok := c.Types.Uses[id].(*types.Builtin)
		if !ok || b.Name() != "print" && b.Name() != "println" {
			return true
		}
		ln := ident("false", id.Pos())
		if b.Name() == "println" {
			ln = ident("true", id.Pos())
		}
		call.Fun = rtSelector(prelude.RTPrint, id.Pos())
		call.Args = append([]ast.Expr{ln}, call.Args...)
		return true
	})
}
