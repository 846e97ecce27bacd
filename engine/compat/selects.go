package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"grundy/engine/prelude"
)

// selects: a select statement is made by the engine's runtime, which
// builds its cases at each execution:
//
//	select {                      var _grundySc1 chan int = out
//	case out <- v:                var _grundySv2 int = v
//	    sent++                    var _grundySc3 <-chan struct{} = done
//	case <-done:           =>     var _grundySv4 struct{}
//	    return                    var _grundySi5, _grundySk6 = grundyrt.Select(grundyrt.SelectSend(_grundySc1, &_grundySv2), grundyrt.SelectRecv(_grundySc3, &_grundySv4))
//	}                             switch _grundySi5 { case 0: sent++; case 1: return }
//
// yaegi v0.16.1 fills one slice of cases per select statement before
// each reflect.Select (interp/run.go, _select: cases is made once, when
// the statement is compiled), so goroutines running the same select at
// once (workers sharing a loop body) overwrote each other's channels and
// values: one sent another's value, or on another's channel, silently
// (workers sending i % 7 for i < 200,000 summed 599,987 to 600,006, Go
// 599,994). Channels and sent values are evaluated on entering, in order,
// as Go evaluates them; a received value is assigned, or defined, in its
// case. The runtime's select ends the goroutine when the cell is
// interrupted or found deadlocked, as the interpreter's does. It costs
// more than the interpreter's (a loop of 200,000 selects sending on a
// buffered channel took 3 times as long), so a select among a cell's
// statements, which only the cell's goroutine runs, is left to the
// interpreter, as are a labeled select (a break naming it), one whose
// channel types cannot be written, and select {}.
var selects = Pass{
	Name:     "selects",
	Run:      runSelects,
	Kinds:    []ast.Node{(*ast.SelectStmt)(nil)},
	Snippets: []string{"select_shared_by_goroutines"},
}

func runSelects(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		s, ok := cur.Node().(*ast.SelectStmt)
		if !ok || len(s.Body.List) == 0 || cur.TopLevel() {
			return true // (among a cell's statements, only the cell's goroutine runs it)
		}
		if _, labeled := cur.Parent().(*ast.LabeledStmt); labeled {
			return true
		}
		if out, ok := c.selectByRuntime(s); ok {
			cur.Replace(out)
		}
		return true
	})
}

// selectByRuntime is s written as a call of the runtime's select and a
// switch on the case it chose (see selects); false when it cannot be.
func (c *Cell) selectByRuntime(s *ast.SelectStmt) (ast.Stmt, bool) {
	pos := s.Pos()
	var pre []ast.Stmt
	var args []ast.Expr
	dirs := ""
	var clauses []ast.Stmt
	idx, okName := c.Temp("Si"), c.Temp("Sk")
	okUsed := false
	temp := func(kind string, t types.Type, value ast.Expr) (*ast.Ident, bool) {
		te, ok := c.TypeExpr(t, pos)
		if !ok {
			return nil, false
		}
		name := c.Temp(kind)
		if value == nil {
			pre = append(pre, varDecl(pos, name, te))
		} else {
			pre = append(pre, declareAssign(pos, name, te, value)...)
		}
		return ident(name, pos), true
	}
	addr := func(id *ast.Ident) ast.Expr { return &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: ident(id.Name, pos)} }
	// A channel named by a variable, or a field of one, is handed as it
	// is (reading it has no effect); others are evaluated in order.
	chanOf := func(e ast.Expr) (ast.Expr, bool) {
		if fieldsOf(e) {
			return e, true
		}
		return temp("Sc", c.Types.TypeOf(e), e)
	}
	for i, st := range s.Body.List {
		cc := st.(*ast.CommClause)
		body := cc.Body
		switch comm := cc.Comm.(type) {
		case nil:
			dirs += "d"
		case *ast.SendStmt:
			ct, ok := typeUnder(c.Types.TypeOf(comm.Chan)).(*types.Chan)
			if !ok {
				return nil, false
			}
			ch, ok1 := chanOf(comm.Chan)
			var v ast.Expr
			ok2 := true
			if id, plain := ast.Unparen(comm.Value).(*ast.Ident); plain && isVar(c, id) && types.Identical(c.Types.TypeOf(id), ct.Elem()) {
				v = addr(id) // (read when the select starts, as Go reads it)
			} else {
				var tmp *ast.Ident
				tmp, ok2 = temp("Sv", ct.Elem(), comm.Value)
				v = addr(tmp)
			}
			if !ok1 || !ok2 {
				return nil, false
			}
			dirs += "s"
			args = append(args, ch, v)
		default:
			recv, lhs, tok := selectRecv(cc.Comm)
			if recv == nil {
				return nil, false
			}
			ct, ok := typeUnder(c.Types.TypeOf(recv.X)).(*types.Chan)
			if !ok {
				return nil, false
			}
			ch, ok1 := chanOf(recv.X)
			v, ok2 := temp("Sv", ct.Elem(), nil)
			if !ok1 || !ok2 {
				return nil, false
			}
			dirs += "r"
			args = append(args, ch, addr(v))
			if len(lhs) > 0 {
				rhs := []ast.Expr{ident(v.Name, pos)}
				if len(lhs) == 2 {
					rhs = append(rhs, ident(okName, pos))
					okUsed = true
				}
				assign := &ast.AssignStmt{Lhs: lhs, TokPos: pos, Tok: tok, Rhs: rhs}
				body = append([]ast.Stmt{assign}, body...)
			}
		}
		clauses = append(clauses, &ast.CaseClause{Case: cc.Case, List: []ast.Expr{&ast.BasicLit{ValuePos: cc.Case, Kind: token.INT, Value: strconv.Itoa(i)}}, Colon: cc.Colon, Body: body})
	}
	okLhs := ident(okName, pos)
	if !okUsed {
		okLhs = ident("_", pos)
	}
	call := rtCall(prelude.RTSelect, pos, append([]ast.Expr{&ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(dirs)}}, args...)...)
	pre = append(pre, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{ident(idx, pos), okLhs}, Values: []ast.Expr{call}}}}})
	sw := &ast.SwitchStmt{Switch: pos, Tag: ident(idx, pos), Body: &ast.BlockStmt{Lbrace: s.Body.Lbrace, List: clauses, Rbrace: s.Body.Rbrace}}
	return &ast.BlockStmt{Lbrace: pos, List: append(pre, sw), Rbrace: s.End()}, true
}

// fieldsOf reports whether e is an identifier or a field of one (x.f.g).
func fieldsOf(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return fieldsOf(e.X)
	}
	return false
}

// rtCall is grundyrt.name(args...) at pos.
func rtCall(name string, pos token.Pos, args ...ast.Expr) *ast.CallExpr {
	return &ast.CallExpr{Fun: rtSelector(name, pos), Lparen: pos, Args: args, Rparen: pos}
}

// selectRecv is the receive of a select's receiving case (<-ch, v := <-ch,
// v, ok = <-ch), with the places it assigns and how (DEFINE or ASSIGN).
func selectRecv(comm ast.Stmt) (recv *ast.UnaryExpr, lhs []ast.Expr, tok token.Token) {
	var x ast.Expr
	switch comm := comm.(type) {
	case *ast.ExprStmt:
		x = comm.X
	case *ast.AssignStmt:
		if len(comm.Rhs) != 1 {
			return nil, nil, 0
		}
		x, lhs, tok = comm.Rhs[0], comm.Lhs, comm.Tok
	}
	u, ok := ast.Unparen(x).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil, nil, 0
	}
	return u, lhs, tok
}
