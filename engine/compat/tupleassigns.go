package compat

import (
	"go/ast"
	"go/token"
	"strings"
)

// tupleAssigns: an assignment of several values one of which is a call,
// a composite literal or a receive (out, r = append(out, r[0]), r[1:]).
// yaegi v0.16.1 lets such a value write straight into its place and then
// skips the whole statement's assignment (interp/cfg.go:731 and 754, n.gen
// = nop on the statement, decided per value), so the other values were
// never assigned: r stayed as it was and a merge sort looped forever;
// "a, b = len(s), 7" left b alone, "p, n := P{1}, len(s)" left n zero;
// and two calls that wrote straight in (a, b = f(b), g(a)) saw each
// other's results. With "=" the values are bound first, in order, and
// then assigned together:
//
//	{ _grundyT1 := append(out, r[0]); _grundyT2 := r[1:]; out, r = _grundyT1, _grundyT2 }
//
// (untyped values and constants other than calls stay in place: they
// take the type of their place). A ":=" whose values mention none of its names becomes
// one statement per name, in order (":=" for a new variable, "=" for one
// it assigns). The places'
// operands are evaluated after the values: a place with a call or a
// receive in it keeps the statement as it is, and so does a statement
// in an if, for or switch header.
var tupleAssigns = Pass{
	Name:     "tupleassigns",
	Run:      runTupleAssigns,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"tuple_assign_call_and_value"},
}

func runTupleAssigns(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		as, ok := cur.Node().(*ast.AssignStmt)
		if !ok || cur.Index() < 0 || len(as.Lhs) < 2 || len(as.Lhs) != len(as.Rhs) || !anyWritesInPlace(as.Rhs) {
			return true
		}
		for _, l := range as.Lhs {
			if !sideEffectFree(l) {
				return true
			}
		}
		switch as.Tok {
		case token.ASSIGN:
			c.bindValues(cur, as)
		case token.DEFINE:
			c.splitDefine(cur, as)
		}
		return true
	})
}

// anyWritesInPlace reports whether one of values is a value yaegi writes
// straight into its place.
func anyWritesInPlace(values []ast.Expr) bool {
	for _, v := range values {
		switch v := ast.Unparen(v).(type) {
		case *ast.CallExpr, *ast.CompositeLit:
			return true
		case *ast.UnaryExpr:
			if v.Op == token.ARROW {
				return true
			}
		}
	}
	return false
}

func (c *Cell) bindValues(cur Cursor, as *ast.AssignStmt) {
	var list []ast.Stmt
	for i, v := range as.Rhs {
		if tv, typed := c.Types.Types[v]; typed && (isUntyped(tv.Type) || tv.Value != nil && !anyWritesInPlace([]ast.Expr{v})) {
			continue // len("abc"), a typed constant, is a call to yaegi
		}
		t := c.Temp("T")
		list = append(list, define(v.Pos(), []ast.Expr{ident(t, v.Pos())}, v))
		as.Rhs[i] = ident(t, v.Pos())
	}
	cur.Replace(&ast.BlockStmt{Lbrace: as.Pos(), List: append(list, as), Rbrace: as.End()})
}

func (c *Cell) splitDefine(cur Cursor, as *ast.AssignStmt) {
	names := map[string]bool{}
	for _, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || names[id.Name] {
			return
		}
		if id.Name != "_" {
			names[id.Name] = true
		}
	}
	for _, v := range as.Rhs {
		if contains(v, false, func(n ast.Node) bool { id, ok := n.(*ast.Ident); return ok && names[id.Name] }) {
			return
		}
	}
	for i, l := range as.Lhs {
		id := l.(*ast.Ident)
		tok := token.DEFINE
		if id.Name == "_" || c.Types.Defs[id] == nil && !strings.HasPrefix(id.Name, tempPrefix) {
			tok = token.ASSIGN // an earlier variable "q, b :=" assigns
		}
		st := &ast.AssignStmt{Lhs: []ast.Expr{id}, Tok: tok, Rhs: []ast.Expr{as.Rhs[i]}, TokPos: as.TokPos}
		if i < len(as.Lhs)-1 {
			cur.InsertBefore(st)
		} else {
			cur.Replace(st)
		}
	}
}
