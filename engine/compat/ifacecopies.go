package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// ifaceCopies: a value of a cell type with methods, or a pointer to one,
// that Go converts to an interface (var a any = p, a = p, []any{p}, append(xs, p), m[k] = p,
// ch <- p, f(p) with an interface parameter, Shape(p)) is copied into the
// interface. yaegi v0.16.1 wraps the value's storage instead
// (genValueInterface, interp/value.go:236, keeps the frame's
// reflect.Value): a later change to the variable shows through the
// interface, and the values a loop appends to a []Shape (p, or mk(i), a
// call's result in its slot of the frame) are all its last one. The copy
// is the element of a new one-element slice, which the interface then
// wraps and nothing else holds (yaegi's index expression puts the
// element's own reflect.Value in its slot, interp/run.go:1758); a struct
// converted to any is copied by yaegi's conversion; native interfaces and
// error take a call, whose frame is new each time:
//
//	out = append(out, []*Node{k}[0])
//	var a any = interface{}(p)
//	var s fmt.Stringer = func(_grundyIC1 P) (_grundyIC2 fmt.Stringer) { ... }(p)
//
// The slice is about four times faster than the call (a loop appending a
// million pointers to a []Game). A pointer variable that keeps its value
// needs no copy at all (see freshPointers), but into a native interface
// with methods other than error: yaegi's wrapper there reads its receiver
// from the frame's slot each time a method is called (interp/value.go:43,
// genValueRecv), so the *Items a loop appended to a []fmt.Stringer (p, or
// &Item{n}) all said the last one's String; the call copies them too.
//
// An explicit conversion I(n) of a boxed type on a basic type (see boxed)
// to an interface drops the box in yaegi (n was its basic type's value
// there: %T said int, a type switch took case int, fmt.Println(Errer(n))
// did not call n's Error) where the implicit conversion keeps it, so its
// operand is converted implicitly first, from a copy (the box held the
// variable's storage: Game(k) of a loop's k was its last value):
// any([]interface{}{[]Heap{n}[0]}[0]), Errer([]Errer{[]Code{n}[0]}[0]).
//
// A nil slice, map or pointer of a cell type converted to a native
// interface in the call is wrapped by grundyrt.WrapNil (see wrapNil):
// yaegi made it a nil interface.
//
// Arguments of calls into native packages are copied by reflect and are
// left alone (a nil one still arrives as a nil interface). Two more conversions that yaegi gets wrong take
// parentheses, which cost nothing: f(g()) with g's result an interface
// and return a * b to an interface (see runIfaceCopies).
var ifaceCopies = Pass{
	Name:     "ifacecopies",
	Run:      runIfaceCopies,
	Kinds:    assignedKinds,
	Snippets: []string{"iface_values_are_copies", "iface_pointers_are_copies", "iface_array_literals", "iface_conversion_defines", "iface_any_swaps", "iface_boxed_returns", "iface_generic_boxed_returns", "iface_explicit_any_boxed", "nil_slice_native_iface", "generic_type_switch_boxed", "iface_copies_of_literal_maps", "native_iface_args_in_loops", "generic_values_to_native_any", "native_iface_struct_args"},
}

func runIfaceCopies(c *Cell) {
	interpreted := c.interpreted
	fresh := c.freshPointers()
	var loops *loopSpans // made when a native call first needs it
	copies := func(target types.Type, e ast.Expr) bool {
		_, param := target.(*types.TypeParam)
		if param || !types.IsInterface(target) || !c.sharedInIface(e) {
			return false
		}
		// A variable that keeps its value needs no copy, but for a
		// native interface with methods other than error: yaegi's
		// wrapper reads its receiver from the variable's slot when a
		// method is called (genValueRecv, interp/value.go:43), which a
		// loop's next pass fills anew (p := new(Item); out =
		// append(out, p), then out[0].String() said the last Item).
		// error goes through a call of its own (errorValues).
		if id, ok := ast.Unparen(e).(*ast.Ident); ok && fresh[c.Types.ObjectOf(id)] && (isError(target) || !c.isNativeIface(target)) {
			return false
		}
		// errorValues converts these to error through a call of its own,
		// with its parameter in a new frame, which also keeps what Go's
		// wrapper does for a nil pointer (ptrAsError, promotedAsError).
		_, ptr := types.Unalias(c.Types.TypeOf(e)).(*types.Pointer)
		return !isError(target) || !ptr || !ownErrorCall(c.Types.TypeOf(e))
	}
	c.Apply(func(cur Cursor) bool {
		if call, ok := cur.Node().(*ast.CallExpr); ok && c.Types.IsType(call.Fun) && len(call.Args) == 1 {
			// I(p), explicitly (any(p) copies); compared with == it needs
			// no copy, and keeps its type for ifaceCompare.
			if be, ok := cur.Parent().(*ast.BinaryExpr); ok && (be.Op == token.EQL || be.Op == token.NEQ) {
				return true
			}
			if t := c.Types.TypeOf(call.Fun); isIfaceType(t) && (isBoxedBased(c.Types.TypeOf(call.Args[0])) || isTypeParam(c.Types.TypeOf(call.Args[0])) && c.boxesBasic()) {
				// I(n) of a boxed type on a basic type: yaegi's
				// explicit conversion drops the box (the value became
				// its basic type's, without methods), its implicit one
				// keeps it. The conversion stays, for its type.
				pos := call.Args[0].Pos()
				var it ast.Expr = &ast.InterfaceType{Interface: pos, Methods: &ast.FieldList{Opening: pos, Closing: pos}}
				if !t.Underlying().(*types.Interface).Empty() {
					var ok bool
					if it, ok = c.TypeExpr(t, pos); !ok {
						return true
					}
				}
				arg := call.Args[0]
				if tx, ok := c.TypeExpr(c.Types.TypeOf(arg), pos); ok && c.sharedInIface(arg) {
					// Copied first: the box of []I{n}[0] held n's
					// storage, so the values a loop converted (Game(k)
					// for each k) were all its last one.
					arg = sliceElem(tx, arg)
				}
				call.Args[0] = sliceElem(it, arg)
				return true
			}
			if t, x := c.Types.TypeOf(call.Fun), call.Args[0]; c.isNativeIface(t) && !isError(t) && isIfaceType(t) && cellPointer(c.Types.TypeOf(x)) {
				// fmt.Stringer(&x): yaegi's explicit conversion of a
				// pointer to a cell's type to a native interface with
				// methods leaves the bare pointer, which panicked where it
				// was stored ("reflect.Set: value of type *struct {...}
				// is not assignable to type fmt.Stringer"); the implicit
				// one wraps it. (A value is copied into the interface
				// below, and wrapped.)
				if c.mayBeNil(x) {
					if conv, ok := c.nilConv(t, c.Types.TypeOf(x), x); ok {
						cur.Replace(conv)
						return true
					}
				}
				if tx, ok := c.TypeExpr(t, call.Fun.Pos()); ok {
					e := sliceElem(tx, x)
					cur.Replace(e)
					c.Types.Types[e] = c.Types.Types[call] // (for the passes after: fmtArgs names its type)
				}
				return true
			}
			if t := c.Types.TypeOf(call.Fun); copies(t, call.Args[0]) && !t.Underlying().(*types.Interface).Empty() {
				if typedByConversion(cur) && !isError(t) {
					// The conversion stays, with its type for the passes
					// after (ifaceAsserts); its operand is copied by a
					// call (Shape([]Sq{q}[0]) lost its type).
					if copied, ok := c.callCopy(t, call.Args[0]); ok {
						call.Args[0] = copied.(*ast.CallExpr).Args[0]
					}
					return true
				}
				switch copied, ok := c.copyInto(t, call.Args[0], false); {
				case !ok:
				case copied == call.Args[0] || isError(t) || c.isNativeIface(t):
					cur.Replace(copied) // a literal, or a copy of type t
				default:
					call.Args[0] = copied // []T{p}[0]
				}
			}
			return true
		}
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) > 1 {
				c.sequentialAssign(cur, n, copies)
				return true
			}
		case *ast.ValueSpec:
			if len(n.Names) > 1 {
				c.sequentialSpecs(cur, n, copies)
				return true
			}
		}
		if ret, ok := cur.Node().(*ast.ReturnStmt); ok && c.boxedReturn(cur, ret, copies) {
			return true
		}
		call, isCall := cur.Node().(*ast.CallExpr)
		_, isReturn := cur.Node().(*ast.ReturnStmt)
		if isCall && !interpreted(call) && !c.isBuiltin(call.Fun) {
			c.nativeArgCopies(cur, call, &loops, copies)
			c.nativeParamArgs(call)
		}
		if isCall && interpreted(call) && call.Ellipsis.IsValid() {
			c.spreadIfaceArgs(call)
		}
		for _, a := range c.assignedValues(cur, interpreted) {
			_, binary := a.value.(*ast.BinaryExpr)
			switch {
			case !nonEmptyIface(a.target):
			case isCall && !c.isBuiltin(call.Fun) && c.ifaceResult(a.value, interpreted),
				isReturn && binary && c.Types.Types[a.value].Value == nil:
				// In parentheses, as yaegi passes any other value.
				// f(g()): it wraps g's result, an interface, in
				// another with the node of g's result type
				// (interp/run.go:1219), which has no type: f's type
				// switches and assertions found nothing (or crashed).
				// return a * b: it leaves the product where it
				// computed it, not in the result's interface
				// (interp/run.go:2467): a fmt.Stringer was nil.
				a.set(&ast.ParenExpr{Lparen: a.value.Pos(), X: a.value, Rparen: a.value.End()})
				continue
			}
			if !copies(a.target, a.value) {
				continue
			}
			if copied, ok := c.copyInto(a.target, a.value, a.stored); ok {
				a.set(copied)
			}
		}
		return true
	})
}

// boxedReturn writes a return that hands a value of a type on a basic
// type the interpreter boxes (type Nimber int), or a value of a type
// parameter (which may be instantiated with one: func ident[T any](v T)
// any), to a result of an empty interface type through a variable of the
// result's type:
//
//	return Nimber(4), nil  =>  { var _grundyRt1 any = Nimber(4); return _grundyRt1, nil }
//
// yaegi v0.16.1 returns such an operand bare (interp/run.go:2450: "we
// can't let genValueInterface deal with it"): func() any { return
// Nimber(4) } gave the caller a 4 that printed 4 for *4, was an int to
// %T and failed x.(Nimber); a variable of type any holds the box. When an
// operand calls something, the operands before the last boxed one are
// hoisted too, in order, so that each is still evaluated when Go would.
func (c *Cell) boxedReturn(cur Cursor, n *ast.ReturnStmt, copies func(types.Type, ast.Expr) bool) bool {
	rs := c.resultTypes(cur.Func)
	if len(rs) != len(n.Results) || cur.Index() < 0 {
		return false
	}
	boxes := func(i int) bool {
		t := c.Types.TypeOf(n.Results[i])
		_, param := types.Unalias(t).(*types.TypeParam)
		_, toParam := types.Unalias(rs[i]).(*types.TypeParam)
		return emptyIface(rs[i]) && !toParam && (param || boxedType(t) != nil)
	}
	last, calls := -1, false
	for i, r := range n.Results {
		if boxes(i) {
			last = i
		}
		calls = calls || contains(r, true, func(n ast.Node) bool {
			x, ok := n.(*ast.CallExpr)
			return ok && !c.Types.IsType(x.Fun)
		})
	}
	if last < 0 {
		return false
	}
	pos := n.Pos()
	var hoisted []ast.Stmt
	for i := 0; i <= last; i++ {
		if !boxes(i) && !calls {
			continue
		}
		te, ok := c.TypeExpr(rs[i], pos)
		if !ok {
			return false
		}
		v := n.Results[i]
		if boxes(i) && copies(rs[i], v) {
			if cp, ok := c.ifaceCopy(rs[i], v); ok {
				v = cp
			}
		}
		tmp := c.Temp("Rt")
		hoisted = append(hoisted, varDecl(pos, tmp, te, v))
		n.Results[i] = ident(tmp, pos)
	}
	cur.Replace(&ast.BlockStmt{Lbrace: pos, List: append(hoisted, n), Rbrace: n.End()})
	return true
}

// ifaceResult reports whether e is a call of an interpreted function
// (keep) whose one result is of a non-empty interface type.
func (c *Cell) ifaceResult(e ast.Expr, keep func(*ast.CallExpr) bool) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok || c.Types.IsType(call.Fun) || c.isBuiltin(call.Fun) || !keep(call) {
		return false
	}
	return nonEmptyIface(c.Types.TypeOf(call))
}

func nonEmptyIface(t types.Type) bool {
	if t == nil {
		return false
	}
	it, ok := t.Underlying().(*types.Interface)
	return ok && !it.Empty()
}

// typedByConversion reports whether the conversion at cur gives its type
// to what follows: a variable it defines (s := Shape(Sq{2}), var s =
// ...) or the operand of an assertion (Shape(Sq{2}).(Sq)). There a
// literal is copied as a variable is (copyInto leaves it alone): alone it
// was of its own type, so the variable could not take another value
// (reflect.Set panicked) and the assertion did not compile; converted,
// yaegi lost its type in functions (a type switch on s took no case).
func typedByConversion(cur Cursor) bool {
	switch p := cur.Parent().(type) {
	case *ast.AssignStmt:
		return p.Tok == token.DEFINE
	case *ast.ValueSpec:
		return p.Type == nil
	case *ast.TypeAssertExpr:
		return true
	}
	return false
}

// copyInto is e converted to the interface type t through a copy,
// unless e is a composite literal and t an interface a cell declares: such
// a literal is a value of its own there (it is not in a native interface's
// wrapper), and a copy or a conversion would lose its type for type
// switches; stored in a field or an element, it is copied as a
// variable's value is (yaegi stored the bare literal with the value's
// type: "reflect.Set: value of type interp.valueInterface is not
// assignable", and with an explicit conversion, Expr(Num{1}), a type
// switch's case Num took default, silently). So the commonest case,
// out = append(out, Nim{k}), costs nothing more. A literal of a type on
// an array is copied like a variable (yaegi panicked in reflect.Set
// assigning Row{0, 1, 2} to a Game).
func (c *Cell) copyInto(t types.Type, e ast.Expr, stored bool) (ast.Expr, bool) {
	_, isStruct := typeUnder(c.Types.TypeOf(e)).(*types.Struct)
	if _, lit := ast.Unparen(e).(*ast.CompositeLit); lit && isStruct && typecheck.IsCellType(t) && !isError(t) {
		if !stored {
			return e, true
		}
	}
	return c.ifaceCopy(t, e)
}

// ifaceCopy writes e, to be converted to the interface type t, as a copy:
// []T{e}[0] (T being e's type) for any and the interfaces cells declare,
// which leaves the conversion to the place e is in; interface{}(e) for a struct
// converted to any; else a call with the conversion in it,
//
//	func(_grundyIC1 T) (_grundyIC2 t) { _grundyIC2 = _grundyIC1; return }(e)
//
// and for error func(_grundyIC1 T) error { return _grundyAsError(_grundyIC1)
// }(e) (errorValues cannot see into it). (yaegi's explicit conversion to
// an interface other than any shares e's storage as the implicit one
// does; any(e) loses a type on a basic type, with its methods; the result
// of a conversion T(e), an assertion to T or a call is one slot of the
// frame, which each iteration of a loop reuses; and a call's result
// returned as any loses its type too.)
func (c *Cell) ifaceCopy(t types.Type, e ast.Expr) (ast.Expr, bool) {
	pos := e.Pos()
	if _, isStruct := c.Types.TypeOf(e).Underlying().(*types.Struct); isStruct && t.Underlying().(*types.Interface).Empty() {
		// A struct converted to any is copied, and the engine's struct
		// types carry their names (structnames), so the cheaper
		// conversion does (four times faster on a loop appending to a
		// []any).
		anyType := &ast.InterfaceType{Interface: pos, Methods: &ast.FieldList{Opening: pos, Closing: pos}}
		return &ast.CallExpr{Fun: anyType, Lparen: pos, Args: []ast.Expr{e}, Rparen: e.End()}, true
	}
	if !isError(t) && !c.isNativeIface(t) {
		vt, ok := c.TypeExpr(c.Types.TypeOf(e), pos)
		if !ok {
			return nil, false
		}
		x := sliceElem(vt, e)
		c.Types.Types[x] = types.TypeAndValue{Type: c.Types.TypeOf(e)} // (for returnedFuncs)
		return x, true
	}
	return c.callCopy(t, e)
}

// callCopy is ifaceCopy's call: e converted to the interface type t in a
// function's result.
func (c *Cell) callCopy(t types.Type, e ast.Expr) (ast.Expr, bool) {
	pos := e.Pos()
	vt, ok := c.TypeExpr(c.Types.TypeOf(e), pos)
	if !ok {
		return nil, false
	}
	if isError(t) && promotedError(c.Types.TypeOf(e)) {
		return c.promotedAsError(e, vt), true
	}
	return c.convCall(t, c.Types.TypeOf(e), vt, e)
}

// convCall is callCopy's call for e, a value of the type from, written vt.
func (c *Cell) convCall(t, from types.Type, vt, e ast.Expr) (ast.Expr, bool) {
	pos := e.Pos()
	it, ok := c.TypeExpr(t, pos)
	if !ok {
		return nil, false
	}
	v := c.Temp("IC")
	var f *ast.FuncLit
	if isError(t) {
		asErr := &ast.CallExpr{Fun: ident(prelude.AsError, pos), Lparen: pos, Args: []ast.Expr{ident(v, pos)}, Rparen: pos}
		f = funcLit(pos, pos, results(it), &ast.ReturnStmt{Return: pos, Results: []ast.Expr{asErr}})
	} else {
		r := c.Temp("IC")
		var body []ast.Stmt
		if nilCase := c.wrapNil(t, from, vt, ident(r, pos), ident(v, pos), pos); nilCase != nil {
			body = append(body, nilCase)
		}
		body = append(body, &ast.AssignStmt{Lhs: []ast.Expr{ident(r, pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(v, pos)}})
		if _, ptr := from.Underlying().(*types.Pointer); c.isNativeIface(t) && !ptr {
			// grundyrt.Rewrap(&r, v): yaegi's wrapper with the whole
			// value in it (a pointer is whole there).
			body = append(body, rewrapStmts(from, ident(r, pos), ident(v, pos), pos)...)
		}
		f = funcLit(pos, pos, &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{ident(r, pos)}, Type: it}}}, append(body, &ast.ReturnStmt{Return: pos})...)
	}
	f.Type.Params.List = []*ast.Field{{Names: []*ast.Ident{ident(v, pos)}, Type: vt}}
	copied := &ast.CallExpr{Fun: f, Lparen: pos, Args: []ast.Expr{e}, Rparen: e.End()}
	c.Types.Types[copied] = types.TypeAndValue{Type: t} // (for the passes after: fmtArgs prints it as a t)
	if isError(t) || t.Underlying().(*types.Interface).Empty() {
		return copied, true
	}
	// Passed on as an argument, the call's result is an interface whose
	// dynamic type yaegi no longer knows (g.(Sub) fails in the function)
	// until it is converted to its type again.
	it2, _ := c.TypeExpr(t, pos)
	conv := &ast.CallExpr{Fun: it2, Lparen: pos, Args: []ast.Expr{copied}, Rparen: e.End()}
	c.Types.Types[conv] = types.TypeAndValue{Type: t}
	return conv, true
}

// wrapNil is, for v of a cell type from on a pointer, slice or map type
// (written vt) converted to r of a native interface type t,
//
//	if v == nil {
//		var z t = vt{} // or new(T): a value yaegi wraps
//		grundyrt.WrapNil(&r, z, v, []string{"M"}, func(a A) R { return v.M(a) })
//		return
//	}
//
// yaegi v0.16.1 converts a nil such value to a nil interface
// (interp/run.go:1089), so r == nil was true and r's methods were not
// called (a nil Mex printed through fmt.Stringer as <nil>). nil where it
// does not apply, or a type has no source.
func (c *Cell) wrapNil(t, from types.Type, vt ast.Expr, r, v *ast.Ident, pos token.Pos) ast.Stmt {
	if from == nil || !c.isNativeIface(t) || !typecheck.IsCellType(deref(from)) {
		return nil
	}
	var standIn ast.Expr
	switch u := from.Underlying().(type) {
	case *types.Pointer:
		elem, ok := c.TypeExpr(u.Elem(), pos)
		if !ok {
			return nil
		}
		standIn = &ast.CallExpr{Fun: ident("new", pos), Lparen: pos, Args: []ast.Expr{elem}, Rparen: pos}
	case *types.Slice, *types.Map:
		standIn = &ast.CompositeLit{Type: vt, Lbrace: pos, Rbrace: pos}
	default:
		return nil
	}
	it, ok := c.TypeExpr(t, pos)
	if !ok {
		return nil
	}
	z := ident(c.Temp("IC"), pos)
	names := &ast.CompositeLit{Type: &ast.ArrayType{Lbrack: pos, Elt: ident("string", pos)}, Lbrace: pos, Rbrace: pos}
	args := []ast.Expr{&ast.UnaryExpr{OpPos: pos, Op: token.AND, X: r}, z, v, names}
	iface := t.Underlying().(*types.Interface)
	for i := range iface.NumMethods() {
		m := iface.Method(i)
		fn, ok := c.methodCaller(v, m, pos)
		if !ok {
			return nil
		}
		names.Elts = append(names.Elts, &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(m.Name())})
		args = append(args, fn)
	}
	decl := &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{z}, Type: it, Values: []ast.Expr{standIn}}}}}
	call := &ast.ExprStmt{X: &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(prelude.RTWrapNil, pos)}, Lparen: pos, Args: args, Rparen: pos}}
	return ifThen(pos, &ast.BinaryExpr{X: v, OpPos: pos, Op: token.EQL, Y: ident("nil", pos)}, decl, call, &ast.ReturnStmt{Return: pos})
}

// methodCaller is func(a0 A0, ...) (R...) { return v.M(a0, ...) } for the
// method m of an interface.
func (c *Cell) methodCaller(v *ast.Ident, m *types.Func, pos token.Pos) (ast.Expr, bool) {
	sig := m.Type().(*types.Signature)
	params := &ast.FieldList{Opening: pos, Closing: pos}
	var args []ast.Expr
	for i := range sig.Params().Len() {
		pt := sig.Params().At(i).Type()
		var tx ast.Expr
		var ok bool
		if sig.Variadic() && i == sig.Params().Len()-1 {
			var elt ast.Expr
			elt, ok = c.TypeExpr(pt.(*types.Slice).Elem(), pos)
			tx = &ast.Ellipsis{Ellipsis: pos, Elt: elt}
		} else {
			tx, ok = c.TypeExpr(pt, pos)
		}
		if !ok {
			return nil, false
		}
		a := ident(c.Temp("IC"), pos)
		params.List = append(params.List, &ast.Field{Names: []*ast.Ident{a}, Type: tx})
		args = append(args, ident(a.Name, pos))
	}
	var res *ast.FieldList
	for i := range sig.Results().Len() {
		tx, ok := c.TypeExpr(sig.Results().At(i).Type(), pos)
		if !ok {
			return nil, false
		}
		if res == nil {
			res = &ast.FieldList{Opening: pos, Closing: pos}
		}
		res.List = append(res.List, &ast.Field{Type: tx})
	}
	call := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(v.Name, pos), Sel: ident(m.Name(), pos)}, Lparen: pos, Args: args, Rparen: pos}
	if sig.Variadic() {
		call.Ellipsis = pos
	}
	var body ast.Stmt = &ast.ExprStmt{X: call}
	if res != nil {
		body = &ast.ReturnStmt{Return: pos, Results: []ast.Expr{call}}
	}
	lit := funcLit(pos, pos, res, body)
	lit.Type.Params = params
	return lit, true
}

// rewrapCall is grundyrt.Rewrap(&r, v): yaegi's wrapper in r, of a
// native interface, with the whole of v in it.
// rewrapStmts are grundyrt.Rewrap(&r, v), or for v of a cell type the
// interpreter boxes (a Row []Nimber) var b any = v;
// grundyrt.RewrapBox(&r, b), which puts the box, naming the type, in the
// wrapper (see boxConv).
func rewrapStmts(from types.Type, r, v *ast.Ident, pos token.Pos) []ast.Stmt {
	if n := boxedType(from); n == nil || !typecheck.IsCellType(n) {
		return []ast.Stmt{&ast.ExprStmt{X: rewrapCall(r, v, pos)}}
	}
	b := ident(tempPrefix+"B", pos)
	return []ast.Stmt{varDecl(pos, b.Name, ident("any", pos), v),
		&ast.ExprStmt{X: &ast.CallExpr{Fun: rtSelector(prelude.RTRewrapBox, pos), Lparen: pos,
			Args: []ast.Expr{&ast.UnaryExpr{OpPos: pos, Op: token.AND, X: r}, b}, Rparen: pos}}}
}

func rewrapCall(r, v ast.Expr, pos token.Pos) *ast.CallExpr {
	return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(prelude.RTRewrap, pos)}, Lparen: pos,
		Args: []ast.Expr{&ast.UnaryExpr{OpPos: pos, Op: token.AND, X: r}, v}, Rparen: pos}
}

// isBoxedBased reports whether t is a cell type the interpreter keeps in
// an interface in a box (see boxed).
func isBoxedBased(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && isBased(n) && boxed(n)
}

// isNativeIface reports whether t is an interface type of a native package
// (fmt.Stringer), which yaegi gives a value through a wrapper of its own.
func (c *Cell) isNativeIface(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() != c.Types.Pkg.Path()
}

// cellPointer reports whether t is a pointer to a type a cell declares.
func cellPointer(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && typecheck.IsCellType(p.Elem())
}

// sharedInIface reports whether e is a value of a cell type with methods
// that yaegi may share with an interface it is converted to.
func (c *Cell) sharedInIface(e ast.Expr) bool {
	t := c.Types.TypeOf(e)
	if _, param := t.(*types.TypeParam); param {
		// In a generic function, T may stand for such a type.
		return true
	}
	if p, ok := t.(*types.Pointer); ok && typecheck.IsCellType(p.Elem()) {
		// A pointer variable's slot is shared too, when the pointer has
		// methods: the values a loop appends to a []Game (for _, n :=
		// range nodes) are all its last one.
		return interpMethods(p.Elem())
	}
	if t == nil || types.IsInterface(t) || !typecheck.IsCellType(t) {
		return false
	}
	if _, ptr := t.Underlying().(*types.Pointer); ptr {
		return false
	}
	if !interpMethods(t) {
		return false
	}
	// Even a composite literal: stored in a map in a loop, it is one slot
	// of the frame that each iteration reuses.
	return true
}

// yaegi's parallel assignments and declarations of several variables
// with an interface type panic in reflect.Set on the values of cell types
// ("value of type interp.valueInterface is not assignable to type ...",
// or a wrapper of fmt.Stringer "not assignable to type int"), and a
// parallel assignment of a value of an empty interface type (a, b = b, a
// with a and b of type any, or b, c = any(1.5), 2: "value of type
// interface {} is not assignable to type interp.valueInterface"; its
// temporary is made for the interpreter's interfaces, interp/run.go:731,
// while a value of an empty one is Go's interface{}); one at a time, with
// the copies above, they run.

// breaksParallel reports whether yaegi's parallel assignment (or
// declaration, which becomes one at a cell's top level) of v to a place
// of type t panics (see above): v needs a copy, is of an empty interface
// type, or is a nil that tupleNil would make one.
func (c *Cell) breaksParallel(t types.Type, v ast.Expr, copies func(types.Type, ast.Expr) bool) bool {
	return copies(t, v) || emptyIface(c.Types.TypeOf(v)) || emptyIface(t) && c.Types.Types[v].IsNil()
}

// sequentialSpecs writes var a, b I = x, y as var a I = x; var b I = y,
// when no value mentions a declared name (which would then mean the new
// variable).
func (c *Cell) sequentialSpecs(cur Cursor, vs *ast.ValueSpec, copies func(types.Type, ast.Expr) bool) {
	gd, ok := cur.Parent().(*ast.GenDecl)
	if !ok || cur.Index() < 0 || vs.Type == nil || len(vs.Values) != len(vs.Names) {
		return
	}
	t := c.Types.TypeOf(vs.Type)
	if t == nil || !slices.ContainsFunc(vs.Values, func(v ast.Expr) bool { return c.breaksParallel(t, v, copies) }) {
		return
	}
	names := map[string]bool{}
	for _, n := range vs.Names {
		names[n.Name] = true
	}
	for _, v := range vs.Values {
		if contains(v, false, func(n ast.Node) bool { id, ok := n.(*ast.Ident); return ok && names[id.Name] }) {
			return
		}
	}
	specs := make([]*ast.ValueSpec, len(vs.Names))
	for i, name := range vs.Names {
		te := vs.Type
		if i > 0 {
			if te, ok = c.TypeExpr(t, vs.Type.Pos()); !ok {
				return
			}
		}
		v := vs.Values[i]
		if copies(t, v) {
			if v, ok = c.ifaceCopy(t, v); !ok {
				return
			}
		}
		specs[i] = &ast.ValueSpec{Names: []*ast.Ident{name}, Type: te, Values: []ast.Expr{v}}
	}
	if !gd.Lparen.IsValid() {
		gd.Lparen, gd.Rparen = vs.Pos(), vs.End()
	}
	for i := len(specs) - 1; i > 0; i-- {
		cur.InsertAfter(specs[i])
	}
	cur.Replace(specs[0])
}

// sequentialAssign writes a, b = x, y as
//
//	{ _grundyPA1 := x'; _grundyPA2 := y'; a = _grundyPA1; b = _grundyPA2 }
//
// x' being x's copy where it needs one (constants are assigned last as
// they are). A place on the left may be an element or a field (xs[i],
// p.f): the indexes it uses are evaluated first, as Go evaluates them
// before the values; its variable must not be one the statement assigns.
func (c *Cell) sequentialAssign(cur Cursor, as *ast.AssignStmt, copies func(types.Type, ast.Expr) bool) {
	if as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) || cur.Index() < 0 {
		return
	}
	assigned := map[types.Object]bool{}
	for _, l := range as.Lhs {
		if id, ok := ast.Unparen(l).(*ast.Ident); ok {
			assigned[c.Types.ObjectOf(id)] = true
		}
	}
	need := false
	for i, l := range as.Lhs {
		if _, plain := ast.Unparen(l).(*ast.Ident); !plain {
			if root, _ := c.rootVar(l); root == nil || assigned[root] || !c.placeOperands(l) {
				return
			}
		}
		if t := c.Types.TypeOf(l); t != nil && c.breaksParallel(t, as.Rhs[i], copies) {
			need = true
		}
	}
	if !need {
		return
	}
	pos := as.Pos()
	var first, last []ast.Stmt
	temp := func(v ast.Expr) *ast.Ident {
		tmp := ident(c.Temp("PA"), pos)
		first = append(first, define(pos, []ast.Expr{tmp}, v))
		return ident(tmp.Name, pos)
	}
	places := make([]ast.Expr, len(as.Lhs))
	for i, l := range as.Lhs {
		places[i] = c.evaluatedPlace(l, temp)
	}
	for i, l := range places {
		v := as.Rhs[i]
		if tv, ok := c.Types.Types[v]; ok && (tv.Value != nil || tv.IsNil()) {
			last = append(last, &ast.AssignStmt{Lhs: []ast.Expr{l}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{v}})
			continue
		}
		if t := c.Types.TypeOf(as.Lhs[i]); t != nil && copies(t, v) {
			var ok bool
			if v, ok = c.ifaceCopy(t, v); !ok {
				return
			}
		}
		tmp := temp(v)
		if isIdent(l, "_") {
			first = append(first, &ast.AssignStmt{Lhs: []ast.Expr{ident("_", pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{tmp}})
			continue
		}
		last = append(last, &ast.AssignStmt{Lhs: []ast.Expr{l}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{tmp}})
	}
	cur.Replace(&ast.BlockStmt{Lbrace: pos, List: append(first, last...), Rbrace: as.End()})
}

// placeOperands reports whether a place assigned to is a variable's
// element or field reached without calls (xs[i], g.t[k].f, q.items[i]
// with q a pointer).
func (c *Cell) placeOperands(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.IndexExpr:
		return c.placeOperands(x.X)
	case *ast.SelectorExpr:
		// (Through a pointer too: the statement assigns none of the
		// variables its places start from.)
		sel, ok := c.Types.Selections[x]
		if !ok || sel.Kind() != types.FieldVal || len(sel.Index()) != 1 {
			return false
		}
		return c.placeOperands(x.X)
	}
	return false
}

// evaluatedPlace is the place e with each index that is not a constant
// replaced by a temporary temp defines.
func (c *Cell) evaluatedPlace(e ast.Expr, temp func(ast.Expr) *ast.Ident) ast.Expr {
	switch x := ast.Unparen(e).(type) {
	case *ast.IndexExpr:
		out := &ast.IndexExpr{X: c.evaluatedPlace(x.X, temp), Lbrack: x.Lbrack, Index: x.Index, Rbrack: x.Rbrack}
		if tv, ok := c.Types.Types[x.Index]; !ok || tv.Value == nil {
			out.Index = temp(x.Index)
		}
		return out
	case *ast.SelectorExpr:
		return &ast.SelectorExpr{X: c.evaluatedPlace(x.X, temp), Sel: x.Sel}
	}
	return e
}

// freshPointers are the variables of pointer type, or of a type on a
// basic type, a slice or a map the interpreter boxes (see boxed), whose storage keeps its
// value: declared alone by a := in a function (yaegi gives the variable
// new storage each time the := runs, interp/run.go:721), or parameters
// (each call has a new frame, interp/run.go:1356), and never assigned
// again or addressed in the cell (see changedVars). An interface that shares such a
// variable's storage sees no later change, so its pointer needs no copy:
// p := &Pos{i}; out = append(out, p) in a loop costs nothing more. A
// variable of the cell's top-level statements is left out: it may become
// a package variable, assigned (see varInits).
func (c *Cell) freshPointers() map[types.Object]bool {
	fresh := map[types.Object]bool{}
	declare := func(id *ast.Ident) {
		if o := c.Types.Defs[id]; o != nil {
			// (Not one on an array: a[0] = 9 changes its storage, which
			// changedVars does not count, and the interface showed it.)
			_, array := o.Type().Underlying().(*types.Array)
			if _, ptr := o.Type().(*types.Pointer); ptr || boxedType(o.Type()) != nil && !array {
				fresh[o] = true
			}
		}
	}
	params := func(lists ...*ast.FieldList) {
		for _, l := range lists {
			if l == nil {
				continue
			}
			for _, f := range l.List {
				for _, id := range f.Names {
					declare(id)
				}
			}
		}
	}
	topLevel := map[ast.Stmt]bool{}
	for _, b := range c.TopLevel() {
		for _, s := range b.List {
			topLevel[s] = true
		}
	}
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				params(n.Recv, n.Type.Params)
			case *ast.FuncLit:
				params(n.Type.Params)
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE && len(n.Lhs) == 1 && len(n.Rhs) == 1 && !topLevel[n] {
					// (Not from a composite literal, which yaegi writes
					// straight into the variable's storage each time: the
					// Multi{i: 1} values a loop appended to a []any were
					// all its last one.)
					_, lit := ast.Unparen(n.Rhs[0]).(*ast.CompositeLit)
					if id, ok := n.Lhs[0].(*ast.Ident); ok && !lit {
						declare(id)
					}
				}
			}
			return true
		})
	}
	for o := range c.changedVars() {
		delete(fresh, o)
	}
	return fresh
}

// isTypeParam reports whether t is a type parameter: inside an instance
// with a boxed type argument (see boxed), its values are boxed by an
// implicit conversion and bare after an explicit one, like the boxed
// type's own. The implicit conversion costs an allocation (a loop of
// generic calls doing only switch any(v).(type) ran 1.45 times as long),
// so it is written only once the session declares a boxed type; a
// function compiled before is compiled again when a cell declares types
// (the engine's replay), and basedinstances refuses an instance of one
// that was not (a method).
func isTypeParam(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.TypeParam)
	return ok
}

// nativeArgCopies copies into their interfaces the arguments a native
// function takes as an interface with methods (bufio.NewWriter(s),
// io.MultiWriter(a, b), with s a *Sink of the cell's) where a loop
// evaluates them anew: yaegi's wrapper reads its receiver from the
// argument's slot in the frame each time a method is called (interp/value.go:43,
// genValueRecv), so the writers a loop made and kept all wrote to the
// last Sink, silently. An argument the loop does not change (a variable
// declared before it and never assigned again) keeps its slot's value and
// passes as it is; so does every argument outside a loop, whose slot the
// function's frame keeps.
//
// A struct value is copied into its interface everywhere: yaegi's
// wrapper takes a struct of no methods for an interface it emulates and
// keeps its last field (getConcreteValue, interp/value.go:277), so
// io.LimitReader(R{1, "s"}, 5) kept "s", and the library's table of
// solve.Values(Take{4}, 2) gave back the int 4 as its game, silently.
// The copy's call wraps the whole value (see convCall's Rewrap).
func (c *Cell) nativeArgCopies(cur Cursor, call *ast.CallExpr, loops **loopSpans, copies func(types.Type, ast.Expr) bool) {
	var vals []assignedValue
	for _, a := range c.assignedValues(cur, nil) {
		if nonEmptyIface(a.target) && copies(a.target, a.value) {
			vals = append(vals, a)
		}
	}
	if len(vals) == 0 {
		return
	}
	if *loops == nil {
		*loops = c.loopSpans()
	}
	loop := (*loops).around(call.Pos(), cur.FuncNode)
	if loop == nil {
		for _, a := range vals {
			if _, isStruct := typeUnder(c.Types.TypeOf(a.value)).(*types.Struct); isStruct && c.isNativeIface(a.target) {
				if copied, ok := c.copyInto(a.target, a.value, a.stored); ok {
					a.set(copied)
				}
			}
		}
		return
	}
	changed := c.changedVars()
	for _, a := range vals {
		if id, ok := ast.Unparen(a.value).(*ast.Ident); ok {
			if o := c.Types.ObjectOf(id); o != nil && !changed[o] && (o.Pos() < loop.Pos() || o.Pos() >= loop.End()) {
				continue
			}
		}
		if copied, ok := c.copyInto(a.target, a.value, a.stored); ok {
			a.set(copied)
		}
	}
}

// nativeParamArgs boxes the values of type parameters a native function
// is handed in an empty interface (m.Store(k, v) in func Put[T any](m
// *sync.Map, v T)): yaegi v0.16.1 handed Put[Heap]'s v over as the bare
// int, so v.(Heap) of what Load gave back was false and a Heap key was
// not found, silently. Converted implicitly, from a copy, the value keeps
// its box, as in any(v) (see above): []interface{}{[]T{v}[0]}[0]. (fmt
// and log are handed a type parameter's value described, see fmtArgs,
// and reflect's functions by reflectNames; sort's Slice, SliceStable and
// SliceIsSorted want the bare slice, and panicked in reflect's Swapper on
// the box of a Hand, type Hand []int.)
func (c *Cell) nativeParamArgs(call *ast.CallExpr) {
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() == "fmt" || fn.Pkg().Path() == "reflect" || fn.Pkg().Path() == "sort" || isLogFunc(fn) || !c.boxesBasic() {
		return
	}
	sig, ok := typeUnder(c.Types.TypeOf(call.Fun)).(*types.Signature)
	if !ok {
		return
	}
	for i, a := range call.Args {
		at := c.Types.TypeOf(a)
		pt := paramType(sig, i, call.Ellipsis.IsValid())
		if !isTypeParam(at) || pt == nil || !emptyIface(pt) {
			continue
		}
		tx, ok := c.TypeExpr(at, a.Pos())
		if !ok {
			continue
		}
		boxed := boxedAny(tx, a)
		c.Types.Types[boxed] = types.TypeAndValue{Type: pt} // (for the passes after)
		call.Args[i] = boxed
	}
}

// spreadIfaceArgs converts the arguments call, an interpreted call that
// spreads a slice (f(x, xs...)), hands to interface parameters in a
// function literal of the parameter's result type, called in place:
// yaegi v0.16.1 does not put such an argument in the interface when the
// call spreads (a cell's struct for a Move, an error or an io.Writer
// parameter panicked in reflect.Set or CallSlice, "... is not assignable
// to type interp.valueInterface"), and does from a function's result.
//
//	F(Take{5}, ns...)  =>  F(func() Move { return Take{5} }(), ns...)
func (c *Cell) spreadIfaceArgs(call *ast.CallExpr) {
	sig, ok := typeUnder(c.Types.TypeOf(call.Fun)).(*types.Signature)
	if !ok {
		return
	}
	for i := 0; i < len(call.Args)-1 && i < sig.Params().Len()-1; i++ {
		pt, at := sig.Params().At(i).Type(), c.Types.TypeOf(call.Args[i])
		if at == nil || isIfaceType(at) || !isIfaceType(pt) || isTypeParam(pt) || c.Types.Types[call.Args[i]].IsNil() {
			continue
		}
		pos := call.Args[i].Pos()
		var conv ast.Expr
		if emptyIface(pt) {
			// (Implicitly, from a copy, keeping a boxed type's box: a
			// function's result goes bare, see boxedAny.)
			atx, ok := c.TypeExpr(at, pos)
			if !ok {
				continue
			}
			conv = boxedAny(atx, call.Args[i])
		} else {
			tx, ok := c.TypeExpr(pt, pos)
			if !ok {
				continue
			}
			conv = called(funcLit(pos, call.Args[i].End(), results(tx), &ast.ReturnStmt{Return: pos, Results: []ast.Expr{call.Args[i]}}))
		}
		c.Types.Types[conv] = types.TypeAndValue{Type: pt} // (for the passes after)
		call.Args[i] = conv
	}
}

// boxedAny is x, of the type tx writes, converted implicitly to any from
// a copy, which keeps the box of a type the interpreter boxes (an
// explicit any(x) drops it, and a call's result or a function's argument
// goes bare): []interface{}{[]T{x}[0]}[0].
func boxedAny(tx, x ast.Expr) ast.Expr {
	pos := x.Pos()
	return sliceElem(&ast.InterfaceType{Interface: pos, Methods: &ast.FieldList{Opening: pos, Closing: pos}}, sliceElem(tx, x))
}

// loopSpans are the cell's for and range statements, each with the
// function (declaration or literal) it is in, nil at top level.
type loopSpans struct {
	loops []ast.Stmt
	funcs []ast.Node
}

func (c *Cell) loopSpans() *loopSpans {
	ls := &loopSpans{}
	for _, root := range c.Roots() {
		inspectStack(root, func(n ast.Node, stack []ast.Node) bool {
			switch n.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				var fn ast.Node
				for i := len(stack) - 1; i >= 0; i-- {
					switch stack[i].(type) {
					case *ast.FuncDecl, *ast.FuncLit:
						fn = stack[i]
					}
					if fn != nil {
						break
					}
				}
				ls.loops = append(ls.loops, n.(ast.Stmt))
				ls.funcs = append(ls.funcs, fn)
			}
			return true
		})
	}
	return ls
}

// around is the innermost loop of fn around pos, or nil.
func (ls *loopSpans) around(pos token.Pos, fn ast.Node) ast.Stmt {
	var in ast.Stmt
	for i, l := range ls.loops {
		if ls.funcs[i] == fn && l.Pos() <= pos && pos < l.End() && (in == nil || l.Pos() >= in.Pos()) {
			in = l
		}
	}
	return in
}

// ownErrorCall reports whether asError converts a value of t to error
// through a function literal of its own: a pointer to a cell type whose
// Error has a value receiver, or a type whose Error is promoted.
func ownErrorCall(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok && typecheck.IsCellType(p.Elem()) && implementsError(p.Elem()) {
		return true
	}
	return promotedError(t)
}
