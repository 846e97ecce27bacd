package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"

	"grundy/engine/prelude"
)

// typeArgs: calls of generic functions get the type arguments Go infers,
// written out, from the oracle. yaegi v0.16.1 infers them by position: it
// lists the argument types met at each use of a type parameter in the
// signature and takes the first n (interp/generic.go:211,
// inferTypesFromCall), so Map(xs []T, f func(T) U) got U = T, and it
// cannot infer from values of native types at all.
//
// Two more defects shape what is written. yaegi cannot instantiate a
// generic function with a type of another package (it loses the package:
// "incomplete type solve"), nor one that uses a type parameter as a value
// (T(x), or []T{Id(x)}) with a type that is not predeclared (see
// copyNeeds), so a cell's generic function called so is called as
// a copy with the types written in, declared before the cell
// (Cell.Insts, instanceCopy). And a call of the engine's slices or maps
// functions on a value of a library's named slice or map type crashed or
// mistyped the call (slices.Clone(p), p a games.Pos): such an argument
// goes as its underlying type and a result of the same type is converted
// back, so the call means what it says.
//
// It runs last: copies are made of the functions as the other passes left
// them.
var typeArgs = Pass{
	Name: "typeargs",
	Run:  runTypeArgs,
	// A cell may hold an engine function's value without a call (values
	// := slices.Values[[]string] alone; var s func([]int) = slices.Sort).
	Kinds:    []ast.Node{(*ast.CallExpr)(nil), (*ast.IndexExpr)(nil), (*ast.IndexListExpr)(nil), (*ast.SelectorExpr)(nil)},
	Snippets: []string{"generics_func", "generic_library_type_args", "slices_on_library_types", "multivalue_args_generic", "generics_conversion_named_type", "generics_copy_redefined", "std_generic_func_values"},
}

// stdGeneric tells the engine's source packages (generic, interpreted).
var stdGeneric = map[string]bool{"slices": true, "maps": true, "cmp": true, "iter": true}

func runTypeArgs(c *Cell) {
	type copyReq struct {
		call  *ast.CallExpr
		fn    *types.Func
		targs []ast.Expr
	}
	var copies []copyReq
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		id := calleeIdent(call)
		if id == nil {
			return true
		}
		inst, ok := c.Types.Instances[id]
		fn, isFunc := c.Types.ObjectOf(id).(*types.Func)
		if !ok || !isFunc || fn.Pkg() == nil {
			return true
		}
		targs, ok := c.writtenTypeArgs(inst, call.Fun.Pos())
		if !ok {
			return true // the interpreter may still manage
		}
		switch {
		case fn.Pkg().Path() == "main":
			if qualified(targs) || c.needsCopy(fn.Name(), inst.TypeArgs) {
				copies = append(copies, copyReq{call, fn, targs})
				return true
			}
			setTypeArgs(call, padTypeParam(cur.Parent(), c.instanceAliases(targs), typeList(inst.TypeArgs)))
		case isGenericStd(fn):
			// The prelude's helper (see genericStd), inferred by yaegi
			// from an untyped constant as its own kind: unique.Make(7)
			// was a Handle[untyped int], which == refused.
			setTypeArgs(call, padTypeParam(cur.Parent(), c.instanceAliases(targs), typeList(inst.TypeArgs)))
		case stdGeneric[fn.Pkg().Path()]:
			back := c.coreArgs(call, fn, inst)
			call.Fun = stdFunc(call.Fun, fn)
			// A lone type argument that is an instance of the body's type
			// parameters (slices.SortFunc on a []Pair[K, V] in a generic
			// function) can be neither written out (yaegi crashes) nor an
			// alias at package level: yaegi infers it, from one type
			// parameter, which its inference by position gets right.
			if itargs := interpTypeArgs(fn, targs); len(itargs) != 1 || c.packageLevel(itargs[0]) || !isInstantiation(itargs[0]) {
				setTypeArgs(call, padTypeParam(cur.Parent(), c.instanceAliases(itargs), interpTypeArgs(fn, typeList(inst.TypeArgs))))
			}
			if back != nil {
				inner := *call
				call.Fun, call.Args, call.Ellipsis = back, []ast.Expr{&inner}, token.NoPos
			}
		}
		return true
	})
	c.Apply(func(cur Cursor) bool {
		if e, ok := cur.Node().(ast.Expr); ok {
			if r := c.stdFuncValue(cur, e); r != nil {
				cur.Replace(r)
			}
		}
		return true
	})
	c.recopy()
	for _, r := range copies {
		if name := c.instanceCopy(r.fn.Name(), c.instanceAliases(r.targs), r.call.Fun.Pos()); name != "" {
			r.call.Fun = ident(name, r.call.Fun.Pos())
		}
	}
}

// calleeIdent is the name a call calls: F, pkg.F, F[T].
func calleeIdent(call *ast.CallExpr) *ast.Ident {
	switch f := unindex(call.Fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// setTypeArgs writes call's function with the type arguments targs.
func setTypeArgs(call *ast.CallExpr, targs []ast.Expr) { call.Fun = withTypeArgs(call.Fun, targs) }

// writtenTypeArgs are inst's type arguments as source at pos; false when
// one cannot be written.
func (c *Cell) writtenTypeArgs(inst types.Instance, pos token.Pos) ([]ast.Expr, bool) {
	var targs []ast.Expr
	for i := range inst.TypeArgs.Len() {
		t, ok := c.TypeExpr(inst.TypeArgs.At(i), pos)
		if !ok {
			return nil, false
		}
		targs = append(targs, t)
	}
	return targs, true
}

// withTypeArgs is the function fun with the type arguments targs.
func withTypeArgs(fun ast.Expr, targs []ast.Expr) ast.Expr {
	fun = unindex(fun)
	switch len(targs) {
	case 0:
		return fun
	case 1:
		return &ast.IndexExpr{X: fun, Lbrack: fun.End(), Index: targs[0], Rbrack: fun.End()}
	}
	return &ast.IndexListExpr{X: fun, Lbrack: fun.End(), Indices: targs, Rbrack: fun.End()}
}

// padTypeParam follows a lone type argument that is a type parameter (the
// T of min[T](lo, x) or Id[T](v) in a generic function's body) by a
// placeholder type, struct{}. In an instance of the enclosing function,
// yaegi v0.16.1 has replaced T by a node named by its type's id
// ("main.Heap", interp/generic.go:43) and asks whether f[X] is an
// instantiation by looking that name up in a scope (interp/cfg.go:945,
// isType), which finds none unless the type is predeclared; the call is
// then compiled as one of the generic function itself, whose inference
// fails, its error lost (err shadowed at interp/cfg.go:950) and the call
// left without a type, which panics (interp/cfg.go:1285). A call with two
// or more type arguments takes their types from the nodes
// (interp/cfg.go:1108), and the instance takes as many as the function
// has type parameters (interp/generic.go:61). Written in source, the
// padding survives the printing and parsing of a rebuild. Not in an
// element of a composite literal, whose type yaegi asks of the call's
// function, and of f[X, Y] refuses to give (interp/cfg.go:413,
// interp/type.go:870: "not a generic type"): a function with such an
// element is called as a copy instead (copyNeeds).
func padTypeParam(parent ast.Node, targs []ast.Expr, ts []types.Type) []ast.Expr {
	if len(targs) != 1 || len(ts) != 1 {
		return targs
	}
	switch parent.(type) {
	case *ast.CompositeLit, *ast.KeyValueExpr:
		return targs
	}
	if _, ok := ts[0].(*types.TypeParam); !ok {
		return targs
	}
	return append(targs, &ast.StructType{Struct: targs[0].End(), Fields: &ast.FieldList{Opening: targs[0].End(), Closing: targs[0].End()}})
}

// instanceAliases writes each type argument that is or mentions an
// instance of a generic type (Pair[string, int]) as an alias declared
// with the cell's declarations: yaegi v0.16.1 crashes instantiating a
// function with such a type argument written out (F[Pair[string, int]],
// a nil dereference in its generic.go), and takes the alias. The alias's
// name comes from the type, so cells that need the same one declare it
// the same way.
func (c *Cell) instanceAliases(targs []ast.Expr) []ast.Expr {
	out := make([]ast.Expr, len(targs))
	for i, t := range targs {
		out[i] = t
		if isInstantiation(t) && c.packageLevel(t) {
			out[i] = ident(c.instanceAlias(t), t.Pos())
		}
	}
	return out
}

// packageLevel reports whether every name in the type expression t is
// declared at package level (or is a package's), so that an alias of t
// can be: not the Pair[K, V] of a generic function's body, whose K and V
// are its type parameters.
func (c *Cell) packageLevel(t ast.Expr) bool {
	ok := true
	ast.Inspect(t, func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.SelectorExpr:
			return false // pkg.T
		case *ast.Ident:
			// (The package scope has the earlier cells' names the
			// cell's own code uses; a copy's body may use others.)
			if _, obj := c.Types.Pkg.Scope().LookupParent(e.Name, token.NoPos); obj == nil && c.Types.Earlier(e.Name) == nil {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// instanceAlias is the name of the alias of the type t, declared with the
// cell's declarations if this cell has not yet. An instance among the
// type arguments of an instance in t (the Pair[int, int] of
// Stack[Stack[Pair[int, int]]]) is an alias of its own, declared first:
// yaegi declares an alias of an instance whose argument is itself an
// instantiation as it would compile the instance in a statement, and
// fails the same way (see instanceArgs).
func (c *Cell) instanceAlias(t ast.Expr) string {
	src := ExprString(t)
	name := hashedName("Type", src)
	if c.declared[name] {
		return name
	}
	c.noteDeclared(name)
	pos := t.Pos()
	t, err := parser.ParseExpr(src) // a copy, t's arguments to be replaced
	if err != nil {
		return name
	}
	t = AtPos(t, pos)
	ast.Inspect(t, func(n ast.Node) bool {
		var args []ast.Expr
		switch e := n.(type) {
		case *ast.IndexExpr:
			args = []ast.Expr{e.Index}
			defer func() { e.Index = args[0] }()
		case *ast.IndexListExpr:
			args = e.Indices
		default:
			return true
		}
		for i, a := range args {
			if isInstantiation(a) {
				args[i] = ident(c.instanceAlias(a), a.Pos())
			}
		}
		return true
	})
	c.Insts = append(c.Insts, &ast.GenDecl{Tok: token.TYPE, TokPos: pos, Specs: []ast.Spec{
		&ast.TypeSpec{Name: ident(name, pos), Assign: pos, Type: t}}})
	return name
}

// typeList is l as a slice.
func typeList(l *types.TypeList) []types.Type {
	out := make([]types.Type, l.Len())
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

// qualified reports whether a type mentions another package's type.
func qualified(targs []ast.Expr) bool {
	for _, t := range targs {
		if contains(t, false, func(n ast.Node) bool { _, ok := n.(*ast.SelectorExpr); return ok }) {
			return true
		}
	}
	return false
}

// stdFunc is fun, which names the engine's generic function fn, naming it
// as the interpreter's form of its package does (prelude.StdFuncName).
func stdFunc(fun ast.Expr, fn *types.Func) ast.Expr {
	if sel, ok := unindex(fun).(*ast.SelectorExpr); ok {
		return &ast.SelectorExpr{X: sel.X, Sel: ident(prelude.StdFuncName(fn.Pkg().Path(), fn.Name()), sel.Sel.Pos())}
	}
	return fun
}

// interpTypeArgs are the type arguments the interpreter's form of the
// engine's generic function fn takes, of Go's targs: those of the type
// parameters that stand for a slice or map type are not (see
// prelude.CoreParam).
func interpTypeArgs[E any](fn *types.Func, targs []E) []E {
	tps := fn.Type().(*types.Signature).TypeParams()
	var out []E
	for i, t := range targs {
		if i < tps.Len() && !prelude.CoreParam(tps.At(i)) {
			out = append(out, t)
		}
	}
	return out
}

// coreArgs converts the arguments of a call of the engine's generic fn
// that go to a parameter of type S ~[]E (or ~map[K]V) and are of a named
// type to that type's underlying type, which the interpreter's form of fn
// takes; it returns the type to convert the result back to when fn
// returns an S that is a named type (slices.Clone of a games.Pos is a
// games.Pos), or nil.
func (c *Cell) coreArgs(call *ast.CallExpr, fn *types.Func, inst types.Instance) ast.Expr {
	sig := fn.Type().(*types.Signature)
	spread := call.Ellipsis.IsValid()
	for i, a := range call.Args {
		tp, ok := paramType(sig, i, spread).(*types.TypeParam)
		if !ok || !prelude.CoreParam(tp) {
			continue
		}
		at := c.Types.TypeOf(a)
		if _, named := types.Unalias(at).(*types.Named); !named {
			continue
		}
		under, ok := c.TypeExpr(at.Underlying(), a.Pos())
		if !ok {
			continue
		}
		call.Args[i] = &ast.CallExpr{Fun: &ast.ParenExpr{X: under}, Lparen: a.Pos(), Args: []ast.Expr{a}, Rparen: a.End()}
	}
	if sig.Results().Len() != 1 {
		return nil
	}
	tp, ok := sig.Results().At(0).Type().(*types.TypeParam)
	if !ok || !prelude.CoreParam(tp) || inst.TypeArgs == nil || tp.Index() >= inst.TypeArgs.Len() {
		return nil
	}
	targ := inst.TypeArgs.At(tp.Index())
	if _, named := types.Unalias(targ).(*types.Named); !named {
		return nil
	}
	back, ok := c.TypeExpr(targ, call.Pos())
	if !ok {
		return nil
	}
	return &ast.ParenExpr{X: back}
}

// stdFuncValue rewrites an instance of the engine's generic functions that
// is not called (slices.Compare[[]int] as a comparison function): the
// interpreter's form of the function with its type arguments, in a
// function literal of Go's type when the two types differ. nil when e is
// no such value.
func (c *Cell) stdFuncValue(cur Cursor, e ast.Expr) ast.Expr {
	switch e.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.IndexListExpr:
	default:
		return nil
	}
	switch p := cur.Parent().(type) {
	case *ast.CallExpr:
		if p.Fun == e {
			return nil // a call: rewritten by runTypeArgs' first walk
		}
	case *ast.SelectorExpr:
		if p.Sel == e {
			return nil
		}
	case *ast.IndexExpr:
		if p.X == e {
			return nil
		}
	case *ast.IndexListExpr:
		if p.X == e {
			return nil
		}
	}
	id := calleeIdent(&ast.CallExpr{Fun: e})
	if id == nil {
		return nil
	}
	inst, ok := c.Types.Instances[id]
	fn, isFunc := c.Types.ObjectOf(id).(*types.Func)
	if !ok || !isFunc || fn.Pkg() == nil {
		return nil
	}
	targs, ok := c.writtenTypeArgs(inst, e.Pos())
	if !ok {
		return nil
	}
	if fn.Pkg().Path() == "main" {
		return c.cellFuncValue(cur, fn, inst, targs, e.Pos())
	}
	if !stdGeneric[fn.Pkg().Path()] {
		return nil
	}
	itargs := interpTypeArgs(fn, targs)
	fun := withTypeArgs(stdFunc(e, fn), c.instanceAliases(itargs))
	isig, ok := inst.Type.(*types.Signature)
	// yaegi v0.16.1 instantiates a function with a list of type
	// arguments only where it is called (see genericFuncValues): the
	// literal calls it.
	if !ok || !namedCore(fn, inst) && !mentionsSeq(isig) && len(itargs) < 2 && !stdValueFails(cur, inst) {
		return fun
	}
	// The adapter calls it: a lone type parameter is padded as in calls.
	fun = withTypeArgs(stdFunc(e, fn), padTypeParam(&ast.CallExpr{}, c.instanceAliases(itargs), interpTypeArgs(fn, typeList(inst.TypeArgs))))
	return c.adapter(fun, fn.Type().(*types.Signature), isig, e.Pos())
}

// stdValueFails reports whether yaegi v0.16.1 fails on an instance of
// the engine's generic function used as a value at cur even with one
// type argument: as a return operand or an element of a composite literal
// (return cmp.Less[int], map[string]func(a, b int) int{"c":
// cmp.Compare[int]}) it stores the function's node, not a function
// ("value of type *interp.node is not assignable", in reflect.Set), and
// with a type argument that mentions the enclosing function's type
// parameter (f := cmp.Less[T], T bound to a cell type on a basic type) it
// dereferenced nil. The literal calling it works in both.
func stdValueFails(cur Cursor, inst types.Instance) bool {
	switch cur.Parent().(type) {
	case *ast.ReturnStmt, *ast.CompositeLit, *ast.KeyValueExpr:
		return true
	}
	for t := range inst.TypeArgs.Types() {
		if hasTypeParam(t) {
			return true
		}
	}
	return false
}

// mentionsSeq reports whether a parameter or result of sig is an
// iter.Seq or iter.Seq2: the interpreter's forms of the engine's
// functions take and return the function types those stand for (see
// prelude's interpreted), which yaegi v0.16.1 does not assign to a
// variable of Go's type ("invalid type in assignment" for keys :=
// maps.Keys[map[int]bool]).
func mentionsSeq(sig *types.Signature) bool {
	for _, tuple := range []*types.Tuple{sig.Params(), sig.Results()} {
		for v := range tuple.Variables() {
			if n, ok := types.Unalias(v.Type()).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "iter" {
				return true
			}
		}
	}
	return false
}

// cellFuncValue is an instance of the cell's generic function fn that is
// not called, as a function literal that calls it, where the instance
// itself goes wrong: as an element of a composite literal
// ([]func(Heap) Heap{Double[Heap]}), yaegi v0.16.1 gives an index
// expression the literal's type (interp/cfg.go:404), and the instance
// "cannot be used" as an element; and where calls go to a copy
// (needsCopy), the instance itself fails as the copy's calls would. The
// literal's call is written as runTypeArgs writes calls. nil where the
// instance is left as it is.
func (c *Cell) cellFuncValue(cur Cursor, fn *types.Func, inst types.Instance, targs []ast.Expr, pos token.Pos) ast.Expr {
	isig, ok := inst.Type.(*types.Signature)
	if !ok {
		return nil
	}
	for i := range inst.TypeArgs.Len() {
		if hasTypeParam(inst.TypeArgs.At(i)) {
			return nil
		}
	}
	var fun ast.Expr
	switch {
	case qualified(targs) || c.needsCopy(fn.Name(), inst.TypeArgs):
		name := c.instanceCopy(fn.Name(), c.instanceAliases(targs), pos)
		if name == "" {
			return nil
		}
		fun = ident(name, pos)
	default:
		switch cur.Parent().(type) {
		case *ast.CompositeLit, *ast.KeyValueExpr:
		default:
			return nil
		}
		fun = withTypeArgs(ident(fn.Name(), pos), c.instanceAliases(targs))
	}
	return c.adapter(fun, isig, isig, pos)
}

// adapter is func(p0 T0, p1 T1) R { return R(fun(U0(p0), p1)) }: the
// interpreter's form fun of a generic function, as a value of Go's type
// isig for the instance (gsig is the generic signature).
func (c *Cell) adapter(fun ast.Expr, gsig, isig *types.Signature, pos token.Pos) ast.Expr {
	ft, ok := c.TypeExpr(isig, pos)
	if !ok {
		return nil
	}
	lit := &ast.FuncLit{Type: ft.(*ast.FuncType), Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos}}
	call := &ast.CallExpr{Fun: fun, Lparen: pos, Rparen: pos}
	for i, f := range lit.Type.Params.List {
		name := c.Temp("P")
		f.Names = []*ast.Ident{ident(name, pos)}
		var arg ast.Expr = ident(name, pos)
		if tp, ok := gsig.Params().At(i).Type().(*types.TypeParam); ok && prelude.CoreParam(tp) {
			if under, ok := c.TypeExpr(isig.Params().At(i).Type().Underlying(), pos); ok {
				arg = &ast.CallExpr{Fun: &ast.ParenExpr{X: under}, Args: []ast.Expr{arg}, Lparen: pos, Rparen: pos}
			}
		}
		call.Args = append(call.Args, arg)
	}
	if isig.Variadic() {
		call.Ellipsis = pos
	}
	var result ast.Expr = call
	if isig.Results().Len() == 1 {
		if tp, ok := gsig.Results().At(0).Type().(*types.TypeParam); ok && prelude.CoreParam(tp) {
			if rt, ok := c.TypeExpr(isig.Results().At(0).Type(), pos); ok {
				result = &ast.CallExpr{Fun: &ast.ParenExpr{X: rt}, Args: []ast.Expr{call}, Lparen: pos, Rparen: pos}
			}
		}
	}
	if isig.Results().Len() == 0 {
		lit.Body.List = []ast.Stmt{&ast.ExprStmt{X: result}}
	} else {
		lit.Body.List = []ast.Stmt{&ast.ReturnStmt{Return: pos, Results: []ast.Expr{result}}}
	}
	return lit
}

// namedCore reports whether an instance of the engine's generic fn gives
// a type parameter that stands for a slice or map type a named type: its
// type then differs from the interpreter's form's.
func namedCore(fn *types.Func, inst types.Instance) bool {
	tps := fn.Type().(*types.Signature).TypeParams()
	for i := range tps.Len() {
		if !prelude.CoreParam(tps.At(i)) || i >= inst.TypeArgs.Len() {
			continue
		}
		if _, named := types.Unalias(inst.TypeArgs.At(i)).(*types.Named); named {
			return true
		}
	}
	return false
}

// paramType is the type of the parameter argument i goes to (the
// element type of a variadic parameter unless spread is set).
func paramType(sig *types.Signature, i int, spread bool) types.Type {
	n := sig.Params().Len()
	if n == 0 {
		return nil
	}
	if sig.Variadic() && i >= n-1 {
		t := sig.Params().At(n - 1).Type()
		if spread {
			return t
		}
		if s, ok := t.Underlying().(*types.Slice); ok {
			return s.Elem()
		}
		return nil
	}
	if i >= n {
		return nil
	}
	return sig.Params().At(i).Type()
}
