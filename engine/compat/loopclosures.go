package compat

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// loopClosures: a function literal in a loop could evaluate to the
// closure an earlier iteration made, or to nil, when that closure
// returned on another goroutine at the wrong moment. yaegi v0.16.1 keeps
// a literal's closure in one slot of the frame it is made in, and each
// closure puts back the slot's earlier value when it returns
// (interp/run.go, getFunc: "getFrame(f, l).data[i] = o"). A goroutine of
// iteration 1 returning between iteration 2's making of its closure and
// its use of it left iteration 1's closure, or nil, in its place: "go
// func() { ... }()" in a loop ran the previous iteration's closure
// (counts under a mutex came out short, the increments landing on the
// previous iteration's variables) or panicked "call of nil function".
// Each literal in a loop that may run its closures on other goroutines
// (one with a go statement or a channel send, or one that hands a
// function to a function of the session, as g.Go(func() error { ... })
// of a hand-written errgroup does; or a literal handed to native code)
// is made in a frame of its own (madeApart), which only that
// closure's return writes to; elsewhere the extra call would cost a loop
// that makes a closure each iteration half as much time again:
//
//	for ... { work := func() func() { return func() { ... } }(); ... }
//
// A literal called where it stands (func() { ... }(), deferred, or by a
// go statement, which goroutines leaves to none) is left alone: its
// closure returns before the loop goes on, on the same goroutine. The
// pass runs last: it needs no types, and the literals the other passes
// write (goroutines' function of no arguments) are in loops too.
var loopClosures = Pass{
	Name:     "loopclosures",
	Run:      runLoopClosures,
	Kinds:    []ast.Node{(*ast.FuncLit)(nil)},
	Snippets: []string{"closures_in_loops_each_their_own", "goroutines_closures_in_loops", "goroutines_closures_handed_to_cell_funcs"},
}

func runLoopClosures(c *Cell) {
	type scope struct {
		loops      int  // loops around the node in this function
		concurrent bool // the outermost of them starts goroutines or sends
	}
	made := map[ast.Node]bool{} // literals among the cell's statements made apart
	for _, root := range c.Roots() {
		// For each function around the node, the cell's top level first.
		scopes := []scope{{}}
		astutil.Apply(root, func(cur *astutil.Cursor) bool {
			switch n := cur.Node().(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				scopes = append(scopes, scope{})
			case *ast.ForStmt, *ast.RangeStmt:
				sc := &scopes[len(scopes)-1]
				if sc.loops == 0 {
					sc.concurrent = c.startsGoroutines(n)
				}
				sc.loops++
			}
			return true
		}, func(cur *astutil.Cursor) bool {
			switch n := cur.Node().(type) {
			case *ast.FuncDecl:
				scopes = scopes[:len(scopes)-1]
			case *ast.ForStmt, *ast.RangeStmt:
				scopes[len(scopes)-1].loops--
			case *ast.FuncLit:
				scopes = scopes[:len(scopes)-1]
				sc := scopes[len(scopes)-1]
				if sc.loops > 0 && !calledInPlace(cur) && (sc.concurrent || c.handedToNative(cur)) {
					m := madeApart(n)
					cur.Replace(m)
					if len(scopes) == 1 && root == ast.Node(c.Stmts) {
						made[m] = true
					}
				}
			}
			return true
		})
	}
	if len(made) > 0 {
		c.loopsInFuncs(made)
	}
}

// loopsInFuncs puts each compound statement among the cell's statements
// that has a literal made apart into a function called where it stands.
// At top level the variables a loop declares are yaegi's globals, which a
// closure made by another closure reads as they are now (interp/interp.go,
// frame.clone keeps the root frame), not as they were in its iteration:
// in a function they are the function's. (A statement with a goto is
// left alone: its label may be outside.)
func (c *Cell) loopsInFuncs(made map[ast.Node]bool) {
	for i, st := range c.Stmts.List {
		switch st.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.LabeledStmt, *ast.BlockStmt, *ast.IfStmt,
			*ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		default:
			continue
		}
		apart := contains(st, false, func(n ast.Node) bool { return made[n] })
		gotos := contains(st, false, func(n ast.Node) bool {
			b, ok := n.(*ast.BranchStmt)
			return ok && b.Tok == token.GOTO
		})
		if apart && !gotos {
			c.Stmts.List[i] = &ast.ExprStmt{X: called(funcLit(st.Pos(), st.End(), nil, st))}
		}
	}
}

// startsGoroutines reports whether a loop may run its closures on other
// goroutines while it goes on: it has a go statement, sends on a channel
// (to workers started before it), or hands a function to a function of
// the session, which may start a goroutine to run it (the go statement
// is then in the callee, out of the loop's sight).
func (c *Cell) startsGoroutines(loop ast.Node) bool {
	return contains(loop, false, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt, *ast.SendStmt:
			return true
		case *ast.CallExpr:
			return c.handsFuncToSession(n)
		}
		return false
	})
}

// handsFuncToSession reports whether call passes a function (a literal
// or a value of func type) to a function the session declares that may
// run it on another goroutine (runsFuncsElsewhere), or to a function
// value. Calls the passes wrote have no types and are left out.
func (c *Cell) handsFuncToSession(call *ast.CallExpr) bool {
	fn := c.callee(call)
	if fn != nil {
		// Its type arguments may be written in by typeArgs: the callee
		// is found under them.
		if fn.Pkg() == nil || fn.Pkg().Path() != c.Types.Pkg.Path() {
			return false
		}
	} else if t := c.Types.TypeOf(call.Fun); t == nil || c.Types.IsType(call.Fun) || c.isBuiltin(call.Fun) {
		return false
	} else if _, fv := t.Underlying().(*types.Signature); !fv {
		return false
	}
	for _, a := range call.Args {
		_, lit := a.(*ast.FuncLit)
		if t := c.Types.TypeOf(a); t != nil && !lit {
			_, lit = t.Underlying().(*types.Signature)
		}
		if lit {
			return fn == nil || c.runsFuncsElsewhere(fn)
		}
	}
	return false
}

// runsFuncsElsewhere reports whether the session's function fn may run a
// function it is handed on another goroutine, or keep it for one: its
// body (as compiled) starts a goroutine, sends on a channel, makes a
// closure, or uses a parameter of func type other than by calling it.
// Unknown (an interface's method): true. apply(xs, f) that only calls f
// leaves its callers' loops alone, which a made-apart closure would cost
// a third more on a loop that makes one each iteration.
func (c *Cell) runsFuncsElsewhere(fn *types.Func) bool {
	fd := c.funcDecl(funcKeyOf(fn))
	if fd == nil || fd.Body == nil {
		return true
	}
	funcParams := map[string]bool{}
	params := fn.Type().(*types.Signature).Params()
	for i := range params.Len() {
		t := params.At(i).Type()
		if s, ok := t.Underlying().(*types.Slice); ok {
			t = s.Elem() // ...func()
		}
		if _, ok := t.Underlying().(*types.Signature); ok {
			funcParams[params.At(i).Name()] = true
		}
	}
	called := map[*ast.Ident]bool{}
	return contains(fd.Body, false, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt, *ast.SendStmt, *ast.FuncLit:
			return true
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok {
				called[id] = true
			}
		case *ast.Ident:
			return funcParams[n.Name] && !called[n]
		}
		return false
	})
}

// handedToNative reports whether the literal at cur is an argument of a
// call to a native function (wg.Go, time.AfterFunc, ...), which may run
// it on a goroutine of its own; or of a call the passes wrote.
func (c *Cell) handedToNative(cur *astutil.Cursor) bool {
	call, ok := cur.Parent().(*ast.CallExpr)
	if !ok || cur.Name() != "Args" {
		return false
	}
	fn := c.callee(call)
	return fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "main"
}

// calledInPlace reports whether the literal at cur is called where it
// stands (or deferred).
func calledInPlace(cur *astutil.Cursor) bool {
	_, ok := cur.Parent().(*ast.CallExpr)
	return ok && cur.Name() == "Fun"
}
