package compat

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"

	"grundy/engine/prelude"
)

// rangeFunc: range over a function iterator (Go 1.23). yaegi v0.16.1
// ranges only over collections and channels (interp/cfg.go:145), so
//
//	for k, v := range seq { body }
//
// becomes
//
//	seq(func(k K, v V) bool { body'; return true })
//
// where body' says "return true" for continue and "return false" for
// break. Jumps out of the loop (break or continue to an outer label,
// return from the enclosing function) set a hidden variable, stop the
// iterator and are taken after the call. K and V are the yield function's
// parameter types, from the oracle. A defer belongs to the enclosing
// function, not to the literal: its function and arguments are bound
// where it stands and kept in a list that a defer placed before the loop
// runs, last first, when the enclosing function returns (at top level,
// the session runs it when the cell ends, as cellDefers does):
//
//	{ var _grundyD1 []func(); defer func() { ...run _grundyD1 backwards... }()
//	seq(func(x T) bool { ...; _grundyD1 = append(_grundyD1, func() { f(x) }); ... }) }
//
// A goto out of such a body, and a deferred recover, cannot keep their
// meaning there and are refused.
var rangeFunc = Pass{
	Name:     "rangefunc",
	Run:      runRangeFunc,
	Kinds:    []ast.Node{(*ast.RangeStmt)(nil), (*ast.FuncType)(nil)},
	Snippets: []string{"range_func_iter_decl", "range_func_iter_library", "range_func_iter_seq2_jumps", "maps_range_keys", "range_func_continued_after_break", "range_func_type_param", "range_func_continued_after_exit", "range_func_recovered_body_panic"},
}

func runRangeFunc(c *Cell) {
	c.keepsYield() // (recorded for the session, also in a cell without a range)
	c.Apply(func(cur Cursor) bool {
		var label string
		s, ok := cur.Node().(*ast.RangeStmt)
		if l, isLabel := cur.Node().(*ast.LabeledStmt); isLabel {
			s, ok = l.Stmt.(*ast.RangeStmt)
			label = l.Label.Name
		}
		if !ok {
			return true
		}
		if _, parentLabel := cur.Parent().(*ast.LabeledStmt); parentLabel {
			return true // rewritten with its label
		}
		elems, ok := c.iterElems(s.X)
		if !ok {
			return true
		}
		if out := c.yieldCall(s, label, cur.Func, elems); out != nil {
			cur.Replace(out)
		}
		return true
	})
}

// callee is the function a call calls by name (pkg.F, F, F[T]), or nil.
func (c *Cell) callee(call *ast.CallExpr) *types.Func {
	id := calleeIdent(call)
	if id == nil {
		return nil
	}
	fn, _ := c.Types.ObjectOf(id).(*types.Func)
	return fn
}

// interpreted reports whether call calls a function the session declares,
// or one the oracle cannot name (a function value): not a native one.
func (c *Cell) interpreted(call *ast.CallExpr) bool {
	fn := c.callee(call)
	return fn == nil || fn.Pkg() == nil || fn.Pkg().Path() == c.Types.Pkg.Path()
}

// unindex drops explicit type arguments: f[T] -> f.
func unindex(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.IndexExpr:
		return x.X
	case *ast.IndexListExpr:
		return x.X
	}
	return e
}

// yieldSignature is the yield function of an iterator type
// func(yield func(...) bool) with at most two elements.
func yieldSignature(t types.Type) (*types.Signature, bool) {
	if t == nil {
		return nil, false
	}
	sig, ok := rangedType(t).(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 0 || sig.Variadic() {
		return nil, false
	}
	y, ok := sig.Params().At(0).Type().Underlying().(*types.Signature)
	if !ok || y.Results().Len() != 1 || y.Params().Len() > 2 || y.Variadic() {
		return nil, false
	}
	if b, ok := y.Results().At(0).Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return nil, false
	}
	return y, true
}

// iterElems is the element types of the function iterator e, as source
// (none for func(yield func() bool)); ok is false when e is not one. An
// element type the cell cannot name refuses the cell.
func (c *Cell) iterElems(e ast.Expr) ([]ast.Expr, bool) {
	y, ok := yieldSignature(c.Types.TypeOf(e))
	if !ok {
		return nil, false
	}
	var elems []ast.Expr
	for i := range y.Params().Len() {
		t := y.Params().At(i).Type()
		x, ok := c.TypeExpr(t, e.Pos())
		if !ok {
			c.Fail(e.Pos(), "cannot name the element type %s of this function iterator here; call it with a yield function instead: seq(func(x T) bool { ...; return true })", t)
			return nil, false
		}
		if name := c.shadowedIn(x, e.Pos()); name != "" {
			c.Fail(e.Pos(), "a range over a function iterator whose element type %s names %s, which a variable, parameter or function here hides: the engine writes that type inside the loop; rename the variable", types.TypeString(t, pkgName), name)
			return nil, false
		}
		elems = append(elems, x)
	}
	return elems, true
}

// shadowedIn is a name the type expression x uses (a type, a package, a
// predeclared type) that a variable, parameter, constant or function in
// scope at pos hides (func size(node *node), string := "", time := 0),
// or "". (A function's own variable named like a type builtinShadows
// renames.)
func (c *Cell) shadowedIn(x ast.Expr, pos token.Pos) string {
	scope := c.Types.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return ""
	}
	name := ""
	ast.Inspect(x, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || name != "" {
			return name == ""
		}
		if _, obj := scope.LookupParent(id.Name, pos); obj != nil && !c.renamesLocal(obj) {
			switch obj.(type) {
			case *types.Var, *types.Const, *types.Func:
				name = id.Name
			}
		}
		return true
	})
	return name
}

// yieldCall rewrites a range over a function iterator with the given
// element types; fn is the enclosing function (nil at top level).
func (c *Cell) yieldCall(s *ast.RangeStmt, label string, fn *ast.FuncType, elems []ast.Expr) ast.Stmt {
	pos := s.For
	if s.Key != nil && len(elems) == 0 || s.Value != nil && len(elems) < 2 {
		permits := "no iteration variables"
		if len(elems) == 1 {
			permits = "only one iteration variable"
		}
		c.Fail(pos, "range over %s permits %s", ExprString(s.X), permits)
		return nil
	}
	jump := c.Temp("J")
	conv := &rfConv{c: c, label: label, jump: jump, fn: fn, named: c.namedResults(fn, s)}
	// The yield function's parameters: the loop variables, or hidden ones
	// copied into them ("for k = range seq").
	var params []*ast.Field
	var copies []ast.Stmt
	vars := []ast.Expr{s.Key, s.Value}
	for i, t := range elems {
		name := "_"
		if v := vars[i]; v != nil {
			if id, ok := v.(*ast.Ident); ok && (s.Tok == token.DEFINE || id.Name == "_") {
				name = id.Name
			} else {
				name = jump + "_v" + itoa(i)
				copies = append(copies, &ast.AssignStmt{Lhs: []ast.Expr{v}, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(name, pos)}, TokPos: pos})
			}
		}
		params = append(params, &ast.Field{Names: []*ast.Ident{ident(name, pos)}, Type: t})
	}
	body := s.Body
	body.List = conv.list(body.List, 0, 0)
	if conv.failed {
		return nil
	}
	body.List = append(copies, body.List...)
	var list, over []ast.Stmt
	if conv.exits || c.keepsYield() {
		// Go's runtime checks that an iterator stops when told, and
		// calls yield no more once the loop is over: the body checks
		// first. (A body that cannot stop the loop is checked only in a
		// session with an iterator that keeps its yield function: the
		// check costs every iteration, 5-13% of a loop summing what it
		// is given.)
		done, exhausted := conv.done(), jump+"_over"
		continued := &ast.CallExpr{Fun: rtSelector(prelude.RTRangeContinued, pos), Lparen: pos, Args: []ast.Expr{ident(exhausted, pos)}, Rparen: pos}
		check := &ast.IfStmt{If: pos, Cond: ident(done, pos), Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.ExprStmt{X: continued}}, Rbrace: pos}}
		body.List = append([]ast.Stmt{check}, body.List...)
		list = append(list, varDecl(pos, done, ident("bool", pos)), varDecl(pos, exhausted, ident("bool", pos)))
		over = append(over, &ast.AssignStmt{Lhs: []ast.Expr{ident(done, pos), ident(exhausted, pos)}, Tok: token.ASSIGN,
			Rhs: []ast.Expr{ident("true", pos), ident("true", pos)}, TokPos: pos})
	}
	body.List = append(body.List, &ast.ReturnStmt{Return: body.Rbrace, Results: []ast.Expr{ident("true", body.Rbrace)}})
	if c.keepsYield() {
		// Go's runtime panics where an iterator recovers a panic of the
		// loop's body and returns: the body says when it is running
		// (the session has an iterator that recovers, or one that keeps
		// its yield: see keepsYield).
		running := jump + "_running"
		set := func(v string) ast.Stmt {
			return &ast.AssignStmt{Lhs: []ast.Expr{ident(running, pos)}, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(v, pos)}, TokPos: pos}
		}
		body.List = slices.Insert(beforeReturns(body.List, func() ast.Stmt { return set("false") }), 1, set("true")) // (after the check above)
		list = append(list, varDecl(pos, running, ident("bool", pos)))
		recovered := &ast.CallExpr{Fun: rtSelector(prelude.RTRangeRecovered, pos), Lparen: pos, Rparen: pos}
		over = append(over, &ast.IfStmt{If: pos, Cond: ident(running, pos), Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.ExprStmt{X: recovered}}, Rbrace: pos}})
	}
	yield := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, List: params, Closing: pos},
			Results: results(ident("bool", pos))},
		Body: body,
	}
	call := &ast.ExprStmt{X: &ast.CallExpr{Fun: s.X, Args: []ast.Expr{yield}, Lparen: pos, Rparen: s.End()}}
	if len(conv.after) == 0 {
		if list == nil {
			return conv.withDefers(pos, s.End(), call)
		}
		return conv.withDefers(pos, s.End(), &ast.BlockStmt{Lbrace: pos, List: append(append(list, call), over...), Rbrace: s.End() - 1})
	}
	list = append(list, varDecl(pos, jump, ident("int", pos)))
	for i, t := range conv.retTypes {
		list = append(list, varDecl(pos, conv.retName(i), t))
	}
	list = append(append(list, call), over...)
	for i, a := range conv.after {
		list = append(list, &ast.IfStmt{If: pos,
			Cond: &ast.BinaryExpr{X: ident(jump, pos), Op: token.EQL, Y: &ast.BasicLit{Kind: token.INT, Value: itoa(i + 1), ValuePos: pos}, OpPos: pos},
			Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{a}, Rbrace: pos}})
	}
	return conv.withDefers(pos, s.End(), &ast.BlockStmt{Lbrace: pos, List: list, Rbrace: s.End() - 1})
}

// withDefers puts before loop the list of the loop's defers and the defer
// that runs them, when the body defers: each runs with the others after
// it deferred, as Go runs a function's deferred calls, so that one that
// panics does not keep the earlier ones from running:
//
//	defer func() { var run func(int); run = func(i int) { if i >= 0 { defer run(i - 1); _grundyD1[i]() } }; run(len(_grundyD1) - 1) }()
func (r *rfConv) withDefers(pos, end token.Pos, loop ast.Stmt) ast.Stmt {
	if r.defers == "" {
		return loop
	}
	funcs := &ast.ArrayType{Lbrack: pos, Elt: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}}}
	run, i := r.c.Temp("R"), r.c.Temp("I")
	src := fmt.Sprintf("func() { var %[1]s func(int); %[1]s = func(%[2]s int) { if %[2]s >= 0 { defer %[1]s(%[2]s - 1); %[3]s[%[2]s]() } }; %[1]s(len(%[3]s) - 1) }", run, i, r.defers)
	lit, err := parser.ParseExpr(src)
	if err != nil {
		panic("rangefunc: " + err.Error() + " in " + src)
	}
	return &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{
		varDecl(pos, r.defers, funcs),
		&ast.DeferStmt{Defer: pos, Call: called(AtPos(lit, pos).(*ast.FuncLit))},
		loop,
	}, Rbrace: end}
}

// deferred is a defer of the loop body: at top level handed to the
// session, in a function added to the loop's list of defers.
func (r *rfConv) deferred(x *ast.DeferStmt) ast.Stmt {
	if r.fn == nil {
		return r.c.sessionDefer(x)
	}
	if body := r.c.deferredBody(x.Call.Fun); body != nil && contains(body, true, isRecoverCall) {
		r.c.Fail(x.Pos(), "a deferred recover in the body of a loop over a function iterator is not supported: defer it before the loop")
		r.failed = true
		return x
	}
	pos := x.Defer
	if r.defers == "" {
		r.defers = r.c.Temp("D")
	}
	bind, later := r.c.evaluated(x.Call, pos, false)
	add := &ast.AssignStmt{Lhs: []ast.Expr{ident(r.defers, pos)}, Tok: token.ASSIGN, TokPos: pos,
		Rhs: []ast.Expr{&ast.CallExpr{Fun: ident("append", pos), Lparen: pos, Rparen: x.End(),
			Args: []ast.Expr{ident(r.defers, pos), funcLit(pos, x.End(), nil, &ast.ExprStmt{X: later})}}}}
	return &ast.BlockStmt{Lbrace: pos, List: append(bind, add), Rbrace: x.End()}
}

// deferredBody is the body of the function fun names, a literal or a
// function or method a cell declares (defer handle(), defer h.catch()),
// or nil.
func (c *Cell) deferredBody(fun ast.Expr) *ast.BlockStmt {
	var id *ast.Ident
	switch f := ast.Unparen(fun).(type) {
	case *ast.FuncLit:
		return f.Body
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	if id == nil {
		return nil
	}
	fn, ok := c.Types.ObjectOf(id).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "main" {
		return nil
	}
	if fd := c.funcDecl(funcKeyOf(fn)); fd != nil {
		return fd.Body
	}
	return nil
}

// beforeReturns is list with set before each of its return statements
// (not those of function literals).
func beforeReturns(list []ast.Stmt, set func() ast.Stmt) []ast.Stmt {
	out := make([]ast.Stmt, 0, len(list))
	for _, st := range list {
		var body *ast.BlockStmt
		switch st := st.(type) {
		case *ast.ReturnStmt:
			out = append(out, set())
		case *ast.IfStmt:
			st.Body.List = beforeReturns(st.Body.List, set)
			if st.Else != nil {
				st.Else = beforeReturns([]ast.Stmt{st.Else}, set)[0]
			}
		case *ast.LabeledStmt:
			if r, ok := st.Stmt.(*ast.ReturnStmt); ok {
				st.Stmt = &ast.BlockStmt{Lbrace: r.Pos(), List: []ast.Stmt{set(), r}, Rbrace: r.End()}
			} else {
				st.Stmt = beforeReturns([]ast.Stmt{st.Stmt}, set)[0]
			}
		case *ast.CaseClause:
			st.Body = beforeReturns(st.Body, set)
		case *ast.CommClause:
			st.Body = beforeReturns(st.Body, set)
		case *ast.BlockStmt:
			body = st
		case *ast.ForStmt:
			body = st.Body
		case *ast.RangeStmt:
			body = st.Body
		case *ast.SwitchStmt:
			body = st.Body
		case *ast.TypeSwitchStmt:
			body = st.Body
		case *ast.SelectStmt:
			body = st.Body
		}
		if body != nil {
			body.List = beforeReturns(body.List, set)
		}
		out = append(out, st)
	}
	return out
}

func isRecoverCall(n ast.Node) bool {
	call, ok := n.(*ast.CallExpr)
	return ok && isIdent(call.Fun, "recover") && len(call.Args) == 0
}

// varDecl is "var name T", or "var name T = value".
func varDecl(pos token.Pos, name string, t ast.Expr, value ...ast.Expr) ast.Stmt {
	return &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{ident(name, pos)}, Type: t, Values: value}}}}
}

// rfConv rewrites the jumps in the body of one range-over-function loop.
type rfConv struct {
	c        *Cell
	label    string
	jump     string        // the hidden variable saying which jump to take after the call
	fn       *ast.FuncType // the enclosing function, for return
	after    []ast.Stmt    // the jump taken after the call, by number-1
	retTypes []ast.Expr    // result types, once a return needs them
	inner    map[string]bool
	named    []string // the enclosing function's result names, when it names them all and the body declares none of them
	defers   string   // the list of the body's deferred calls, once one defers
	exits    bool     // whether the body can return false
	failed   bool
}

func (r *rfConv) retName(i int) string { return r.jump + "_r" + itoa(i) }

// done is the variable set when the body returns false, and once the
// loop is over.
func (r *rfConv) done() string { return r.jump + "_done" }

// stop: set the jump variable to the jump's number and stop the iterator.
func (r *rfConv) stop(pos token.Pos, assign []ast.Stmt, then ast.Stmt) ast.Stmt {
	r.after = append(r.after, then)
	list := append(assign,
		&ast.AssignStmt{Lhs: []ast.Expr{ident(r.jump, pos)}, Tok: token.ASSIGN, Rhs: []ast.Expr{&ast.BasicLit{Kind: token.INT, Value: itoa(len(r.after)), ValuePos: pos}}, TokPos: pos})
	list = append(list, r.exit(pos).List...)
	return &ast.BlockStmt{Lbrace: pos, List: list, Rbrace: pos}
}

// exit: the body returns false, and yield must not be called again (an
// iterator that does so panics, as in Go, through the state the body
// checks first).
func (r *rfConv) exit(pos token.Pos) *ast.BlockStmt {
	r.exits = true
	return &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{ident(r.done(), pos)}, Tok: token.ASSIGN, Rhs: []ast.Expr{ident("true", pos)}, TokPos: pos},
		&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident("false", pos)}}}, Rbrace: pos}
}

// list rewrites statements; loops counts the loops and breaks the
// switch/select statements between them and the range loop.
func (r *rfConv) list(list []ast.Stmt, loops, breaks int) []ast.Stmt {
	for i, s := range list {
		list[i] = r.stmt(s, loops, breaks)
	}
	return list
}

func (r *rfConv) stmt(s ast.Stmt, loops, breaks int) ast.Stmt {
	if r.failed {
		return s
	}
	switch x := s.(type) {
	case *ast.BlockStmt:
		x.List = r.list(x.List, loops, breaks)
	case *ast.IfStmt:
		x.Body.List = r.list(x.Body.List, loops, breaks)
		if x.Else != nil {
			x.Else = r.stmt(x.Else, loops, breaks)
		}
	case *ast.ForStmt:
		x.Body.List = r.list(x.Body.List, loops+1, breaks)
	case *ast.RangeStmt:
		x.Body.List = r.list(x.Body.List, loops+1, breaks)
	case *ast.SwitchStmt:
		x.Body.List = r.list(x.Body.List, loops, breaks+1)
	case *ast.TypeSwitchStmt:
		x.Body.List = r.list(x.Body.List, loops, breaks+1)
	case *ast.SelectStmt:
		x.Body.List = r.list(x.Body.List, loops, breaks+1)
	case *ast.CaseClause:
		x.Body = r.list(x.Body, loops, breaks)
	case *ast.CommClause:
		x.Body = r.list(x.Body, loops, breaks)
	case *ast.LabeledStmt:
		if r.inner == nil {
			r.inner = map[string]bool{}
		}
		r.inner[x.Label.Name] = true
		x.Stmt = r.stmt(x.Stmt, loops, breaks)
	case *ast.DeferStmt:
		return r.deferred(x)
	case *ast.BranchStmt:
		return r.branch(x, loops, breaks)
	case *ast.ReturnStmt:
		return r.ret(x)
	}
	return s
}

func (r *rfConv) branch(x *ast.BranchStmt, loops, breaks int) ast.Stmt {
	pos := x.Pos()
	label := ""
	if x.Label != nil {
		label = x.Label.Name
	}
	if label != "" && r.inner[label] {
		return x
	}
	own := label == "" && loops == 0 || label != "" && label == r.label
	switch x.Tok {
	case token.CONTINUE:
		if own {
			return &ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident("true", pos)}}
		}
	case token.BREAK:
		if label == "" && breaks > 0 && loops == 0 {
			return x // leaves a switch or select
		}
		if own {
			return r.exit(pos)
		}
	case token.GOTO:
		r.c.Fail(pos, "goto out of a loop over a function iterator is not supported: use a labeled break or continue")
		r.failed = true
		return x
	default:
		return x
	}
	if label == "" {
		return x // targets a loop inside the body
	}
	// To a loop around this one: taken after the iterator stops.
	return r.stop(pos, nil, &ast.BranchStmt{TokPos: pos, Tok: x.Tok, Label: ident(label, pos)})
}

func (r *rfConv) ret(x *ast.ReturnStmt) ast.Stmt {
	pos := x.Pos()
	if r.fn == nil {
		return x // at top level: refused as such
	}
	if len(x.Results) == 0 {
		return r.stop(pos, nil, &ast.ReturnStmt{Return: pos})
	}
	res := flatFields(r.fn.Results)
	if r.retTypes == nil {
		r.retTypes = res
	}
	var lhs, vals []ast.Expr
	for i := range res {
		lhs = append(lhs, ident(r.retName(i), pos))
		vals = append(vals, ident(r.retName(i), pos))
	}
	sets := []ast.Stmt{&ast.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, Rhs: x.Results, TokPos: pos}}
	if len(x.Results) == len(lhs) && len(lhs) > 1 {
		// One by one, in Go's order (no value reads the hidden
		// variables): yaegi v0.16.1 panicked "reflect: New(nil)" on
		// _r0, _r1 = v*10, nil with _r1 an error, in the loop's
		// function literal.
		sets = nil
		for i := range lhs {
			sets = append(sets, &ast.AssignStmt{Lhs: lhs[i : i+1], Tok: token.ASSIGN, Rhs: x.Results[i : i+1], TokPos: pos})
		}
	}
	if len(r.named) == len(lhs) {
		// The function's named results are set where the body returns,
		// as Go sets them: a deferred call sees them when the iterator
		// then panics because it went on after the body stopped it.
		for i, name := range r.named {
			sets = append(sets, &ast.AssignStmt{Lhs: []ast.Expr{ident(name, pos)}, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(r.retName(i), pos)}, TokPos: pos})
		}
	}
	return r.stop(pos, sets, &ast.ReturnStmt{Return: pos, Results: vals})
}

// namedResults are the names of fn's results when it names them all (not
// _) and the range statement s declares none of those names again (where
// the body's return would set another variable); else nil.
func (c *Cell) namedResults(fn *ast.FuncType, s *ast.RangeStmt) []string {
	if fn == nil || fn.Results == nil {
		return nil
	}
	var names []string
	for _, f := range fn.Results.List {
		if len(f.Names) == 0 {
			return nil
		}
		for _, id := range f.Names {
			if id.Name == "_" {
				return nil
			}
			names = append(names, id.Name)
		}
	}
	shadowed := contains(s, false, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		return ok && c.Types.Defs[id] != nil && slices.Contains(names, id.Name)
	})
	if shadowed {
		return nil
	}
	return names
}

// flatFields lists a field list's types, one per name.
func flatFields(fl *ast.FieldList) []ast.Expr {
	if fl == nil {
		return nil
	}
	var out []ast.Expr
	for _, f := range fl.List {
		for range max(1, len(f.Names)) {
			out = append(out, f.Type)
		}
	}
	return out
}
