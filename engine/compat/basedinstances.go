package compat

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strconv"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// instances refuses an instantiation of a generic function or type whose
// code prints or inspects its values, with a based type argument: inside,
// the interpreter has the underlying type (any(v) is the bare value,
// whatever the methods), and only a value with an fmt method comes to fmt
// in a wrapper that names its type. The engine calls a generic
// function's instance it can write the type arguments of as a typed copy
// (CellCopies, basedInstances), so this refuses those of generic types
// and of functions whose type arguments it cannot write (a type declared
// in a function).
func (b basedCheck) instances() {
	c := b.c
	for _, id := range c.instanceIDs() {
		obj := c.Types.ObjectOf(id)
		if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "main" {
			continue
		}
		var bodies []*ast.FuncDecl
		what := "function"
		switch o := obj.(type) {
		case *types.Func:
			if o.Type().(*types.Signature).Recv() != nil {
				continue
			}
			bodies = append(bodies, c.funcDecl(o.Name()))
		case *types.TypeName:
			n, ok := o.Type().(*types.Named)
			if !ok {
				continue
			}
			what = "type"
			for i := range n.NumMethods() {
				bodies = append(bodies, c.funcDecl(o.Name()+"."+n.Method(i).Name()))
			}
		default:
			continue
		}
		b.instance(id, c.Types.Instances[id].TypeArgs, what, bodies)
		if c.err != nil {
			return
		}
	}
	b.unwrittenInstances()
}

// unwrittenInstances refuses, as instances does, an instance of a cell's
// generic type the cell's expressions have without writing it: made by a
// generic constructor (BagOf(Nim(1), Nim(2)), a Bag[Nim], whose Render
// printed [1 2] where Go calls Nim's String), at the first expression of
// that type.
func (b basedCheck) unwrittenInstances() {
	c := b.c
	written := map[string]bool{} // instances of generic types the cell writes
	for id, inst := range c.Types.Instances {
		if _, ok := c.Types.ObjectOf(id).(*types.TypeName); ok {
			written[types.TypeString(inst.Type, nil)] = true
		}
	}
	first := map[string]ast.Expr{}
	found := map[string]*types.Named{}
	for e, tv := range c.Types.Types {
		if tv.Type == nil || !tv.IsValue() {
			continue
		}
		EachNamed(tv.Type, func(n *types.Named) {
			key := types.TypeString(n, nil)
			if n.TypeArgs().Len() == 0 || HasTypeParam(n) || !typecheck.IsCellType(n) || written[key] {
				return
			}
			if x := first[key]; x == nil || e.Pos() < x.Pos() {
				first[key], found[key] = e, n
			}
		})
	}
	keys := slices.SortedFunc(maps.Keys(first), func(a, b string) int { return cmp.Compare(first[a].Pos(), first[b].Pos()) })
	for _, key := range keys {
		n := found[key]
		var bodies []*ast.FuncDecl
		for i := range n.NumMethods() {
			bodies = append(bodies, c.funcDecl(n.Obj().Name()+"."+n.Method(i).Name()))
		}
		if len(bodies) == 0 {
			continue
		}
		b.instance(&ast.Ident{NamePos: first[key].Pos(), Name: n.Obj().Name()}, n.TypeArgs(), "type", bodies)
		if c.err != nil {
			return
		}
	}
}

// instance refuses the instantiation id[targs] when a based type
// argument would show wrong in decls, the generic function's or type's
// code (see instances).
func (b basedCheck) instance(id *ast.Ident, targs *types.TypeList, what string, decls []*ast.FuncDecl) {
	if ta := b.namesIfaceComposites(targs, decls); ta != nil {
		b.c.Fail(id.Pos(), "%s: inside the generic %s %s the interpreter keeps %s value in a struct of its own, so %%T and %%#v of a composite of its type parameter ([]T, map[K]T) would say interface {} for %s; write %s for %s, or write out the type's name",
			instanceName(id.Name, targs), what, id.Name, an(b.name(ta)), b.name(ta), id.Name, b.name(ta))
		return
	}
	if len(b.based) == 0 {
		return
	}
	if what == "type" && (holdsEmptyIfaces(b.c.Types.ObjectOf(id)) && slices.ContainsFunc(typeList(targs), Hideable) ||
		slices.ContainsFunc(decls, func(fd *ast.FuncDecl) bool { return b.c.storesComposites(fd, targs) })) {
		// (A generic function so instantiated is called as a typed copy,
		// where the engine hides the composite: CellCopies.)
		for _, ta := range typeList(targs) {
			if n, ok := types.Unalias(ta).(*types.Named); ok && what == "type" && isBased(n) && ptrParamField(b.c.Types.ObjectOf(id)) {
				// (A *T field put in an interface by a method: Ref[Score]
				// returning its p as any gave *int.)
				ta = types.NewPointer(ta)
			}
			if what == "type" && basedInAny(ta) {
				// (No typed copy is made of a generic type's methods.)
				b.c.Fail(id.Pos(), "%s: inside the generic type %s the interpreter keeps %s put in an interface as %s, so fmt, json, reflect and assertions would not see its type; declare %s as a struct",
					instanceName(id.Name, targs), id.Name, an(b.name(ta)), an(b.name(erased(ta, map[types.Type]bool{}))), types.Unalias(deref(ta)).(*types.Named).Obj().Name())
				return
			}
			if decl, ok := b.compositeDecl(ta); ok && Hideable(ta) {
				name, _, _ := strings.Cut(decl, " ")
				b.c.Fail(id.Pos(), "%s: inside the generic type %s the interpreter keeps %s put in an interface as %s, so fmt, json, reflect and assertions would not see its type; declare a type for it at a cell's top level (type %s) and write %s[%s]",
					instanceName(id.Name, targs), id.Name, an(b.name(ta)), an(b.name(erased(ta, map[types.Type]bool{}))), decl, id.Name, name)
				return
			}
		}
	}
	ta := b.showsWrong(id, targs, what, decls)
	if ta == nil {
		return
	}
	n := basedIn(ta)
	remedy := "wrap the value in a struct (type " + n.Obj().Name() + "s struct{ V " + b.name(ta) + " })"
	if named, ok := types.Unalias(ta).(*types.Named); ok {
		remedy = "declare " + named.Obj().Name() + " as a struct (type " + named.Obj().Name() + " struct{ V " + b.name(named.Underlying()) + " })"
	}
	b.c.Fail(id.Pos(), "%s: inside the generic %s %s the interpreter sees %s as %s, so what it prints or asserts of its values could be wrong; write %s for %s, or %s",
		instanceName(id.Name, targs), what, id.Name, an(b.name(ta)), an(b.name(erased(ta, map[types.Type]bool{}))), id.Name, b.name(ta), remedy)
}

// holdsEmptyIfaces reports whether obj is a generic type whose structure has an
// empty interface in it (type Bag[T any] struct{ items []any }): its
// methods may put values of its type parameters there.
func holdsEmptyIfaces(obj types.Object) bool {
	found := false
	if tn, ok := obj.(*types.TypeName); ok {
		eachType(tn.Type().Underlying(), func(t types.Type) {
			if _, param := t.(*types.TypeParam); !param && emptyIface(t) {
				found = true
			}
		})
	}
	return found
}

// namesIfaceComposites is the first type argument of targs that is an
// interface type a cell declares when decls, the generic code, print the
// type of a composite of type parameters (%T or %#v of a []T): the
// printer learns an instance's type arguments from values of them (see
// paramsArg), and the interpreter keeps a cell's interface value in a
// struct that names no type; nil if none.
func (b basedCheck) namesIfaceComposites(targs *types.TypeList, decls []*ast.FuncDecl) types.Type {
	names := false
	for _, fd := range decls {
		names = names || fd != nil && fd.Body != nil && b.c.namesParamComposites(fd.Body)
	}
	if !names {
		return nil
	}
	for _, ta := range typeList(targs) {
		if types.IsInterface(ta) && cellTypeOrIfaceLit(ta) {
			return ta
		}
	}
	return nil
}

// namesParamComposites reports whether body formats with %T or %#v (or
// a format it cannot read) a call's arguments among which is a composite
// of type parameters (see printsParamComposites).
func (c *Cell) namesParamComposites(body *ast.BlockStmt) bool {
	return contains(body, false, func(n ast.Node) bool {
		call, skip, ok := printfCall(n)
		if !ok {
			return false
		}
		var verbs []string // nil: any verb
		if lit, ok := ast.Unparen(call.Args[skip-1]).(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if f, err := strconv.Unquote(lit.Value); err == nil {
				verbs = formatVerbs(f)
			}
		}
		for i, a := range call.Args[skip:] {
			if verbs != nil && (i >= len(verbs) || verbs[i] != "T" && verbs[i] != "#v") {
				continue
			}
			if isRTCall(a, prelude.RTFmtParams) {
				return true
			}
			t := c.Types.TypeOf(a)
			if _, param := types.Unalias(t).(*types.TypeParam); t != nil && !param && hasTypeParam(t) {
				return true
			}
		}
		return false
	})
}

// printfCall is n when it is a call of a printing function with a format
// (fmt.Printf, log.Fatalf, the printer's Sprintf), with the index of the
// first argument after the format.
func printfCall(n ast.Node) (*ast.CallExpr, int, bool) {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return nil, 0, false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || !isIdent(sel.X, "fmt") && !isIdent(sel.X, "log") && !isIdent(sel.X, prelude.Runtime) {
		return nil, 0, false
	}
	skip, ok := fmtArgStart[sel.Sel.Name]
	if !ok || skip == 0 || !strings.HasSuffix(sel.Sel.Name, "f") || len(call.Args) < skip {
		return nil, 0, false
	}
	return call, skip, true
}

// formatVerbs are the verbs of the format f, one per argument ("#v" for
// %#v, "v" for %+v): nil where it cannot tell which argument a verb
// takes (%[2]v, a * width).
func formatVerbs(f string) []string {
	verbs := []string{}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		sharp := false
		for i++; i < len(f) && strings.IndexByte("+-# 0123456789.", f[i]) >= 0; i++ {
			sharp = sharp || f[i] == '#'
		}
		if i >= len(f) {
			break
		}
		switch f[i] {
		case '%':
			continue
		case '[', '*':
			return nil
		}
		v := string(f[i])
		if sharp && v == "v" {
			v = "#v"
		}
		verbs = append(verbs, v)
	}
	return verbs
}

// instanceName is name[targs] as the cell would write it: Memo[Game, int].
func instanceName(name string, targs *types.TypeList) string {
	var args []string
	for _, t := range typeList(targs) {
		args = append(args, types.TypeString(t, shortQualifier))
	}
	return name + "[" + strings.Join(args, ", ") + "]"
}

// showsWrong is the first based type argument of the instantiation
// id[targs] that would show wrong in decls (see instances), or nil.
func (b basedCheck) showsWrong(id *ast.Ident, targs *types.TypeList, what string, decls []*ast.FuncDecl) types.Type {
	c := b.c
	prints, asserts, inspects, names, composites, leaks := false, false, false, false, false, false
	for _, fd := range decls {
		if fd == nil || fd.Body == nil {
			continue
		}
		body := fd.Body
		p, a, i := observesTypes(body, declTypeParams(fd))
		if a && !c.ownDecl(fd) && convertsBare(body) {
			// Compiled before the session boxed a type: its any(v) drops
			// the box (see isTypeParam).
			i = true
		}
		prints, asserts, inspects, names = prints || p, asserts || a, inspects || i, names || namesTypes(body)
		composites = composites || p && c.printsParamComposites(body, false)
		leaks = leaks || c.leaksParams(body)
	}
	// A value of a type parameter's type handed to a native function as
	// an interface leaves its box behind (sync.Map's Store(k, v) kept a
	// Pos as an int), and an assertion to T, which checks the box's name,
	// failed on it when it came back.
	inspects = inspects || asserts && leaks
	for i := range targs.Len() {
		ta := targs.At(i)
		n := basedIn(ta)
		if n == nil {
			continue
		}
		named, isNamed := types.Unalias(ta).(*types.Named)
		// A value of the parameter's own type goes to fmt, and to an
		// assertion or a type switch, in the box the interpreter keeps a
		// boxed type's values in (typedParamArg and ifaceCopies convert
		// it implicitly: []any{v}[0]), which names the type and its
		// methods. Inside a composite the elements are the underlying
		// type's: []T printed [3] for a []Heap (Go [h3]), and %T said
		// []uint8, so only a type without fmt methods, whose values print
		// as its underlying type's do, prints there, and not its type.
		// reflect and json see the underlying type.
		boxes := isNamed && boxed(named)
		if !inspects && (!asserts || boxes && !composites) && (!prints || boxes && (!composites || !hasFmtMethod(named) && !names)) {
			continue
		}
		return ta
	}
	return nil
}

// leaksParams reports whether body hands a value whose type is made of a
// type parameter's to a native function or method as an interface
// (m.Store(k, v), m a sync.Map; heap.Push(q, x)), other than fmt's and
// log's.
func (c *Cell) leaksParams(body *ast.BlockStmt) bool {
	return contains(body, false, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || isIdent(sel.X, prelude.Runtime) {
			return false
		}
		obj := c.Types.ObjectOf(sel.Sel)
		if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() == "main" || isIdent(sel.X, "fmt") || isIdent(sel.X, "log") {
			return false // the printer is handed the boxes (typedParamArg)
		}
		sig, ok := c.Types.TypeOf(call.Fun).(*types.Signature)
		if !ok {
			return false
		}
		for i, a := range call.Args {
			at := c.Types.TypeOf(a)
			if at == nil || !hasTypeParam(at) {
				continue
			}
			var pt types.Type
			switch ps := sig.Params(); {
			case sig.Variadic() && i >= ps.Len()-1:
				pt = ps.At(ps.Len() - 1).Type()
				if call.Ellipsis == token.NoPos {
					pt = pt.(*types.Slice).Elem()
				}
			case i < ps.Len():
				pt = ps.At(i).Type()
			}
			if pt != nil && typeIn(pt, types.IsInterface) != nil {
				return true
			}
		}
		return false
	})
}

// hasFmtMethod reports whether n has a method fmt calls (the interpreter
// hands fmt such a value in a wrapper with it).
func hasFmtMethod(n *types.Named) bool {
	for _, m := range []string{"String", "Error", "Format", "GoString"} {
		if obj, _, _ := types.LookupFieldOrMethod(n, true, n.Obj().Pkg(), m); obj != nil {
			return true
		}
	}
	return false
}

// observesTypes reports whether body may print its values (it calls fmt
// or log, or the printer the passes route fmt to), assert them (an
// assertion or a type switch) and inspect their types otherwise (reflect,
// encoding/json, an assertion or a case to one of the type parameters
// params, which the interpreter makes to the underlying type: v.(T)
// took a Heap for a uint8; but not x.(T) itself, whose check nilAsserts
// makes by the name a boxed T's zero value carries, and a function's
// copy by the name written in: boxedParams). paramConv's conversions do
// none of these.
func observesTypes(body *ast.BlockStmt, params map[string]bool) (prints, asserts, inspects bool) {
	toParam := func(t ast.Expr) bool {
		return t != nil && contains(t, false, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			return ok && params[id.Name]
		})
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if _, x, ok := paramConverted(n); ok {
			ast.Inspect(x, visit)
			return false
		}
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			// x.(T) checks a boxed T's name (nilAsserts' paramCheck).
			asserts = true
			inspects = inspects || toParam(n.Type) && !paramAssert(n, params)
		case *ast.TypeSwitchStmt:
			for _, cl := range n.Body.List {
				for _, t := range cl.(*ast.CaseClause).List {
					inspects = inspects || toParam(t)
				}
			}
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok {
				switch {
				case x.Name == prelude.Runtime && (n.Sel.Name == prelude.RTTypeOfParam || n.Sel.Name == prelude.RTValueOf):
					inspects = true // (reflect.TypeOf(v) of a T, as reflectNames wrote it)
				case x.Name == "fmt" || x.Name == "log" || x.Name == prelude.Runtime:
					prints = true
				case x.Name == "reflect" || x.Name == "json":
					inspects = true
				}
			}
		}
		return !inspects
	}
	ast.Inspect(body, visit)
	return prints, asserts, inspects
}

// ownDecl reports whether fd is declared by the cell (not compiled
// before).
func (c *Cell) ownDecl(fd *ast.FuncDecl) bool {
	return c.Decls != nil && slices.Contains(c.Decls.Decls, ast.Decl(fd))
}

// convertsBare reports whether body, as compiled, converts an operand to
// an empty interface explicitly other than as ifaceCopies writes it
// (any([]any{v}[0])): a value of a type parameter's type converted so is
// bare in the instance. The any(x) fmtArgs writes as the value of a
// grundyrt.Typed (fmt.Printf("%T", x) of an x of an interface type, a
// case's variable in a type switch's default) converts an interface,
// which has no box to drop.
func convertsBare(body *ast.BlockStmt) bool {
	typed := map[ast.Expr]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && len(call.Args) > 0 && isRTCall(call, prelude.RTFmtTyped) {
			typed[call.Args[0]] = true
		}
		return true
	})
	return contains(body, false, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || !isEmptyIfaceExpr(call.Fun) || typed[call] || isIdent(call.Args[0], "nil") {
			return false // (any(nil): typeSwitches' wrapped value, before it is set)
		}
		ix, ok := call.Args[0].(*ast.IndexExpr)
		if !ok {
			return true
		}
		_, lit := ix.X.(*ast.CompositeLit)
		return !lit
	})
}

// isEmptyIfaceExpr reports whether e is any or interface{}.
func isEmptyIfaceExpr(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return e.Name == "any"
	case *ast.InterfaceType:
		return e.Methods == nil || len(e.Methods.List) == 0
	}
	return false
}

// declTypeParams are the names of the type parameters of fd, a generic
// function or a method of a generic type.
func declTypeParams(fd *ast.FuncDecl) map[string]bool {
	names := map[string]bool{}
	for _, id := range funcTypeParams(fd) {
		names[id.Name] = true
	}
	return names
}

// namesTypes reports whether body may print a value's type: a format
// with %T, or one fmt is given in a variable.
func namesTypes(body *ast.BlockStmt) bool {
	return contains(body, false, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok {
			return lit.Kind == token.STRING && strings.Contains(lit.Value, "%T")
		}
		call, skip, ok := printfCall(n)
		if !ok {
			return false
		}
		_, lit := ast.Unparen(call.Args[skip-1]).(*ast.BasicLit)
		return !lit
	})
}

// ptrParamField reports whether obj is a generic struct type with a field
// of type *T, T one of its type parameters.
func ptrParamField(obj types.Object) bool {
	tn, ok := obj.(*types.TypeName)
	if !ok {
		return false
	}
	st, ok := tn.Type().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if p, ok := st.Field(i).Type().(*types.Pointer); ok && isTypeParam(p.Elem()) {
			return true
		}
	}
	return false
}
