package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
)

// goroutines: a panic in a goroutine a cell started must be reported, not
// end the kernel. yaegi v0.16.1 runs "go f(x)" on a plain goroutine
// (interp/run.go, the go statement's call), where a panic kills the
// process like any Go program's. Each go statement runs its call through
// the prelude's _grundyGo, whose deferred recover reports the panic; the
// function and its arguments are still evaluated before the goroutine
// starts, as Go does:
//
//	{ _grundyF1, _grundyA2 := f, x; _grundyG3 := func() { _grundyF1(_grundyA2) }; go _grundyGo(_grundyG3) }
//
// The go statement calls a declared function with a variable, never a
// function literal: a literal's closure is read from a slot of the frame
// that closures returning on other goroutines write to (see
// loopClosures), and yaegi ran "go func() func() { ... }()()" with the
// wrong variables.
var goroutines = Pass{
	Name:     "goroutines",
	Run:      runGoroutines,
	Kinds:    []ast.Node{(*ast.GoStmt)(nil)},
	Snippets: []string{"goroutine_panic_ends_cell"},
}

func runGoroutines(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		s, ok := cur.Node().(*ast.GoStmt)
		if !ok {
			return true
		}
		if c.isBuiltin(s.Call.Fun) {
			return true // go println(x): cannot be bound to a variable
		}
		cur.Replace(c.recoveringGo(s))
		return true
	})
}

func (c *Cell) recoveringGo(s *ast.GoStmt) ast.Stmt {
	call := s.Call
	pos := s.Go
	bind, later := c.evaluated(call, pos, false)
	run, isID := later.Fun.(*ast.Ident)
	if !isID || len(later.Args) > 0 || !niladic(c.Types.TypeOf(call.Fun)) {
		// The call made by a function of no arguments and no results.
		run = ident(c.Temp("G"), pos)
		bind = append(bind, define(pos, []ast.Expr{run}, funcLit(pos, s.End(), nil, &ast.ExprStmt{X: later})))
	}
	gocall := &ast.CallExpr{Fun: ident(prelude.Go, pos), Args: []ast.Expr{run}, Lparen: call.Lparen, Rparen: call.Rparen}
	list := append(bind, &ast.GoStmt{Go: pos, Call: gocall})
	return &ast.BlockStmt{Lbrace: pos, List: list, Rbrace: s.End()}
}

// niladic reports whether t is func() (no parameters, no results).
func niladic(t types.Type) bool {
	sig, ok := t.(*types.Signature)
	return ok && sig.Params().Len() == 0 && sig.Results().Len() == 0
}
