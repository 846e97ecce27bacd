package compat

import (
	"go/ast"
	"go/token"
)

// emptyTypeCases: a clause of a type switch that binds a variable
// (switch v := x.(type)) with an empty body gets the statement _ = v.
// yaegi v0.16.1 chains a clause to its body's first node
// (interp/cfg.go, the switchStmt case: c.tnext = body.start), which an
// empty body of a type switch with a binding does not have, so the
// clause ended the function it ran in: case string: with nothing in it
// left the loop, or the function, where Go goes on after the switch
// (an empty default was refused: "cannot compile").
var emptyTypeCases = Pass{
	Name:     "emptytypecases",
	Run:      runEmptyTypeCases,
	Kinds:    []ast.Node{(*ast.TypeSwitchStmt)(nil)},
	Snippets: []string{"type_switch_empty_clauses"},
}

func runEmptyTypeCases(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			s, ok := n.(*ast.TypeSwitchStmt)
			if !ok {
				return true
			}
			as, ok := s.Assign.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 {
				return true
			}
			v, ok := as.Lhs[0].(*ast.Ident)
			if !ok || v.Name == "_" {
				return true
			}
			for _, st := range s.Body.List {
				if cc := st.(*ast.CaseClause); len(cc.Body) == 0 {
					pos := cc.Colon
					cc.Body = []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{ident("_", pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(v.Name, pos)}}}
				}
			}
			return true
		})
	}
}
