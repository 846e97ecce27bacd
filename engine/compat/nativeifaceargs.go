package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// nativeIfaceArgs: a value of an interface type the session declares
// (type Described interface{ games.Game; Describe() string }) converted
// to a native interface type with methods: handed to a native function
// (solve.Values(d, 3), sort.Sort(s), games.Sum(d, games.Nim(1))),
// converted explicitly (games.Game(d)), or assigned, returned, passed or
// stored where the type is the native one (var s fmt.Stringer = l).
// yaegi v0.16.1 passes a native function the dynamic value taken out of
// the interpreter's interface (interp/run.go:1521, isInterfaceSrc →
// genValueInterfaceValue), which for a value of a cell type is bare, not
// the wrapper with its methods that a native interface needs: reflect
// panicked "Call using struct { ... } as type games.Game". An explicit
// conversion kept the interpreter's own interface value ("reflect.Set:
// value of type interp.valueInterface is not assignable to type
// games.Game"). Where it does wrap, it puts in the wrapper the last field
// of a struct value (see grundyrt.Rewrap), so a pair{1, 2} in a
// fmt.Stringer printed, and %T named it, as the cell's type Nimber on int
// (*2, main.Nimber). The value is converted as ifaceCopies converts a
// cell type's value, assigned in a function literal that puts the whole
// value in the wrapper:
//
//	solve.Values(d, 3)  =>  solve.Values(games.Game(func(_grundyIC1 Described) (_grundyIC2 games.Game) {
//		_grundyIC2 = _grundyIC1; grundyrt.Rewrap(&_grundyIC2, _grundyIC1); return }(d)), 3)
//
// The error interface is left to the error passes, which make cell errors
// native where they are handed over.
var nativeIfaceArgs = Pass{
	Name:     "nativeifaceargs",
	Run:      runNativeIfaceArgs,
	Kinds:    assignedKinds,
	Snippets: []string{"native_iface_args_cell_interface", "native_iface_struct_value_printed", "nil_slice_native_arg", "native_iface_keeps_native_value", "nil_pointer_native_iface", "native_iface_based_values_boxed", "slog_cell_methods"},
}

func runNativeIfaceArgs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		if call, ok := cur.Node().(*ast.CallExpr); ok && c.Types.IsType(call.Fun) {
			if len(call.Args) == 1 {
				if x, ok := c.asNative(c.Types.TypeOf(call.Fun), call.Args[0]); ok {
					cur.Replace(x)
				}
			}
			return true
		}
		if call, ok := cur.Node().(*ast.CallExpr); ok {
			switch cur.Parent().(type) {
			case *ast.GoStmt, *ast.DeferStmt:
			default:
				if lit, ok := c.nativeTupleArgs(call); ok {
					cur.Replace(lit)
					return true
				}
			}
		}
		logValuer := c.slogValuer(cur.Node())
		for _, v := range c.assignedValues(cur, nil) {
			if x, ok := c.asNative(v.target, v.value); ok {
				v.set(x)
			} else if u := c.optionalIface(v.target, c.Types.TypeOf(v.value), v.value.Pos()); u != nil {
				if x, ok := c.callCopy(u, v.value); ok {
					v.set(x)
				}
			} else if logValuer != nil && emptyIface(v.target) {
				// log/slog asks an attribute's value for LogValue by an
				// assertion, which yaegi's bare value fails (a Secret's
				// LogValue was not called): converted to slog.LogValuer
				// as ifaceCopies converts (an explicit conversion keeps
				// the bare value), it comes in the wrapper with its method.
				// So for error, whose Error its handlers wrote as the
				// value's fields. (Only where it takes a value, an any:
				// slog.New's handler is converted as any argument is.)
				if c.cellImplements(v.value, logValuer) {
					if x, ok := c.callCopy(logValuer, v.value); ok {
						v.set(x)
					}
				} else if !c.slogValue(v) && c.cellImplements(v.value, typesError) {
					if x, ok := c.callCopy(typesError, v.value); ok {
						v.set(x)
					}
				} else if t := c.Types.TypeOf(v.value); t != nil && types.IsInterface(t) && !hasTypeParam(t) {
					// An interface's value, whose type is known when
					// it runs: one of a cell's type the handlers would
					// print without its methods stops the cell.
					pos := v.value.Pos()
					v.set(&ast.CallExpr{Fun: rtSelector(prelude.RTSlogDynamic, pos), Lparen: pos, Args: []ast.Expr{v.value}, Rparen: v.value.End()})
				}
			}
		}
		return true
	})
}

// optionalIfaces are, for a native interface type a native function takes
// (by package path and name), the native interfaces it embeds in that the
// function asks its value for by an assertion: math/rand's New asks a
// Source for Source64's Uint64 (and without it draws Uint64 from Int63,
// other numbers), compress/flate's NewReader asks an io.Reader for
// ReadByte (and without it reads ahead through a bufio.Reader), the
// library's Visit asks a Game for VisitFollowers (and without it
// allocates).
var optionalIfaces = map[string][]string{
	"math/rand.Source":         {"math/rand.Source64"},
	"io.Reader":                {"compress/flate.Reader"},
	"grundy/stdlib/games.Game": {"grundy/stdlib/games.VisitingGame"},
}

// optionalIface is the native interface type to convert a value of the
// cell type from to where it goes where the native interface target is, for the
// assertions the native code makes of it (see optionalIfaces): yaegi
// v0.16.1 hands over a cell's value in a wrapper with the methods of
// target only, so an assertion to an interface with more of the value's
// methods failed. The interface is one the value implements whose
// package the cell can name at pos (flate.Reader where it imports
// compress/flate); nil when none.
func (c *Cell) optionalIface(target, from types.Type, pos token.Pos) types.Type {
	n, ok := types.Unalias(target).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || from == nil || types.IsInterface(from) || !typecheck.IsCellType(deref(from)) {
		return nil
	}
	for _, name := range optionalIfaces[n.Obj().Pkg().Path()+"."+n.Obj().Name()] {
		dot := strings.LastIndex(name, ".")
		p := c.Types.Import(name[:dot])
		if p == nil {
			continue
		}
		tn, ok := p.Scope().Lookup(name[dot+1:]).(*types.TypeName)
		if !ok || !types.Implements(from, tn.Type().Underlying().(*types.Interface)) {
			continue
		}
		if _, ok := c.TypeExpr(tn.Type(), pos); ok {
			return tn.Type()
		}
	}
	return nil
}

// asNative is e converted to target (see callCopy), when target is a
// native interface type with methods other than error and e a value of
// an interface with methods the session declares or writes out, or of a
// type parameter constrained by one (which may be instantiated with
// either, or with a cell struct type).
func (c *Cell) asNative(target types.Type, e ast.Expr) (ast.Expr, bool) {
	return c.asNativeFrom(target, c.Types.TypeOf(e), e)
}

// nativeTupleArgs is f(g()), f native and one of g's results a value of
// a cell's interface for f's native interface parameter, as
//
//	func() R { _grundyTa1, _grundyTa2 := g(); return f(conv(_grundyTa1), conv(_grundyTa2)) }()
//
// (assignedValues leaves f(g()) out: its values pass as they are).
func (c *Cell) nativeTupleArgs(call *ast.CallExpr) (ast.Expr, bool) {
	if len(call.Args) != 1 || call.Ellipsis.IsValid() || c.Types.IsType(call.Fun) || c.isBuiltin(call.Fun) || c.interpreted(call) || stdGeneric[c.callee(call).Pkg().Path()] {
		return nil, false
	}
	tuple, ok := c.Types.TypeOf(call.Args[0]).(*types.Tuple)
	sig, isSig := typeUnder(c.Types.TypeOf(call.Fun)).(*types.Signature)
	if !ok || !isSig {
		return nil, false
	}
	def, vars := c.defineTemps("Ta", call.Args[0], tuple.Len())
	converted := false
	for i, v := range vars {
		if x, ok := c.asNativeFrom(paramType(sig, i, false), tuple.At(i).Type(), v); ok {
			vars[i], converted = x, true
		}
	}
	if !converted {
		return nil, false
	}
	return c.callAfter(call, func() (ast.Stmt, *ast.CallExpr) {
		return def, &ast.CallExpr{Fun: call.Fun, Lparen: call.Lparen, Args: vars, Rparen: call.Rparen}
	})
}

// asNativeFrom is asNative for e of type from.
func (c *Cell) asNativeFrom(target, from types.Type, e ast.Expr) (ast.Expr, bool) {
	if target == nil || !c.isNativeIface(target) || isError(target) {
		return nil, false
	}
	if it, ok := target.Underlying().(*types.Interface); !ok || it.Empty() {
		return nil, false
	}
	if from == nil || c.isNativeIface(from) {
		return nil, false
	}
	if u := c.optionalIface(target, from, e.Pos()); u != nil {
		target = u
	}
	if nilable(from) && typecheck.IsCellType(from) && (!hasCall(e) || c.nilConversion(e)) {
		// A slice or map of a cell type: converted as ifaceCopies
		// converts, where a nil one is wrapped (see wrapNil); yaegi's
		// conversion made it a nil interface, and sort.Sort(h) of a nil
		// h panicked with a nil dereference.
		if x, ok := c.nilConv(target, from, e); ok {
			return x, true
		}
		if fx, ok := c.TypeExpr(from, e.Pos()); ok {
			return c.convCall(target, from, fx, e)
		}
		return nil, false
	}
	if n := boxedType(from); n != nil && !nilable(from) && !isSignature(from.Underlying()) && typecheck.IsCellType(n) && topLevelType(c, from) {
		// A value of a cell type on a basic type or an array (a Nimber,
		// a Pos [2]int): in the wrapper in its box (see boxConv; a
		// function type's value is funcIfaceArgs').
		if x, ok := c.boxConv(target, from, e); ok {
			return x, true
		}
	}
	if _, ptr := from.Underlying().(*types.Pointer); ptr && typecheck.IsCellType(deref(from)) && c.mayBeNil(e) {
		// A pointer to a cell type, which may be nil, likewise (s ==
		// nil was true, fmt printed <nil> for a String method that
		// handles a nil receiver, and calling it panicked).
		return c.nilConv(target, from, e)
	}
	if c.methodsResult(e) {
		// In parentheses, as yaegi passes a variable: sort.Sort(byLen(xs)),
		// byLen a function, or a conversion to an instance of a generic
		// type (G[int](xs)), passed the bare value ("reflect: Call using
		// []int as type sort.Interface").
		return &ast.ParenExpr{Lparen: e.Pos(), X: e, Rparen: e.End()}, true
	}
	_, param := from.(*types.TypeParam)
	if it, ok := from.Underlying().(*types.Interface); !ok || it.Empty() {
		return nil, false
	}
	pos := e.Pos()
	xs, ok := c.typeExprs([]types.Type{from, target}, pos)
	if !ok {
		return nil, false
	}
	fx, tx := xs[0], xs[1]
	v, r := c.Temp("IC"), c.Temp("IC")
	var set ast.Stmt = &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{ident(r, pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(v, pos)}},
		&ast.ExprStmt{X: rewrapCall(ident(r, pos), ident(v, pos), pos)},
	}, Rbrace: pos}
	if !param {
		// (a nil value of the cell's interface stays nil: assigned, it
		// made the native call panic)
		set = &ast.IfStmt{If: pos, Cond: &ast.BinaryExpr{X: ident(v, pos), OpPos: pos, Op: token.NEQ, Y: ident("nil", pos)}, Body: set.(*ast.BlockStmt)}
	}
	result := &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{ident(r, pos)}, Type: tx}}}
	if hasCall(e) {
		// A value a call gives is taken in the literal's body: passed
		// as the argument of the literal inside a native call's
		// arguments (solve.Values(lit(mk()), 3)), the literal's body
		// panicked with a nil dereference.
		return called(funcLit(pos, pos, result, define(pos, []ast.Expr{ident(v, pos)}, e), set, &ast.ReturnStmt{Return: pos})), true
	}
	f := funcLit(pos, pos, result, set, &ast.ReturnStmt{Return: pos})
	f.Type.Params.List = []*ast.Field{{Names: []*ast.Ident{ident(v, pos)}, Type: fx}}
	return &ast.CallExpr{Fun: f, Lparen: pos, Args: []ast.Expr{e}, Rparen: e.End()}, true
}

// methodsResult reports whether e is a call (or a conversion) giving a
// value of a cell type with methods, not an interface.
func (c *Cell) methodsResult(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok || c.isBuiltin(call.Fun) {
		return false
	}
	t := c.Types.TypeOf(call)
	return t != nil && !types.IsInterface(t) && typecheck.IsCellType(deref(t)) && types.NewMethodSet(t).Len() > 0
}

// nilable reports whether t is a slice or map type, whose nil value yaegi
// converts to a nil native interface.
func nilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map:
		return true
	}
	return false
}

// nilConversion reports whether e is a conversion of nil (M(nil)).
func (c *Cell) nilConversion(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && len(call.Args) == 1 && c.Types.IsType(call.Fun) && c.Types.Types[call.Args[0]].IsNil()
}

// hasCall reports whether e calls something (a conversion counts).
func hasCall(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if _, ok := n.(*ast.CallExpr); ok {
			found = true
		}
		return !found
	})
	return found
}

// slogValuer is log/slog's LogValuer interface when n calls a function or
// method of log/slog (slog.Any, logger.Info), else nil.
func (c *Cell) slogValuer(n ast.Node) types.Type {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "log/slog" {
		return nil
	}
	tn, _ := fn.Pkg().Scope().Lookup("LogValuer").(*types.TypeName)
	if tn == nil {
		return nil
	}
	return tn.Type()
}

// textMarshaler is encoding.TextMarshaler, which a cell need not import.
var textMarshaler = types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, nil, "MarshalText",
	types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, nil, "", types.NewSlice(types.Typ[types.Byte])), types.NewVar(token.NoPos, nil, "", typesError)), false))}, nil).Complete()

// slogValue hands log/slog a value of a cell type (or one made of cell
// types) as grundyrt.SlogValue, a native value that its handlers print
// as Go's print the value: they ask for encoding.TextMarshaler and error
// by assertions, which yaegi's bare value fails, and print the rest with
// fmt (%+v) and json, which do not see the cell's String, Error,
// MarshalText or MarshalJSON methods (at={Lat:52.5 Lon:13.41} for Go's
// at=52.50/13.41, named={S:x} for its String's named:x), silently. The
// value carries the value typed for the engine's printer and json, its
// MarshalText and Error methods, and whether it has MarshalJSON (which the
// JSON handler asks before Error). A type on []byte is left as it is
// (the text handler quotes a byte slice), and so is one the printer
// needs no help with. false if v was left.
func (c *Cell) slogValue(v assignedValue) bool {
	t := c.Types.TypeOf(v.value)
	if t == nil || types.IsInterface(t) || hasTypeParam(t) || !typecheck.IsCellType(deref(t)) {
		return false
	}
	if s, ok := t.Underlying().(*types.Slice); ok && types.Identical(s.Elem(), types.Typ[types.Byte]) {
		return false
	}
	pos := v.value.Pos()
	x := c.Temp("SV")
	typed := c.typedArgOf(ident(x, pos), t)
	vt, ok := c.TypeExpr(t, pos)
	if typed == nil || !ok {
		return false
	}
	method := func(name string) ast.Expr { return &ast.SelectorExpr{X: ident(x, pos), Sel: ident(name, pos)} }
	text, errText := ast.Expr(ident("nil", pos)), ast.Expr(ident("nil", pos))
	if types.Implements(t, textMarshaler) {
		text = method("MarshalText")
	}
	if implementsError(t) {
		errText = method("Error")
	}
	ownJSON := "false"
	if m, _, _ := types.LookupFieldOrMethod(t, true, nil, "MarshalJSON"); m != nil {
		ownJSON = "true"
	}
	call := &ast.CallExpr{Fun: rtSelector(prelude.RTSlogValue, pos), Lparen: pos, Rparen: pos,
		Args: []ast.Expr{typed, text, errText, ident(ownJSON, pos)}}
	f := funcLit(pos, pos, results(ident("any", pos)), &ast.ReturnStmt{Return: pos, Results: []ast.Expr{call}})
	f.Type.Params.List = []*ast.Field{{Names: []*ast.Ident{ident(x, pos)}, Type: vt}}
	v.set(&ast.CallExpr{Fun: f, Lparen: pos, Args: []ast.Expr{v.value}, Rparen: v.value.End()})
	return true
}

// cellImplements reports whether e is a value of a cell type (or a
// pointer to one) that implements iface.
func (c *Cell) cellImplements(e ast.Expr, iface types.Type) bool {
	t := c.Types.TypeOf(e)
	if t == nil || types.IsInterface(t) || !typecheck.IsCellType(deref(t)) {
		return false
	}
	it, ok := iface.Underlying().(*types.Interface)
	return ok && types.Implements(t, it)
}

// boxConv is e, a value of from, a cell type on a basic type or an array
// that the interpreter boxes, converted to target, a native interface
// type with methods, by a function the session declares once for the
// two types:
//
//	func _grundyBoxConv_123(v Nimber) (r fmt.Stringer) {
//		r = v
//		var b any = v
//		grundyrt.RewrapBox(&r, b)
//		return
//	}
//
// yaegi's wrapper of the interface held the bare value, without its type:
// asserted back (tm.(Pos)), switched on, or shown with %T, it was the
// underlying type's. The box (kept by a variable of type any) goes in
// its place.
func (c *Cell) boxConv(target, from types.Type, e ast.Expr) (ast.Expr, bool) {
	name := hashedName("BoxConv", types.TypeString(from, nil), types.TypeString(target, nil))
	if !c.declared[name] && c.Session.Func(name) == nil {
		pos := e.Pos()
		xs, ok := c.typeExprs([]types.Type{from, target}, pos)
		if !ok {
			return nil, false
		}
		v, r := ident(tempPrefix+"V", pos), ident(tempPrefix+"R", pos)
		body := append([]ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{r}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{v}}},
			rewrapStmts(from, r, v, pos)...)
		body = append(body, &ast.ReturnStmt{Return: pos})
		c.Insts = append(c.Insts, convFunc(name, nil, v, r, xs[0], xs[1], body))
		c.noteDeclared(name)
	}
	return &ast.CallExpr{Fun: ident(name, e.Pos()), Lparen: e.Pos(), Args: []ast.Expr{e}, Rparen: e.End()}, true
}
