package compat

import (
	"go/ast"
	"go/token"
)

// switchInits: a switch with an init statement whose tag is an expression
// other than a variable (switch x := 5; x * 2 {...}, switch y := f(); y[0]
// {...}). yaegi v0.16.1 links the init statement straight to the case
// clauses (interp/cfg.go:2064, n.child[0].tnext = sbn.start), so the tag
// is never evaluated and the cases are compared with its zero value: the
// switch silently took default, in functions as at top level. A variable
// tag needs no evaluation, so only other tags are written with the init
// statement before the switch, in a block of its own (before the
// switch's label, where it has one):
//
//	{ x := 5; L: switch x * 2 {...} }
//
// Passes before this one that rewrite a switch (switchcases, untag) leave
// no such switch behind. A switch with no clauses (switch f() {}) is
// skipped whole (interp/cfg.go:2017, "Switch is empty"), its tag's calls
// too: it is written as its init statement and "_ = tag".
var switchInits = Pass{
	Name:     "switchinits",
	Run:      runSwitchInits,
	Kinds:    []ast.Node{(*ast.SwitchStmt)(nil)},
	Snippets: []string{"switch_init_with_tag_expression", "switch_init_goto_refused"},
}

func runSwitchInits(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		if sw, ok := cur.Node().(*ast.SwitchStmt); ok && len(sw.Body.List) == 0 && sw.Tag != nil {
			if _, labeled := cur.Parent().(*ast.LabeledStmt); !labeled {
				list := []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{ident("_", sw.Tag.Pos())}, TokPos: sw.Tag.Pos(), Tok: token.ASSIGN, Rhs: []ast.Expr{sw.Tag}}}
				if sw.Init != nil {
					list = append([]ast.Stmt{sw.Init}, list...)
				}
				cur.Replace(&ast.BlockStmt{Lbrace: sw.Pos(), List: list, Rbrace: sw.End()})
				return true
			}
		}
		if l, ok := cur.Node().(*ast.LabeledStmt); ok && c.gotoTarget(l.Label.Name) {
			if sw, ok := l.Stmt.(*ast.SwitchStmt); ok && c.initSkipsTag(sw) {
				c.Fail(l.Pos(), "a switch with an init statement and a tag other than a variable, labeled %s, which a goto names: write the init statement before the label and the switch without it", userLabel(l.Label))
				return false
			}
		}
		sw := c.switchAt(cur)
		if sw == nil || !c.initSkipsTag(sw) {
			return true
		}
		stmt := cur.Node().(ast.Stmt)
		init := sw.Init
		sw.Init = nil
		cur.Replace(&ast.BlockStmt{Lbrace: stmt.Pos(), List: []ast.Stmt{init, stmt}, Rbrace: stmt.End()})
		return true
	})
}

// initSkipsTag reports whether sw has an init statement and a tag the
// interpreter would have to evaluate (not a variable, not a constant).
func (c *Cell) initSkipsTag(sw *ast.SwitchStmt) bool {
	if sw.Init == nil || sw.Tag == nil {
		return false
	}
	if _, plain := ast.Unparen(sw.Tag).(*ast.Ident); plain {
		return false
	}
	if tv, ok := c.Types.Types[sw.Tag]; ok && tv.Value != nil {
		return false
	}
	return true
}
