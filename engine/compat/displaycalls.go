package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// displayCalls: display.Show, display.Render and Handle.Update of a value
// whose type a cell declared. yaegi v0.16.1 builds cell types with reflect
// (interp/type.go:2058, refType), which cannot carry methods, so native code
// never sees their HTML, String or PNG methods. The calls go to the
// prelude's interpreted helpers, which find the methods by type switches
// and hand the parts to the display package. A cell's trailing call whose
// result has such methods is put in parentheses, which makes yaegi keep
// the result's type (it hands the helpers a call's result without its
// methods).
var displayCalls = Pass{
	Name:     "displaycalls",
	Run:      runDisplayCalls,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"display_show_and_html", "display_handle_cell_type", "display_call_result_methods"},
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
			c.shownArgs(call)
		case recv == nil && fn.Name() == "Render":
			call.Fun = ident(prelude.Render, call.Fun.Pos())
			c.shownArgs(call)
		case recv != nil && fn.Name() == "Update" && len(call.Args) == 1:
			a := call.Args[0]
			call.Args[0] = &ast.CallExpr{Fun: ident(prelude.Render, a.Pos()), Args: []ast.Expr{a}, Lparen: a.Pos(), Rparen: a.End()}
		}
		return true
	})
	if c.Trail == nil || c.Stmts == nil || len(c.Stmts.List) == 0 || c.Stmts.List[len(c.Stmts.List)-1] != ast.Stmt(c.Trail) {
		return
	}
	if _, call := c.Trail.X.(*ast.CallExpr); call && hasMethods(c.Types.TypeOf(c.Trail.X)) {
		x := c.Trail.X
		c.Trail.X = &ast.ParenExpr{Lparen: x.Pos(), X: x, Rparen: x.End()}
	}
}

// shownArgs hands the values a display shows as text to fmt's printer
// (see shownArg).
func (c *Cell) shownArgs(call *ast.CallExpr) {
	if call.Ellipsis.IsValid() {
		return
	}
	for i, a := range call.Args {
		if r := c.shownArg(a); r != nil {
			call.Args[i] = r
		}
	}
}

// hasMethods reports whether t is a cell type with methods (which a
// display of its values may use).
func hasMethods(t types.Type) bool {
	return typecheck.IsCellType(t) && types.NewMethodSet(types.NewPointer(t)).Len() > 0
}
