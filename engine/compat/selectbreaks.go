package compat

import (
	"go/ast"
	"go/token"
)

// selectBreaks: break, continue and goto in the cases of a select.
// yaegi v0.16.1 does not make a select the target of a plain break (only
// loops and switches set the scope's break target, interp/cfg.go:419 and
// :548), so a break in a select case nested in an if left the enclosing
// loop; and it wires the last statement of each case to the end of the
// select (interp/cfg.go:1361 and :1372), overwriting where a break,
// continue or goto in that place goes, so "case <-done: break loop" only
// left the select (a loop waiting on done spun for ever). A plain break
// gets the select's label (a new one if it has none), and a branch that
// ends a case is put in a block of its own:
//
//	select { case <-done: break loop; case v := <-ch: if v == 0 { break } }
//	=>
//	_grundySel1: select { case <-done: { break loop }; case v := <-ch: if v == 0 { break _grundySel1 } }
var selectBreaks = Pass{
	Name:     "selectbreaks",
	Run:      runSelectBreaks,
	Kinds:    []ast.Node{(*ast.SelectStmt)(nil)},
	Snippets: []string{"select_break_targets"},
}

func runSelectBreaks(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		s, ok := cur.Node().(*ast.SelectStmt)
		if !ok {
			return true
		}
		var label *ast.Ident
		if l, isLabel := cur.Parent().(*ast.LabeledStmt); isLabel {
			label = l.Label
		}
		var plain []*ast.BranchStmt
		for _, cc := range s.Body.List {
			clause := cc.(*ast.CommClause)
			for _, st := range clause.Body {
				plain = append(plain, plainBranches(st, token.BREAK)...)
			}
			if n := len(clause.Body); n > 0 {
				if b, isBranch := clause.Body[n-1].(*ast.BranchStmt); isBranch {
					clause.Body[n-1] = &ast.BlockStmt{Lbrace: b.Pos(), List: []ast.Stmt{b}, Rbrace: b.End()}
				}
			}
		}
		if len(plain) == 0 {
			return true
		}
		if label == nil {
			label = ident(c.Temp("Sel"), s.Select)
			cur.Replace(&ast.LabeledStmt{Label: label, Colon: s.Select, Stmt: s})
		}
		for _, b := range plain {
			b.Label = ident(label.Name, b.Pos())
		}
		return true
	})
}

// plainBranches lists the unlabelled breaks or continues (tok) under n
// that leave, or continue, the statement n is in: none in nested loops or
// functions, nor, for breaks, in nested switches and selects.
func plainBranches(n ast.Node, tok token.Token) []*ast.BranchStmt {
	var out []*ast.BranchStmt
	ast.Inspect(n, func(x ast.Node) bool {
		switch b := x.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
			return false
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			return tok != token.BREAK
		case *ast.BranchStmt:
			if b.Tok == tok && b.Label == nil {
				out = append(out, b)
			}
		}
		return true
	})
	return out
}

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
