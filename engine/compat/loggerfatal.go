package compat

import (
	"go/ast"
	"go/types"
)

// loggerFatal: Fatal, Fatalf and Fatalln of a *log.Logger (l.Fatal(...),
// log.Default().Fatalf(...), a method value or expression, or promoted
// from a cell struct embedding one). Go's exit the program: in a session
// that is the engine's process, which died ("the engine process exited
// with status 1"). yaegi keeps a logger from exiting by giving cells its
// own logger type (yaegi stdlib/restricted.go, logNew), which lacks
// SetPrefix (l.SetPrefix: "undefined method") and is no *log.Logger; the
// engine's symbols give cells log's own New, and this pass calls Panic, Panicf and
// Panicln instead, as the engine's log.Fatal does: the message is logged,
// and the cell stops with it as a panic.
var loggerFatal = Pass{
	Name:     "loggerfatal",
	Run:      runLoggerFatal,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil)},
	Snippets: []string{"logger_fatal_does_not_exit"},
}

var loggerFatals = map[string]string{"Fatal": "Panic", "Fatalf": "Panicf", "Fatalln": "Panicln"}

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
		sel.Sel = ident(to, sel.Sel.Pos())
		return true
	})
}
