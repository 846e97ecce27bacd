package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// recvValues: a channel receive returned (return <-ch) or stored by = into
// anything but a plain variable (s.v = <-ch, xs[i] = <-ch, *p = <-ch, or a
// named result). yaegi v0.16.1 compiles such an assignment as nothing and
// lets the receive write where the destination's value is
// (interp/cfg.go:741, "Assign by reading from a receiving channel",
// src.findex = dest.findex), which for a field, an element or a pointer's
// target is a temporary: the value was lost, silently (s.v stayed 0); a
// named result kept its old value; and a returned receive wrote into a
// slot reflect cannot set (interp/cfg.go:2191, "reflect.Value.Set using
// unaddressable value", traefik/yaegi#1725). The value is received into a
// variable first, which yaegi does right:
//
//	_grundyR1 := <-ch
//	s.v = _grundyR1
//
// Into a variable, the same optimization left the variable holding the
// value reflect received (interp/run.go:3586, recv), which reflect cannot
// set: any later write to it (v++, v = 3, v[i] = 1, v.f = 1, &v) panicked
// "reflect.Value.SetInt using unaddressable value". The receive is
// parenthesized, v := (<-ch), which yaegi assigns as a copy.
//
// A return with a receive among its results gets each result in a
// variable, in order. An assignment whose destination calls a function
// (xs[f()] = <-ch), which Go evaluates before the receive, is refused. (A
// select's receives and sends: see selects.)
var recvValues = Pass{
	Name:     "recvvalues",
	Run:      runRecvValues,
	Kinds:    []ast.Node{(*ast.UnaryExpr)(nil)},
	Snippets: []string{"recv_returned_and_stored", "recv_value_written"},
}

func isRecv(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	return ok && u.Op == token.ARROW
}

func runRecvValues(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		switch s := cur.Node().(type) {
		case *ast.AssignStmt:
			// (a select's case receives otherwise: see selects)
			if _, comm := cur.Parent().(*ast.CommClause); !comm && (s.Tok == token.DEFINE || s.Tok == token.ASSIGN) {
				copyRecvs(s.Lhs, s.Rhs)
			}
		case *ast.ValueSpec:
			copyRecvs(identExprs(s.Names), s.Values)
		}
		if cur.Index() < 0 {
			return true // (only statements in lists: ifs' and fors' headers keep theirs)
		}
		switch s := cur.Node().(type) {
		case *ast.ReturnStmt:
			if slices.ContainsFunc(s.Results, isRecv) {
				c.recvReturn(cur, s)
			}
		case *ast.AssignStmt:
			if s.Tok != token.ASSIGN || len(s.Lhs) != 1 || len(s.Rhs) != 1 || !isRecv(s.Rhs[0]) || !c.recvLost(cur, s.Lhs[0]) {
				return true
			}
			if contains(s.Lhs[0], true, callsOrReceives) {
				c.Fail(s.Pos(), "%s = <-...: a destination that calls a function or receives cannot take a received value in this interpreter; receive into a variable first (v := <-ch), then assign it", ExprString(s.Lhs[0]))
				return false
			}
			tmp := ident(c.Temp("R"), s.Pos())
			cur.InsertBefore(define(s.Pos(), []ast.Expr{tmp}, s.Rhs[0]))
			s.Rhs[0] = ident(tmp.Name, s.Pos())
		}
		return true
	})
}

// copyRecvs parenthesizes each bare receive in values that goes to a
// variable of names (one value each), so that yaegi copies it there.
func copyRecvs(names, values []ast.Expr) {
	if len(names) != len(values) {
		return
	}
	for i, v := range values {
		if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			if id, ok := names[i].(*ast.Ident); ok && id.Name != "_" {
				values[i] = &ast.ParenExpr{Lparen: u.Pos(), X: u, Rparen: u.End()}
			}
		}
	}
}

func identExprs(ids []*ast.Ident) []ast.Expr {
	out := make([]ast.Expr, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

func isRecvNode(n ast.Node) bool {
	e, ok := n.(ast.Expr)
	return ok && isRecv(e)
}

// callsOrReceives reports whether n is a call or a receive (what Go
// evaluates in order, and what may change a variable read beside it).
func callsOrReceives(n ast.Node) bool {
	_, call := n.(*ast.CallExpr)
	return call || isRecvNode(n)
}

// recvLost reports whether yaegi loses a value received into lhs: lhs is
// not a plain variable (a map element is set otherwise, and is right), or
// is a named result of the function the statement is in.
func (c *Cell) recvLost(cur Cursor, lhs ast.Expr) bool {
	switch l := ast.Unparen(lhs).(type) {
	case *ast.Ident:
		if l.Name == "_" || cur.Func == nil || cur.Func.Results == nil {
			return false
		}
		obj := c.Types.ObjectOf(l)
		for _, f := range cur.Func.Results.List {
			for _, n := range f.Names {
				if obj != nil && c.Types.Defs[n] == obj {
					return true
				}
			}
		}
		return false
	case *ast.IndexExpr:
		_, isMap := typeUnder(c.Types.TypeOf(l.X)).(*types.Map)
		return !isMap
	}
	return true
}

// recvReturn puts the results of s, a return with a receive among them,
// in variables first (a receive as it is, the others as the function's
// result types), and returns those.
func (c *Cell) recvReturn(cur Cursor, s *ast.ReturnStmt) {
	rts := c.resultTypes(cur.Func)
	if len(rts) != len(s.Results) {
		return
	}
	var pre []ast.Stmt
	results := make([]ast.Expr, len(s.Results))
	for i, r := range s.Results {
		tmp := c.Temp("R")
		results[i] = ident(tmp, r.Pos())
		if isRecv(r) {
			pre = append(pre, define(r.Pos(), []ast.Expr{ident(tmp, r.Pos())}, r))
			continue
		}
		if rts[i] == nil {
			return
		}
		tx, ok := c.TypeExpr(rts[i], r.Pos())
		if !ok {
			return
		}
		pre = append(pre, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: r.Pos(), Specs: []ast.Spec{
			&ast.ValueSpec{Names: []*ast.Ident{ident(tmp, r.Pos())}, Type: tx, Values: []ast.Expr{r}}}}})
	}
	for _, p := range pre {
		cur.InsertBefore(p)
	}
	s.Results = results
}
