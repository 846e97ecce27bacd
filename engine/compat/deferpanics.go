package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"grundy/engine/prelude"
)

// deferPanics: a deferred call that panics. Go runs the function's other
// deferred calls, and a later one that calls recover() stops the new
// panic; yaegi v0.16.1 runs a function's deferred calls in a loop the
// panic leaves (interp/run.go, runCfg), so the other calls did not run and
// the panic went on. In a function that can defer two calls or more, each
// deferred call runs through a grundyrt.Deferred (which keeps its panic
// pending), recover() and panic() in a deferred literal that recovers
// go through it too, and its Done, deferred first, raises a panic no one
// recovered:
//
//	_grundyD1 := grundyrt.NewDeferred()
//	defer _grundyD1.Done()
//	...
//	{ _grundyF2 := func() func() { return func() { cleanup(x) } }(); defer _grundyD1.Run(_grundyF2) }
//	defer func() { if r := _grundyD1.Recover(recover()); r != nil { ... } }()
//
// It runs after funcdefers, whose bound deferred calls it wraps.
var deferPanics = Pass{
	Name:     "deferpanics",
	Run:      runDeferPanics,
	Kinds:    []ast.Node{(*ast.DeferStmt)(nil)},
	Snippets: []string{"defer_panic_runs_other_defers"},
}

func runDeferPanics(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			body := funcBody(n)
			if body != nil && severalDefers(body) {
				c.guardDefers(body)
			}
			return true
		})
	}
}

// severalDefers reports whether a function body can defer more than one
// call: two defer statements, or one in a loop.
func severalDefers(body *ast.BlockStmt) bool {
	n := 0
	var walk func(x ast.Node, loop bool)
	walk = func(x ast.Node, loop bool) {
		ast.Inspect(x, func(x ast.Node) bool {
			switch s := x.(type) {
			case *ast.FuncLit:
				return false
			case *ast.DeferStmt:
				n++
				if loop {
					n++
				}
			case *ast.ForStmt:
				walk(s.Body, true)
				return false
			case *ast.RangeStmt:
				walk(s.Body, true)
				return false
			}
			return true
		})
	}
	walk(body, false)
	return n > 1
}

func (c *Cell) guardDefers(body *ast.BlockStmt) {
	pos := body.Lbrace
	d := c.Temp("D")
	call := func(method string, args ...ast.Expr) *ast.CallExpr {
		return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(d, pos), Sel: ident(method, pos)}, Lparen: pos, Args: args, Rparen: pos}
	}
	guarded := false
	applyIn(body, func(cur Cursor) bool {
		s, ok := cur.Node().(*ast.DeferStmt)
		if !ok || cur.FuncNode != nil {
			return true // (cur.FuncNode: a function nested in body)
		}
		if lit, isLit := s.Call.Fun.(*ast.FuncLit); isLit && c.callsRecover(lit.Body) {
			c.throughDeferred(lit, d, pos)
			guarded = true
			return true
		}
		if c.nativeDeferred(s.Call.Fun) || c.recoveringFunc(s.Call.Fun) || c.recoveringMethod(s.Call.Fun) {
			// (A function that calls recover() must be called by the
			// deferred call itself: in the closure Run calls, recover()
			// found nothing and the panic went on. funcdefers defers one
			// it knows through a relay, a literal that recovers, which
			// takes a panic another deferred call left pending.)
			return true
		}
		f := c.Temp("F")
		later := madeApart(funcLit(s.Pos(), s.End(), nil, &ast.ExprStmt{X: s.Call}))
		cur.Replace(&ast.BlockStmt{Lbrace: s.Pos(), List: []ast.Stmt{
			define(s.Pos(), []ast.Expr{ident(f, s.Pos())}, later),
			&ast.DeferStmt{Defer: s.Defer, Call: call(prelude.DeferredRun, ident(f, s.Pos()))},
		}, Rbrace: s.End()})
		guarded = true
		return true
	})
	if !guarded {
		return
	}
	made := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(prelude.RTDeferred, pos)}, Lparen: pos, Rparen: pos}
	body.List = append([]ast.Stmt{
		define(pos, []ast.Expr{ident(d, pos)}, made),
		&ast.DeferStmt{Defer: pos, Call: call(prelude.DeferredDone)},
	}, body.List...)
}

// nativeDeferred reports whether a deferred call (as funcdefers wrote it)
// calls native code: a builtin, a package's function, a native method on
// a bound receiver (funcdefers turns the others into closures). It stays
// as it is: a native deferred call runs even after the cell was
// interrupted (defer wg.Done() must), an interpreted wrapper would not.
// (A native call that panics still stops the other deferred calls.)
func (c *Cell) nativeDeferred(fun ast.Expr) bool {
	f := unindex(fun)
	if c.builtinOrPackageFunc(f) {
		return true
	}
	sel, ok := f.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && strings.HasPrefix(x.Name, tempPrefix) // R.M: a native method
}

// nativeCall is nativeDeferred before funcdefers binds the receivers: a
// builtin, a package's function, or a method of a library's type called
// on a value (not through an interface).
func (c *Cell) nativeCall(fun ast.Expr) bool {
	if c.builtinOrPackageFunc(fun) {
		return true
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := c.Types.Selections[sel]
	return s != nil && s.Kind() == types.MethodVal && !c.interpretedMethod(fun)
}

// builtinOrPackageFunc reports whether fun is a builtin or a package's
// function (pkg.F).
func (c *Cell) builtinOrPackageFunc(fun ast.Expr) bool {
	switch f := fun.(type) {
	case *ast.Ident:
		return c.isBuiltin(f)
	case *ast.SelectorExpr:
		x, ok := f.X.(*ast.Ident)
		if !ok {
			return false
		}
		_, pkg := c.Types.ObjectOf(x).(*types.PkgName)
		return pkg
	}
	return false
}

// throughDeferred makes recover() in a deferred literal take a pending
// panic first, and panic(v) in it (outside functions nested in it) leave
// v pending and return, so the deferred calls after it still run; not
// where the literal defers calls of its own, which must see the panic
// (defer mustRecover(3); panic(3)).
func (c *Cell) throughDeferred(lit *ast.FuncLit, d string, pos token.Pos) {
	keepPanics := lit.Type.Results != nil && len(lit.Type.Results.List) > 0 || contains(lit.Body, true, func(n ast.Node) bool {
		_, isDefer := n.(*ast.DeferStmt)
		return isDefer
	})
	applyIn(lit.Body, func(cur Cursor) bool {
		if cur.FuncNode != nil {
			return true
		}
		switch x := cur.Node().(type) {
		case *ast.CallExpr:
			if isIdent(x.Fun, "recover") && c.isBuiltin(x.Fun) {
				cur.Replace(&ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(d, x.Pos()), Sel: ident(prelude.DeferredRecover, x.Pos())}, Lparen: x.Pos(), Args: []ast.Expr{x}, Rparen: x.End()})
			}
		case *ast.ExprStmt:
			call, ok := x.X.(*ast.CallExpr)
			if !ok || keepPanics || len(call.Args) != 1 || !isIdent(call.Fun, "panic") || !c.isBuiltin(call.Fun) {
				return true
			}
			raise := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(d, x.Pos()), Sel: ident(prelude.DeferredRaise, x.Pos())}, Lparen: x.Pos(), Args: call.Args, Rparen: x.End()}
			cur.Replace(&ast.BlockStmt{Lbrace: x.Pos(), List: []ast.Stmt{&ast.ExprStmt{X: raise}, &ast.ReturnStmt{Return: x.Pos()}}, Rbrace: x.End()})
		}
		return true
	})
}
