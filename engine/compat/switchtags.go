package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// switchTags: a switch whose tag reads a variable, a field or an element
// (switch state, switch m.st, switch xs[0]) and one of whose case
// expressions calls a function, which may change it (case advance():).
// Go evaluates the tag once, before the cases; yaegi v0.16.1 compares
// each case with the tag's place as it is then, so a case's call that
// changed it changed what the cases after it were compared with: a state
// machine took the branch of its next state, silently. The tag is read
// into a variable of the switch's own first:
//
//	switch state {        =>  switch _grundyTag1 := state; _grundyTag1 {
//
// A switch with an init statement is left as it is (switchInits moves
// the statement out of one whose tag is not a variable).
var switchTags = Pass{
	Name:     "switchtags",
	Run:      runSwitchTags,
	Kinds:    []ast.Node{(*ast.SwitchStmt)(nil)},
	Snippets: []string{"switch_tag_read_once"},
}

func runSwitchTags(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		sw, ok := cur.Node().(*ast.SwitchStmt)
		if !ok || sw.Tag == nil || sw.Init != nil || !readsPlace(sw.Tag) || !c.casesCall(sw) {
			return true
		}
		t := c.Types.TypeOf(sw.Tag)
		if t == nil {
			return true
		}
		pos := sw.Tag.Pos()
		name := c.Temp("Tag")
		def, use := ident(name, pos), ident(name, pos)
		v := types.NewVar(pos, c.Types.Pkg, name, types.Default(t))
		c.Types.Defs[def], c.Types.Uses[use] = v, v
		c.Types.Types[use] = types.TypeAndValue{Type: v.Type()}
		sw.Init = &ast.AssignStmt{Lhs: []ast.Expr{def}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{sw.Tag}}
		sw.Tag = use
		return true
	})
}

// readsPlace reports whether the tag reads a variable, a field, an
// element or what a pointer points to.
func readsPlace(e ast.Expr) bool {
	switch ast.Unparen(e).(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
		return true
	}
	return false
}

// casesCall reports whether a case expression of sw calls a function
// (not a conversion, len or cap).
func (c *Cell) casesCall(sw *ast.SwitchStmt) bool {
	for _, st := range sw.Body.List {
		for _, e := range st.(*ast.CaseClause).List {
			if contains(e, true, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				return ok && !c.Types.IsType(call.Fun) && !isIdent(call.Fun, "len") && !isIdent(call.Fun, "cap")
			}) {
				return true
			}
		}
	}
	return false
}
