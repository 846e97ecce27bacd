package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
)

// loggerFatal: Fatal, Fatalf and Fatalln of a *log.Logger (l.Fatal(...),
// log.Default().Fatalf(...), a method value or expression, or promoted
// from a cell struct embedding one). Go's exit the program: in a session
// that is the engine's process, which died ("the engine process exited
// with status 1"). yaegi keeps a logger from exiting by giving cells its
// own logger type (yaegi stdlib/restricted.go, logNew), which lacks
// SetPrefix (l.SetPrefix: "undefined method") and is no *log.Logger; the
// engine's symbols give cells log's own New, and this pass has the
// logger's Fatal log and stop the cell as os.Exit(1) does, as the
// engine's log.Fatal does (a script ends with status 1):
//
//	l.Fatalf("heap %d", n)  =>  grundyrt.LogFatalf(l)("heap %d", n)
//
// A method expression, or Fatal promoted from an embedded logger, calls
// Panic, Panicf or Panicln instead: the message is logged, and the cell
// stops with it as a panic.
var loggerFatal = Pass{
	Name:     "loggerfatal",
	Run:      runLoggerFatal,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil)},
	Snippets: []string{"logger_fatal_does_not_exit"},
}

var loggerFatals = map[string]struct{ panic, exit string }{
	"Fatal":   {"Panic", prelude.RTLogFatal},
	"Fatalf":  {"Panicf", prelude.RTLogFatalf},
	"Fatalln": {"Panicln", prelude.RTLogFatalln},
}

func runLoggerFatal(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		sel, ok := cur.Node().(*ast.SelectorExpr)
		if !ok {
			return true
		}
		to, fatal := loggerFatals[sel.Sel.Name]
		if !fatal {
			return true
		}
		s := c.Types.Selections[sel]
		if s == nil {
			return true
		}
		fn, ok := s.Obj().(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "log" {
			return true
		}
		if s.Kind() == types.MethodVal && len(s.Index()) == 1 {
			cur.Replace(&ast.CallExpr{Fun: rtSelector(to.exit, sel.Pos()), Lparen: sel.Pos(), Args: []ast.Expr{sel.X}, Rparen: sel.End()})
			return true
		}
		sel.Sel = ident(to.panic, sel.Sel.Pos())
		return true
	})
}
