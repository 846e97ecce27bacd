package compat

import (
	"go/ast"
	"go/token"
)

// clauseLabels: a labelled statement in a case of a switch or select.
// yaegi v0.16.1 declares labels only for the statements of a block
// (interp/cfg.go:219, blockStmt's pre-order), and a case's statements are
// not in one, so "case 1: loop: for ..." failed with "undefined: loop".
// The case's statements are put in a block.
var clauseLabels = Pass{
	Name:     "clauselabels",
	Run:      runClauseLabels,
	Kinds:    []ast.Node{(*ast.LabeledStmt)(nil)},
	Snippets: []string{"label_in_case_clause"},
}

func runClauseLabels(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		var body *[]ast.Stmt
		switch cl := cur.Node().(type) {
		case *ast.CaseClause:
			body = &cl.Body
		case *ast.CommClause:
			body = &cl.Body
		default:
			return true
		}
		for _, s := range *body {
			if _, ok := s.(*ast.LabeledStmt); ok {
				list, tail := *body, []ast.Stmt(nil)
				if b, ok := list[len(list)-1].(*ast.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
					list, tail = list[:len(list)-1], list[len(list)-1:] // stays last in the case
				}
				*body = append([]ast.Stmt{&ast.BlockStmt{Lbrace: list[0].Pos(), List: list, Rbrace: list[len(list)-1].End()}}, tail...)
				break
			}
		}
		return true
	})
}
