package compat

import (
	"go/ast"
	"go/token"
)

// emptyTypeCases: an empty clause of a type switch gets a statement: _ =
// v where the switch binds a variable (switch v := x.(type)), _ = 0
// where it does not.
// yaegi v0.16.1 chains a clause to its body's first node
// (interp/cfg.go, the switchStmt case: c.tnext = body.start), which an
// empty body of a type switch with a binding does not have, so the
// clause ended the function it ran in: case string: with nothing in it
// left the loop, or the function, where Go goes on after the switch
// (an empty default was refused, with a binding or without: "cannot
// compile").
var emptyTypeCases = Pass{
	Name:     "emptytypecases",
	Run:      runEmptyTypeCases,
	Kinds:    []ast.Node{(*ast.TypeSwitchStmt)(nil)},
	Snippets: []string{"type_switch_empty_clauses", "type_switch_empty_default"},
}

func runEmptyTypeCases(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			s, ok := n.(*ast.TypeSwitchStmt)
			if !ok {
				return true
			}
			// _ = v, or without a binding _ = 0.
			value := func(pos token.Pos) ast.Expr { return &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "0"} }
			if as, ok := s.Assign.(*ast.AssignStmt); ok && len(as.Lhs) == 1 {
				if v, ok := as.Lhs[0].(*ast.Ident); ok && v.Name != "_" {
					value = func(pos token.Pos) ast.Expr { return ident(v.Name, pos) }
				}
			}
			for _, st := range s.Body.List {
				if cc := st.(*ast.CaseClause); len(cc.Body) == 0 {
					pos := cc.Colon
					cc.Body = []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{ident("_", pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{value(pos)}}}
				}
			}
			return true
		})
	}
}

// multiTypeCases: in a clause of a type switch binding a variable that
// lists several types (case bool, nil:), where the variable has the
// subject's type, the variable is defined again from the subject, when
// that is a name: t := v; _ = t. yaegi v0.16.1 leaves the variable as it
// was when the subject is nil (interp/run.go, typeSwitch: a nil value is
// not assigned), so in a loop a null after true printed true again.
var multiTypeCases = Pass{
	Name:     "multitypecases",
	Run:      runMultiTypeCases,
	Kinds:    []ast.Node{(*ast.TypeSwitchStmt)(nil)},
	Snippets: []string{"type_switch_multi_type_clauses"},
}

func runMultiTypeCases(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			s, ok := n.(*ast.TypeSwitchStmt)
			if !ok {
				return true
			}
			x, bind := typeSwitchSubject(s)
			subject, ok := ast.Unparen(x).(*ast.Ident)
			if !ok || bind == nil || bind.Name == "_" || subject.Name == bind.Name {
				return true
			}
			for _, st := range s.Body.List {
				cc := st.(*ast.CaseClause)
				if len(cc.List) < 2 {
					continue
				}
				pos := cc.Colon
				cc.Body = append([]ast.Stmt{
					define(pos, []ast.Expr{ident(bind.Name, pos)}, ident(subject.Name, pos)),
					&ast.AssignStmt{Lhs: []ast.Expr{ident("_", pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(bind.Name, pos)}},
				}, cc.Body...)
			}
			return true
		})
	}
}
