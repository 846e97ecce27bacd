package engine

import (
	"go/ast"
	"strconv"

	"golang.org/x/tools/go/ast/astutil"
)

// reflect.TypeFor (Go 1.22) is generic, and yaegi v0.16.1's symbol tables
// cannot hold a native package's generic function. A cell's
// reflect.TypeFor[T]() is written, before anything else reads the cell,
// as what Go documents it to be: reflect.TypeOf(new(T)).Elem(). The type
// oracle, the typed copies of generic functions and the passes then see
// what they know (reflectnames names the cell's types, reflectmethods
// refuses a cell interface's reflect.Type), as if the cell had written it.
// Functions read again from their text (parseFunc) are written so too.

// rewrittenAPIs are the generic APIs of native packages the engine runs by
// writing them as other code before the cell is read (see above).
var rewrittenAPIs = map[string]bool{"reflect.TypeFor": true}

// rewriteTypeFor writes each reflect.TypeFor[T]() in n as
// reflect.TypeOf(new(T)).Elem(), reflect being any of names (the names
// the cell knows package reflect by).
func rewriteTypeFor(n ast.Node, names map[string]bool) {
	if n == nil || len(names) == 0 {
		return
	}
	astutil.Apply(n, nil, func(c *astutil.Cursor) bool {
		call, ok := c.Node().(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			return true
		}
		ix, ok := call.Fun.(*ast.IndexExpr)
		if !ok {
			return true
		}
		sel, ok := ix.X.(*ast.SelectorExpr)
		if !ok || !rewrittenAPIs["reflect."+sel.Sel.Name] {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok || !names[pkg.Name] {
			return true
		}
		newT := &ast.CallExpr{Fun: &ast.Ident{NamePos: ix.Lbrack, Name: "new"}, Lparen: ix.Lbrack, Args: []ast.Expr{ix.Index}, Rparen: ix.Rbrack}
		typeOf := &ast.CallExpr{Fun: &ast.SelectorExpr{X: pkg, Sel: &ast.Ident{NamePos: sel.Sel.NamePos, Name: "TypeOf"}}, Lparen: ix.Lbrack, Args: []ast.Expr{newT}, Rparen: ix.Rbrack}
		c.Replace(&ast.CallExpr{Fun: &ast.SelectorExpr{X: typeOf, Sel: &ast.Ident{NamePos: call.Lparen, Name: "Elem"}}, Lparen: call.Lparen, Rparen: call.Rparen})
		return true
	})
}

// reflectNames are the names a cell with imports may call package reflect
// by: those importing it, the session's, and reflect itself unless that
// name is another package's (the engine imports reflect by its name when
// a cell uses it).
func (it *Interp) reflectNames(imports *ast.File) map[string]bool {
	names := map[string]bool{}
	other := false
	for name, path := range it.pkgs {
		if path == "reflect" {
			names[name] = true
		} else if name == "reflect" {
			other = true
		}
	}
	if imports != nil {
		for _, is := range imports.Imports {
			path, _ := strconv.Unquote(is.Path.Value)
			name := "reflect"
			if is.Name != nil {
				name = is.Name.Name
			}
			if path == "reflect" {
				names[name] = true
			} else if name == "reflect" {
				other = true
			}
		}
	}
	if !other {
		names["reflect"] = true
	}
	return names
}
