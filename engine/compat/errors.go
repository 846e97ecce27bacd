package compat

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// The error passes. yaegi v0.16.1 turns a value of a cell type into an
// error through a wrapper of its own, and three defects follow: the
// wrapper of a struct value keeps only the struct's last field
// (getConcreteValue, interp/value.go:262), so err.(T), type switches and
// errors.As lost the value; each conversion makes a new wrapper, so ==
// and errors.Is never matched; and its type switch compares case types
// with the wrapper's type, so no case of a cell type matched.

var typesError = types.Universe.Lookup("error").Type()

func isError(t types.Type) bool { return t != nil && types.Identical(t, typesError) }

// implementsError reports whether a value of type t is an error.
func implementsError(t types.Type) bool {
	return t != nil && types.Implements(t, typesError.Underlying().(*types.Interface))
}

// errorValues: every place a value of another type becomes an error
// (assignments, var declarations, returns, arguments, conversions,
// composite literal elements and fields, sends, append, fmt.Errorf's %w
// arguments) goes through the prelude's _grundyAsError, which builds the
// wrapper around the whole value with its bound Error method (a pointer
// to a cell type whose Error has a value receiver, in which yaegi finds
// no method, through _grundyAsErrorFunc with the method called through the
// pointer: ptrAsError). A value already of type error, or nil, needs
// nothing.
var errorValues = Pass{
	Name:     "errorvalues",
	Run:      runErrorValues,
	Kinds:    assignedKinds,
	Snippets: []string{"errors_value_receiver_conversions", "errors_typed_nil_value_receiver", "errors_errorf_w_not_error", "errors_value_receiver_fields", "errors_value_receiver_as", "errors_promoted_error_method", "errors_pointer_from_call", "errors_wrapped_in_loop"},
}

func runErrorValues(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		if call, ok := cur.Node().(*ast.CallExpr); ok && c.errorArgs(call) {
			return true
		}
		for _, a := range c.assignedValues(cur, nil) {
			if isError(a.target) {
				a.set(c.asError(a.value))
			}
		}
		return true
	})
}

// typeUnder is t's underlying type, or nil.
func typeUnder(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// asError converts e to error, unless it is one already or nil.
func (c *Cell) asError(e ast.Expr) ast.Expr {
	if isIdent(e, "nil") || isError(c.Types.TypeOf(e)) {
		return e
	}
	if call, ok := e.(*ast.CallExpr); ok && isIdent(call.Fun, prelude.AsError) {
		return e
	}
	if tv, ok := c.Types.Types[e]; ok && tv.IsNil() {
		return e
	}
	if p, ok := types.Unalias(c.Types.TypeOf(e)).(*types.Pointer); ok && typecheck.IsCellType(p.Elem()) && implementsError(p.Elem()) {
		if pt, ok := c.TypeExpr(p, e.Pos()); ok {
			return c.ptrAsError(e, pt, p.Elem())
		}
	}
	if t := c.Types.TypeOf(e); promotedError(t) {
		if vt, ok := c.TypeExpr(t, e.Pos()); ok {
			return c.promotedAsError(e, vt)
		}
	}
	return &ast.CallExpr{Fun: ident(prelude.AsError, e.Pos()), Args: []ast.Expr{parenCall(e)}, Lparen: e.Pos(), Rparen: e.End()}
}

// asErrorCopied is asError for an operand that is not a variable (&E{f},
// mk(f)), converted through a call of its own: yaegi's wrapper binds the
// Error method to the operand's slot in the frame, which a loop fills
// anew, so the errors a loop wrapped with %w all unwrapped to its last
// one (errors.Unwrap(e).Error() said "missing c" for each), silently.
func (c *Cell) asErrorCopied(e ast.Expr) ast.Expr {
	if _, ok := ast.Unparen(e).(*ast.Ident); ok || isError(c.Types.TypeOf(e)) || ownErrorCall(c.Types.TypeOf(e)) {
		return c.asError(e) // (ownErrorCall: a call of its own already)
	}
	if copied, ok := c.callCopy(typesError, e); ok {
		return copied
	}
	return c.asError(e)
}

// parenCall is e, in parentheses if it is a call. yaegi v0.16.1 passes
// the result of a call given directly as an argument to an interpreted
// function as it is, without its type (interp/run.go:1479, the
// isRegularCall case of callBin and its kin in call), so
// _grundyAsError(find()) with find returning a *E made a nil error
// (var err error = find() was nil); in parentheses it is an ordinary
// operand, passed with its type.
func parenCall(e ast.Expr) ast.Expr {
	if _, call := e.(*ast.CallExpr); call {
		return &ast.ParenExpr{Lparen: e.Pos(), X: e, Rparen: e.End()}
	}
	return e
}

// promotedError reports whether t is a cell type, or a pointer to one,
// whose Error method is promoted from an embedded field (for a pointer, a
// pointer method of an embedded struct: type Timeout struct{ GameError }
// with Error on *GameError): yaegi's assertion to an interface misses
// such a method (interp/run.go, typeAssert), so _grundyAsError made the
// value a nil error (err == nil was true, Println printed <nil>).
func promotedError(t types.Type) bool {
	if t == nil {
		return false
	}
	base := t
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		base = p.Elem()
	}
	if !typecheck.IsCellType(base) {
		return false
	}
	if _, ptr := base.Underlying().(*types.Pointer); ptr {
		return false
	}
	obj, index, _ := types.LookupFieldOrMethod(t, false, nil, "Error")
	_, isFunc := obj.(*types.Func)
	return isFunc && len(index) > 1 && implementsError(t)
}

// promotedAsError converts e, of a cell type whose Error method is
// promoted, to error with the method called on the value:
//
//	func(_grundyEV T) error { return _grundyAsErrorFunc(_grundyEV, func() string { return _grundyEV.Error() }) }(e)
func (c *Cell) promotedAsError(e, vt ast.Expr) ast.Expr {
	pos := e.Pos()
	v := func() *ast.Ident { return ident(tempPrefix+"EV", pos) }
	msg := funcLit(pos, pos, results(ident("string", pos)),
		&ast.ReturnStmt{Return: pos, Results: []ast.Expr{&ast.CallExpr{Fun: &ast.SelectorExpr{X: v(), Sel: ident("Error", pos)}, Lparen: pos, Rparen: pos}}})
	lit := funcLit(pos, e.End(), results(ident("error", pos)),
		&ast.ReturnStmt{Return: pos, Results: []ast.Expr{&ast.CallExpr{Fun: ident(prelude.AsErrorFunc, pos), Args: []ast.Expr{v(), msg}, Lparen: pos, Rparen: pos}}})
	lit.Type.Params.List = []*ast.Field{{Names: []*ast.Ident{v()}, Type: vt}}
	call := &ast.CallExpr{Fun: lit, Lparen: pos, Args: []ast.Expr{e}, Rparen: e.End()}
	c.Types.Types[call] = types.TypeAndValue{Type: typesError} // (for the passes after: fmtArgs prints an error)
	return call
}

// ptrAsError converts e, a pointer to a cell type whose Error method has a
// value receiver, to error with its Error method called through the
// pointer when it is called (as Go's interface holds the pointer), which
// _grundyAsError cannot find. A nil pointer is a non-nil error too, whose
// Error panics as Go's wrapper for the value method does (_grundyAsError
// made it a nil error: err != nil was false), or, the method promoted
// from an embedded field, the nil dereference Go's wrapper makes reading
// the field:
//
//	func(_grundyEP *T) error { if _grundyEP == nil { return _grundyAsErrorFunc(_grundyEP, func() string { return grundyrt.NilValueMethod("main.T.Error", "T") }) }; return _grundyAsErrorFunc(_grundyEP, func() string { return _grundyEP.Error() }) }(e)
func (c *Cell) ptrAsError(e, pt ast.Expr, elem types.Type) ast.Expr {
	pos := e.Pos()
	p := func() *ast.Ident { return ident(tempPrefix+"EP", pos) }
	msgOf := func(x ast.Expr) ast.Expr {
		return funcLit(pos, pos, results(ident("string", pos)), &ast.ReturnStmt{Return: pos, Results: []ast.Expr{x}})
	}
	msg := msgOf(&ast.CallExpr{Fun: &ast.SelectorExpr{X: p(), Sel: ident("Error", pos)}, Lparen: pos, Rparen: pos})
	name := types.TypeString(elem, (*types.Package).Name)
	str := func(s string) ast.Expr {
		return &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(s)}
	}
	var nilMsg ast.Expr
	if _, index, _ := types.LookupFieldOrMethod(elem, false, nil, "Error"); len(index) > 1 {
		// Promoted from an embedded field: Go's wrapper reads the field
		// through the nil pointer first.
		nilMsg = funcLit(pos, pos, results(ident("string", pos)),
			&ast.ExprStmt{X: &ast.CallExpr{Fun: rtSelector(prelude.RTNilDeref, pos), Lparen: pos, Rparen: pos}},
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{str("")}})
	} else {
		nilMsg = msgOf(&ast.CallExpr{Fun: rtSelector(prelude.RTNilValueMethod, pos),
			Args: []ast.Expr{str(name + ".Error"), str(strings.TrimPrefix(name, "main."))}, Lparen: pos, Rparen: pos})
	}
	lit := funcLit(pos, e.End(), results(ident("error", pos)),
		ifThen(pos, &ast.BinaryExpr{X: p(), OpPos: pos, Op: token.EQL, Y: ident("nil", pos)},
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{&ast.CallExpr{Fun: ident(prelude.AsErrorFunc, pos), Args: []ast.Expr{p(), nilMsg}, Lparen: pos, Rparen: pos}}}),
		&ast.ReturnStmt{Return: pos, Results: []ast.Expr{&ast.CallExpr{Fun: ident(prelude.AsErrorFunc, pos), Args: []ast.Expr{p(), msg}, Lparen: pos, Rparen: pos}}})
	lit.Type.Params.List = []*ast.Field{{Names: []*ast.Ident{p()}, Type: pt}}
	call := &ast.CallExpr{Fun: lit, Lparen: pos, Args: []ast.Expr{e}, Rparen: e.End()}
	c.Types.Types[call] = types.TypeAndValue{Type: typesError}
	return call
}

// errorArgs converts the argument of error(v) (as asError converts a
// value: a pointer to a type whose Error has a value receiver by the
// method's value, which _grundyAsError found none on) and the arguments
// of fmt.Errorf's %w verbs (which reach native Errorf as plain values, so
// %w would not see that a cell type is an error); done reports a call it
// handled.
func (c *Cell) errorArgs(call *ast.CallExpr) (done bool) {
	if c.Types.IsType(call.Fun) {
		if !isError(c.Types.TypeOf(call.Fun)) || len(call.Args) != 1 {
			return true
		}
		if conv, ok := c.asError(call.Args[0]).(*ast.CallExpr); ok && conv != call.Args[0] {
			call.Fun, call.Args = conv.Fun, conv.Args
		}
		return true
	}
	if fn := c.callee(call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "fmt" && fn.Name() == "Errorf" && !call.Ellipsis.IsValid() && len(call.Args) > 1 {
		// An argument reaches native Errorf as a plain value, so %w
		// would not see that a cell type is an error. One that is no
		// error stays as it is, for Errorf to print %!w(T=v).
		for _, i := range c.verbArgs(call.Args[0], 'w') {
			if i+1 < len(call.Args) && implementsError(c.Types.TypeOf(call.Args[i+1])) {
				call.Args[i+1] = c.asErrorCopied(call.Args[i+1])
			}
		}
		return true
	}
	return false
}

// verbArgs lists the indexes of the arguments that the verb's uses in a
// constant format string consume, explicit indexes (%[2]w) counted as
// fmt counts them (none when the format is not a constant, or an index
// is malformed).
func (c *Cell) verbArgs(format ast.Expr, verb byte) []int {
	tv, ok := c.Types.Types[format]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return nil
	}
	f := constant.StringVal(tv.Value)
	var out []int
	arg := 0
	bad := false
	index := func(i int) int { // an explicit index at i, [n]: arg is n-1
		if i < len(f) && f[i] == '[' {
			j := strings.IndexByte(f[i:], ']')
			n, err := strconv.Atoi(f[i+1 : i+max(j, 1)])
			if j < 0 || err != nil || n < 1 {
				bad = true
				return len(f)
			}
			arg = n - 1
			return i + j + 1
		}
		return i
	}
	number := func(i int) int { // a width or precision: * takes an argument
		if i < len(f) && f[i] == '*' {
			arg++
			return i + 1
		}
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			i++
		}
		return i
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		for i < len(f) && strings.IndexByte("+-# 0", f[i]) >= 0 {
			i++
		}
		i = number(index(i))
		if i < len(f) && f[i] == '.' {
			i = number(index(i + 1))
		}
		i = index(i)
		if bad {
			return nil
		}
		if i >= len(f) {
			break
		}
		switch f[i] {
		case '%':
		case verb:
			out = append(out, arg)
			arg++
		default:
			arg++
		}
	}
	return out
}

// errorsIsAs: errors.Is, errors.As and errors.Unwrap go to the runtime's,
// which look inside yaegi's wrappers (native errors.As sees the wrapper
// instead of the cell's type, and panics on targets of cell types; native
// errors.Is compares wrappers; the wrapper has only the Error method, so
// none of them saw a cell type's Is, As or Unwrap), walking Unwrap() error
// and Unwrap() []error trees as Go's do. errors.AsType[E] of an interface
// E other than error is written as errors.As of a target of type E is
// (asTypeCall).
var errorsIsAs = Pass{
	Name:     "errorsisas",
	Run:      runErrorsIsAs,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"errors_is_as", "errors_as_type_param_target", "errors_is_cell_values", "errors_as_cell_interface_later_type", "errors_as_interface_targets", "errors_as_native_value_no_twin", "errors_astype_interface"},
}

func runErrorsIsAs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := c.callee(call)
		if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "AsType" && len(call.Args) == 1 {
			if e := c.asTypeCall(call); e != nil {
				cur.Replace(e)
			}
			return true
		}
		sel, isSel := call.Fun.(*ast.SelectorExpr)
		if fn == nil || !isSel || fn.Pkg() == nil || fn.Pkg().Path() != "errors" {
			return true
		}
		if fn.Name() == "Unwrap" && len(call.Args) == 1 {
			call.Fun = &ast.SelectorExpr{X: ident(prelude.Runtime, sel.Pos()), Sel: ident(prelude.RTErrorsUnwrap, sel.Sel.Pos())}
			call.Args[0] = c.asError(call.Args[0])
			return true
		}
		if fn.Name() != "Is" && fn.Name() != "As" {
			return true
		}
		is := fn.Name() == "Is"
		name := prelude.RTErrorsAs
		if is {
			name = prelude.RTErrorsIs
		}
		if !is && len(call.Args) == 2 && !call.Ellipsis.IsValid() {
			if t := c.Types.TypeOf(call.Args[1]); badAsTarget(t) {
				// errors.As(err, &s), s a string: the native As panics
				// as Go's does ("errors: *target must be interface or
				// implement error"), where the runtime's walked on. A
				// cell type's target goes to the runtime's, which stops
				// the cell if a later cell gave the type Error.
				if n, ok := types.Unalias(typeUnder(t).(*types.Pointer).Elem()).(*types.Named); ok && typecheck.IsCellType(n) {
					call.Fun = &ast.SelectorExpr{X: ident(prelude.Runtime, sel.Pos()), Sel: ident(prelude.RTErrorsAsLater, sel.Sel.Pos())}
					call.Args = append(call.Args, &ast.BasicLit{ValuePos: call.Rparen, Kind: token.STRING, Value: strconv.Quote(reflectName(n, false))})
				}
				return true
			}
			if lit := c.errorsAsInterface(call); lit != nil {
				call.Fun = lit
				call.Args[0] = c.asError(call.Args[0])
				return true
			}
		}
		if !is && len(call.Args) == 2 && isIfaceType(c.Types.TypeOf(call.Args[1])) {
			// (var t any = &n: a native type not an error panics.)
			name = prelude.RTErrorsAsDynamic
		}
		call.Fun = &ast.SelectorExpr{X: ident(prelude.Runtime, sel.Pos()), Sel: ident(name, sel.Sel.Pos())}
		if len(call.Args) == 2 && !call.Ellipsis.IsValid() {
			call.Args[0] = c.asError(call.Args[0])
			if is {
				call.Args[1] = c.asError(call.Args[1])
			}
		}
		return true
	})
}

// badAsTarget reports whether errors.As panics for a target of type t: a
// pointer to a type that is neither an interface nor an error.
func badAsTarget(t types.Type) bool {
	pt, ok := typeUnder(t).(*types.Pointer)
	if !ok || types.IsInterface(pt.Elem()) {
		return false
	}
	errType := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	return !types.Implements(pt.Elem(), errType)
}

// errorsAsInterface is, for errors.As(err, target) with target a pointer
// to an interface type other than error (one a cell declared, a library's
// as fmt.Stringer, or a literal as interface{ Timeout() bool }), a
// function literal to call with the same arguments instead. The
// interpreter keeps a variable of such a type as a box of its own that
// native code cannot fill, and finds the methods of a value only through
// the cell types it knows, so the literal's type switch, over the
// session's types that implement the interface, stores the match
// (grundyrt's ErrorsAsFunc walks the chain); a value of another package's
// type is asserted to the interface as it is.
// A type declared by a later cell is not among them: ErrorsAsFunc, given
// the types known here, stops the cell when it meets one, rather than say
// false where Go may say true.
func (c *Cell) errorsAsInterface(call *ast.CallExpr) *ast.FuncLit {
	pt, ok := typeUnder(c.Types.TypeOf(call.Args[1])).(*types.Pointer)
	if !ok {
		return nil
	}
	return c.errorsAsIfaceLit(pt, call.Pos())
}

// asTypeCall is errors.AsType[E](err), E an interface other than error,
// as errors.As(err, &target) is written (errorsAsInterface):
//
//	func(_grundyErr error) (E, bool) { var _grundyT E; _grundyOK := lit(_grundyErr, &_grundyT); return _grundyT, _grundyOK }(err)
//
// The helper standing in for AsType asserts by reflect, which knows no
// cell's methods: AsType[Retryable] said false for a *Busy with them.
// nil for another E, which the helper takes (see genericStd).
func (c *Cell) asTypeCall(call *ast.CallExpr) ast.Expr {
	tuple, ok := c.Types.TypeOf(call).(*types.Tuple)
	if !ok || tuple.Len() != 2 {
		return nil
	}
	e := tuple.At(0).Type()
	lit := c.errorsAsIfaceLit(types.NewPointer(e), call.Pos())
	if lit == nil {
		return nil
	}
	ex, ok := c.Types.TypeString(e)
	if !ok {
		return nil
	}
	t := prelude.Temp
	src := fmt.Sprintf("func(%[1]sErr error) (%[2]s, bool) { var %[1]sT %[2]s; %[1]sOK := %[1]sAsLit(%[1]sErr, &%[1]sT); return %[1]sT, %[1]sOK }", t, ex)
	x, err := parser.ParseExpr(src)
	if err != nil {
		return nil
	}
	f := AtPos(x.(*ast.FuncLit), call.Pos())
	ast.Inspect(f, func(n ast.Node) bool {
		if in, ok := n.(*ast.CallExpr); ok && isIdent(in.Fun, t+"AsLit") {
			in.Fun = lit
		}
		return true
	})
	out := &ast.CallExpr{Fun: f, Lparen: call.Lparen, Args: []ast.Expr{c.asError(call.Args[0])}, Rparen: call.Rparen}
	c.Types.Types[out] = types.TypeAndValue{Type: tuple}
	return out
}

// errorsAsIfaceLit is errorsAsInterface's literal for a target of type
// pt, a pointer to the interface.
func (c *Cell) errorsAsIfaceLit(pt *types.Pointer, pos token.Pos) *ast.FuncLit {
	if !types.IsInterface(pt.Elem()) || isError(pt.Elem()) || typeUnder(pt.Elem()).(*types.Interface).Empty() {
		return nil
	}
	if _, param := types.Unalias(pt.Elem()).(*types.TypeParam); param {
		// A type parameter's value (var target E; E error) is of the type
		// argument's type: runtime's As assigns it as a concrete target.
		return nil
	}
	iface, ok := c.Types.TypeString(pt.Elem())
	if !ok {
		return nil
	}
	it := pt.Elem().Underlying().(*types.Interface)
	t := prelude.Temp
	var cases strings.Builder
	var known []string
	for _, n := range c.cellTypes() {
		known = append(known, reflectName(n, false))
		for _, tt := range []types.Type{n, types.NewPointer(n)} {
			if !types.Implements(tt, it) {
				continue
			}
			src, ok := c.Types.TypeString(tt)
			if !ok {
				continue
			}
			// Through a variable: yaegi converting to a native interface
			// (fmt.Stringer(x)) in an assignment to *P did not wrap the
			// value, which reflect.Set then refused.
			fmt.Fprintf(&cases, "case %s: var %[2]sY %[3]s = %[2]sX; *%[2]sP = %[2]sY; return true\n", src, t, iface)
		}
	}
	// A value of another package's type: yaegi's own assertion to an
	// interface it interprets fails on it, so it is asserted to a native
	// twin of the interface, or to the native types implementing it,
	// then converted (as typeSwitches does).
	tries := []ast.Expr{}
	if cellTypeOrIfaceLit(pt.Elem()) {
		if n := c.nativeIface(pt.Elem(), pos); n != nil {
			tries = append(tries, n)
		}
		impls, _ := c.nativeImplementers(typesError, pt.Elem(), pos)
		tries = append(tries, impls...)
	}
	var natives strings.Builder
	for _, n := range append(tries, nil) {
		src := iface
		if n != nil {
			src = ExprString(n)
		}
		fmt.Fprintf(&natives, "if %[1]sY, ok := %[1]sV.(%[2]s); ok { var %[1]sZ %[3]s = %[1]sY; *%[1]sP = %[1]sZ; return true }\n", t, src, iface)
	}
	// A native value with the interface's methods that none of the tries
	// took (there is no native twin to put it in): the cell stops, as an
	// assertion to the interface does, rather than say false where Go
	// says true.
	if stop := c.nativeMethods(func() *ast.Ident { return ident(t+"V", pos) }, pt.Elem(), pos); stop != nil {
		fmt.Fprintf(&natives, "if %s { return false }\n", ExprString(stop))
	}
	var sw string
	if cases.Len() > 0 {
		sw = fmt.Sprintf("switch %[1]sX := %[1]sV.(type) {\n%[2]s}\n", t, cases.String())
	}
	src := fmt.Sprintf(`func(%[1]sE error, %[1]sP *%[2]s) bool {
	return %[3]s.%[4]s(%[1]sE, %[1]sP, %[6]s, func(%[1]sV any) bool {
		%[5]s%[7]s
		return false
	})
}`, t, iface, prelude.Runtime, prelude.RTErrorsAsKnown, sw, strconv.Quote(strings.Join(known, "\n")), natives.String())
	e, err := parser.ParseExpr(src)
	if err != nil {
		return nil
	}
	return AtPos(e.(*ast.FuncLit), pos)
}

// cellTypes are the named types, neither generic nor interfaces, that
// the session's cells declared (at top level, and in this cell's
// functions).
func (c *Cell) cellTypes() []*types.Named {
	var out []*types.Named
	add := func(obj types.Object) {
		tn, ok := obj.(*types.TypeName)
		if !ok || tn.IsAlias() {
			return
		}
		if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() == 0 && !types.IsInterface(n) {
			out = append(out, n)
		}
	}
	// The package scope holds only the earlier cells' names this cell
	// uses; CellTypes has them all.
	for _, tn := range c.Types.CellTypes() {
		add(tn)
	}
	scope := c.Types.Pkg.Scope()
	for _, obj := range c.Types.Defs {
		if obj != nil && obj.Parent() != scope && obj.Parent() != nil {
			add(obj)
		}
	}
	return out
}

// errorAssert: v, ok := x.(error) and x.(error), x an interface holding
// a cell error type: yaegi's assertion looks for its own wrapper and said
// false (or panicked). The prelude's _grundyErrorAssert finds the Error
// method and builds the wrapper; _grundyErrorMust is the one-value form.
var errorAssert = Pass{
	Name:     "errorassert",
	Run:      runErrorAssert,
	Kinds:    []ast.Node{(*ast.TypeAssertExpr)(nil)},
	Snippets: []string{"errors_value_receiver_assign_assert", "recover_cell_values"},
}

func runErrorAssert(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) != 2 || len(n.Rhs) != 1 {
				return true
			}
			if ta, ok := n.Rhs[0].(*ast.TypeAssertExpr); ok && c.errorAssertion(ta) {
				n.Rhs[0] = &ast.CallExpr{Fun: ident(prelude.ErrorAssert, ta.Pos()), Args: []ast.Expr{ta.X}, Lparen: ta.Lparen, Rparen: ta.Rparen}
			}
		case *ast.TypeAssertExpr:
			if as, ok := cur.Parent().(*ast.AssignStmt); ok && len(as.Lhs) == 2 && len(as.Rhs) == 1 {
				return true // the comma-ok form, above
			}
			if vs, ok := cur.Parent().(*ast.ValueSpec); ok && len(vs.Names) == 2 {
				return true // var v, ok = x.(error): yaegi's own
			}
			if c.errorAssertion(n) {
				call := &ast.CallExpr{Fun: ident(prelude.ErrorMust, n.Pos()), Args: []ast.Expr{n.X}, Lparen: n.Lparen, Rparen: n.Rparen}
				// (An error, for the passes after: ifaceCompare compares
				// x.(error) == Halt{7} by the values' types.)
				c.Types.Types[call] = c.Types.Types[n]
				cur.Replace(call)
			}
		}
		return true
	})
}

// errorAssertion reports whether ta is x.(error) with x of another
// interface type.
func (c *Cell) errorAssertion(ta *ast.TypeAssertExpr) bool {
	return ta.Type != nil && isError(c.Types.TypeOf(ta.Type)) && !isError(c.Types.TypeOf(ta.X))
}
