package compat

import (
	"go/ast"
	"go/token"
)

// varTypeNames: the names inside the type of a package-level variable.
// yaegi v0.16.1 orders a file's variables by what their declarations
// mention (interp/cfg.go:2460, getVarDependencies): every identifier in
// the declaration, the type's parameter, result, field and method names
// too, that names a global variable makes one a dependency, and one not
// declared in the same file is never ready, so the declaration fails with
// "variable definition loop" (interp/cfg.go:2454). A cell's top-level
// variables, and those its top-level statements declare (the a of "for a
// := 0; ..."), are global variables there: "var memo func(n int) int"
// after a cell with "n := 10" failed. The declaration (which has no value:
// see varInits) mentions no such name once
//
//   - function types lose their parameter and result names, which are no
//     part of the type (func(n int) int is func(int) int);
//   - struct and interface types, whose field and method names are, are
//     declared as aliases (type _grundyVarType_123 = struct{ n int }), whose
//     declarations yaegi does not order so.
var varTypeNames = Pass{
	Name:     "vartypenames",
	Run:      runVarTypeNames,
	Kinds:    []ast.Node{(*ast.FuncType)(nil), (*ast.StructType)(nil), (*ast.InterfaceType)(nil)},
	Snippets: []string{"c9_var_type_names_after_loop"},
}

func runVarTypeNames(c *Cell) {
	if c.Decls == nil {
		return
	}
	var aliases []ast.Decl
	named := map[string]bool{}
	for _, d := range c.Decls.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			continue
		}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			if vs.Type == nil || len(vs.Values) > 0 {
				continue
			}
			vs.Type = c.withoutNames(vs.Type, named, &aliases)
		}
	}
	if len(aliases) > 0 {
		c.Decls.Decls = append(aliases, c.Decls.Decls...)
	}
}

// withoutNames is t with its function types unnamed and its struct and
// interface types replaced by aliases, appended to aliases (once each: an
// alias is named by its type's source, so that a later cell's alias of
// another type takes another name, and one of the same type declares it
// again as it was).
func (c *Cell) withoutNames(t ast.Expr, named map[string]bool, aliases *[]ast.Decl) ast.Expr {
	root := &ast.ParenExpr{Lparen: t.Pos(), X: t, Rparen: t.End()}
	applyIn(root, func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.FuncType:
			unname(n.Params)
			unname(n.Results)
		case *ast.StructType, *ast.InterfaceType:
			if !hasNames(n) {
				return true
			}
			src := ExprString(n)
			name := hashedName("VarType", src)
			pos := n.Pos()
			cur.Replace(ident(name, pos))
			if named[name] {
				return true
			}
			named[name] = true
			*aliases = append(*aliases, &ast.GenDecl{Tok: token.TYPE, TokPos: pos, Specs: []ast.Spec{
				&ast.TypeSpec{Name: ident(name, pos), Assign: pos, Type: n.(ast.Expr)},
			}})
		}
		return true
	})
	return root.X
}

// unname drops a field list's names, keeping one field per name.
func unname(fl *ast.FieldList) {
	if fl == nil {
		return
	}
	var out []*ast.Field
	for _, f := range fl.List {
		n := max(len(f.Names), 1)
		for range n {
			out = append(out, &ast.Field{Type: f.Type})
		}
	}
	fl.List = out
}

// hasNames reports whether a struct or interface type names a field or a
// method.
func hasNames(n ast.Node) bool {
	var fl *ast.FieldList
	switch n := n.(type) {
	case *ast.StructType:
		fl = n.Fields
	case *ast.InterfaceType:
		fl = n.Methods
	}
	if fl == nil {
		return false
	}
	for _, f := range fl.List {
		if len(f.Names) > 0 {
			return true
		}
	}
	return false
}
