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
// first, before the switch's label; a tagless one gets its lists joined
// with ||).
var switchCases = Pass{
	Name:     "switchcases",
	Run:      runSwitchCases,
	Kinds:    []ast.Node{(*ast.SwitchStmt)(nil)},
	Snippets: []string{"switch_case_lists", "switch_case_lists_without_tag"},
}

func runSwitchCases(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		sw := c.switchAt(cur)
		if sw == nil || !c.caseListsFail(sw) {
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
		same := func(e ast.Expr) ast.Expr { return e }
		c.untag(cur, sw, same, same)
		return true
	})
}

// switchAt is the switch statement at the cursor for untag: the node
// itself, or, when untag needs a block for the init statement and the
// tag's temporary (the switch has both a label and an init, and a tag
// other than a variable), the one the labeled statement at the cursor
// labels (untag puts the init before the label), unless a goto names
// the label (it would no longer run the init); else nil.
func (c *Cell) switchAt(cur Cursor) *ast.SwitchStmt {
	needsBlock := func(sw *ast.SwitchStmt) bool {
		_, plain := ast.Unparen(sw.Tag).(*ast.Ident)
		return sw.Init != nil && sw.Tag != nil && !plain
	}
	switch n := cur.Node().(type) {
	case *ast.SwitchStmt:
		if _, labeled := cur.Parent().(*ast.LabeledStmt); labeled && needsBlock(n) {
			return nil
		}
		return n
	case *ast.LabeledStmt:
		if sw, ok := n.Stmt.(*ast.SwitchStmt); ok && needsBlock(sw) && !c.gotoTarget(n.Label.Name) {
			return sw
		}
	}
	return nil
}

// gotoTarget reports whether a goto of the cell names label.
func (c *Cell) gotoTarget(label string) bool {
	for _, root := range c.Roots() {
		if contains(root, false, func(n ast.Node) bool {
			b, ok := n.(*ast.BranchStmt)
			return ok && b.Tok == token.GOTO && b.Label != nil && b.Label.Name == label
		}) {
			return true
		}
	}
	return false
}

// untag writes sw (at cur, or labeled at cur) without its tag, as
// comparisons of each case's values with the tag, joined with ||, in
// Go's order:
//
//	{ init; L: switch _grundyST1 := t(tag); { case _grundyST1 == v(a) || _grundyST1 == v(b): } }
//
// (the block only when sw has an init; t and v are the forms the tag and
// the case values are compared in). A tag that is a variable is compared
// as it is, with no temporary, and the switch keeps its init.
func (c *Cell) untag(cur Cursor, sw *ast.SwitchStmt, t, v func(ast.Expr) ast.Expr) {
	pos := sw.Tag.Pos()
	tagOf := func(pos token.Pos) ast.Expr { return t(ident(sw.Tag.(*ast.Ident).Name, pos)) }
	if _, plain := sw.Tag.(*ast.Ident); !plain {
		tag := c.Temp("ST")
		tagOf = func(pos token.Pos) ast.Expr { return ident(tag, pos) }
		init := sw.Init
		sw.Init = define(pos, []ast.Expr{ident(tag, pos)}, t(sw.Tag))
		if init != nil {
			stmt := cur.Node().(ast.Stmt)
			defer cur.Replace(&ast.BlockStmt{Lbrace: stmt.Pos(), List: []ast.Stmt{init, stmt}, Rbrace: stmt.End()})
		}
	}
	for _, cl := range sw.Body.List {
		cc := cl.(*ast.CaseClause)
		for i, e := range cc.List {
			cc.List[i] = &ast.BinaryExpr{X: tagOf(e.Pos()), OpPos: e.Pos(), Op: token.EQL, Y: v(e)}
		}
		cc.List = joinOr(cc.List)
	}
	sw.Tag = nil
}

// caseListsFail reports whether a case of sw lists two or more
// expressions of which one is neither a constant nor a variable, or, sw
// having no tag, any two (yaegi runs such a switch as an if-else chain
// on each case's first expression, interp/cfg.go:2086: case ok1, ok2:
// with two bool variables tested ok1 alone).
func (c *Cell) caseListsFail(sw *ast.SwitchStmt) bool {
	for _, cl := range sw.Body.List {
		cc := cl.(*ast.CaseClause)
		if len(cc.List) < 2 {
			continue
		}
		if sw.Tag == nil {
			return true
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
