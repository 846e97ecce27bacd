package compat

import (
	"go/ast"
	"go/token"

	"grundy/engine/prelude"
)

// goroutines: a panic in a goroutine a cell started must be reported, not
// end the kernel. yaegi v0.16.1 runs "go f(x)" on a plain goroutine
// (interp/run.go, the go statement's call), where a panic kills the
// process like any Go program's. Each go statement gets a deferred
// recover that reports the panic; the function and its arguments are
// still evaluated before the goroutine starts, as Go does:
//
//	{ _grundyF1, _grundyA2 := f, x; go func() { defer ...; _grundyF1(_grundyA2) }() }
var goroutines = Pass{
	Name:     "goroutines",
	Run:      runGoroutines,
	Kinds:    []ast.Node{(*ast.GoStmt)(nil)},
	Snippets: []string{"goroutine_panic_reported"},
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
	bind, later := c.evaluated(call, pos)
	recoverer := &ast.DeferStmt{Defer: pos, Call: called(funcLit(pos, pos, nil, &ast.IfStmt{
		If:   pos,
		Init: define(pos, []ast.Expr{ident("r", pos)}, called(ident("recover", pos))),
		Cond: &ast.BinaryExpr{X: ident("r", pos), Op: token.NEQ, Y: ident("nil", pos), OpPos: pos},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: &ast.CallExpr{Fun: ident(prelude.GoPanic, pos), Args: []ast.Expr{ident("r", pos)}}}}},
	}))}
	gofn := funcLit(pos, s.End(), nil, recoverer, &ast.ExprStmt{X: later})
	list := []ast.Stmt{&ast.GoStmt{Go: pos, Call: &ast.CallExpr{Fun: gofn, Lparen: call.Lparen, Rparen: call.Rparen}}}
	if bind != nil {
		list = append([]ast.Stmt{bind}, list...)
	}
	return &ast.BlockStmt{Lbrace: pos, List: list, Rbrace: s.End()}
}
