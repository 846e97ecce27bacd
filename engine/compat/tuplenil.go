package compat

import (
	"go/ast"
	"go/token"
)

// tupleNil: an untyped nil among the values of a tuple assignment
// ("g, n = nil, 0"). yaegi v0.16.1 panics running it with "reflect:
// New(nil)": it makes the temporary for each value from the value's
// type, and nil's has none (a single "g = nil" takes the variable's
// type). The nil gets the type of its place:
//
//	g, n = *new([]int), 0
var tupleNil = Pass{
	Name:     "tuplenil",
	Run:      runTupleNil,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"tuple_assignment_with_nil"},
}

func runTupleNil(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		as, ok := cur.Node().(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) < 2 || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, r := range as.Rhs {
			if !isIdent(ast.Unparen(r), "nil") || isIdent(as.Lhs[i], "_") {
				continue
			}
			t := c.Types.TypeOf(as.Lhs[i])
			if t == nil {
				continue
			}
			if tx, ok := c.TypeExpr(t, r.Pos()); ok {
				as.Rhs[i] = c.zeroOf(t, tx, r.Pos())
			}
		}
		return true
	})
}
