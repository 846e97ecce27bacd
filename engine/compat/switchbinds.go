package compat

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// switchBinds: a type switch without a binding, with a case of a type
// made of a type parameter ([]T, map[string]T, chan T, [2]T, in a generic
// function or a method of a generic type), is given one that each clause
// uses:
//
//	switch v.(type) { case []T: ... }  =>  switch _grundySB := v.(type) { case []T: _ = _grundySB; ... }
//
// yaegi v0.16.1 matches such a case by the type parameter's own type
// unless the switch binds the value: isSlice[H]([]H{{1}}) took no case,
// silently, where the bound switch takes it. Likewise by the alias any
// in a case's type ([]any, map[string]any, func(...any) string: a
// []any{1} took no case []any, where []interface{} was taken), which is
// written interface{} there, among a cell's statements too (where the
// interpreter compiles no binding of a switch).
var switchBinds = Pass{
	Name:     "switchbinds",
	Run:      runSwitchBinds,
	Kinds:    []ast.Node{(*ast.TypeSwitchStmt)(nil)},
	Snippets: []string{"generic_type_switch_param_composites"},
}

func runSwitchBinds(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		s, ok := cur.Node().(*ast.TypeSwitchStmt)
		if !ok {
			return true
		}
		for _, st := range s.Body.List {
			for _, e := range st.(*ast.CaseClause).List {
				if _, bare := e.(*ast.Ident); !bare {
					c.anyAsInterface(e)
				}
			}
		}
		es, ok := s.Assign.(*ast.ExprStmt)
		if !ok || !c.paramComposites(s) {
			return true
		}
		pos := es.Pos()
		name := c.Temp("SB")
		s.Assign = define(pos, []ast.Expr{ident(name, pos)}, es.X)
		for _, st := range s.Body.List {
			cc := st.(*ast.CaseClause)
			use := &ast.AssignStmt{Lhs: []ast.Expr{ident("_", cc.Colon)}, TokPos: cc.Colon, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(name, cc.Colon)}}
			cc.Body = append([]ast.Stmt{use}, cc.Body...)
		}
		return true
	})
}

// paramComposites reports whether a case of s is of a type made of a
// type parameter, not the parameter itself.
func (c *Cell) paramComposites(s *ast.TypeSwitchStmt) bool {
	for _, st := range s.Body.List {
		for _, e := range st.(*ast.CaseClause).List {
			t := c.Types.TypeOf(e)
			if _, param := types.Unalias(t).(*types.TypeParam); t != nil && !param && hasTypeParam(t) {
				return true
			}
		}
	}
	return false
}

// anyAsInterface writes the predeclared any as interface{} in the type
// expression e.
func (c *Cell) anyAsInterface(e ast.Expr) {
	astutil.Apply(e, nil, func(ac *astutil.Cursor) bool {
		if id, ok := ac.Node().(*ast.Ident); ok && id.Name == "any" && c.Types.ObjectOf(id) == types.Universe.Lookup("any") && ac.Parent() != nil {
			it := &ast.InterfaceType{Interface: id.Pos(), Methods: &ast.FieldList{Opening: id.Pos(), Closing: id.End()}}
			c.Types.Types[it] = c.Types.Types[id]
			ac.Replace(it)
		}
		return true
	})
}
