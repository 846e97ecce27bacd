package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// genericAliases: generic type aliases (Go 1.24), type Set[T comparable]
// = map[T]struct{}. yaegi v0.16.1 crashes compiling the declaration
// (interp/gta.go, typeSpec: an alias takes no type parameters there). An
// alias is only another name, so the declaration goes and each use,
// Set[string], is written as the type it stands for,
// map[string]struct{}; the oracle keeps the alias for later cells, whose
// uses are written out the same way.
var genericAliases = Pass{
	Name:     "genericaliases",
	Run:      runGenericAliases,
	Kinds:    []ast.Node{(*ast.IndexExpr)(nil), (*ast.IndexListExpr)(nil), (*ast.TypeSpec)(nil)},
	Snippets: []string{"generics_type_alias"},
}

func runGenericAliases(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		e, ok := cur.Node().(ast.Expr)
		if !ok {
			return true
		}
		var id *ast.Ident
		switch x := e.(type) {
		case *ast.IndexExpr:
			id = aliasName(x.X)
		case *ast.IndexListExpr:
			id = aliasName(x.X)
		}
		if id == nil || !isGenericAlias(c.Types.ObjectOf(id)) {
			return true
		}
		t := c.Types.TypeOf(e)
		if t == nil {
			return true
		}
		tx, ok := c.TypeExpr(types.Unalias(t), e.Pos())
		if !ok {
			c.Fail(e.Pos(), "cannot write the type %s stands for here; write it out instead of the alias", ExprString(e))
			return false
		}
		cur.Replace(tx)
		return true
	})
	if c.Decls == nil {
		return
	}
	var keep []ast.Decl
	for _, d := range c.Decls.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			keep = append(keep, d)
			continue
		}
		var specs []ast.Spec
		for _, sp := range gd.Specs {
			if ts := sp.(*ast.TypeSpec); !(ts.Assign.IsValid() && ts.TypeParams != nil) {
				specs = append(specs, sp)
			}
		}
		if len(specs) > 0 {
			gd.Specs = specs
			keep = append(keep, gd)
		}
	}
	c.Decls.Decls = keep
}

// aliasName is the name in Set or pkg.Set.
func aliasName(e ast.Expr) *ast.Ident {
	switch x := e.(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// isGenericAlias reports whether obj is a generic type alias.
func isGenericAlias(obj types.Object) bool {
	tn, ok := obj.(*types.TypeName)
	if !ok || !tn.IsAlias() {
		return false
	}
	a, ok := tn.Type().(*types.Alias)
	return ok && a.TypeParams().Len() > 0
}
