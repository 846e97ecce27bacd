package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// nativeBoxes: a value of a cell type on a basic type handed to a native
// function's parameter of an empty interface type (l.PushBack(Nimber(3)),
// heap.Push(h, d)) goes in the box that names its
// type. yaegi v0.16.1 converts such an argument to the parameter's type
// by reflect, which takes the bare value (interp/run.go, callBin): the
// container kept an int, and what came back out printed 3 for *3, took
// case int of a type switch, and x.(Nimber) failed. From a variable of
// an interface type yaegi hands over the box itself, so the argument is
// put in one first:
//
//	l.PushBack(Nimber(3))  =>  { var _grundyBx1 any = Nimber(3); l.PushBack(_grundyBx1) }
//
// A call that is a statement of its own (also deferred, or a goroutine's)
// with an argument that calls nothing is written so (the argument is then
// evaluated when Go would); elsewhere the argument is handed through a
// function literal's parameter of type any (boxedCall: e :=
// l.PushBack(v), l.PushBack(mk())), and where that would change the
// order of the calls (a defer's argument calling something, a receiver
// or another argument calling something) the cell is refused, saying to
// write it so. Only the native
// functions that keep a value and give it back are concerned (keeping),
// and the interface fields of native structs (e.Value = Nimber(3), e a
// list.Element), which yaegi sets by reflect as well: an assignment to one
// is written so when its two sides do not both call something.
var nativeBoxes = Pass{
	Name:     "nativeboxes",
	Run:      runNativeBoxes,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil), (*ast.AssignStmt)(nil)},
	Snippets: []string{"native_containers_keep_types", "native_containers_keep_cell_iface"},
}

// keeping are the native functions and methods that keep a value they
// are handed and give it back, by their full name, with the index of
// that parameter. Only those take the box: one that prints or encodes
// it would see the box. Those that compare what they are handed
// (context.WithValue's keys, a sync.Map's, atomic.Value's CompareAndSwap)
// take the first box of an equal value, and keep their values so too,
// as does sync.Pool (ifaceKeys, nativeKeys).
var keeping = map[string]int{
	"(*container/list.List).PushBack":     0,
	"(*container/list.List).PushFront":    0,
	"(*container/list.List).InsertBefore": 0,
	"(*container/list.List).InsertAfter":  0,
	"container/heap.Push":                 1,
}

func runNativeBoxes(c *Cell) {
	if !c.boxesBasic() {
		return // (no value to box: most cells walk no further)
	}
	c.Apply(func(cur Cursor) bool {
		if as, ok := cur.Node().(*ast.AssignStmt); ok && cur.Index() >= 0 {
			c.boxFieldAssign(cur, as)
			return true
		}
		if call, ok := cur.Node().(*ast.CallExpr); ok {
			// A value of a cell's interface keeps its box converted to
			// any in place (see boxLosingIface).
			if i, ok := c.keptArg(call); ok && boxLosingIface(c.Types.TypeOf(call.Args[i])) {
				call.Args[i] = anyOf(call.Args[i], call.Args[i].Pos())
			}
			i, ok := c.unboxedArg(call)
			if !ok {
				return true
			}
			switch cur.Parent().(type) {
			case *ast.DeferStmt, *ast.GoStmt:
				return true // (the call made later: refused below unless its argument calls nothing)
			case *ast.ExprStmt:
				if !c.callsIn(call.Args[i]) {
					return true // (written as a statement, below)
				}
			}
			if x, ok := c.boxedCall(call, i); ok {
				cur.Replace(x)
			}
			return true
		}
		call, st := c.statementCall(cur.Node())
		if call == nil || cur.Index() < 0 {
			return true
		}
		i, ok := c.unboxedArg(call)
		if !ok || c.callsIn(call.Args[i]) {
			return true // (one that calls something: boxedCall, or refused below)
		}
		pos := call.Pos()
		v := c.unsharedAny(call.Args[i])
		tmp := c.Temp("Bx")
		call.Args[i] = ident(tmp, pos)
		cur.Replace(&ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{varDecl(pos, tmp, ident("any", pos), v), st}, Rbrace: st.End()})
		return true
	})
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || c.err != nil {
			return c.err == nil
		}
		if i, ok := c.unboxedArg(call); ok {
			a := call.Args[i]
			t := c.Types.TypeOf(a)
			if h, ok := hiddenComposite(t); ok {
				// (Named as the cell wrote it, not as the engine hid it.)
				if conv, ok := a.(*ast.CallExpr); ok && len(conv.Args) == 1 {
					a, t = conv.Args[0], h
				}
			}
			n := types.TypeString(t, shortQualifier)
			shown := *call
			shown.Args = slices.Clone(call.Args)
			shown.Args[i] = a
			what := ExprString(&shown)
			c.Fail(a.Pos(), "%s hands %s to %s, which keeps it without its type in this interpreter (it would come back as %s); put it in a variable of type any first (var v any = %s) and pass that",
				what, an(n), ExprString(call.Fun), an(types.TypeString(erased(t, map[types.Type]bool{}), shortQualifier)), ExprString(a))
			return false
		}
		return true
	})
}

// statementCall is the call the statement n makes (f(x), defer f(x), go
// f(x)) and n; nil for other nodes.
func (c *Cell) statementCall(n ast.Node) (*ast.CallExpr, ast.Stmt) {
	switch st := n.(type) {
	case *ast.ExprStmt:
		call, _ := st.X.(*ast.CallExpr)
		return call, st
	case *ast.DeferStmt:
		return st.Call, st
	case *ast.GoStmt:
		return st.Call, st
	}
	return nil, nil
}

// unsharedAny is v, or a copy of it where the any made of it would share
// a variable's storage (as ifaceCopies makes one: a loop's d pushed three
// times).
func (c *Cell) unsharedAny(v ast.Expr) ast.Expr {
	if c.sharedInIface(v) {
		if cp, ok := c.ifaceCopy(types.Universe.Lookup("any").Type(), v); ok {
			return cp
		}
	}
	return v
}

// callsIn reports whether e calls something (a conversion calls nothing).
func (c *Cell) callsIn(e ast.Expr) bool {
	return contains(e, true, func(n ast.Node) bool {
		x, ok := n.(*ast.CallExpr)
		return ok && !c.Types.IsType(x.Fun)
	})
}

// boxedCall is call, a call of a native function that keeps its argument
// i (keeping) made where its value is used or its argument calls
// something (e := l.PushBack(v), c.idx[p] = c.l.PushFront(p),
// l.PushBack(mk())), with that argument handed through a function
// literal's parameter of type any, which keeps its box:
//
//	c.l.PushFront(p)  =>  func(_grundyBx1 any) *list.Element { return c.l.PushFront(_grundyBx1) }(p)
//
// The argument is evaluated first, the receiver and the other arguments
// after it, so only where the argument calls nothing or those before it
// (and the receiver) call nothing: Go makes their calls in order.
func (c *Cell) boxedCall(call *ast.CallExpr, i int) (ast.Expr, bool) {
	// (Go makes the receiver's and the arguments' calls in their order:
	// only those after the argument may be made after it.)
	if c.callsIn(call.Args[i]) {
		for _, a := range call.Args[:i] {
			if c.callsIn(a) {
				return nil, false
			}
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && c.callsIn(sel.X) {
			return nil, false
		}
	}
	sig, ok := typeUnder(c.Types.TypeOf(call.Fun)).(*types.Signature)
	if !ok || sig.Results().Len() > 1 {
		return nil, false
	}
	pos := call.Pos()
	var results *ast.FieldList
	if sig.Results().Len() == 1 {
		rt, ok := c.TypeExpr(sig.Results().At(0).Type(), pos)
		if !ok {
			return nil, false
		}
		results = &ast.FieldList{Opening: pos, List: []*ast.Field{{Type: rt}}, Closing: pos}
	}
	tmp := c.Temp("Bx")
	v := c.unsharedAny(call.Args[i])
	inner := *call
	inner.Args = slices.Clone(call.Args)
	inner.Args[i] = ident(tmp, pos)
	var body ast.Stmt = &ast.ExprStmt{X: &inner}
	if results != nil {
		body = &ast.ReturnStmt{Return: pos, Results: []ast.Expr{&inner}}
	}
	lit := funcLit(pos, call.End(), results, body)
	lit.Type.Params.List = []*ast.Field{{Names: []*ast.Ident{ident(tmp, pos)}, Type: ident("any", pos)}}
	return &ast.CallExpr{Fun: lit, Lparen: pos, Args: []ast.Expr{v}, Rparen: call.End()}, true
}

// boxFieldAssign: x.F = v, F an interface field of a native struct and v
// of a cell type on a basic type, becomes { var tmp any = v; x.F = tmp }
// (Go evaluates the calls of both sides in order: only when one side calls
// nothing; otherwise the cell is refused).
func (c *Cell) boxFieldAssign(cur Cursor, as *ast.AssignStmt) {
	if as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !c.nativeIfaceField(as.Lhs[0]) {
		return
	}
	v := as.Rhs[0]
	t := c.Types.TypeOf(v)
	if boxedType(t) == nil {
		return
	}
	if c.callsIn(as.Lhs[0]) && c.callsIn(v) {
		n := types.TypeString(t, shortQualifier)
		c.Fail(v.Pos(), "%s = %s puts %s in a field of a native struct, which keeps it without its type in this interpreter (it would come back as %s); put it in a variable of type any first (var v any = %s) and assign that",
			ExprString(as.Lhs[0]), ExprString(v), an(n), an(types.TypeString(t.Underlying(), shortQualifier)), ExprString(v))
		return
	}
	pos := as.Pos()
	v = c.unsharedAny(v)
	tmp := c.Temp("Bx")
	as.Rhs[0] = ident(tmp, pos)
	cur.Replace(&ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{varDecl(pos, tmp, ident("any", pos), v), as}, Rbrace: as.End()})
}

// unboxedArg is the index of call's argument of a cell type on a basic
// type that a native function keeps (see keeping), if there is one.
func (c *Cell) unboxedArg(call *ast.CallExpr) (int, bool) {
	i, ok := c.keptArg(call)
	return i, ok && boxedType(c.Types.TypeOf(call.Args[i])) != nil
}

// keptArg is the index of the argument call hands a native function that
// keeps it (keeping).
func (c *Cell) keptArg(call *ast.CallExpr) (int, bool) { return c.nativeArg(call, keeping) }

// nativeKept are the indexes of the arguments call hands a native
// function that keeps them and gives them back (keeping; nativeKeys'
// keys and values: a context's, a sync.Map's, an atomic.Value's).
func (c *Cell) nativeKept(call *ast.CallExpr) []int {
	if i, ok := c.keptArg(call); ok {
		return []int{i}
	}
	if nk, _, ok := c.nativeKeysOf(call); ok {
		return slices.Concat(nk.keys, nk.kept)
	}
	return nil
}

// keepsNatively reports whether call may hand a native store or container
// something it keeps (nativeKept); a call the oracle did not type (in an
// earlier cell's function) by the name of the method or function only.
func (c *Cell) keepsNatively(call *ast.CallExpr) bool {
	if _, typed := c.Types.Types[call.Fun]; typed {
		return len(c.nativeKept(call)) > 0
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	suffix := "." + sel.Sel.Name
	for name := range keeping {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	for name, nk := range nativeKeys {
		if len(nk.kept) > 0 && strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// nativeArg is the index of the argument call hands a native function of
// table (by full name: the index of the parameter in question).
func (c *Cell) nativeArg(call *ast.CallExpr, table map[string]int) (int, bool) {
	fn := c.callee(call)
	if fn == nil || call.Ellipsis.IsValid() {
		return 0, false
	}
	i, ok := table[fn.FullName()]
	return i, ok && i < len(call.Args)
}

// nativeResults: a call of a native function with a result of an empty
// interface type (heap.Pop(h), l.Remove(e), v.Load()), in a loop, is made
// from a function literal of its own when the session boxes types on basic
// types:
//
//	x := heap.Pop(h)  =>  x := func() any { return heap.Pop(h) }()
//
// yaegi v0.16.1 puts a native call's results in their slots of the frame
// and, when the slot already holds a box, boxes the result again
// (interp/run.go:1661 asks what the slot holds, not its type): from the
// second time round a loop, a value a heap handed back was a box in a box,
// which an assertion in a function (x.(Nimber) in the one the passes write
// around it) failed with "interface {} is interface {}, not int". The
// literal's frame is new at each call.
var nativeResults = Pass{
	Name:     "nativeresults",
	Run:      runNativeResults,
	Kinds:    []ast.Node{(*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)},
	Snippets: []string{"native_results_in_loops"},
}

func runNativeResults(c *Cell) {
	if !c.boxesBasic() {
		return
	}
	inLoop := map[*ast.CallExpr]bool{}
	var walk func(n ast.Node, loop bool)
	walk = func(n ast.Node, loop bool) {
		if n == nil {
			return
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				walk(n.Body, false) // (a new frame at each call)
				return false
			case *ast.ForStmt:
				if !loop {
					for _, ch := range []ast.Node{n.Init, n.Cond, n.Post, n.Body} {
						walk(ch, true)
					}
					return false
				}
			case *ast.RangeStmt:
				if !loop {
					walk(n.X, false)
					walk(n.Body, true)
					return false
				}
			case *ast.ExprStmt, *ast.GoStmt, *ast.DeferStmt:
				// The results are dropped, or the call made elsewhere.
				if call := stmtCall(n); call != nil {
					walk(call.Fun, loop)
					for _, a := range call.Args {
						walk(a, loop)
					}
					return false
				}
			case *ast.CallExpr:
				if loop && c.ifaceFromNative(n) {
					inLoop[n] = true
				}
			}
			return true
		})
	}
	for _, root := range c.Roots() {
		walk(root, false)
	}
	if len(inLoop) == 0 {
		return
	}
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || !inLoop[call] {
			return true
		}
		pos := call.Pos()
		tes, ok := c.typeExprs(tupleTypes(c.Types.TypeOf(call)), pos)
		if !ok {
			return true
		}
		lit := funcLit(pos, call.End(), results(tes...), &ast.ReturnStmt{Return: pos, Results: []ast.Expr{call}})
		cur.Replace(&ast.CallExpr{Fun: lit, Lparen: call.End(), Rparen: call.End()})
		return true
	})
}

// stmtCall is the call an expression, go or defer statement makes, if any.
func stmtCall(s ast.Node) *ast.CallExpr {
	switch s := s.(type) {
	case *ast.ExprStmt:
		call, _ := s.X.(*ast.CallExpr)
		return call
	case *ast.GoStmt:
		return s.Call
	case *ast.DeferStmt:
		return s.Call
	}
	return nil
}

// ifaceFromNative reports whether call calls a function of a package the
// session has not declared with a result of an empty interface type.
func (c *Cell) ifaceFromNative(call *ast.CallExpr) bool {
	if c.interpreted(call) {
		return false
	}
	fn := c.callee(call)
	rs := fn.Type().(*types.Signature).Results()
	for i := range rs.Len() {
		if emptyIface(rs.At(i).Type()) {
			return true
		}
	}
	return false
}

// nativeIfaceField: e selects a field of interface type that a struct of
// a native package declares.
func (c *Cell) nativeIfaceField(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := c.Types.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return false
	}
	f := s.Obj()
	return f.Pkg() != nil && f.Pkg().Path() != "main" && types.IsInterface(f.Type())
}
