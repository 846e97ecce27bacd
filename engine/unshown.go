package engine

import (
	"fmt"
	"go/ast"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/stdlib"

	"grundy/engine/symbols"
)

// Only a cell's last expression is shown. A call in the middle of a cell
// whose result is a figure, a table or another rich value (plots.Heatmap,
// t.Check, ...) drops that value, as Go would; the cell then says so once
// per call, with its line and how to show it, instead of dropping the
// picture silently. Scripts get the same note, for their statements and
// the body of their func main.

// richMethods are the display methods that make a value worth showing
// (String alone does not: errors and positions have one).
var richMethods = []string{"HTML", "Markdown", "LaTeX", "SVG", "PNG", "JPEG"}

// unshownNotes lists the notes for the cell src after it ran: resolving
// after the run lets a call on a variable the cell itself defined (t, _ :=
// solve.Values(...); t.Check(...)) be typed from the session.
func (it *Interp) unshownNotes(src string, shown bool) []string {
	pc, err := parseCell(it.fset, it.name, src)
	if err != nil {
		return nil
	}
	var roots []ast.Node
	if pc.stmts != nil {
		roots = append(roots, pc.stmts)
	}
	if pc.decls != nil {
		for _, d := range pc.decls.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" && fd.Body != nil {
				roots = append(roots, fd.Body)
			}
		}
	}
	var globals map[string]reflect.Value
	var notes []string
	for _, root := range roots {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ExprStmt:
				call, ok := n.X.(*ast.CallExpr)
				if !ok || shown && n == pc.trail {
					return true
				}
				if globals == nil {
					globals = it.globalValues()
				}
				if what := it.droppedKind(call, globals); what != "" {
					line := it.fset.Position(n.Pos()).Line
					notes = append(notes, fmt.Sprintf("note: line %d: the %s from %s is not shown (only a cell's last expression is); show it with display.Show(...), or end the cell with it", line, what, callName(call)))
				}
			}
			return true
		})
	}
	return notes
}

// droppedKind names the rich value a call returns ("figure", "table"),
// or "" when it returns none or its type cannot be known.
func (it *Interp) droppedKind(call *ast.CallExpr, globals map[string]reflect.Value) string {
	var fn reflect.Type
	switch f := call.Fun.(type) {
	case *ast.SelectorExpr:
		x, ok := f.X.(*ast.Ident)
		if !ok {
			return ""
		}
		if path, ok := it.pkgs[x.Name]; ok {
			key, ok := symbolsHave(path)
			if !ok {
				return ""
			}
			v, ok := symbols.Symbols[key][f.Sel.Name]
			if !ok {
				v, ok = stdlib.Symbols[key][f.Sel.Name]
			}
			if !ok || !v.IsValid() || v.Kind() != reflect.Func {
				return ""
			}
			fn = v.Type()
		} else if v, ok := globals[x.Name]; ok && v.IsValid() {
			m, ok := v.Type().MethodByName(f.Sel.Name)
			if !ok {
				return ""
			}
			fn = m.Type
		}
	case *ast.Ident:
		if v, ok := globals[f.Name]; ok && v.IsValid() && v.Kind() == reflect.Func {
			fn = v.Type()
		} else if d, ok := it.funcs[f.Name]; ok && d.decl.Type.Results != nil && len(d.decl.Type.Results.List) > 0 {
			// A function a cell declared: read its first result's type.
			if t := it.libraryType(d.decl.Type.Results.List[0].Type); t != nil {
				return richKind(t)
			}
		}
	}
	if fn == nil || fn.NumOut() == 0 {
		return ""
	}
	return richKind(fn.Out(0))
}

// libraryType is the type a cell writes as pkg.T or *pkg.T for a library
// or standard type, or nil.
func (it *Interp) libraryType(e ast.Expr) reflect.Type {
	if star, ok := e.(*ast.StarExpr); ok {
		if t := it.libraryType(star.X); t != nil {
			return reflect.PointerTo(t)
		}
		return nil
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil
	}
	key, ok := symbolsHave(it.pkgs[pkg.Name])
	if !ok {
		return nil
	}
	v, ok := symbols.Symbols[key][sel.Sel.Name]
	if !ok {
		v, ok = stdlib.Symbols[key][sel.Sel.Name]
	}
	// The symbol tables hold a type T as a nil *T.
	if !ok || !v.IsValid() || v.Kind() != reflect.Pointer || !v.IsNil() {
		return nil
	}
	return v.Type().Elem()
}

// richKind names a rich type for the note, "" for any other type.
func richKind(t reflect.Type) string {
	rich := false
	for _, m := range richMethods {
		if _, ok := t.MethodByName(m); ok {
			rich = true
		}
	}
	if !rich {
		return ""
	}
	name := t.String()
	switch {
	case strings.HasSuffix(name, ".Figure"):
		return "figure"
	case strings.HasSuffix(name, ".Table"), strings.HasSuffix(name, ".ValueTable"):
		return "table"
	case strings.HasSuffix(name, ".Comparison"):
		return "check"
	}
	return name + " value"
}

// callName is the called function as written, without its arguments.
func callName(call *ast.CallExpr) string {
	s := exprString(call.Fun)
	if len(call.Args) > 0 {
		return s + "(...)"
	}
	return s + "()"
}
