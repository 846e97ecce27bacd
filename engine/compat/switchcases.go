package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// switchCases: two defects of yaegi v0.16.1's expression switches.
//
// A switch without a tag runs as an if-else chain that tests only the
// first expression of each case (interp/cfg.go:2086, cond :=
// c.child[0]), so "case x < 0, x > 10:" missed every x above 10. The
// expressions of such a case are joined with ||, which tests them in
// order and stops at the first true one, as Go does:
//
//	case x < 0, x > 10:  =>  case x < 0 || x > 10:
//
// A switch whose tag is an interface compares it with each case value by
// converting the tag to the value's type (interp/run.go:3122, _case):
// "switch v { case 1, "x": }" with v an any panicked in reflect
// ("value of type interface {} cannot be converted to type int"). Such a
// switch becomes a switch without a tag over comparisons, the tag bound
// once (or named again, when it is a variable and the switch has an
// init statement):
//
//	switch v { case 1, "x": body }  =>  switch _grundyT1 := v; { case _grundyT1 == 1 || _grundyT1 == "x": body }
var switchCases = Pass{
	Name:     "switchcases",
	Run:      runSwitchCases,
	Kinds:    []ast.Node{(*ast.SwitchStmt)(nil)},
	Snippets: []string{"switch_case_lists_without_tag", "switch_on_interface_with_values"},
}

func runSwitchCases(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		s, ok := cur.Node().(*ast.SwitchStmt)
		if !ok {
			return true
		}
		if s.Tag != nil {
			c.interfaceTag(s)
		}
		if s.Tag == nil {
			for _, st := range s.Body.List {
				if cc, ok := st.(*ast.CaseClause); ok && len(cc.List) > 1 {
					cc.List = []ast.Expr{orAll(cc.List)}
				}
			}
		}
		return true
	})
}

// interfaceTag turns a switch on an interface into comparisons, when a
// case value is not an interface (a switch whose cases are all
// interfaces runs as in Go).
func (c *Cell) interfaceTag(s *ast.SwitchStmt) {
	t := c.Types.TypeOf(s.Tag)
	if t == nil || !types.IsInterface(t) {
		return
	}
	concrete := false
	for _, st := range s.Body.List {
		for _, e := range st.(*ast.CaseClause).List {
			if c.concreteValue(e) {
				concrete = true
			}
		}
	}
	if !concrete {
		return
	}
	var name string
	switch id, isIdent := ast.Unparen(s.Tag).(*ast.Ident); {
	case s.Init == nil:
		name = c.Temp("T")
		s.Init = define(s.Tag.Pos(), []ast.Expr{ident(name, s.Tag.Pos())}, s.Tag)
	case isIdent:
		name = id.Name
	default:
		return // rare: binding the tag would need a block around the switch, which would break its label
	}
	for _, st := range s.Body.List {
		cc := st.(*ast.CaseClause)
		for i, e := range cc.List {
			cc.List[i] = &ast.BinaryExpr{X: ident(name, e.Pos()), OpPos: e.Pos(), Op: token.EQL, Y: e}
		}
	}
	s.Tag = nil
}

// concreteValue reports whether e is a value of a type that is not an
// interface, or the conversion of one to an interface (any(P{1, 2}),
// which yaegi keeps as the value).
func (c *Cell) concreteValue(e ast.Expr) bool {
	if call, ok := ast.Unparen(e).(*ast.CallExpr); ok && len(call.Args) == 1 && c.Types.IsType(call.Fun) {
		e = call.Args[0]
	}
	t := c.Types.TypeOf(e)
	return t != nil && !types.IsInterface(t) && !isUntypedNil(t)
}

func isUntypedNil(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Kind() == types.UntypedNil
}

// orAll joins conditions with ||.
func orAll(conds []ast.Expr) ast.Expr {
	e := conds[0]
	for _, x := range conds[1:] {
		e = &ast.BinaryExpr{X: e, OpPos: x.Pos(), Op: token.LOR, Y: x}
	}
	return e
}
