package compat

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"

	"grundy/engine/prelude"
)

// operandOrder: in a statement whose operands read a variable that a call
// later in the statement may change, the calls are made first, in their
// order, into variables, and the operands read after them:
//
//	fmt.Println(s+1, bump(&s))  =>  var _grundyOo1 = bump(&s); fmt.Println(s+1, _grundyOo1)
//
// The spec leaves the order of such operands and calls open; Go's
// compiler makes every call of a statement's expressions (its arguments,
// results, values assigned), and its len and cap, in order, before it
// evaluates their other operands (fmt.Println(b, b.inc()) printed {1} 1,
// s + f() with f setting s read the new s, len(m) + f() the old len). yaegi v0.16.1 evaluates a statement's operations in order
// from left to right, reading a lone variable when it makes the call it
// is an argument of: an operation on a variable (s+1, -n, a struct
// converted to an interface) before a call read the old value.
//
// A call may change a variable when it is a method with a pointer
// receiver called on it (b.inc()), takes its address (&s), is handed the
// variable of a pointer, slice or map type (a function whose body the
// pass does not read is taken to change it: a library's, heap.Pop(h),
// json.Unmarshal(data, p), a generic one, a function value, a parameter,
// an interface's method, a literal called in place; the session's when
// its body writes through it; the builtins copy and append their first
// argument), is a function literal that assigns it, or is a function the
// session declares that assigns a variable of its name (or calls one
// that does), or is one of the cells' functions and the variable is the
// session's or a cell's statements', which every function may reach
// (mayReach: a delete in the callee, an earlier cell's closure). In a
// compound assignment to a map's element (m[k] +=
// f()), Go's compiler makes the value's calls before it reads m[k] too,
// yaegi after: such calls that may change the map are made first
// (mapCompound). Operands inside function
// literals and the right of && and || (evaluated only sometimes) are left
// in place; a map literal's entries are made in turn, as Go makes them
// (see mapEntriesInOrder).
var operandOrder = Pass{
	Name:     "operandorder",
	Run:      runOperandOrder,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"operand_order_calls_first", "operand_order_bools_in_order", "operand_order_opaque_calls", "operand_order_top_level_defines"},
}

func runOperandOrder(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		if lit, ok := cur.Node().(*ast.CompositeLit); ok {
			c.mapEntriesInOrder(lit)
			return true
		}
		for _, slot := range headerSlots(cur.Node()) {
			c.orderHeader(slot)
		}
		st, ok := cur.Node().(ast.Stmt)
		if !ok || cur.Index() < 0 {
			return true
		}
		slots, owner := orderedSlots(st)
		m := c.mapCompound(st)
		if m != nil {
			slots, owner = []*ast.Expr{&st.(*ast.AssignStmt).Rhs[0]}, nil
		}
		if len(slots) == 0 {
			return true
		}
		if places := calledPlaces(st); places != nil {
			// The calls in the places assigned come first (t[id(0)],
			// t[id(3)] = t[id(3)], t[id(0)]; m[key()] += val()): Go
			// makes the places' operands before the values'.
			as := st.(*ast.AssignStmt)
			slots, owner = places, nil
			for i := range as.Rhs {
				slots = append(slots, &as.Rhs[i])
			}
		}
		ops := c.orderedOperands(slots, c.earlyOperands(st, slots, owner))
		top := cur.TopLevel()
		if !c.readBeforeChange(ops) && !c.changesElement(ops, m) || !c.hoistable(ops.calls, top) || !c.hoistableEarly(ops.early, top) {
			return true
		}
		for _, t := range c.hoistCalls(slots, ops, top) {
			cur.InsertBefore(t)
		}
		return true
	})
	// Then the expressions evaluated on their own inside a statement's:
	// each operand of && and || (s[j]+step() == 1 && ok), and each
	// argument of a call (id(m["a"]+bump() == 10); an argument Go's
	// compiler makes in order with the statement's calls, earlyArgs:
	// fmt.Println(m["a"]+bump() == 10)), calls first inside. (After the
	// statements: a call moved into a literal is hidden from them.)
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c.orderHeader(&n.X)
				c.orderHeader(&n.Y)
			}
		case *ast.CallExpr:
			for i := range n.Args {
				c.orderHeader(&n.Args[i])
			}
		}
		return true
	})
}

// callsFirst writes the operands values order as variables (see
// hoistCalls) when one of them reads a variable a call of another may
// change, and returns their definitions; values are written in place.
// For the passes before operandOrder that split a statement of several
// values into one a value (varInits' sequentialValues).
func (c *Cell) callsFirst(values []ast.Expr) []ast.Stmt {
	slots := make([]*ast.Expr, len(values))
	for i := range values {
		slots[i] = &values[i]
	}
	ops := c.orderedOperands(slots, nil)
	if !c.readBeforeChange(ops) || !c.hoistable(ops.calls, false) || !c.hoistableEarly(ops.early, false) {
		return nil
	}
	return c.hoistCalls(slots, ops, false)
}

// hoistCalls writes the operands ops orders in slots as variables, which
// it returns the definitions of, in order (at a cell's top level,
// declarations of the session's variables and assignments).
func (c *Cell) hoistCalls(slots []*ast.Expr, ops operands, top bool) []ast.Stmt {
	var temps []ast.Stmt
	for _, slot := range slots {
		*slot = astutil.Apply(*slot, func(ac *astutil.Cursor) bool {
			return !opaqueOperand(c, ac.Node())
		}, func(ac *astutil.Cursor) bool {
			x, ok := ac.Node().(ast.Expr)
			if !ok || !ops.ordered[x] {
				return true
			}
			tmp := c.Temp("Oo")
			if top {
				te, _ := c.TypeExpr(c.Types.TypeOf(x), x.Pos())
				temps = append(temps, declareAssign(x.Pos(), tmp, te, x)...)
			} else {
				temps = append(temps, &ast.AssignStmt{Lhs: []ast.Expr{ident(tmp, x.Pos())}, TokPos: x.Pos(), Tok: token.DEFINE, Rhs: []ast.Expr{x}})
			}
			ac.Replace(ident(tmp, x.Pos()))
			return true
		}).(ast.Expr)
	}
	return temps
}

// calledPlaces are the places an assignment (not a definition) assigns
// that call something (t[id(0)], m[key()]), or nil when none does.
func calledPlaces(st ast.Stmt) []*ast.Expr {
	as, ok := st.(*ast.AssignStmt)
	if !ok || as.Tok == token.DEFINE {
		return nil
	}
	var out []*ast.Expr
	called := false
	for i := range as.Lhs {
		out = append(out, &as.Lhs[i])
		called = called || contains(as.Lhs[i], true, func(n ast.Node) bool { _, ok := n.(*ast.CallExpr); return ok })
	}
	if !called {
		return nil
	}
	return out
}

// headerSlots are the expressions a statement evaluates outside a list
// of statements, where no variable can be defined before them: an if's
// or a for's condition, a switch's tag and its cases' expressions, the
// value an init or a post statement assigns (one), and a send's value.
func headerSlots(n ast.Node) []*ast.Expr {
	var out []*ast.Expr
	single := func(st ast.Stmt) {
		if as, ok := st.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && len(as.Lhs) == 1 {
			out = append(out, &as.Rhs[0])
		}
	}
	switch s := n.(type) {
	case *ast.IfStmt:
		single(s.Init)
		out = append(out, &s.Cond)
	case *ast.ForStmt:
		single(s.Init)
		if s.Cond != nil {
			out = append(out, &s.Cond)
		}
		single(s.Post)
	case *ast.SwitchStmt:
		single(s.Init)
		if s.Tag != nil {
			out = append(out, &s.Tag)
		}
	case *ast.CaseClause:
		for i := range s.List {
			out = append(out, &s.List[i])
		}
	case *ast.SendStmt:
		out = append(out, &s.Value)
	case *ast.RangeStmt:
		// (for _, x := range []int{m["k"], inc()}: made once, as a
		// statement's value)
		out = append(out, &s.X)
	}
	return out
}

// orderHeader writes the expression in slot, when its operands read a
// variable a call of it may change first, as a function literal called
// in place that makes the calls first (see hoistCalls):
//
//	if s[0]+drop() == 10  =>  if func() bool { _grundyOo1 := drop(); return s[0]+_grundyOo1 == 10 }()
func (c *Cell) orderHeader(slot *ast.Expr) {
	x := *slot
	t := c.Types.TypeOf(x)
	if t == nil || c.Types.IsType(x) {
		return
	}
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		if b.Kind() != types.UntypedBool {
			return // (a constant's operands, or an untyped nil)
		}
		t = types.Typ[types.Bool]
	}
	slots, owner := callSlots([]*ast.Expr{slot})
	ops := c.orderedOperands(slots, c.earlyOperands(nil, slots, owner))
	if !c.readBeforeChange(ops) || !c.hoistable(ops.calls, false) || !c.hoistableEarly(ops.early, false) {
		return
	}
	te, ok := c.TypeExpr(t, x.Pos())
	if !ok {
		return
	}
	shared := c.sharedInIface(x)
	temps := c.hoistCalls(slots, ops, false)
	*slot = called(funcLit(x.Pos(), x.End(), results(te), append(temps, &ast.ReturnStmt{Return: x.Pos(), Results: []ast.Expr{*slot}})...))
	if shared {
		// The literal's result is one slot of the frame, which an
		// interface holding it wraps (see ifaceCopies): the values a
		// loop appended to a []I (C{t[0], strconv.Itoa(t[0])}) were all
		// its last one. A copy, which nothing else holds.
		te, _ := c.TypeExpr(t, x.Pos())
		*slot = sliceElem(te, *slot)
	}
}

// mapCompound is the map of a compound assignment to its element whose
// place calls nothing (m[k] += f()), or nil: Go's compiler makes the
// value's calls before it reads m[k], yaegi v0.16.1 after (hits["a"] +=
// record("a") lost what record added). Its calls are then made first
// when one may change the map (see changesElement).
func (c *Cell) mapCompound(st ast.Stmt) types.Object {
	as, ok := st.(*ast.AssignStmt)
	if !ok || as.Tok == token.ASSIGN || as.Tok == token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil
	}
	ix, ok := ast.Unparen(as.Lhs[0]).(*ast.IndexExpr)
	if !ok || contains(ix, true, func(n ast.Node) bool { _, call := n.(*ast.CallExpr); return call }) {
		return nil
	}
	if _, isMap := typeUnder(c.Types.TypeOf(ix.X)).(*types.Map); !isMap {
		return nil
	}
	obj, _ := c.rootVar(ix.X)
	return obj
}

// changesElement reports whether a call of ops may change the map m.
func (c *Cell) changesElement(ops operands, m types.Object) bool {
	if m == nil {
		return false
	}
	for _, call := range ops.calls {
		if c.mayChange(call)(m) || c.mayReach(call, m) {
			return true
		}
	}
	return false
}

// mayReach reports whether call, of one of the cells' functions, may
// change the variable o because every function may reach it: o is the
// session's or a cell's statements' (not a function's own). What such a
// call does is not read (a delete or a clear in the callee, an earlier
// cell's closure or method value, a slice sharing o's array), so it is
// taken to change it.
func (c *Cell) mayReach(call *ast.CallExpr, o types.Object) bool {
	if !c.interpreted(call) || c.isBuiltin(call.Fun) || c.Types.IsType(call.Fun) {
		return false
	}
	return c.isReachable(o)
}

// isReachable reports whether o is the session's or a cell's statements'
// (see mayReach), once for each variable: the passes ask for every
// operand beside every call.
func (c *Cell) isReachable(o types.Object) bool {
	r, asked := c.reachable[o]
	if !asked {
		if c.reachable == nil {
			c.reachable = map[types.Object]bool{}
		}
		r = cellGlobal(o) || c.topLevelVar(o) || !c.declaredHere(o)
		c.reachable[o] = r
	}
	return r
}

// declaredHere reports whether o is declared in the cell (not in an
// earlier one, whose variables are the session's).
func (c *Cell) declaredHere(o types.Object) bool {
	for _, root := range c.Roots() {
		if root.Pos() <= o.Pos() && o.Pos() < root.End() {
			return true
		}
	}
	return false
}

// topLevelVar reports whether o is a variable declared among a cell's
// statements, outside the functions and literals in them.
func (c *Cell) topLevelVar(o types.Object) bool {
	if _, ok := o.(*types.Var); !ok {
		return false
	}
	for _, blk := range c.TopLevel() {
		if o.Pos() < blk.Pos() || o.Pos() >= blk.End() {
			continue
		}
		return !contains(blk, false, func(n ast.Node) bool {
			lit, ok := n.(*ast.FuncLit)
			return ok && lit.Pos() <= o.Pos() && o.Pos() < lit.End()
		})
	}
	return false
}

// mapEntriesInOrder makes a map literal read a variable that an entry
// after it may change (map[string]int{"a": n, "b": next()}) when its entry
// is made, as Go does: yaegi read a lone variable when it made the map,
// after every call in it. The variable is read into a slice's element,
// []int{n}[0], which yaegi evaluates in order.
func (c *Cell) mapEntriesInOrder(lit *ast.CompositeLit) {
	mt, ok := typeUnder(c.Types.TypeOf(lit)).(*types.Map)
	if !ok {
		return
	}
	type place struct {
		at *ast.Expr
		to types.Type
	}
	var places []place
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			places = append(places, place{&kv.Key, mt.Key()}, place{&kv.Value, mt.Elem()})
		}
	}
	for i, p := range places {
		obj, _ := c.rootVar(*p.at)
		if obj == nil || c.Types.Types[*p.at].Value != nil {
			continue
		}
		changed := false
		for _, later := range places[i+1:] {
			changed = changed || contains(*later.at, true, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				return ok && c.orderedCall(call) && (c.mayChange(call)(obj) || c.mayReach(call, obj))
			})
		}
		if te, ok := c.TypeExpr(c.Types.TypeOf(*p.at), (*p.at).Pos()); changed && ok {
			*p.at = sliceElem(te, *p.at)
		}
	}
	// Each entry is made as a statement of its own: its calls first
	// (map[string]R{"x": {st["a"], take()}} with take changing st read
	// the new st["a"]).
	for _, p := range places {
		if cl, isLit := ast.Unparen(*p.at).(*ast.CompositeLit); isLit && c.callsIn(cl) {
			if n, ok := types.Unalias(p.to).(*types.Named); ok && n.TypeArgs().Len() > 0 {
				continue // (yaegi mistakes a generic instance's literal written out)
			}
			if cl.Type == nil {
				// (An elided type, written for the literal orderHeader
				// may make of it; &T{...} elided as {...} is left.)
				if _, ptr := typeUnder(p.to).(*types.Pointer); ptr {
					continue
				}
				te, ok := c.TypeExpr(p.to, cl.Pos())
				if !ok {
					continue
				}
				cl.Type = te
			}
			c.orderHeader(p.at)
		}
	}
}

// hoistable reports whether every call operandOrder would make first can
// be put in a variable: not one of a generic type's result (yaegi gave
// such a variable a wrong value: an empty slice, or another instance's),
// and, among a cell's statements, where the variable is declared with its
// type (yaegi defines none with := in a block there), one whose type can
// be written.
func (c *Cell) hoistable(calls []*ast.CallExpr, top bool) bool {
	for _, call := range calls {
		if !c.hoistableType(call, top) {
			return false
		}
	}
	return true
}

// orderedSlots are the expressions of st whose calls Go makes before
// their other operands: a call statement's arguments, the values of an
// assignment or a return (a single call's arguments); nil for other
// statements (a var declaration of one spec is an assignment's values).
// owner is the call whose arguments they are, nil for values.
func orderedSlots(st ast.Stmt) (slots []*ast.Expr, owner *ast.CallExpr) {
	var list []ast.Expr
	switch s := st.(type) {
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		if !ok {
			return nil, nil
		}
		return callArgSlots(call), call
	case *ast.AssignStmt:
		list = s.Rhs
	case *ast.ReturnStmt:
		list = s.Results
	case *ast.DeclStmt:
		// (var c, d = s[0], mutate(s): one spec, one statement)
		if gd, ok := s.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR && len(gd.Specs) == 1 {
			list = gd.Specs[0].(*ast.ValueSpec).Values
		}
	default:
		return nil, nil
	}
	slots = make([]*ast.Expr, len(list))
	for i := range list {
		slots[i] = &list[i]
	}
	if args, call := callSlots(slots); call != nil {
		return args, call
	}
	return slots, owner
}

// callSlots is slots, or, when slots is a single call, its callee and
// arguments (callArgSlots) and the call, which is made last (nil
// otherwise).
func callSlots(slots []*ast.Expr) ([]*ast.Expr, *ast.CallExpr) {
	if len(slots) != 1 {
		return slots, nil
	}
	call, ok := (*slots[0]).(*ast.CallExpr)
	if !ok {
		return slots, nil
	}
	return callArgSlots(call), call
}

// callArgSlots are call's callee and arguments: Go reads the callee when
// it makes the call, after its arguments' calls (fs[i](next()),
// cs[k].Show(f()), a.Say(f()) with f changing i, k or a).
func callArgSlots(call *ast.CallExpr) []*ast.Expr {
	slots := []*ast.Expr{&call.Fun}
	for i := range call.Args {
		slots = append(slots, &call.Args[i])
	}
	return slots
}

// opaqueOperand reports whether the operands in n are evaluated when n
// is, in its own order: a function literal's body, a map literal's
// entries, the right of && and ||.
func opaqueOperand(c *Cell, n ast.Node) bool {
	switch n := n.(type) {
	case *ast.FuncLit:
		return true
	case *ast.CompositeLit:
		_, isMap := typeUnder(c.Types.TypeOf(n)).(*types.Map)
		_, mapSyntax := n.Type.(*ast.MapType)
		return isMap || mapSyntax
	case *ast.BinaryExpr:
		return n.Op == token.LAND || n.Op == token.LOR
	}
	return false
}

// orderedCall reports whether call is a call of the cell's (one the
// oracle typed) that Go makes before the other operands: not a
// conversion, a builtin other than len and cap (which Go's compiler
// evaluates in order with the calls) or a call of several results.
func (c *Cell) orderedCall(call *ast.CallExpr) bool {
	t, typed := c.Types.Types[call]
	if !typed || t.Value != nil || c.Types.IsType(call.Fun) || c.Types.WrittenType(call.Fun) || c.isBuiltin(call.Fun) && !orderedBuiltin(call.Fun) {
		return false
	}
	_, tuple := t.Type.(*types.Tuple)
	return !tuple && t.Type != nil
}

// orderedBuiltin reports whether fun is a builtin Go's compiler makes
// in order with the calls (cmd/compile's order.go copies its result at
// once): len, cap, and copy and append, which write what they are handed.
func orderedBuiltin(fun ast.Expr) bool {
	for _, name := range []string{"len", "cap", "copy", "append"} {
		if isIdent(fun, name) {
			return true
		}
	}
	return false
}

// operands are the operands of a statement's expressions that Go orders:
// the calls it makes first (ordered, see orderedCall; nested ones too),
// and the variables read outside them.
type operands struct {
	calls   []*ast.CallExpr
	early   []ast.Expr // arguments made in order with the calls (see earlyArgs)
	ordered map[ast.Node]bool
	reads   []operandRead
}

type operandRead struct {
	obj types.Object
	pos token.Pos
	// until, when set, is where the calls that may change it end: the
	// callee of a call inside a statement's is read when that call is
	// made, after its arguments' calls, before the calls after it.
	until token.Pos
}

// orderedOperands collects the operands of slots, leaving out those of
// function literals, map literals and the right of && and ||.
func (c *Cell) orderedOperands(slots []*ast.Expr, early map[ast.Expr]bool) operands {
	ops := operands{ordered: map[ast.Node]bool{}}
	var visit func(n ast.Node, inCall bool, until token.Pos)
	visit = func(n ast.Node, inCall bool, until token.Pos) {
		ast.Inspect(n, func(m ast.Node) bool {
			if m == nil || opaqueOperand(c, m) {
				return false
			}
			if x, ok := m.(ast.Expr); ok && (early[x] || c.madeInOrder(x)) && !inCall {
				ops.ordered[x] = true
				ops.early = append(ops.early, x)
				visit(x, true, until) // (read where it is made)
				return false
			}
			switch m := m.(type) {
			case *ast.CallExpr:
				if len(m.Args) == 1 && !inCall && c.Types.IsType(m.Fun) && isStringType(c.Types.TypeOf(m.Fun)) {
					// string(b[:3]) copies b's bytes after the calls,
					// from the slice made in order (b[:3] is, see
					// madeInOrder): it reads b's array then.
					if _, slice := typeUnder(c.Types.TypeOf(m.Args[0])).(*types.Slice); slice {
						if obj, _ := c.rootVar(unslice(m.Args[0])); obj != nil {
							ops.reads = append(ops.reads, operandRead{obj, m.Pos(), until})
						}
					}
				}
				if recv, ok := c.boundRecvs[m]; ok && !hasCall(recv) {
					// A method value methodValues bound: Go binds it
					// as it reads an operand (apply(c.Get, set())
					// with set changing c got the new c's).
					visit(recv, inCall, until)
					return false
				}
				if c.orderedCall(m) && !ops.ordered[m] {
					ops.ordered[m] = true
					ops.calls = append(ops.calls, m)
					// Its arguments are made with it, its callee read
					// when it is made, after their calls (see
					// callArgSlots).
					visit(m.Fun, false, m.Rparen)
					for _, a := range m.Args {
						visit(a, true, until)
					}
					return false
				}
			case *ast.Ident:
				if v, ok := c.Types.Uses[m].(*types.Var); ok && !v.IsField() && !inCall {
					ops.reads = append(ops.reads, operandRead{v, m.Pos(), until})
				}
			}
			return true
		})
	}
	for _, slot := range slots {
		visit(*slot, false, token.NoPos)
	}
	return ops
}

// madeInOrder reports whether Go's compiler makes x in its order with a
// statement's calls, not after them as it reads a variable or an index:
// a slice expression (fmt.Sprint(s[1:], add()) with add appending to s
// printed the longer slice; string(rs[:2]) converts it after the calls,
// from the array then), a type assertion (x.(int) beside a call
// setting x), a conversion of a string to []byte or []rune (each a
// runtime call of cmd/compile's).
func (c *Cell) madeInOrder(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.SliceExpr:
		return true
	case *ast.TypeAssertExpr:
		return x.Type != nil
	case *ast.CallExpr:
		return c.stringToSlice(x) != types.Invalid || c.copiedToIface(x)
	}
	return false
}

// copiedToIface reports whether call is a conversion to an interface
// that Go's compiler makes from a copy of its operand, in order with the
// calls (see earlyArgs): any(m["a"]) of a struct, as the passes write
// for fmt's arguments.
func (c *Cell) copiedToIface(call *ast.CallExpr) bool {
	if len(call.Args) != 1 || !c.Types.IsType(call.Fun) || !types.IsInterface(c.Types.TypeOf(call.Fun)) {
		return false
	}
	tv, ok := c.Types.Types[call.Args[0]]
	if !ok || tv.Value != nil || tv.Type == nil || types.IsInterface(tv.Type) {
		return false
	}
	if _, inner := ast.Unparen(call.Args[0]).(*ast.CallExpr); inner {
		return false
	}
	return convertsByAddress(tv.Type) && !c.inPlace(call.Args[0])
}

// stringToSlice is the element kind, types.Byte or types.Rune, of call,
// a conversion of a string to a []byte or a []rune; types.Invalid when
// call is none.
func (c *Cell) stringToSlice(call *ast.CallExpr) types.BasicKind {
	if len(call.Args) != 1 || !c.Types.IsType(call.Fun) || !isStringType(c.Types.TypeOf(call.Args[0])) {
		return types.Invalid
	}
	sl, ok := typeUnder(c.Types.TypeOf(call.Fun)).(*types.Slice)
	if !ok {
		return types.Invalid
	}
	if elem, ok := typeUnder(sl.Elem()).(*types.Basic); ok && (elem.Kind() == types.Byte || elem.Kind() == types.Rune) {
		return elem.Kind()
	}
	return types.Invalid
}

// earlyArgs are the arguments of call (orderedSlots' owner) that Go's
// compiler makes in their order with the calls: one converted
// to an interface whose type the conversion takes by address (a bool, a
// byte, a complex128, a struct or array of other sizes than 2, 4 and 8
// bytes, not a string or a slice: cmd/compile's order.go copies it at
// once, dataWordFuncName's needsaddr) and that is no variable (addrTemp
// converts a variable where it is, unless it is a local the compiler keeps
// in registers, which the engine cannot tell). fmt.Println(n == 0, inc())
// printed true, !b before flip() its old value, where an int (n+0) or a
// string is read after the calls.
func (c *Cell) earlyArgs(call *ast.CallExpr) map[ast.Expr]bool {
	out := map[ast.Expr]bool{}
	if call == nil || call.Ellipsis.IsValid() {
		return out
	}
	sig, ok := typeUnder(c.Types.TypeOf(call.Fun)).(*types.Signature)
	if !ok {
		return out
	}
	for i, a := range call.Args {
		if isRTCall(a, prelude.RTFmtTyped) {
			// (fmtArgs' Typed(x, desc): x goes to its any as it went to
			// fmt's.)
			a = a.(*ast.CallExpr).Args[0]
		}
		c.noteEarly(out, a, paramType(sig, i, false))
	}
	return out
}

// earlyOperands are the operands of st (its slots, owner the call whose
// arguments they are) that Go's compiler makes in their order with the
// calls, converting them to an interface from a copy (see earlyArgs):
// owner's arguments, the values assigned to variables of an interface
// type (a, b = m["k"], f() with a an any), and the elements of composite
// literals of an interface type ([]any{m["k"], f()}, W{s[0], f()} with a
// field of type any).
func (c *Cell) earlyOperands(st ast.Stmt, slots []*ast.Expr, owner *ast.CallExpr) map[ast.Expr]bool {
	out := c.earlyArgs(owner)
	switch s := st.(type) {
	case *ast.AssignStmt:
		if s.Tok == token.ASSIGN && len(s.Lhs) == len(s.Rhs) {
			for i, r := range s.Rhs {
				c.noteEarly(out, r, c.Types.TypeOf(s.Lhs[i]))
			}
		}
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR && len(gd.Specs) == 1 {
			if vs := gd.Specs[0].(*ast.ValueSpec); vs.Type != nil {
				for _, v := range vs.Values {
					c.noteEarly(out, v, c.Types.TypeOf(vs.Type))
				}
			}
		}
	}
	for _, slot := range slots {
		ast.Inspect(*slot, func(n ast.Node) bool {
			if n == nil || opaqueOperand(c, n) {
				return false
			}
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			switch u := typeUnder(c.Types.TypeOf(lit)).(type) {
			case *types.Slice:
				for _, el := range lit.Elts {
					c.noteEarly(out, litValue(el), u.Elem())
				}
			case *types.Array:
				for _, el := range lit.Elts {
					c.noteEarly(out, litValue(el), u.Elem())
				}
			case *types.Struct:
				for i, el := range lit.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if f := fieldNamed(u, kv.Key); f != nil {
							c.noteEarly(out, kv.Value, f.Type())
						}
					} else if i < u.NumFields() {
						c.noteEarly(out, el, u.Field(i).Type())
					}
				}
			}
			return true
		})
	}
	return out
}

// litValue is a composite literal's element's value (its key dropped).
func litValue(el ast.Expr) ast.Expr {
	if kv, ok := el.(*ast.KeyValueExpr); ok {
		return kv.Value
	}
	return el
}

// fieldNamed is st's field the key of a keyed struct literal names.
func fieldNamed(st *types.Struct, key ast.Expr) *types.Var {
	id, ok := key.(*ast.Ident)
	if !ok {
		return nil
	}
	for i := range st.NumFields() {
		if st.Field(i).Name() == id.Name {
			return st.Field(i)
		}
	}
	return nil
}

// noteEarly adds a to out when Go's compiler converts it to to, an
// interface type, from a copy made in order with the calls (see
// earlyArgs).
func (c *Cell) noteEarly(out map[ast.Expr]bool, a ast.Expr, to types.Type) {
	if to == nil || !types.IsInterface(to) {
		return
	}
	tv, ok := c.Types.Types[a]
	if !ok || tv.Value != nil || tv.Type == nil || types.IsInterface(tv.Type) {
		return
	}
	if _, call := ast.Unparen(a).(*ast.CallExpr); call {
		return // (a call is made in order anyway)
	}
	if convertsByAddress(tv.Type) && !c.inPlace(a) {
		out[a] = true
	}
}

// addressable reports whether e is a variable, or a field or element of
// one, which order.go converts where it is (after the calls), not a copy
// (fmt.Println(p, p.move()) printed the moved p).
func addressable(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return addressable(x.X)
	case *ast.IndexExpr:
		return addressable(x.X)
	case *ast.StarExpr:
		return true
	}
	return false
}

// inPlace reports whether e is addressable, which order.go converts
// where it is (after the calls; see earlyArgs): a variable, an element of
// a slice or of an addressable array, a field reached through a pointer
// or of an addressable struct. An index of a string or a map is a copy
// made in order (fmt.Println(s[0], re()) with re setting s printed the
// old s's byte; seen["a"] beside a call setting it, the old bool).
func (c *Cell) inPlace(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		sel, field := c.Types.Selections[x]
		if !field {
			return true // (a package's variable)
		}
		if _, ptr := typeUnder(sel.Recv()).(*types.Pointer); ptr || sel.Indirect() {
			return true
		}
		return c.inPlace(x.X)
	case *ast.IndexExpr:
		switch typeUnder(c.Types.TypeOf(x.X)).(type) {
		case *types.Slice, *types.Pointer:
			return true
		case *types.Array:
			return c.inPlace(x.X)
		}
		return false
	case *ast.StarExpr:
		return true
	}
	return false
}

// convertsByAddress reports whether Go's compiler converts a value of t to
// an interface by its address (see earlyArgs).
func convertsByAddress(t types.Type) (byAddress bool) {
	if isUntyped(t) || typeIn(t, func(t types.Type) bool { _, p := t.(*types.TypeParam); return p }) != nil {
		return false // (a type parameter's instance decides; nil)
	}
	defer func() {
		if recover() != nil {
			byAddress = false // (go/types' sizes assert on types they do not expect)
		}
	}()
	sizes := types.SizesFor("gc", "amd64")
	if directIface(t) || sizes.Sizeof(t) == 0 {
		return false
	}
	size, align := sizes.Sizeof(t), sizes.Alignof(t)
	switch {
	case size == 2 && align == 2, size == 4 && align == 4 && !hasPointers(t), size == 8 && align == 8 && !hasPointers(t):
		return false
	}
	switch typeUnder(soleComponent(t)).(type) {
	case *types.Slice:
		return false
	case *types.Basic:
		if b := typeUnder(soleComponent(t)).(*types.Basic); b.Info()&types.IsString != 0 {
			return false
		}
	}
	return true
}

// soleComponent is t's only component, through structs of one field and
// arrays of one element (cmd/compile's SoleComponent).
func soleComponent(t types.Type) types.Type {
	for {
		switch u := typeUnder(t).(type) {
		case *types.Struct:
			if u.NumFields() != 1 {
				return t
			}
			t = u.Field(0).Type()
		case *types.Array:
			if u.Len() != 1 {
				return t
			}
			t = u.Elem()
		default:
			return t
		}
	}
}

// directIface reports whether a value of t is kept in an interface as it
// is: a pointer, map, chan, func or unsafe.Pointer, or a struct or array
// with one such component.
func directIface(t types.Type) bool {
	switch u := typeUnder(soleComponent(t)).(type) {
	case *types.Pointer, *types.Map, *types.Chan, *types.Signature:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	}
	return false
}

// hasPointers reports whether a value of t holds pointers.
func hasPointers(t types.Type) bool {
	switch u := typeUnder(t).(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0 || u.Kind() == types.UnsafePointer
	case *types.Struct:
		for i := range u.NumFields() {
			if hasPointers(u.Field(i).Type()) {
				return true
			}
		}
		return false
	case *types.Array:
		return u.Len() > 0 && hasPointers(u.Elem())
	}
	return true
}

// hoistableEarly reports whether every early argument can be put in a
// variable (see hoistable).
func (c *Cell) hoistableEarly(xs []ast.Expr, top bool) bool {
	for _, x := range xs {
		if !c.hoistableType(x, top) {
			return false
		}
	}
	return true
}

// hoistableType reports whether x's value can be put in a variable of its
// type (see hoistable).
func (c *Cell) hoistableType(x ast.Expr, top bool) bool {
	t := c.Types.TypeOf(x)
	_, ok := c.TypeExpr(t, x.Pos())
	return ok || !top
}

// readBeforeChange reports whether an operand outside the calls reads a
// variable that a call after it may change.
func (c *Cell) readBeforeChange(ops operands) bool {
	if len(ops.reads) == 0 {
		return false
	}
	for _, call := range ops.calls {
		changes := c.mayChange(call)
		for _, r := range ops.reads {
			if r.pos < call.Pos() && (!r.until.IsValid() || call.Pos() < r.until) && (changes(r.obj) || c.mayReach(call, r.obj)) {
				return true
			}
		}
	}
	return false
}

// mayChange tells the variables call may change (see operandOrder).
func (c *Cell) mayChange(call *ast.CallExpr) func(types.Object) bool {
	objs := map[types.Object]bool{}
	names := map[string]bool{}
	root := func(e ast.Expr) {
		if obj, _ := c.rootVar(e); obj != nil {
			objs[obj] = true
		}
	}
	if c.isBuiltin(call.Fun) || c.isMinMax(call) {
		if (isIdent(call.Fun, "copy") || isIdent(call.Fun, "append")) && len(call.Args) > 0 {
			root(unslice(call.Args[0])) // (copy(dst, src) writes dst's array, append past its length)
		}
		return func(o types.Object) bool { return objs[o] }
	}
	var fd *ast.FuncDecl
	if fn := c.callee(call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == c.Types.Pkg.Path() {
		fd = c.funcDecl(funcKeyOf(fn))
		c.assignedNames(funcKeyOf(fn), names, map[string]bool{})
	}
	// A library's function or method, one an earlier pass handed to the
	// runtime (json.Unmarshal became grundyrt.JSONUnmarshal), a function
	// value, a parameter, an interface's method or a literal: what it does
	// with what it is handed is not read, so everything it is handed may
	// change.
	native := fd == nil
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		_, ptr := typeUnder(c.Types.TypeOf(fun.X)).(*types.Pointer)
		if c.takesAddress(fun) || ptr && (native || fd != nil && fd.Recv != nil && writesThrough(fd.Body, paramName(fd.Recv, 0))) {
			root(fun.X) // (b.inc(), or p.inc() changing *p)
		}
	case *ast.FuncLit:
		c.litChanges(fun, objs)
	case *ast.Ident:
		// g() with g := func() int { k = 2; ... } in the cell.
		if v, ok := c.Types.ObjectOf(fun).(*types.Var); ok {
			for _, lit := range c.litsOf(v) {
				c.litChanges(lit, objs)
			}
		}
	}
	for i, a := range call.Args {
		if u, ok := a.(*ast.UnaryExpr); ok && u.Op == token.AND {
			root(unslice(u.X))
			continue
		}
		if native {
			c.handedVars(a, objs)
			continue
		}
		switch typeUnder(c.Types.TypeOf(a)).(type) {
		case *types.Pointer, *types.Slice, *types.Map:
			if fd == nil {
				continue
			}
			if p := paramName(fd.Type.Params, i); p != "" && writesThrough(fd.Body, p) {
				root(a)
			}
		}
	}
	return func(o types.Object) bool { return objs[o] || names[o.Name()] && cellGlobal(o) }
}

// litChanges adds to objs the variables the literal lit assigns, and the
// maps and slices it deletes from or clears (delete(m, k) in a closure
// beside m["b"]).
func (c *Cell) litChanges(lit *ast.FuncLit, objs map[types.Object]bool) {
	c.walkWrites(lit.Body, func(o types.Object, _ write) { objs[o] = true }, nil)
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && len(call.Args) > 0 && (isIdent(call.Fun, "delete") || isIdent(call.Fun, "clear")) && c.isBuiltin(call.Fun) {
			if obj, _ := c.rootVar(call.Args[0]); obj != nil {
				objs[obj] = true
			}
		}
		return true
	})
}

// handedVars adds to objs the variables an argument hands a call to
// change: those of pointer, slice or map type and those whose address it
// takes, outside function literals (an earlier pass may have wrapped them:
// grundyrt.Typed(p, ...)).
func (c *Cell) handedVars(arg ast.Expr, objs map[types.Object]bool) {
	ast.Inspect(arg, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if obj, _ := c.rootVar(unslice(n.X)); obj != nil && n.Op == token.AND {
				objs[obj] = true
			}
		case *ast.SliceExpr:
			if _, array := typeUnder(c.Types.TypeOf(n.X)).(*types.Array); array {
				if obj, _ := c.rootVar(unslice(n.X)); obj != nil {
					objs[obj] = true // (p.A[:] hands p's array)
				}
			}
		case *ast.Ident:
			if v, ok := c.Types.Uses[n].(*types.Var); ok && !v.IsField() {
				switch typeUnder(v.Type()).(type) {
				case *types.Pointer, *types.Slice, *types.Map:
					objs[v] = true
				}
			}
		}
		return true
	})
}

// unslice is the slice or array e slices (xs in xs[i:j]), or e.
func unslice(e ast.Expr) ast.Expr {
	for {
		s, ok := ast.Unparen(e).(*ast.SliceExpr)
		if !ok {
			return e
		}
		e = s.X
	}
}

// paramName is the name of parameter i in fl, or "" (none, or unnamed).
func paramName(fl *ast.FieldList, i int) string {
	if fl == nil {
		return ""
	}
	for _, f := range fl.List {
		if i < len(f.Names) {
			return f.Names[i].Name
		}
		i -= max(1, len(f.Names))
		if len(f.Names) == 0 && i < 0 {
			return ""
		}
	}
	return ""
}

// writesThrough reports whether body sets what the variable name points
// to or holds (name[i] = ..., name.f++, *name = ..., append(name, ...)'s
// array), or hands it on to another call.
func writesThrough(body *ast.BlockStmt, name string) bool {
	through := func(e ast.Expr) bool {
		id, depth := rootIdent(e)
		return id != nil && id.Name == name && depth > 0
	}
	return contains(body, false, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if through(l) {
					return true
				}
			}
		case *ast.IncDecStmt:
			return through(n.X)
		case *ast.CallExpr:
			if isIdent(n.Fun, "len") || isIdent(n.Fun, "cap") {
				return false
			}
			for _, a := range n.Args {
				if isIdent(a, name) {
					return true
				}
			}
		}
		return false
	})
}

// funcKeyOf is fn's key for funcDecl: "f", or "T.m" for a method.
func funcKeyOf(fn *types.Func) string {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return fn.Name()
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name() + "." + fn.Name()
	}
	return fn.Name()
}

// assignedNames adds to names the variables the function with this key
// (this cell's or an earlier one's) assigns, takes the address of or calls
// a method on, by name (not those it declares), and those of the
// session's functions it calls.
func (c *Cell) assignedNames(key string, names, seen map[string]bool) {
	if seen[key] {
		return
	}
	seen[key] = true
	fd := c.funcDecl(key)
	if fd == nil || fd.Body == nil {
		return
	}
	// The names the function declares (parameters, variables) are its
	// own, not the package's.
	own := OwnNames(fd)
	name := func(e ast.Expr) {
		if id, _ := rootIdent(e); id != nil && !own[id.Name] {
			names[id.Name] = true
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				name(l)
			}
		case *ast.IncDecStmt:
			name(n.X)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				name(n.X)
			}
		case *ast.CallExpr:
			switch f := ast.Unparen(n.Fun).(type) {
			case *ast.Ident:
				c.assignedNames(f.Name, names, seen)
			case *ast.SelectorExpr:
				name(f.X)
			}
		}
		return true
	})
}

// OwnNames are the names n, a function's declaration (or a function
// literal), declares for itself, read from its syntax: its receiver,
// parameters and results, those of the function literals in it, and the
// variables it declares (:=, var, range). A global of such a name is not
// the one its body means (not counting a use before a local declaration).
func OwnNames(n ast.Node) map[string]bool {
	own := map[string]bool{}
	addFields := func(fls ...*ast.FieldList) {
		for _, fl := range fls {
			if fl == nil {
				continue
			}
			for _, f := range fl.List {
				for _, id := range f.Names {
					own[id.Name] = true
				}
			}
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			addFields(n.Recv)
		case *ast.FuncType:
			addFields(n.Params, n.Results)
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						own[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				own[id.Name] = true
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						own[id.Name] = true
					}
				}
			}
		}
		return true
	})
	return own
}

// litsOf are the function literals the cell assigns to the variable v
// (g := func() { ... }, var g = func..., g = func...; in a function that
// defers, each made by a literal of its own, see funcDefers: g :=
// func() func() { return func() { ... } }()).
func (c *Cell) litsOf(v *types.Var) []*ast.FuncLit {
	var lits []*ast.FuncLit
	for _, e := range c.localInits()[v] {
		if call, ok := ast.Unparen(e).(*ast.CallExpr); ok && len(call.Args) == 0 {
			if mk, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok && len(mk.Body.List) == 1 {
				if r, ok := mk.Body.List[0].(*ast.ReturnStmt); ok && len(r.Results) == 1 {
					e = r.Results[0]
				}
			}
		}
		if lit, ok := ast.Unparen(e).(*ast.FuncLit); ok {
			lits = append(lits, lit)
		}
	}
	return lits
}
