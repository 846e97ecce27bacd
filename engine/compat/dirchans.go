package compat

import (
	"go/ast"
	"go/types"
)

// dirChans: make of a send-only or receive-only channel type
// (make(chan<- int), make(Out) for type Out <-chan T), which Go allows
// and yaegi v0.16.1 hands to reflect.MakeChan (interp/run.go:3452),
// which panics "reflect.MakeChan: unidirectional channel type". The
// call makes the bidirectional channel and converts it, as Go's channel
// is one: make(chan<- int, n) becomes (chan<- int)(make(chan int, n)).
var dirChans = Pass{
	Name:     "dirchans",
	Run:      runDirChans,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"make_directional_channel"},
}

func runDirChans(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || len(call.Args) == 0 || !c.isBuiltin(call.Fun) || call.Fun.(*ast.Ident).Name != "make" {
			return true
		}
		t := c.Types.TypeOf(call.Args[0])
		if t == nil {
			return true
		}
		ch, ok := t.Underlying().(*types.Chan)
		if !ok || ch.Dir() == types.SendRecv {
			return true
		}
		both, ok := c.TypeExpr(types.NewChan(types.SendRecv, ch.Elem()), call.Args[0].Pos())
		if !ok {
			return true
		}
		made := &ast.CallExpr{Fun: call.Fun, Lparen: call.Lparen, Args: append([]ast.Expr{both}, call.Args[1:]...), Rparen: call.Rparen}
		conv := &ast.CallExpr{Fun: &ast.ParenExpr{X: call.Args[0]}, Args: []ast.Expr{made}, Rparen: call.Rparen}
		c.Types.Types[conv] = c.Types.Types[call] // (for the passes after: fmtArgs names its type for %T)
		cur.Replace(conv)
		return true
	})
}
