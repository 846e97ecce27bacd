package compat

import (
	"go/ast"
	"go/token"
)

// switchCases: a case with a list of expressions that are not constants
// or variables (case id(1), id(2): ..., case x > 1, y > 2:). yaegi v0.16.1
// compares the tag with the first of them only, so the clause is taken
// for its first expression alone (a silent miss), and panics converting
// the values when the tag is an interface. The switch is written with the
// comparisons itself, in the order Go makes them:
//
//	switch _grundyST1 := tag; { case _grundyST1 == id(1) || _grundyST1 == id(2): }
//
// (a switch with an init statement in a block of its own, the statement
// first, unless it has a label; a tagless one gets its lists joined with
// ||).
var switchCases = Pass{
	Name:     "switchcases",
	Run:      runSwitchCases,
	Kinds:    []ast.Node{(*ast.SwitchStmt)(nil)},
	Snippets: []string{"switch_case_lists"},
}

func runSwitchCases(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		sw, ok := cur.Node().(*ast.SwitchStmt)
		if !ok || !c.caseListsFail(sw) {
			return true
		}
		if sw.Tag == nil {
			for _, cl := range sw.Body.List {
				cc := cl.(*ast.CaseClause)
				cc.List = joinOr(cc.List)
			}
			return true
		}
		if tv, ok := c.Types.Types[sw.Tag]; ok && tv.Value != nil {
			return true // a constant tag: switch 1 {...}
		}
		if _, labeled := cur.Parent().(*ast.LabeledStmt); labeled && sw.Init != nil {
			return true // the label must stay on the switch, the init in it
		}
		pos := sw.Tag.Pos()
		tag := ident(c.Temp("ST"), pos)
		for _, cl := range sw.Body.List {
			cc := cl.(*ast.CaseClause)
			for i, e := range cc.List {
				cc.List[i] = &ast.BinaryExpr{X: ident(tag.Name, e.Pos()), OpPos: e.Pos(), Op: token.EQL, Y: e}
			}
			cc.List = joinOr(cc.List)
		}
		init := sw.Init
		sw.Init, sw.Tag = define(pos, []ast.Expr{tag}, sw.Tag), nil
		if init != nil {
			cur.Replace(&ast.BlockStmt{Lbrace: sw.Pos(), List: []ast.Stmt{init, sw}, Rbrace: sw.End()})
		}
		return true
	})
}

// caseListsFail reports whether a case of sw lists two or more
// expressions of which one is neither a constant nor a variable.
func (c *Cell) caseListsFail(sw *ast.SwitchStmt) bool {
	for _, cl := range sw.Body.List {
		cc := cl.(*ast.CaseClause)
		if len(cc.List) < 2 {
			continue
		}
		for _, e := range cc.List {
			if tv, ok := c.Types.Types[e]; ok && tv.Value != nil {
				continue
			}
			if _, id := ast.Unparen(e).(*ast.Ident); id {
				continue
			}
			return true
		}
	}
	return false
}

// joinOr is the list's expressions joined with ||, as a list of one.
func joinOr(list []ast.Expr) []ast.Expr {
	if len(list) < 2 {
		return list
	}
	e := list[0]
	for _, x := range list[1:] {
		e = &ast.BinaryExpr{X: e, OpPos: x.Pos(), Op: token.LOR, Y: &ast.ParenExpr{Lparen: x.Pos(), X: x, Rparen: x.End()}}
	}
	return []ast.Expr{e}
}
