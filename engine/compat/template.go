package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// templateMethods: t.Execute(w, data) and t.ExecuteTemplate(w, name, data)
// of text/template and html/template, with data of a type that has cell
// types with exported methods in it. yaegi v0.16.1 builds cell types with
// reflect (interp/type.go, refType), which gives them no methods, and
// templates find methods by reflect: {{.Greeting}} failed with "can't
// evaluate field Greeting" once the template had written what came
// before it. The template goes through grundyrt's TextTemplate (or
// HTMLTemplate) with those methods' names, which stops the cell before the
// template runs when the template names one, saying what to write
// instead.
var templateMethods = Pass{
	Name:     "templatemethods",
	Run:      runTemplateMethods,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"template_cell_method_refused"},
}

func runTemplateMethods(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || call.Ellipsis.IsValid() {
			return true
		}
		fn := c.callee(call)
		sel, isSel := call.Fun.(*ast.SelectorExpr)
		if fn == nil || !isSel || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() == nil {
			return true
		}
		var check string
		switch fn.Pkg().Path() {
		case "text/template":
			check = prelude.RTTextTemplate
		case "html/template":
			check = prelude.RTHTMLTemplate
		default:
			return true
		}
		data := -1
		switch {
		case fn.Name() == "Execute" && len(call.Args) == 2:
			data = 1
		case fn.Name() == "ExecuteTemplate" && len(call.Args) == 3:
			data = 2
		default:
			return true
		}
		methods := cellMethodNames(c.Types.TypeOf(call.Args[data]))
		if len(methods) == 0 {
			return true
		}
		lit := &ast.BasicLit{ValuePos: sel.X.Pos(), Kind: token.STRING, Value: strconv.Quote(strings.Join(methods, "\n"))}
		sel.X = &ast.CallExpr{Fun: rtSelector(check, sel.X.Pos()), Lparen: sel.X.Pos(), Args: []ast.Expr{sel.X, lit}, Rparen: sel.X.End()}
		return true
	})
}

// cellMethodNames are the exported methods ("Name main.T") of the cell
// types in t (through pointers, elements and fields).
func cellMethodNames(t types.Type) []string {
	var out []string
	eachNamed(t, func(u *types.Named) {
		if !typecheck.IsCellType(u) || types.IsInterface(u) {
			return
		}
		ms := types.NewMethodSet(types.NewPointer(u))
		for i := range ms.Len() {
			if m := ms.At(i).Obj(); m.Exported() {
				out = append(out, m.Name()+" "+reflectName(u, false))
			}
		}
	})
	sort.Strings(out)
	return out
}
