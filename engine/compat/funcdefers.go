package compat

import (
	"go/ast"
	"go/parser"
	"go/types"
)

// funcDefers: a defer statement in a function evaluates the function
// value, the receiver and the arguments where it stands; yaegi v0.16.1
// keeps the places the arguments are read from, not their values, and
// reads them when the function returns (interp/run.go, the deferStmt case
// of call and callBin, which stores genValue's result for the frame), so
// "defer fmt.Println(x)" printed x as it was at the return, "defer
// l.Log()" used l as changed after the defer, and "defer func() { ... i
// ... }()" in a loop saw only the last iteration's i. The values are bound
// to new variables before the defer (see evaluated):
//
//	{ _grundyR1, _grundyA2 := l, x; defer _grundyR1.Log(_grundyA2) }
//
// yaegi also deadlocks when a function's deferred calls call a closure the
// function created (traefik/yaegi#1697): running the deferred calls holds
// the frame's lock (interp/run.go, runCfg) and the closure takes the lock
// of the frame it was made in when it returns (interp/run.go, getFunc).
// So in a function that defers, each function literal is made by a
// function literal of its own, in a frame nobody holds:
//
//	cleanup := func() func() { return func() { ... } }()
//
// A deferred literal that calls recover() stays as it is (only its
// arguments are bound): yaegi's recover reads the panic from the frame
// that called the deferred function (interp/run.go, _recover), which a
// closure made elsewhere does not have.
var funcDefers = Pass{
	Name:     "funcdefers",
	Run:      runFuncDefers,
	Kinds:    []ast.Node{(*ast.DeferStmt)(nil)},
	Snippets: []string{"defer_func_args_evaluated", "defer_func_closure_deferred", "defer_recovering_variable_refused", "defer_recovering_method"},
}

func runFuncDefers(c *Cell) {
	c.refuseRecoveringVars()
	if c.err != nil {
		return
	}
	direct := map[*ast.FuncLit]bool{}
	for _, root := range c.Roots() {
		applyIn(root, func(cur Cursor) bool {
			if s, ok := cur.Node().(*ast.DeferStmt); ok && !cur.TopLevel() {
				if b := c.boundDefer(s, direct); b != nil {
					cur.Replace(b)
				}
			}
			return true
		})
	}
	defers := map[ast.Node]bool{}
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			body := funcBody(n)
			if body != nil && contains(body, true, func(n ast.Node) bool { _, ok := n.(*ast.DeferStmt); return ok }) {
				defers[n] = true
			}
			return true
		})
	}
	for _, root := range c.Roots() {
		applyIn(root, func(cur Cursor) bool {
			if lit, ok := cur.Node().(*ast.FuncLit); ok && defers[cur.FuncNode] && !direct[lit] {
				cur.Replace(madeApart(lit))
			}
			return true
		})
	}
}

// boundDefer is a defer statement with its values bound first; nil when
// there is nothing to bind. A deferred literal that recovers is noted in
// direct.
func (c *Cell) boundDefer(s *ast.DeferStmt, direct map[*ast.FuncLit]bool) ast.Stmt {
	if isIdent(s.Call.Fun, "recover") && c.isBuiltin(s.Call.Fun) {
		return nil
	}
	lit, isLit := s.Call.Fun.(*ast.FuncLit)
	keep := isLit && c.callsRecover(lit.Body)
	if keep {
		direct[lit] = true
	}
	pos := s.Call.Pos()
	bind, later := c.evaluated(s.Call, pos, keep)
	if sel, ok := s.Call.Fun.(*ast.SelectorExpr); ok && c.Types.Selections[sel] != nil && ifaceMethod(c.Types.Selections[sel].Obj()) && !hasTypeParam(c.Types.Selections[sel].Recv()) {
		if bound, ok := later.Fun.(*ast.SelectorExpr); ok {
			// defer s.String() of a nil interface panics at the defer in
			// Go; yaegi's at the call, after the rest of the function.
			bind = append(bind, nilIfaceCheck(bound.X, pos))
		}
	}
	if !keep && (later.Ellipsis.IsValid() || c.interpretedMethod(s.Call.Fun) && !c.recoveringMethod(s.Call.Fun)) {
		// yaegi drops the spread of a deferred call (f(xs...) got xs as
		// one argument), and reads a deferred interpreted method's
		// receiver when it calls it (interp/run.go, genFunctionWrapper's
		// rcvr): the call is made by a closure instead, which holds the
		// values it was made with. (A native method stays a native
		// deferred call, which runs even after an interrupt: defer
		// wg.Done() must.)
		f := c.Temp("F")
		// (made apart below, as every literal in a function that defers)
		bind = append(bind, define(pos, []ast.Expr{ident(f, pos)}, funcLit(pos, s.End(), nil, &ast.ExprStmt{X: later})))
		later = &ast.CallExpr{Fun: ident(f, pos), Lparen: later.Lparen, Rparen: later.Rparen}
	}
	if len(bind) == 0 {
		return nil
	}
	return &ast.BlockStmt{Lbrace: s.Defer, List: append(bind, &ast.DeferStmt{Defer: s.Defer, Call: later}), Rbrace: s.End()}
}

// interpretedMethod reports whether fun is a method call whose method may
// be interpreted: a cell type's, or an interface's (whatever the dynamic
// type is).
func (c *Cell) interpretedMethod(fun ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := c.Types.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return false
	}
	m := s.Obj()
	return m.Pkg() == nil || m.Pkg().Path() == "main" || types.IsInterface(s.Recv())
}

// recoveringMethod reports whether fun is a method of a cell type whose
// body calls recover(): deferred, it must be called by the deferred call
// itself (in a closure it recovered nothing, and the panic went on); its
// receiver, bound to a variable of its own before the defer, reads the
// same when the interpreter reads it late.
func (c *Cell) recoveringMethod(fun ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := c.Types.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return false
	}
	if types.IsInterface(s.Recv()) {
		// Through an interface (defer i.M()): any cell type's method of
		// the name that recovers.
		for _, tn := range c.Types.CellTypes() {
			for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
				sel := types.NewMethodSet(t).Lookup(s.Obj().Pkg(), s.Obj().Name())
				if sel == nil {
					continue
				}
				if m, ok := sel.Obj().(*types.Func); ok && recovers(c.funcDecl(funcKeyOf(m))) {
					return true
				}
			}
		}
		return false
	}
	return recovers(c.funcDecl(funcKeyOf(s.Obj().(*types.Func))))
}

// recoveringFunc reports whether fun names a function of the session
// (not a method) whose body calls recover(): deferred, it must be called
// by the deferred call itself (see recoveringMethod).
func (c *Cell) recoveringFunc(fun ast.Expr) bool {
	id, ok := unindex(fun).(*ast.Ident)
	if !ok {
		return false
	}
	fn, ok := c.Types.ObjectOf(id).(*types.Func)
	return ok && cellGlobal(fn) && recovers(c.funcDecl(id.Name))
}

// recovers reports whether fd's body calls recover() itself (not in a
// function literal). Syntactically: an earlier cell's declaration, as
// compiled, has no types here.
func recovers(fd *ast.FuncDecl) bool {
	return fd != nil && fd.Body != nil && contains(fd.Body, true, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		return ok && isIdent(call.Fun, "recover") && len(call.Args) == 0
	})
}

// callsRecover reports whether a function body calls recover() itself.
func (c *Cell) callsRecover(body *ast.BlockStmt) bool {
	return contains(body, true, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		return ok && isIdent(call.Fun, "recover") && c.isBuiltin(call.Fun)
	})
}

// madeApart is func() T { return lit }(), T being lit's type: the
// literal's closure is made in a frame of its own.
func madeApart(lit *ast.FuncLit) ast.Expr {
	pos := lit.Pos()
	t, err := parser.ParseExpr(ExprString(lit.Type))
	if err != nil {
		return lit
	}
	maker := funcLit(pos, lit.End(), results(AtPos(t, pos)), &ast.ReturnStmt{Return: pos, Results: []ast.Expr{lit}})
	return &ast.CallExpr{Fun: maker, Lparen: lit.End(), Rparen: lit.End()}
}

// refuseRecoveringVars refuses "defer h()" in a function, h a variable
// holding a function literal that calls recover(): the literal's closure
// does not see the panic (yaegi's recover reads it from the frame the
// closure was made in, interp/run.go, _recover and getFunc), so the panic
// would go on. Written in the defer statement, the literal recovers.
func (c *Cell) refuseRecoveringVars() {
	recovering := map[types.Object]bool{}
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, r := range as.Rhs {
				id, isID := as.Lhs[i].(*ast.Ident)
				if lit, isLit := r.(*ast.FuncLit); isID && isLit && c.callsRecover(lit.Body) {
					if obj := c.Types.ObjectOf(id); obj != nil && !cellGlobal(obj) {
						recovering[obj] = true
					}
				}
			}
			return true
		})
	}
	if len(recovering) == 0 {
		return
	}
	for _, root := range c.Roots() {
		applyIn(root, func(cur Cursor) bool {
			if s, ok := cur.Node().(*ast.DeferStmt); ok && !cur.TopLevel() {
				if id, isID := s.Call.Fun.(*ast.Ident); isID && recovering[c.Types.ObjectOf(id)] {
					c.Fail(s.Pos(), "a deferred variable holding a function literal that calls recover() (%s) cannot stop the panic here: write the literal in the defer statement, defer func() { ... }()", id.Name)
				}
			}
			return c.err == nil
		})
	}
}
