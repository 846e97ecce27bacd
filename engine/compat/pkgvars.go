package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// pkgVars: a package variable named from a cell, pkg.Name. yaegi v0.16.1
// compiles such a selector as a constant holding the variable's value when
// the cell was compiled (traefik/yaegi#1623, #1632), so "solve.Workers =
// 1" was refused as an assignment to a constant and "solve.Workers + 0"
// read a stale value. Through the variable's address both work: targets
// of assignments (and ++, --) of any type, and reads of basic kinds, the
// ones yaegi folds, become *&pkg.Name.
var pkgVars = Pass{
	Name:     "pkgvars",
	Run:      runPkgVars,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil)},
	Snippets: []string{"pkgvar_assign", "pkgvar_memory_limit"},
}

func runPkgVars(c *Cell) {
	targets := map[*ast.SelectorExpr]bool{}
	addressed := map[*ast.SelectorExpr]bool{} // &pkg.Name needs no help
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.UnaryExpr:
				if sel, ok := n.X.(*ast.SelectorExpr); ok && n.Op == token.AND {
					addressed[sel] = true
				}
			case *ast.AssignStmt:
				if n.Tok != token.DEFINE {
					for _, l := range n.Lhs {
						if sel, ok := l.(*ast.SelectorExpr); ok {
							targets[sel] = true
						}
					}
				}
			case *ast.IncDecStmt:
				if sel, ok := n.X.(*ast.SelectorExpr); ok {
					targets[sel] = true
				}
			}
			return true
		})
	}
	c.Apply(func(cur Cursor) bool {
		sel, ok := cur.Node().(*ast.SelectorExpr)
		if !ok || addressed[sel] {
			return true
		}
		v := c.packageVar(sel)
		if v == nil {
			return true
		}
		if _, basic := v.Type().Underlying().(*types.Basic); basic || targets[sel] {
			cur.Replace(&ast.StarExpr{Star: sel.Pos(), X: &ast.UnaryExpr{OpPos: sel.Pos(), Op: token.AND, X: sel}})
		}
		return true
	})
}

// packageVar is the package variable sel names, or nil.
func (c *Cell) packageVar(sel *ast.SelectorExpr) *types.Var {
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil
	}
	if _, isPkg := c.Types.ObjectOf(x).(*types.PkgName); !isPkg {
		return nil
	}
	v, _ := c.Types.ObjectOf(sel.Sel).(*types.Var)
	if v != nil && v.IsField() {
		return nil // an embedded field's type (struct{ time.Duration }): go/types names the field there
	}
	return v
}
