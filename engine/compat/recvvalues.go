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
// A return with a receive among its results gets each result in a
// variable, in order. An assignment whose destination calls a function
// (xs[f()] = <-ch), which Go evaluates before the receive, is refused.
//
// In a select, yaegi has no case that assigns (case v = <-ch: panicked
// with "reflect.Select: invalid Dir", interp/run.go, _select), and it
// chains a send case's channel straight to the sent value's own action
// (interp/cfg.go:1944, an.tnext = pn), skipping whatever the value needs
// computed first: a receive inside it (case out <- <-in + 1:) sent 1, a
// nested literal (case ch <- Found{w, [2]int{a, b}}:) sent zeros, s[1]
// sent s[0], &T{a} a pointer to a zero T, silently. The case defines
// variables, which its body assigns, and a select sending anything but a
// variable or a literal constant has what Go evaluates on entering it
// (channels and sent values) evaluated before it, in order (before its
// label, when it has one).
var recvValues = Pass{
	Name:     "recvvalues",
	Run:      runRecvValues,
	Kinds:    []ast.Node{(*ast.UnaryExpr)(nil), (*ast.SelectStmt)(nil)},
	Snippets: []string{"recv_returned_and_stored", "recv_select_assign", "select_send_values"},
}

func isRecv(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	return ok && u.Op == token.ARROW
}

func runRecvValues(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		switch s := cur.Node().(type) {
		case *ast.SelectStmt:
			if _, labeled := cur.Parent().(*ast.LabeledStmt); !labeled {
				c.recvSelect(cur, s)
			}
			return true
		case *ast.LabeledStmt:
			if sel, ok := s.Stmt.(*ast.SelectStmt); ok {
				c.recvSelect(cur, sel)
			}
			return true
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
			if contains(s.Lhs[0], true, func(n ast.Node) bool { _, call := n.(*ast.CallExpr); return call || isRecvNode(n) }) {
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

func isRecvNode(n ast.Node) bool {
	e, ok := n.(ast.Expr)
	return ok && isRecv(e)
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

// recvSelect rewrites the cases of s that yaegi gets wrong (see
// recvValues); cur is s, or the label s is the statement of.
func (c *Cell) recvSelect(cur Cursor, s *ast.SelectStmt) {
	computed := false
	for _, cl := range s.Body.List {
		cc := cl.(*ast.CommClause)
		if send, ok := cc.Comm.(*ast.SendStmt); ok && (!stays(send.Value) || c.isConst(send.Value) && !c.sentAsIs(send)) {
			computed = true
		}
	}
	l, labeled := cur.Node().(*ast.LabeledStmt)
	switch {
	case !computed:
	case labeled && c.gotoTarget(l.Label.Name):
		c.Fail(s.Pos(), "goto %s jumps to a select sending a computed value (case ch <- f(x):), which this interpreter sends wrong: put the label on a statement computing it (%s: v := f(x)) and send v", l.Label.Name, l.Label.Name)
		return
	case cur.Index() < 0:
		c.Fail(s.Pos(), "a select sending a computed value (case ch <- f(x):), which this interpreter sends wrong, where no statement can go before it: compute it into a variable first (v := f(x)) and send v")
		return
	default:
		c.selectOperandsFirst(cur, s)
	}
	for _, cl := range s.Body.List {
		cc := cl.(*ast.CommClause)
		as, ok := cc.Comm.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN {
			continue
		}
		var temps []ast.Expr
		for range as.Lhs {
			temps = append(temps, ident(c.Temp("R"), as.Pos()))
		}
		cc.Comm = define(as.Pos(), temps, as.Rhs...)
		var uses []ast.Expr
		for _, t := range temps {
			uses = append(uses, ident(t.(*ast.Ident).Name, as.Pos()))
		}
		assign := &ast.AssignStmt{Lhs: as.Lhs, TokPos: as.TokPos, Tok: token.ASSIGN, Rhs: uses}
		cc.Body = append([]ast.Stmt{assign}, cc.Body...)
	}
}

// selectOperandsFirst evaluates, before s, what Go evaluates on entering
// it: the channels of its cases and the values they send, in order (a
// variable or a constant stays). A value goes into a variable by :=, never
// by a typed var declaration, which would lose a generic call's instance
// (see genericVars); one of another type than the channel's elements (an
// interface's) is converted by a second, typed variable. An untyped
// constant gets the elements' type (yaegi's select would send it as its
// default type, and reflect.Select panics).
func (c *Cell) selectOperandsFirst(cur Cursor, s *ast.SelectStmt) {
	var pre []ast.Stmt
	typed := func(e ast.Expr, t types.Type) (ast.Expr, bool) {
		tx, ok := c.TypeExpr(t, e.Pos())
		if !ok {
			return e, false
		}
		v := c.Temp("S")
		pre = append(pre, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: e.Pos(), Specs: []ast.Spec{
			&ast.ValueSpec{Names: []*ast.Ident{ident(v, e.Pos())}, Type: tx, Values: []ast.Expr{e}}}}})
		return ident(v, e.Pos()), true
	}
	hoist := func(e ast.Expr, t types.Type) ast.Expr {
		et := c.Types.TypeOf(e) // nil for what an earlier pass wrote
		converts := t != nil && (et == nil || !types.Identical(et, t))
		switch {
		case c.isConst(e):
			if d := c.constType(e); t != nil && (d == nil || !types.Identical(d, t)) {
				e, _ = typed(e, t)
			}
			return e
		case stays(e):
			return e
		}
		if t != nil && contains(e, true, func(n ast.Node) bool {
			b, ok := n.(*ast.BinaryExpr)
			return ok && (b.Op == token.SHL || b.Op == token.SHR) && c.isConst(b.X)
		}) {
			// 1 << n takes the channel's type from the send, an int from :=.
			if v, ok := typed(e, t); ok {
				return v
			}
		}
		v := ident(c.Temp("S"), e.Pos())
		pre = append(pre, define(e.Pos(), []ast.Expr{v}, e))
		if converts {
			if conv, ok := typed(ident(v.Name, e.Pos()), t); ok {
				return conv
			}
		}
		return ident(v.Name, e.Pos())
	}
	for _, cl := range s.Body.List {
		cc := cl.(*ast.CommClause)
		switch comm := cc.Comm.(type) {
		case *ast.SendStmt:
			var elem types.Type
			if ch, ok := typeUnder(c.Types.TypeOf(comm.Chan)).(*types.Chan); ok {
				elem = ch.Elem()
			}
			comm.Chan = hoist(comm.Chan, nil)
			comm.Value = hoist(comm.Value, elem)
		case *ast.ExprStmt:
			if u, ok := ast.Unparen(comm.X).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				u.X = hoist(u.X, nil)
			}
		case *ast.AssignStmt:
			if u, ok := ast.Unparen(comm.Rhs[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				u.X = hoist(u.X, nil)
			}
		}
	}
	for _, p := range pre {
		cur.InsertBefore(p)
	}
}

// stays reports whether yaegi sends e right from a select case: a variable
// or a literal constant, or one operator on such operands (i % 7, -a; no
// shift, whose untyped constant operand takes the channel's type), which
// the operator's own action computes (a hot loop's select keeps its
// speed).
func stays(e ast.Expr) bool {
	operand := func(e ast.Expr) bool {
		switch e.(type) {
		case *ast.Ident, *ast.BasicLit:
			return true
		}
		return false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		return x.Op != token.SHL && x.Op != token.SHR && operand(x.X) && operand(x.Y)
	case *ast.UnaryExpr:
		return x.Op != token.AND && x.Op != token.ARROW && operand(x.X)
	}
	return operand(ast.Unparen(e))
}

// isConst reports whether the oracle knows e as a constant.
func (c *Cell) isConst(e ast.Expr) bool {
	tv, ok := c.Types.Types[e]
	return ok && tv.Value != nil
}

// constType is the type yaegi gives the constant e: a literal's or an
// untyped constant's default type, a typed constant's type; nil for an
// expression (the oracle records the type it converts to, not its own).
func (c *Cell) constType(e ast.Expr) types.Type {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		kinds := map[token.Token]types.BasicKind{token.INT: types.Int, token.FLOAT: types.Float64, token.IMAG: types.Complex128, token.CHAR: types.Rune, token.STRING: types.String}
		return types.Typ[kinds[e.Kind]]
	case *ast.Ident:
		if k, ok := c.Types.ObjectOf(e).(*types.Const); ok {
			return types.Default(k.Type())
		}
	}
	return nil
}

// sentAsIs reports whether yaegi sends the constant s sends with the type
// of the channel's elements.
func (c *Cell) sentAsIs(s *ast.SendStmt) bool {
	ch, ok := typeUnder(c.Types.TypeOf(s.Chan)).(*types.Chan)
	d := c.constType(s.Value)
	return ok && d != nil && types.Identical(d, ch.Elem())
}
