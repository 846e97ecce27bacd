package compat

import (
	"go/ast"
	"go/token"
)

// ptrInstanceVars: a local variable declared without a value as a pointer
// to an instance of a generic type with two or more type arguments (var
// memo *Memo[int, int], in a function or among a cell's statements) is
// declared "= nil". yaegi v0.16.1 has not made the instance's type where
// it checks such a declaration's pointer type (interp/typecheck.go:121,
// starExpr, on a nil type: a nil dereference), and makes it when the
// declaration has a value. An instance with one type argument (*Box[int])
// and declarations at package level work. The type is known from the
// syntax alone: an index list in a type is an instantiation.
// genericVars writes such declarations for "memo := NewMemo[int, int]()",
// so this pass runs after it.
var ptrInstanceVars = Pass{
	Name:     "ptrinstancevars",
	Run:      runPtrInstanceVars,
	Kinds:    []ast.Node{(*ast.IndexListExpr)(nil)},
	Snippets: []string{"generics_pointer_to_instance_var"},
}

func runPtrInstanceVars(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		ds, ok := cur.Node().(*ast.DeclStmt)
		if !ok {
			return true
		}
		gd, ok := ds.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return true
		}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			if len(vs.Values) > 0 || vs.Type == nil {
				continue
			}
			star, ok := ast.Unparen(vs.Type).(*ast.StarExpr)
			if !ok {
				continue
			}
			if _, ok := ast.Unparen(star.X).(*ast.IndexListExpr); !ok {
				continue
			}
			for _, n := range vs.Names {
				vs.Values = append(vs.Values, ident("nil", n.Pos()))
			}
		}
		return true
	})
}
