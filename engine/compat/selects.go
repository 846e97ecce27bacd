package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ast/astutil"

	"grundy/engine/prelude"
)

// selects: a select statement is made by the engine's runtime, which
// builds its cases at each execution:
//
//	select {                      var _grundySc1 chan int = out
//	case out <- v:                var _grundySv2 int = v
//	    sent++                    var _grundySc3 <-chan struct{} = done
//	case <-done:           =>     var _grundySv4 struct{}
//	    return                    var _grundySi5, _grundySk6 = grundyrt.Select("sr", _grundySc1, &_grundySv2, _grundySc3, &_grundySv4)
//	}                             switch _grundySi5 { case 0: sent++; case 1: return }
//
// It is the one place for what Go does on entering a select; yaegi
// v0.16.1 gets much of it wrong:
//   - it fills one slice of cases per select statement before each
//     reflect.Select (interp/run.go, _select: cases is made once, when the
//     statement is compiled), so goroutines running the same select at
//     once (workers sharing a loop body) overwrote each other's channels
//     and values: one sent another's value, or on another's channel,
//     silently (workers sending i % 7 for i < 200,000 summed 599,987 to
//     600,006, Go 599,994);
//   - it chains a send case's channel straight to the sent value's own
//     action (interp/cfg.go:1944, an.tnext = pn), skipping what the value
//     needs computed first: case out <- <-in + 1: sent 1, a nested literal
//     zeros, s[1] sent s[0], &T{a} a pointer to a zero T, silently; an
//     untyped constant went as its default type, and reflect.Select
//     panicked;
//   - it has no case that assigns (case v = <-ch: panicked with
//     "reflect.Select: invalid Dir");
//   - a plain break in a case, nested in an if, left the enclosing loop
//     (only loops and switches set the scope's break target,
//     interp/cfg.go:419 and :548), and the last statement of each case is
//     wired to the end of the select (interp/cfg.go:1361 and :1372), so
//     "case <-done: break loop" only left the select (a loop waiting on
//     done spun for ever);
//   - a continue in a case that led back to the select before the
//     compilation had reached it recursed without end (interp/run.go:3776,
//     _select compiles each case body from a new walk) and the engine
//     process died of a stack overflow while compiling the cell.
//
// Channels and sent values are evaluated on entering, in order, as Go
// evaluates them; a received value is assigned, or defined, in its case;
// break, continue and goto in a case are a switch's. A label on the select
// goes on the switch, or, when a goto jumps to it, on the block, the
// switch taking a label of its own for the breaks. The runtime's select
// ends the goroutine when the cell is interrupted or found deadlocked, as
// the interpreter's does. The runtime's select costs more than the
// interpreter's (a loop of 200,000 pairs of selects on a buffered channel
// took about 3.5 times as long in a function as among a cell's
// statements, where the plain cases cost 1.4 times what the interpreter's
// select alone did). A select whose channel types cannot be written is
// refused; select {} stays the interpreter's.
var selects = Pass{
	Name:     "selects",
	Run:      runSelects,
	Kinds:    []ast.Node{(*ast.SelectStmt)(nil)},
	Snippets: []string{"select_shared_by_goroutines", "select_continue_top_level", "select_break_targets", "recv_select_assign", "select_send_values"},
}

func runSelects(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		var label *ast.LabeledStmt
		s, ok := cur.Node().(*ast.SelectStmt)
		if l, isLabel := cur.Node().(*ast.LabeledStmt); isLabel {
			s, ok = l.Stmt.(*ast.SelectStmt)
			label = l
		} else if _, labeled := cur.Parent().(*ast.LabeledStmt); labeled {
			return true // (rewritten with its label)
		}
		if !ok || len(s.Body.List) == 0 {
			return true
		}
		// Among a cell's statements, only the cell's goroutine runs a
		// select: the interpreter's is right there, and faster.
		out, ok := c.writeSelect(s, !cur.TopLevel())
		if !ok {
			c.Fail(s.Pos(), "this select receives or sends a value of a type the engine cannot write in the cell; declare the type at the cell's top level (or convert the channel to one of a named type)")
			return false
		}
		if label != nil {
			cur.Replace(c.labelSelect(out, label))
			return true
		}
		cur.Replace(out)
		return true
	})
}

// labelSelect puts the label l of a select on the block written for it
// (out), or on its switch, and returns the statement replacing l.
func (c *Cell) labelSelect(out *ast.BlockStmt, l *ast.LabeledStmt) ast.Stmt {
	last := len(out.List) - 1
	sw := out.List[last].(*ast.SwitchStmt)
	if !c.gotoTarget(l.Label.Name) {
		out.List[last] = &ast.LabeledStmt{Label: l.Label, Colon: l.Colon, Stmt: sw}
		return out
	}
	// goto l runs the whole block; its breaks leave the switch.
	inner := c.Temp("Sel")
	ast.Inspect(sw, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.BREAK && b.Label != nil && b.Label.Name == l.Label.Name {
			b.Label = ident(inner, b.Label.Pos())
		}
		return true
	})
	out.List[last] = &ast.LabeledStmt{Label: ident(inner, l.Colon), Colon: l.Colon, Stmt: sw}
	return &ast.LabeledStmt{Label: l.Label, Colon: l.Colon, Stmt: out}
}

// selectCase is one case of a select as selects writes it: its channel
// and sent value as evaluated on entering (a variable, or a temporary the
// block's statements set), and, for a receive with destinations, the
// temporaries the value (and whether it came) go to.
type selectCase struct {
	dir      byte // 'r', 's' or 'd'
	ch, sent ast.Expr
	recv     *ast.Ident // nil when the value goes nowhere
}

// writeSelect is s written as a block that evaluates what Go evaluates on
// entering it, makes the select (by the runtime, or with plain cases the
// interpreter gets right, among a cell's statements), keeps which case it
// chose, and runs that case's statements in a switch (see selects); false
// when it cannot be written.
func (c *Cell) writeSelect(s *ast.SelectStmt, byRuntime bool) (*ast.BlockStmt, bool) {
	pos := s.Pos()
	var pre []ast.Stmt
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
	// A channel or a value named by a variable (or a field of one) is
	// read as it is, unless a call or a receive evaluated before the
	// select could change it; the others are evaluated in order.
	calls := selectOperandsCall(s)
	chanOf := func(e ast.Expr) (ast.Expr, bool) {
		if !calls && fieldsOf(e) {
			return e, true
		}
		return temp("Sc", c.Types.TypeOf(e), e)
	}
	var cases []selectCase
	var clauses []ast.Stmt
	for i, st := range s.Body.List {
		cc := st.(*ast.CommClause)
		body := cc.Body
		sc := selectCase{dir: 'd'}
		switch comm := cc.Comm.(type) {
		case nil:
		case *ast.SendStmt:
			ct, ok := typeUnder(c.Types.TypeOf(comm.Chan)).(*types.Chan)
			if !ok {
				return nil, false
			}
			sc.dir = 's'
			if sc.ch, ok = chanOf(comm.Chan); !ok {
				return nil, false
			}
			sc.sent = comm.Value
			if id, plain := ast.Unparen(comm.Value).(*ast.Ident); calls || !plain || !isVar(c, id) || !types.Identical(c.Types.TypeOf(id), ct.Elem()) {
				if sc.sent, ok = temp("Sv", ct.Elem(), comm.Value); !ok {
					return nil, false
				}
			}
		default:
			recv, lhs, tok, value := selectRecv(cc.Comm)
			if recv == nil {
				return nil, false
			}
			ct, ok := typeUnder(c.Types.TypeOf(recv.X)).(*types.Chan)
			if !ok {
				return nil, false
			}
			sc.dir = 'r'
			if sc.ch, ok = chanOf(recv.X); !ok {
				return nil, false
			}
			if len(lhs) > 0 && !(len(lhs) == 1 && isBlank(lhs[0])) {
				if sc.recv, ok = temp("Sv", ct.Elem(), nil); !ok {
					return nil, false
				}
				rhs := []ast.Expr{received(value, recv, ident(sc.recv.Name, pos))}
				if len(lhs) == 2 {
					rhs = append(rhs, ident(okName, pos))
					okUsed = true
				}
				body = append(pairwise(lhs, pos, tok, rhs), body...)
			}
		}
		cases = append(cases, sc)
		clauses = append(clauses, &ast.CaseClause{Case: cc.Case, List: []ast.Expr{intLit(i, cc.Case)}, Colon: cc.Colon, Body: body})
	}
	if byRuntime {
		pre = append(pre, c.runtimeSelect(pos, cases, idx, okName, okUsed))
	} else {
		pre = append(pre, c.plainSelect(s, cases, idx, okName, okUsed)...)
	}
	sw := &ast.SwitchStmt{Switch: pos, Tag: ident(idx, pos), Body: &ast.BlockStmt{Lbrace: s.Body.Lbrace, List: clauses, Rbrace: s.Body.Rbrace}}
	return &ast.BlockStmt{Lbrace: pos, List: append(pre, sw), Rbrace: s.End()}, true
}

// selectOperandsCall reports whether a channel or a sent value of s calls
// a function or receives.
func selectOperandsCall(s *ast.SelectStmt) bool {
	for _, st := range s.Body.List {
		var operands []ast.Expr
		switch comm := st.(*ast.CommClause).Comm.(type) {
		case *ast.SendStmt:
			operands = []ast.Expr{comm.Chan, comm.Value}
		case nil:
		default:
			if recv, _, _, _ := selectRecv(comm); recv != nil {
				operands = []ast.Expr{recv.X}
			}
		}
		for _, e := range operands {
			if contains(e, false, callsOrReceives) {
				return true
			}
		}
	}
	return false
}

// runtimeSelect is "var idx, ok = grundyrt.Select(dirs, ch, &v, ...)".
func (c *Cell) runtimeSelect(pos token.Pos, cases []selectCase, idx, okName string, okUsed bool) ast.Stmt {
	dirs := ""
	var args []ast.Expr
	for _, sc := range cases {
		dirs += string(sc.dir)
		switch {
		case sc.dir == 's':
			args = append(args, sc.ch, addrOf(sc.sent, pos))
		case sc.dir == 'r' && sc.recv != nil:
			args = append(args, sc.ch, addrOf(sc.recv, pos))
		case sc.dir == 'r':
			args = append(args, sc.ch, ident("nil", pos)) // (received nowhere)
		}
	}
	okLhs := ident(okName, pos)
	if !okUsed {
		okLhs = ident("_", pos)
	}
	call := rtCall(prelude.RTSelect, pos, append([]ast.Expr{&ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(dirs)}}, args...)...)
	return &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{ident(idx, pos), okLhs}, Values: []ast.Expr{call}}}}}
}

// plainSelect is the interpreter's select with cases it gets right: each
// sends a variable or receives into new variables, and only notes which
// case it is ("var idx int; var ok bool; select { case ch <- v: idx = 0;
// case r, k := <-in: v2, ok = r, k; idx = 1 }"), the cases' own
// statements running after it, in the switch.
func (c *Cell) plainSelect(s *ast.SelectStmt, cases []selectCase, idx, okName string, okUsed bool) []ast.Stmt {
	pos := s.Pos()
	out := []ast.Stmt{varDecl(pos, idx, ident("int", pos))}
	if okUsed {
		out = append(out, varDecl(pos, okName, ident("bool", pos)))
	}
	var list []ast.Stmt
	for i, sc := range cases {
		cc := s.Body.List[i].(*ast.CommClause)
		note := []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{ident(idx, pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{intLit(i, pos)}}}
		var comm ast.Stmt
		switch {
		case sc.dir == 's':
			comm = &ast.SendStmt{Chan: sc.ch, Arrow: pos, Value: sc.sent}
		case sc.dir == 'r' && sc.recv != nil:
			got := &ast.UnaryExpr{OpPos: pos, Op: token.ARROW, X: sc.ch}
			v := ident(c.Temp("Got"), pos)
			lhs, dst, rhs := []ast.Expr{v}, []ast.Expr{ident(sc.recv.Name, pos)}, []ast.Expr{ident(v.Name, pos)}
			if okUsed {
				k := ident(c.Temp("GotOk"), pos)
				lhs, dst, rhs = append(lhs, k), append(dst, ident(okName, pos)), append(rhs, ident(k.Name, pos))
			}
			comm = define(pos, lhs, got)
			note = append(pairwise(dst, pos, token.ASSIGN, rhs), note...)
		case sc.dir == 'r':
			comm = &ast.ExprStmt{X: &ast.UnaryExpr{OpPos: pos, Op: token.ARROW, X: sc.ch}}
		}
		list = append(list, &ast.CommClause{Case: cc.Case, Comm: comm, Colon: cc.Colon, Body: note})
	}
	return append(out, &ast.SelectStmt{Select: pos, Body: &ast.BlockStmt{Lbrace: s.Body.Lbrace, List: list, Rbrace: s.Body.Rbrace}})
}

// pairwise is lhs tok rhs, the value received and the ok of a receiving
// case assigned (or defined) from the select's variables, one statement
// per value: yaegi v0.16.1's v, ok = r, k with v of an empty interface
// type panicked ("reflect.Set: value of type interface {} is not
// assignable to type interp.valueInterface"). The values are variables,
// so the order does not matter, but for a place of the ok that reads the
// received value's place (i, a[i] = ...), left as one statement.
func pairwise(lhs []ast.Expr, pos token.Pos, tok token.Token, rhs []ast.Expr) []ast.Stmt {
	one := []ast.Stmt{&ast.AssignStmt{Lhs: lhs, TokPos: pos, Tok: tok, Rhs: rhs}}
	if len(lhs) != 2 || len(rhs) != 2 {
		return one
	}
	first := types.ExprString(lhs[0])
	if contains(lhs[1], false, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		return ok && types.ExprString(e) == first
	}) {
		return one
	}
	var out []ast.Stmt
	for i := range lhs {
		if tok == token.DEFINE && isBlank(lhs[i]) {
			continue // (_ := v defines nothing)
		}
		out = append(out, &ast.AssignStmt{Lhs: lhs[i : i+1], TokPos: pos, Tok: tok, Rhs: rhs[i : i+1]})
	}
	return out
}

// intLit is the int literal i at pos.
func intLit(i int, pos token.Pos) *ast.BasicLit {
	return &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: strconv.Itoa(i)}
}

// addrOf is &x at pos (x a variable).
func addrOf(x ast.Expr, pos token.Pos) ast.Expr {
	return &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: x}
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
// v, ok = <-ch), with the places it assigns and how (DEFINE or ASSIGN),
// and the value assigned: the receive itself, or what a pass before this
// one wrote around it (ifacecopies' copy of a received cell value going
// into an interface, case s = <-ch with s a fmt.Stringer).
func selectRecv(comm ast.Stmt) (recv *ast.UnaryExpr, lhs []ast.Expr, tok token.Token, value ast.Expr) {
	var x ast.Expr
	switch comm := comm.(type) {
	case *ast.ExprStmt:
		x = comm.X
	case *ast.AssignStmt:
		if len(comm.Rhs) != 1 {
			return nil, nil, 0, nil
		}
		x, lhs, tok = comm.Rhs[0], comm.Lhs, comm.Tok
	}
	ast.Inspect(x, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.ARROW && recv == nil {
			recv = u
		}
		return recv == nil
	})
	if recv == nil {
		return nil, nil, 0, nil
	}
	return recv, lhs, tok, x
}

// received is value, the value a receiving case assigns, with its
// receive recv replaced by v, the value received.
func received(value ast.Expr, recv *ast.UnaryExpr, v ast.Expr) ast.Expr {
	return astutil.Apply(value, func(cur *astutil.Cursor) bool {
		if cur.Node() == recv {
			cur.Replace(v)
			return false
		}
		return true
	}, nil).(ast.Expr)
}

// isBlank reports whether e is the blank identifier.
func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}
