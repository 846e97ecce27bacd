package engine

import (
	"go/ast"
	"strconv"

	"grundy/engine/compat"

	"golang.org/x/tools/go/ast/astutil"
)

// reflect.TypeFor (Go 1.22) is generic, and yaegi v0.16.1's symbol tables
// cannot hold a native package's generic function. A cell's
// reflect.TypeFor[T]() is written, before anything else reads the cell,
// as what Go documents it to be: reflect.TypeOf(new(T)).Elem(). The type
// oracle, the typed copies of generic functions and the passes then see
// what they know (reflectnames names the cell's types, reflectmethods
// refuses a cell interface's reflect.Type), as if the cell had written it.
// Functions read again from their text (parseFunc) are written so too,
// and so is reflect.TypeOf((*T)(nil)) in a generic function, T its type
// parameter, as reflect.TypeOf(new(T)) (nilPointerTypeOfs).

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
		if fd, ok := c.Node().(*ast.FuncDecl); ok {
			nilPointerTypeOfs(fd, names)
		}
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

// nilPointerTypeOfs writes reflect.TypeOf((*T)(nil)) in a generic
// function or method, T one of its type parameters, the older idiom for
// the type T (with .Elem()), as reflect.TypeOf(new(T)): the same type, a
// *T, which yaegi v0.16.1 compiles (it could not compile the conversion
// of nil to *T there: "cannot compile this"). Elsewhere the cell's own
// text stays, which messages quote.
func nilPointerTypeOfs(fd *ast.FuncDecl, names map[string]bool) {
	params := map[string]bool{}
	for _, id := range compat.FuncTypeParams(fd) {
		params[id.Name] = true
	}
	if len(params) == 0 || fd.Body == nil {
		return
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 1 {
			nilPointerTypeOf(call, names, params)
		}
		return true
	})
}

// nilPointerTypeOf writes call, if it is reflect.TypeOf((*T)(nil)) with T
// among params, as reflect.TypeOf(new(T)).
func nilPointerTypeOf(call *ast.CallExpr, names, params map[string]bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "TypeOf" {
		return
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || !names[pkg.Name] {
		return
	}
	conv, ok := call.Args[0].(*ast.CallExpr)
	if !ok || len(conv.Args) != 1 {
		return
	}
	if id, ok := conv.Args[0].(*ast.Ident); !ok || id.Name != "nil" {
		return
	}
	paren, ok := conv.Fun.(*ast.ParenExpr)
	if !ok {
		return
	}
	star, ok := paren.X.(*ast.StarExpr)
	if !ok {
		return
	}
	if t, ok := star.X.(*ast.Ident); !ok || !params[t.Name] {
		return
	}
	call.Args[0] = &ast.CallExpr{Fun: &ast.Ident{NamePos: conv.Pos(), Name: "new"}, Lparen: conv.Lparen, Args: []ast.Expr{star.X}, Rparen: conv.Rparen}
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
