package compat

import (
	"go/ast"
	"go/token"
)

// selectContinues: a plain continue in a case of a select in a loop (among
// a cell's statements: in functions, selects are made by the runtime, see
// selects).
// yaegi v0.16.1 compiles a select's cases from inside its own compilation
// (interp/run.go:3776, _select calls getExec on each case body), and each
// getExec starts a new walk of the graph with nothing seen
// (interp/cfg.go:2843, setExec); when the continue leads back to the
// select before the walk has compiled it, as when the loop body ends in
// return or break after the select, the walks recurse without end and the
// engine process dies of a stack overflow while compiling the cell. The
// continue becomes a flag and a break out of the select, and the loop is
// continued after it:
//
//	for { select { case v := <-ch: use(v); continue }; break }
//	=>
//	for { { _grundyCont1 := false
//		_grundySel2: select { case v := <-ch: use(v); _grundyCont1 = true; break _grundySel2 }
//		if _grundyCont1 { continue } }; break }
var selectContinues = Pass{
	Name:     "selectcontinues",
	Run:      runSelectContinues,
	Kinds:    []ast.Node{(*ast.SelectStmt)(nil)},
	Snippets: []string{"select_continue_top_level"},
}

func runSelectContinues(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		var s *ast.SelectStmt
		var label *ast.Ident
		switch n := cur.Node().(type) {
		case *ast.LabeledStmt:
			if sel, ok := n.Stmt.(*ast.SelectStmt); ok {
				s, label = sel, n.Label
			}
		case *ast.SelectStmt:
			if _, labeled := cur.Parent().(*ast.LabeledStmt); !labeled {
				s = n
			}
		}
		if s == nil {
			return true
		}
		var conts []*ast.BranchStmt
		for _, cc := range s.Body.List {
			for _, st := range cc.(*ast.CommClause).Body {
				conts = append(conts, plainBranches(st, token.CONTINUE)...)
			}
		}
		if len(conts) == 0 {
			return true
		}
		pos := s.Select
		flag := c.Temp("Cont")
		if label == nil {
			label = ident(c.Temp("Sel"), pos)
		}
		marked := map[*ast.BranchStmt]bool{}
		for _, b := range conts {
			// The continue's own node becomes the labelled break, with the
			// flag set before it.
			b.Tok, b.Label = token.BREAK, ident(label.Name, b.Pos())
			marked[b] = true
		}
		replaceContinues(s, flag, marked)
		cur.Replace(&ast.BlockStmt{Lbrace: pos, Rbrace: s.End(), List: []ast.Stmt{
			define(pos, []ast.Expr{ident(flag, pos)}, ident("false", pos)),
			&ast.LabeledStmt{Label: label, Colon: pos, Stmt: s},
			ifThen(pos, ident(flag, pos), &ast.BranchStmt{TokPos: pos, Tok: token.CONTINUE}),
		}})
		return true
	})
}

// replaceContinues puts "flag = true" before each break the continues of
// s became (a break labelled, in a statement list of s's cases).
func replaceContinues(s *ast.SelectStmt, flag string, marked map[*ast.BranchStmt]bool) {
	ast.Inspect(s, func(x ast.Node) bool {
		switch n := x.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			n.List = withFlag(n.List, flag, marked)
		case *ast.CaseClause:
			n.Body = withFlag(n.Body, flag, marked)
		case *ast.CommClause:
			n.Body = withFlag(n.Body, flag, marked)
		}
		return true
	})
}

func withFlag(list []ast.Stmt, flag string, marked map[*ast.BranchStmt]bool) []ast.Stmt {
	var out []ast.Stmt
	for _, st := range list {
		if b, ok := st.(*ast.BranchStmt); ok && marked[b] {
			out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{ident(flag, b.Pos())}, Tok: token.ASSIGN, TokPos: b.Pos(), Rhs: []ast.Expr{ident("true", b.Pos())}})
		}
		out = append(out, st)
	}
	return out
}
