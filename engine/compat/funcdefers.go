package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"

	"grundy/engine/prelude"
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
// the called function was made in (interp/run.go, _recover reads f.anc),
// which is where the defer is for a literal or a function called by name
// there, not for one reached through a value (a method value or
// expression, a closure a call returned, a field, an element, a
// parameter) or called by a closure (spread arguments, a method): recover()
// gave nil in it and the panic went on, or a function it called took
// it. Such a call, and in a function that defers several calls one that
// recovers (see deferPanics), is deferred in a literal that recovers the
// panic and hands it to the called function's recover() (grundyrt.Relay,
// keyed by the function: see deferredCallee), raising it again if that
// did not take it:
//
//	{ _grundyF1 := g; _grundyF2 := func() { _grundyF1() }; defer func(_grundyP3 func()) { if _grundyR4 := grundyrt.Relay(recover(), "T.M", _grundyP3); _grundyR4 != nil { panic(_grundyR4) } }(_grundyF2) }
var funcDefers = Pass{
	Name:     "funcdefers",
	Run:      runFuncDefers,
	Kinds:    []ast.Node{(*ast.DeferStmt)(nil)},
	Snippets: []string{"defer_func_args_evaluated", "defer_func_closure_deferred", "defer_recovering_values", "defer_recovering_method"},
}

func runFuncDefers(c *Cell) {
	direct := map[*ast.FuncLit]bool{}
	for _, root := range c.Roots() {
		applyIn(root, func(cur Cursor) bool {
			if s, ok := cur.Node().(*ast.DeferStmt); ok && !cur.TopLevel() {
				if b := c.boundDefer(s, direct, severalDefers(funcBody(cur.FuncNode))); b != nil {
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
func (c *Cell) boundDefer(s *ast.DeferStmt, direct map[*ast.FuncLit]bool, guarded bool) ast.Stmt {
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
	closure := spreadsLater(later) || c.interpretedMethod(s.Call.Fun) && !c.recoveringMethod(s.Call.Fun)
	// A function that may defer several calls runs them through a
	// grundyrt.Deferred (deferpanics), which keeps a panic of one pending
	// for the others: one that recovers takes it from a relay, and a
	// literal that recovers keeps its own panics pending there too,
	// however raised (a runtime error, a helper's panic).
	recovering := guarded && (c.recoveringFunc(s.Call.Fun) || c.recoveringMethod(s.Call.Fun))
	fn := c.deferredCallee(s.Call.Fun)
	if keep && guarded && (lit.Type.Results == nil || len(lit.Type.Results.List) == 0) {
		delete(direct, lit)
		fn = c.litKey(lit)
		relayedRecovers(lit.Body, fn)
		recovering, keep = true, false
	}
	if !keep && (recovering || closure || c.throughValue(s.Call.Fun)) {
		// A function called by a closure or reached through a value:
		// through a relay, which hands it the panic (and stops the
		// panic in the deferring frame, where yaegi let a function the
		// deferred one calls recover it). (yaegi drops the spread of a
		// deferred call, f(xs...) got xs as one argument, and reads a
		// deferred interpreted method's receiver when it calls it,
		// interp/run.go, genFunctionWrapper's rcvr: the closure holds
		// the values it was made with. A native method stays a native
		// deferred call, which runs even after an interrupt: defer
		// wg.Done() must.)
		var b ast.Stmt
		b, later = c.relayed(later, fn, s.End(), direct)
		bind = append(bind, b)
	}
	if len(bind) == 0 && later == s.Call {
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

// throughValue reports whether a deferred call's function is reached
// through a value the interpreter made elsewhere: a variable or a
// parameter, a field, an element, a method expression, a call's result;
// not a function or method called by name, a builtin, a package's
// function or a literal the cell wrote. A variable of a library's named function type
// (context.CancelFunc) is left alone: it holds the library's function,
// which a native deferred call runs even after an interrupt.
func (c *Cell) throughValue(fun ast.Expr) bool {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		v, ok := c.Types.ObjectOf(f).(*types.Var)
		return ok && !libraryFunc(v.Type())
	case *ast.SelectorExpr:
		s := c.Types.Selections[f]
		if s == nil {
			return false // a package's function or variable
		}
		return s.Kind() == types.MethodExpr || s.Kind() == types.FieldVal && !libraryFunc(s.Type())
	case *ast.IndexExpr:
		id, _ := rootIdent(f.X)
		_, generic := c.Types.ObjectOf(id).(*types.Func)
		return !generic
	case *ast.CallExpr, *ast.TypeAssertExpr, *ast.StarExpr:
		return true
	case *ast.FuncLit:
		_, forwards := c.callees[f] // a method expression, as methodExprs wrote it
		return forwards
	}
	return false
}

// libraryFunc reports whether t is a named function type a library
// declares.
func libraryFunc(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() != "main"
}

// relayed is the deferred call of a literal calling call through
// grundyrt.Relay with the panic it recovers, raising again what Relay
// returns. call is made a closure before the defer and handed to the
// literal as its argument: yaegi makes a deferred literal when it calls
// it, where it would read the variables of the loop's last time round.
func (c *Cell) relayed(call *ast.CallExpr, fn string, end token.Pos, direct map[*ast.FuncLit]bool) (bind ast.Stmt, deferred *ast.CallExpr) {
	pos := call.Pos()
	f, p := c.Temp("F"), c.Temp("P")
	bind = define(pos, []ast.Expr{ident(f, pos)}, funcLit(pos, end, nil, &ast.ExprStmt{X: call}))
	recovered := &ast.CallExpr{Fun: ident("recover", pos), Lparen: pos, Rparen: pos}
	check := c.relay(recovered, fn, ident(p, pos), pos, end)
	lit := funcLit(pos, end, nil, check)
	lit.Type.Params.List = []*ast.Field{{Names: []*ast.Ident{ident(p, pos)}, Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}}}}
	direct[lit] = true
	return bind, &ast.CallExpr{Fun: lit, Lparen: end, Args: []ast.Expr{ident(f, pos)}, Rparen: end}
}

// relay is "if r := grundyrt.Relay(recovered, fn, f); r != nil {
// panic(r) }": f, calling the function fn ("" when through a value),
// called with the panic recovered, which fn's recover() takes, and
// raised again (or f's own) when it did not.
func (c *Cell) relay(recovered ast.Expr, fn string, f ast.Expr, pos, end token.Pos) ast.Stmt {
	r := c.Temp("R")
	call := &ast.CallExpr{Fun: rtSelector(prelude.RTRelay, pos), Lparen: pos, Args: []ast.Expr{recovered, stringLit(fn, pos), f}, Rparen: end}
	raise := &ast.ExprStmt{X: &ast.CallExpr{Fun: ident("panic", pos), Lparen: pos, Args: []ast.Expr{ident(r, pos)}, Rparen: end}}
	return &ast.IfStmt{If: pos,
		Init: define(pos, []ast.Expr{ident(r, pos)}, call),
		Cond: &ast.BinaryExpr{X: ident(r, pos), OpPos: pos, Op: token.NEQ, Y: ident("nil", pos)},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{raise}, Rbrace: end}}
}

// deferredCallee is the key of the function a deferred call calls, for
// its relay (see grundyrt.Relayed): f, T.M, a literal's litKey, *.M for
// a method called through an interface (any type's M), "" where it is
// not known (a parameter, a field, an element, a call's result, a
// variable assigned other values: any function may take the panic).
func (c *Cell) deferredCallee(fun ast.Expr) string {
	if k, ok := c.callees[fun]; ok {
		return k
	}
	switch f := ast.Unparen(unindex(fun)).(type) {
	case *ast.Ident:
		switch obj := c.Types.ObjectOf(f).(type) {
		case *types.Func:
			return funcKeyOf(obj)
		case *types.Var:
			return c.varCallee(obj)
		}
	case *ast.SelectorExpr:
		if sel := c.Types.Selections[f]; sel != nil && sel.Kind() != types.FieldVal {
			if m, ok := sel.Obj().(*types.Func); ok {
				return methodCallee(sel.Recv(), m)
			}
		}
	}
	return ""
}

// methodCallee is deferredCallee of the method m of recv.
func methodCallee(recv types.Type, m *types.Func) string {
	if types.IsInterface(recv) {
		return "*." + m.Name()
	}
	return funcKeyOf(m)
}

// varCallee is deferredCallee of a call of the variable v: the one
// function the cell assigns it, or "" when it assigns it other values
// too, or v is a parameter or a package's variable.
func (c *Cell) varCallee(v *types.Var) string {
	if c.isParam(v) {
		return ""
	}
	keys := map[string]bool{}
	for _, e := range c.localInits()[v] {
		switch x := ast.Unparen(e).(type) {
		case *ast.FuncLit:
			keys[c.litKey(x)] = true
			continue
		case *ast.Ident:
			if fn, ok := c.Types.ObjectOf(x).(*types.Func); ok {
				keys[funcKeyOf(fn)] = true
				continue
			}
		case *ast.SelectorExpr:
			if sel := c.Types.Selections[x]; sel != nil && sel.Kind() == types.MethodVal {
				if m, ok := sel.Obj().(*types.Func); ok {
					keys[methodCallee(sel.Recv(), m)] = true
					continue
				}
			}
		}
		if k, ok := c.callees[e]; ok {
			keys[k] = true // a method value, as methodValues wrote it
			continue
		}
		return ""
	}
	if len(keys) != 1 {
		return ""
	}
	for k := range keys {
		return k
	}
	return ""
}

// isParam reports whether v is a parameter (or result) of a function the
// cell declares, or a package-level variable: its value comes from
// elsewhere.
func (c *Cell) isParam(v *types.Var) bool {
	if cellGlobal(v) {
		return true
	}
	found := false
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			var ft *ast.FuncType
			switch n := n.(type) {
			case *ast.FuncDecl:
				ft = n.Type
			case *ast.FuncLit:
				ft = n.Type
			default:
				return !found
			}
			for _, l := range []*ast.FieldList{ft.Params, ft.Results} {
				if l == nil {
					continue
				}
				for _, f := range l.List {
					for _, id := range f.Names {
						found = found || c.Types.Defs[id] == v
					}
				}
			}
			return !found
		})
	}
	return found
}

// noteCallee records that e, an expression a pass wrote, is a function
// value calling the function key (see deferredCallee).
func (c *Cell) noteCallee(e ast.Expr, key string) {
	if c.callees == nil {
		c.callees = map[ast.Expr]string{}
	}
	c.callees[e] = key
}
