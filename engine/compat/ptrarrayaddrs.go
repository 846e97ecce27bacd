package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// ptrArrayAddrs: the address of an element of an array reached through a
// pointer (&p[i], &b[i] in a method on *Board with type Board [9]int8,
// &p[i].X) is taken through the array itself: &(*p)[i]. yaegi v0.16.1's
// type check of & accepts an index of an array or a map only, not of a
// pointer to an array (interp/typecheck.go:104), and refused the cell
// with "cannot take address of int8 [kind: indexExpr]". So for the
// address a method with a pointer receiver takes (g := pa[1].Inc, defer
// pa[0].Inc(); a call where it stands compiled).
var ptrArrayAddrs = Pass{
	Name:     "ptrarrayaddrs",
	Run:      runPtrArrayAddrs,
	Kinds:    []ast.Node{(*ast.UnaryExpr)(nil), (*ast.SelectorExpr)(nil)},
	Snippets: []string{"address_of_pointer_array_element"},
}

func runPtrArrayAddrs(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.UnaryExpr:
				if x.Op == token.AND {
					c.derefArrayPointers(x.X)
				}
			case *ast.SelectorExpr:
				if c.takesAddress(x) {
					c.derefArrayPointers(x.X) // (the implicit &: g := pa[1].Inc, defer pa[0].Inc())
				}
			}
			return true
		})
	}
}

// derefArrayPointers writes (*p)[i] for each p[i] with p a pointer to an
// array on the path & takes the address of.
func (c *Cell) derefArrayPointers(e ast.Expr) {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			if p, ok := c.Types.TypeOf(x.X).(*types.Pointer); ok {
				if _, array := p.Elem().Underlying().(*types.Array); array {
					x.X = &ast.ParenExpr{Lparen: x.X.Pos(), X: &ast.StarExpr{Star: x.X.Pos(), X: x.X}, Rparen: x.X.End()}
				}
				return
			}
			e = x.X
		default:
			return
		}
	}
}
