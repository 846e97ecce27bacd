package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// aliasOrder: an alias a cell declares before the type it names, in the
// same cell (type A = B, then type B int), is declared right after that
// type. yaegi v0.16.1 makes the alias a copy of B's type as far as it is
// declared then, without the methods B gets later: a.Neg() did not
// compile ("undefined selector: Neg"), nor did var s fmt.Stringer = a.
// Go does not care in which order a package declares its types. A group
// of type declarations with an alias in it is split, one a declaration.
var aliasOrder = Pass{
	Name:     "aliasorder",
	Run:      runAliasOrder,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"alias_declared_before_its_type"},
}

func runAliasOrder(c *Cell) {
	if c.Decls == nil {
		return
	}
	var decls []ast.Decl
	aliases := false
	for _, d := range c.Decls.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE || !hasAlias(gd) {
			decls = append(decls, d)
			continue
		}
		aliases = true
		for _, sp := range gd.Specs {
			decls = append(decls, &ast.GenDecl{Doc: gd.Doc, TokPos: sp.Pos(), Tok: token.TYPE, Specs: []ast.Spec{sp}})
		}
	}
	if !aliases {
		return
	}
	// Each alias after the last of the cell's types it names; a chain
	// (type A = B; type B = C; type C int) takes a round a link.
	for range len(decls) {
		moved := false
		for i := 0; i < len(decls); i++ {
			ts := aliasSpec(decls[i])
			if ts == nil {
				continue
			}
			last := -1
			ast.Inspect(ts.Type, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				tn, ok := c.Types.ObjectOf(id).(*types.TypeName)
				if !ok {
					return true
				}
				for j := i + 1; j < len(decls); j++ {
					if declaresType(decls[j], tn, c) && j > last {
						last = j
					}
				}
				return true
			})
			if last > i {
				d := decls[i]
				decls = append(decls[:i], decls[i+1:]...)
				decls = append(decls[:last], append([]ast.Decl{d}, decls[last:]...)...)
				moved = true
			}
		}
		if !moved {
			break
		}
	}
	c.Decls.Decls = decls
}

// hasAlias reports whether gd, a type declaration, declares an alias.
func hasAlias(gd *ast.GenDecl) bool {
	for _, sp := range gd.Specs {
		if sp.(*ast.TypeSpec).Assign.IsValid() {
			return true
		}
	}
	return false
}

// aliasSpec is d's alias spec when d declares one alias alone.
func aliasSpec(d ast.Decl) *ast.TypeSpec {
	gd, ok := d.(*ast.GenDecl)
	if !ok || gd.Tok != token.TYPE || len(gd.Specs) != 1 {
		return nil
	}
	if ts := gd.Specs[0].(*ast.TypeSpec); ts.Assign.IsValid() {
		return ts
	}
	return nil
}

// declaresType reports whether d declares tn.
func declaresType(d ast.Decl, tn *types.TypeName, c *Cell) bool {
	gd, ok := d.(*ast.GenDecl)
	if !ok || gd.Tok != token.TYPE {
		return false
	}
	for _, sp := range gd.Specs {
		if c.Types.Defs[sp.(*ast.TypeSpec).Name] == tn {
			return true
		}
	}
	return false
}
