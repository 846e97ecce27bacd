package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
)

// displayCalls: display.Show, display.Render and Handle.Update of a value
// whose type a cell declared. yaegi v0.16.1 builds cell types with reflect
// (interp/type.go:2058, refType), which cannot carry methods, so native code
// never sees their HTML, String or PNG methods. The calls go to the
// prelude's interpreted helpers, which find the methods by type switches
// and hand the parts to the display package.
var displayCalls = Pass{
	Name:     "displaycalls",
	Run:      runDisplayCalls,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"display_show_and_html", "display_handle_cell_type"},
}

const displayPath = "grundy/engine/display"

func runDisplayCalls(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := c.callee(call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != displayPath {
			return true
		}
		recv := fn.Type().(*types.Signature).Recv()
		switch {
		case recv == nil && fn.Name() == "Show":
			call.Fun = ident(prelude.Display, call.Fun.Pos())
		case recv == nil && fn.Name() == "Render":
			call.Fun = ident(prelude.Render, call.Fun.Pos())
		case recv != nil && fn.Name() == "Update" && len(call.Args) == 1:
			a := call.Args[0]
			call.Args[0] = &ast.CallExpr{Fun: ident(prelude.Render, a.Pos()), Args: []ast.Expr{a}, Lparen: a.Pos(), Rparen: a.End()}
		}
		return true
	})
}
