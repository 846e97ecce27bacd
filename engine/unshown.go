package engine

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
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

// unshownNote is a note for one call whose rich result a cell drops;
// trail says the call ends the cell (its value is shown, unless it has
// none to show).
type unshownNote struct {
	text  string
	trail bool
}

// unshownNotes lists the notes for a cell's calls that drop a rich value,
// from the cell's types: its top-level calls, and those in the body of a
// script's func main.
func (it *Interp) unshownNotes(pc *parsedCell) []unshownNote {
	var roots []ast.Node
	if pc.Stmts != nil {
		roots = append(roots, pc.Stmts)
	}
	if pc.Decls != nil {
		for _, d := range pc.Decls.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" && fd.Body != nil {
				roots = append(roots, fd.Body)
			}
		}
	}
	var notes []unshownNote
	for _, root := range roots {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ExprStmt:
				call, ok := n.X.(*ast.CallExpr)
				if !ok {
					return true
				}
				t := it.info.TypeOf(call)
				if tu, ok := t.(*types.Tuple); ok && tu.Len() > 0 {
					t = tu.At(0).Type()
				}
				if what := richKind(t); what != "" {
					line := it.fset.Position(n.Pos()).Line
					notes = append(notes, unshownNote{trail: n == pc.Trail,
						text: fmt.Sprintf("note: line %d: the %s from %s is not shown (only a cell's last expression is); show it with display.Show(...), or end the cell with it", line, what, callName(call))})
				}
			}
			return true
		})
	}
	return notes
}

// richKind names a rich type for the note, "" for any other type.
func richKind(t types.Type) string {
	if t == nil {
		return ""
	}
	ms := types.NewMethodSet(t)
	if _, ok := t.(*types.Pointer); !ok {
		ms = types.NewMethodSet(types.NewPointer(t))
	}
	rich := false
	for _, m := range richMethods {
		if ms.Lookup(nil, m) != nil {
			rich = true
		}
	}
	if !rich {
		return ""
	}
	name := types.TypeString(t, func(p *types.Package) string { return p.Name() })
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
