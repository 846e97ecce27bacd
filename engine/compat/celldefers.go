package compat

import (
	"go/ast"

	"grundy/engine/prelude"
)

// cellDefers: a defer among a cell's top-level statements runs once, when
// the cell ends, as a function's defers run when it returns. yaegi v0.16.1
// keeps such defers on its global frame and runs them again at the end of
// every later program (interp/run.go, the deferred calls of the frame that
// Execute reuses), so a cell's "defer cancel()" repeated in every cell
// after it. The function and its arguments are evaluated where the defer
// is, as Go does, and handed to the session, which runs them when the
// cell ends; recover() in a deferred function literal asks the session
// for the cell's panic, and a deferred function or method of the cells'
// gets it through a relay (grundyrt.Relay, see funcdefers):
//
//	{ _grundyF1, _grundyA2 := f, x; _grundyDefer(func() { _grundyF1(_grundyA2) }) }
var cellDefers = Pass{
	Name:     "celldefers",
	Run:      runCellDefers,
	Kinds:    []ast.Node{(*ast.DeferStmt)(nil)},
	Snippets: []string{"defer_top_level", "defer_recover"},
}

func runCellDefers(c *Cell) {
	for _, b := range c.TopLevel() {
		applyIn(b, func(cur Cursor) bool {
			if s, ok := cur.Node().(*ast.DeferStmt); ok && cur.TopLevel() {
				cur.Replace(c.sessionDefer(s))
			}
			return true
		})
	}
}

func (c *Cell) sessionDefer(s *ast.DeferStmt) ast.Stmt {
	pos := s.Defer
	if lit, ok := s.Call.Fun.(*ast.FuncLit); ok {
		replaceRecover(lit.Body)
	}
	fun := s.Call.Fun
	fn := c.deferredCallee(fun)
	_, isLit := fun.(*ast.FuncLit)
	relay := (!isLit || c.throughValue(fun)) && !c.nativeCall(fun) // (a literal through a value: a method expression, as methodExprs wrote it)
	bind, later := c.evaluated(s.Call, pos, false)
	var call ast.Stmt = &ast.ExprStmt{X: later}
	if relay {
		// A function that may recover, called by the closure: it takes
		// the cell's panic from a relay (see funcdefers).
		recovered := &ast.CallExpr{Fun: rtSelector(prelude.RTRecover, pos), Lparen: pos, Rparen: pos}
		call = c.relay(recovered, fn, funcLit(pos, s.End(), nil, call), pos, s.End())
	}
	reg := &ast.ExprStmt{X: &ast.CallExpr{Fun: ident(prelude.Defer, pos), Lparen: pos, Rparen: s.End(),
		Args: []ast.Expr{funcLit(pos, s.End(), nil, call)}}}
	return &ast.BlockStmt{Lbrace: pos, List: append(bind, reg), Rbrace: s.End()}
}

// replaceRecover makes recover() in a deferred function literal of a cell
// (not in functions nested in it) ask the session for the cell's panic.
func replaceRecover(b *ast.BlockStmt) {
	ast.Inspect(b, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "recover" && len(x.Args) == 0 {
				// A native call: through an interpreted helper returning
				// it, a panicked value of a cell type on a basic type
				// lost its type (yaegi's valueInterface unwrapped).
				x.Fun = rtSelector(prelude.RTRecover, id.Pos())
			}
		}
		return true
	})
}
