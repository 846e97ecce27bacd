package compat

import (
	"go/ast"
	"go/token"
	"go/types"

	"grundy/engine/typecheck"
)

// nativeIndexVars: a variable a cell's statements declare at top level
// with a value that indexes a native named type (x := p[0], p a
// games.Pos; w := v["a"], v a url.Values). yaegi v0.16.1 types top-level
// definitions in its global analysis (interp/gta.go, defineStmt), which
// cannot type an index into a binary package's named type and stops with
// "constant definition loop" (or a nil dereference when the index is
// part of a larger expression). Declared with its type, from the oracle,
// and assigned, the variable compiles:
//
//	var x int
//	x = p[0] ^ p[1]
var nativeIndexVars = Pass{
	Name:     "nativeindexvars",
	Run:      runNativeIndexVars,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil), (*ast.DeclStmt)(nil)},
	Snippets: []string{"native_index_top_level"},
}

func runNativeIndexVars(c *Cell) { c.eachTopLevel(c.nativeIndexVar) }

func (c *Cell) nativeIndexVar(s ast.Stmt) []ast.Stmt {
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE || len(s.Lhs) != len(s.Rhs) || !c.indexesNative(s.Rhs) {
			return []ast.Stmt{s}
		}
		for _, l := range s.Lhs {
			if _, ok := l.(*ast.Ident); !ok {
				return []ast.Stmt{s}
			}
		}
		if typed := c.declaredThenAssigned(s); typed != nil {
			return typed
		}
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			break
		}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			if vs.Type != nil || len(vs.Names) != 1 || !c.indexesNative(vs.Values) {
				continue
			}
			if v, ok := c.Types.Defs[vs.Names[0]].(*types.Var); ok {
				if t, ok := c.TypeExpr(v.Type(), vs.Names[0].Pos()); ok {
					vs.Type = t
				}
			}
		}
	}
	return []ast.Stmt{s}
}

// indexesNative reports whether one of es indexes a value of a named
// type of a native package (outside function literals, which yaegi
// types when it compiles them).
func (c *Cell) indexesNative(es []ast.Expr) bool {
	for _, e := range es {
		found := false
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IndexExpr:
				t := c.Types.TypeOf(n.X)
				if named, ok := types.Unalias(t).(*types.Named); ok && !typecheck.IsCellType(named) && named.Obj().Pkg() != nil {
					found = true
				}
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
