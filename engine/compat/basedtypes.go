package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"grundy/engine/typecheck"
)

// basedTypes: values of cell types declared on a type other than a struct
// (type Heap uint8, type Nimber int with a String method, type Heaps
// []int) once they are in an interface. yaegi v0.16.1 gives such a type
// its underlying type's reflect type (interp/type.go:2058, refType) and
// keeps a value of it in an empty interface as that type's value; only
// one on a basic type with methods is put in a box that keeps its type
// (genValueInterface, interp/value.go:240), and a composite of such types
// ([]Nimber) is a []int whatever the methods. Its assertions match by
// reflect type (x.(int) matched a Nimber and x.(Nimber) an int), its
// maps hash the boxes, and a type parameter instantiated with such a
// type is its underlying type inside the function. So cells printed wrong
// answers silently: fmt.Printf("%T", x) printed uint8 for a Heap,
// fmt.Println(x) a []Nimber without its elements' String methods.
//
// Where the box names the type, the engine asks it (basedAsserts,
// typeSwitches, ifaceCompare, reflectNames). What the interpreter cannot
// tell is refused before the cell runs, naming the construct and what to
// write instead: an assertion or type switch case whose type is, or is
// the underlying type of, such a type kept bare; %T and reflect.TypeOf of
// an interface value that may hold one; a composite of such types, or one
// declared on a slice or map, put in an empty interface; a generic
// function that prints or inspects its values instantiated with one;
// interface map keys that may hold a boxed one; what looks at the type of a value of a native interface type
// with methods that may hold one of two boxed ones on one type, which
// the interpreter's wrappers keep alike (twinsIn). An instance of a
// generic struct type with such a type among its type arguments
// (Pair[Heap, int]) has the reflect type of its twin of the underlying
// types (Pair[int, int]) unless the engine names it in its tag before the
// cell runs (engine.makeInstances): an assertion to one that has a twin,
// or putting one in an empty interface, is refused only if the engine did
// not (NamedInstances: twinInstances, unnamedStore).
var basedTypes = Pass{
	Name: "basedtypes",
	Run:  runBasedTypes,
	// (A type spec for earlyAsserts: a cell may only declare the type.)
	Kinds:    append([]ast.Node{(*ast.TypeAssertExpr)(nil), (*ast.IndexExpr)(nil), (*ast.BinaryExpr)(nil), (*ast.SwitchStmt)(nil), (*ast.TypeSpec)(nil)}, assignedKinds...),
	Snippets: []string{"based_types_refused", "based_func_values_refused", "based_type_after_method_asserts", "based_type_after_literal_asserts", "based_types_held_once_escaped", "based_generic_instance_in_any", "generics_instance_twins_asserted", "c30_print_twins_in_game_refused", "generic_method_switch_compiled_before_boxed", "generic_iface_arg_composite_type_refused"},
}

func runBasedTypes(c *Cell) {
	based := c.basedCellTypes()
	c.literalAsserts(based) // for the session
	if len(based) == 0 {
		basedCheck{c: c}.instances() // those bound to a cell's interface
		return
	}
	b := basedCheck{c: c, based: based, jsonOnly: c.jsonLiterals()}
	c.basedEscapes() // for the session, asked or not
	if b.earlyAsserts(); c.err != nil {
		return
	}
	b.instances()
	// A native function takes the values as they are (fmt and json are
	// told their static types by their passes).
	interpreted := c.interpreted
	c.Apply(func(cur Cursor) bool {
		if c.err != nil {
			return false
		}
		cl, _ := cur.Node().(*ast.CompositeLit)
		for _, v := range c.assignedValues(cur, interpreted) {
			if t := c.Types.TypeOf(v.value); b.jsonOnly[cl] && t != nil && !hasJSONMethods(t) {
				continue
			}
			b.store(v.value, v.target)
			if cl == nil || !libraryType(c.Types.TypeOf(cl)) { // template.FuncMap takes them as they are
				b.storeFunc(v.value, v.target)
			}
		}
		switch n := cur.Node().(type) {
		case *ast.TypeAssertExpr:
			if n.Type != nil {
				b.assertion(n.X, n.Type, nil)
			}
		case *ast.TypeSwitchStmt:
			if x, _ := typeSwitchSubject(n); x != nil {
				for _, st := range n.Body.List {
					for _, t := range st.(*ast.CaseClause).List {
						b.assertion(x, t, n)
					}
				}
			}
		case *ast.CallExpr:
			b.call(n)
			if t := c.Types.TypeOf(n.Fun); len(n.Args) == 1 && c.Types.IsType(n.Fun) && t != nil && types.IsInterface(t) {
				// any(f), explicitly, as var a any = f.
				b.storeFunc(n.Args[0], t)
			}
			// (A native store or container keeps what it is handed as
			// an any does.)
			for _, i := range c.nativeKept(n) {
				anyType := types.Universe.Lookup("any").Type()
				b.store(n.Args[i], anyType)
				b.storeFunc(n.Args[i], anyType)
			}
		case *ast.CompositeLit:
			b.mapKeys(n)
		case *ast.SwitchStmt:
			b.switchTag(n)
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && !isNil(c, n.X) && !isNil(c, n.Y) {
				if !b.twins(n.X, ExprString(n)) {
					b.twins(n.Y, ExprString(n))
				}
			}
		case *ast.IndexExpr:
			if m, ok := typeUnder(c.Types.TypeOf(n.X)).(*types.Map); ok {
				b.store(n.Index, m.Key()) // (m[k] of a map keyed by any puts k in one)
				b.mapKey(n.Index, m.Key())
			}
		}
		return true
	})
}

// basedCellTypes are the named types the session and the cell declare on
// a type other than a struct or an interface (not generic).
func (c *Cell) basedCellTypes() []*types.Named {
	if c.basedDone {
		return c.based
	}
	c.basedDone = true
	var out []*types.Named
	seen := map[*types.Named]bool{}
	add := func(tn *types.TypeName) {
		n, ok := tn.Type().(*types.Named)
		if !ok || tn.IsAlias() || seen[n] || n.TypeParams().Len() > 0 || !isBased(n) {
			return
		}
		seen[n] = true
		out = append(out, n)
	}
	for _, tn := range c.Types.CellTypes() {
		add(tn)
	}
	for _, obj := range c.Types.Defs {
		if tn, ok := obj.(*types.TypeName); ok && typecheck.IsCellType(tn.Type()) {
			add(tn)
		}
	}
	// The instances of generic types the cell writes (List[int]), or an
	// earlier cell put in an interface: the interpreter keeps one there as
	// it keeps any based type.
	addInstance := func(t types.Type) {
		n, ok := t.(*types.Named)
		if ok && !seen[n] && isBased(n) && !hasTypeParam(n) {
			seen[n] = true
			out = append(out, n)
		}
	}
	if c.Session != nil {
		for _, k := range slices.Sorted(maps.Keys(c.Session.Escaped())) {
			if strings.Contains(k, "[") {
				addInstance(c.earlierType(k))
			}
		}
	}
	for _, id := range c.instanceIDs() {
		addInstance(c.Types.Instances[id].Type)
	}
	// And those the cell's values have without writing them (one("x")
	// returning a Batch[string] an earlier cell wrote).
	var valued []ast.Expr
	for e, tv := range c.Types.Types {
		if n, ok := types.Unalias(tv.Type).(*types.Named); ok && n.TypeArgs().Len() > 0 && isBased(n) && !hasTypeParam(n) {
			valued = append(valued, e)
		}
	}
	slices.SortFunc(valued, func(a, b ast.Expr) int { return int(a.Pos() - b.Pos()) })
	for _, e := range valued {
		addInstance(types.Unalias(c.Types.Types[e].Type))
	}
	c.based = out
	return out
}

// earlierType is the type written src (List[int]) among the names the
// session's cells declared, or nil: the oracle brings an earlier cell's
// names into a cell's package only where the cell uses them.
func (c *Cell) earlierType(src string) types.Type {
	x, err := parser.ParseExpr(src)
	if err != nil {
		return nil
	}
	pkg := types.NewPackage("main", "main")
	ast.Inspect(x, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			n = sel.X // pkg.T: the package
		}
		id, ok := n.(*ast.Ident)
		if !ok || pkg.Scope().Lookup(id.Name) != nil {
			return true
		}
		obj := c.topLevel(id.Name)
		if obj == nil {
			if path := c.Types.PackagePath(id.Name); path != "" {
				if p := c.Types.Import(path); p != nil {
					obj = types.NewPkgName(token.NoPos, pkg, id.Name, p)
				}
			}
		}
		if obj != nil {
			pkg.Scope().Insert(obj)
		}
		return true
	})
	tv, err := types.Eval(token.NewFileSet(), pkg, token.NoPos, src)
	if err != nil || !tv.IsType() {
		return nil
	}
	return tv.Type
}

// isBased reports whether n is a cell type declared on a type other than
// a struct or an interface.
func isBased(n *types.Named) bool {
	if !typecheck.IsCellType(n) {
		return false
	}
	switch n.Underlying().(type) {
	case *types.Struct, *types.Interface:
		return false
	}
	return true
}

// hasMethodsAt reports whether a value of n has methods (in its value or
// pointer method set).
func hasMethodsAt(n *types.Named) bool {
	return types.NewMethodSet(n).Len() > 0 || types.NewMethodSet(types.NewPointer(n)).Len() > 0
}

// boxed reports whether the interpreter keeps a value of the based type n
// in an empty interface in a box naming n: n has a basic, function,
// array, slice, map or channel underlying type, is not generic, and has methods,
// its own or boxBasic's. A value of another based type is kept bare, as
// its underlying type's value (an instance of a generic type, a type
// declared in a function).
func boxed(n *types.Named) bool {
	return boxable(n) && (hasMethodsAt(n) || boxedAtDeclaration(n))
}

// boxable reports whether the interpreter boxes values of n once n has
// methods: n is declared on a basic type or a function type (the
// interpreter treats both alike, interp/value.go:240; type Rule
// func(int) []int, the move rules of a game), or on an array, a slice or
// a map (type Pos [3]int, type Heaps []int), not generic: the
// interpreter boxes a value of a type with methods that goes into an
// empty interface (genDestValue, interp/value.go:158). Where it does not
// (var x any = Heaps{1, 2}, the literal written straight into x; a
// return), ifaceCopies converts the value first, as for a type on a
// basic type. An instance of a generic type (type Pred[T any] func(T)
// bool) is kept bare, as its underlying type's value: Pred[int] in an
// any was a func(int) bool to assertions, type switches and %T.
func boxable(n *types.Named) bool {
	if n.TypeParams().Len() > 0 || n.Origin() != n {
		return false
	}
	switch n.Underlying().(type) {
	case *types.Basic, *types.Signature, *types.Array, *types.Slice, *types.Map, *types.Chan:
		return true
	}
	return false
}

func bare(n *types.Named) bool { return !boxed(n) }

// boxesBasic reports whether the session declares a type on a basic type
// that the interpreter boxes (see boxed).
func (c *Cell) boxesBasic() bool {
	for _, n := range c.basedCellTypes() {
		if boxed(n) {
			return true
		}
	}
	return false
}

// boxedType is t when it is a based type the interpreter boxes, else nil.
func boxedType(t types.Type) *types.Named {
	if n, ok := types.Unalias(t).(*types.Named); ok && isBased(n) && boxed(n) {
		return n
	}
	return nil
}

// basedIn is the first based cell type in t's structure (not inside a
// named struct type, whose fields the printer knows), or nil.
func basedIn(t types.Type) *types.Named {
	n, _ := typeIn(t, func(t types.Type) bool {
		n, ok := t.(*types.Named)
		return ok && isBased(n)
	}).(*types.Named)
	return n
}

// losesType reports whether a value of t loses what fmt prints of it
// when kept in an empty interface: a composite of based types, or a bare
// based type with methods or declared on a composite of based types.
// (A bare type like type Heap uint8 prints as its value does; what
// names its type is refused where it is asked: dynamicType, assertion.)
func losesType(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		// A pointer to an instance of a generic struct type (*Memo[Pos,
		// int]) is named as the instance is, by its tag (unnamedStore).
		if n, ok := types.Unalias(p.Elem()).(*types.Named); ok && n.TypeArgs().Len() > 0 && !hasTypeParam(n) {
			if _, ok := n.Underlying().(*types.Struct); ok {
				return false
			}
		}
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		if !isBased(n) || boxed(n) {
			return false
		}
		return hasMethodsAt(n) || basedIn(n.Underlying()) != nil
	}
	return basedIn(t) != nil
}

type basedCheck struct {
	c     *Cell
	based []*types.Named
	// jsonOnly are composite literals written as the value json encodes,
	// which goes nowhere else: json's output differs only where a type
	// has JSON methods.
	jsonOnly map[*ast.CompositeLit]bool
}

// jsonLiterals are the composite literals in the values the cell hands
// json.Marshal, MarshalIndent and (*json.Encoder).Encode.
func (c *Cell) jsonLiterals() map[*ast.CompositeLit]bool {
	out := map[*ast.CompositeLit]bool{}
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			fn := c.callee(call)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "encoding/json" {
				return true
			}
			switch fn.Name() {
			case "Marshal", "MarshalIndent", "Encode":
				ast.Inspect(call.Args[0], func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.FuncLit:
						return false
					case *ast.CompositeLit:
						out[n] = true
					}
					return true
				})
			}
			return true
		})
	}
	return out
}

// hasJSONMethods reports whether a named type in t's structure has a
// method json calls.
func hasJSONMethods(t types.Type) bool {
	found := false
	eachNamed(t, func(n *types.Named) {
		for _, m := range []string{"MarshalJSON", "MarshalText"} {
			if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(n), true, n.Obj().Pkg(), m); obj != nil {
				found = true
			}
		}
	})
	return found
}

func (b basedCheck) name(t types.Type) string { return types.TypeString(t, shortQualifier) }

// an is s with its indefinite article: "an int", "a uint8".
func an(s string) string {
	if s != "" && strings.ContainsRune("aeiouAEIOU", rune(s[0])) && !strings.HasPrefix(s, "uint") {
		return "an " + s
	}
	return "a " + s
}

// described is "Heap (type Heap uint8)", "List[int] (type List[T any] []T)".
func (b basedCheck) described(n *types.Named) string {
	return b.name(n) + " (type " + b.declared(n, b.name(n.Origin().Underlying())) + ")"
}

// declared is n's type declaration on the type under: "Heap uint8",
// "List[T any] []T" for an instance of a generic type.
func (b basedCheck) declared(n *types.Named, under string) string {
	o := n.Origin()
	var params []string
	for i := range o.TypeParams().Len() {
		tp := o.TypeParams().At(i)
		params = append(params, tp.Obj().Name()+" "+b.name(tp.Constraint()))
	}
	if len(params) == 0 {
		return o.Obj().Name() + " " + under
	}
	return o.Obj().Name() + "[" + strings.Join(params, ", ") + "] " + under
}

// held is the first based type that a value of interface type it may
// hold and that keep accepts.
func (b basedCheck) held(it types.Type, keep func(n *types.Named) bool) *types.Named {
	iface, ok := it.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	for _, n := range b.based {
		if types.Implements(n, iface) && keep(n) && b.c.mayBeHeld(n) {
			return n
		}
	}
	return nil
}

// mayBeHeld reports whether an interface value may hold a value of n: a
// based type with methods always may (its box names it); one without,
// only once a cell has put one in an interface (see basedEscapes). So
// declaring type Nimber int does not refuse every case int of a type
// switch on an any, only where a Nimber may be in it.
func (c *Cell) mayBeHeld(n *types.Named) bool {
	return boxed(n) || c.basedEscapes()[escapeKey(n)] || c.Session != nil && c.Session.Escaped()[escapeKey(n)]
}

// escapeKey names n in Session.Escaped: by its name, and an instance of
// a generic type with its type arguments (List[int]), which a later cell
// finds again with the oracle (see basedCellTypes).
func escapeKey(n *types.Named) string { return types.TypeString(n, shortQualifier) }

// basedEscapes names the based types without methods whose values the
// cell puts in an interface: assigned or passed to one (the arguments of
// fmt's and log's functions aside, which print them at once by their
// static types), or converted to one; it records them for the session.
func (c *Cell) basedEscapes() map[string]bool {
	if c.Escaped != nil {
		return c.Escaped
	}
	c.Escaped = map[string]bool{}
	first := map[*types.Named]ast.Expr{}
	note := func(target types.Type, e ast.Expr) {
		if target == nil || !isIfaceType(target) {
			return
		}
		if n, ok := types.Unalias(deref(c.Types.TypeOf(e))).(*types.Named); ok && basedArgs(n) && !hasTypeParam(n) {
			// An instance like another to the interpreter (see
			// twinInstances), for the assertions of later cells.
			c.Escaped[escapeKey(n)] = true
		}
		if n := basedIn(c.Types.TypeOf(e)); n != nil && bare(n) {
			c.Escaped[escapeKey(n)] = true
			if first[n] == nil {
				first[n] = e
			}
		}
	}
	notPrinted := func(call *ast.CallExpr) bool {
		fn := c.callee(call)
		return fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" && fn.Pkg().Path() != "log"
	}
	c.Apply(func(cur Cursor) bool {
		call, _ := cur.Node().(*ast.CallExpr)
		native := call != nil && !c.Types.IsType(call.Fun) && !c.interpreted(call)
		for _, v := range c.assignedValues(cur, notPrinted) {
			if native && c.isNativeIface(v.target) && !emptyIface(v.target) {
				// heap.Init(h), sort.Sort(byLen(xs)): the native
				// function keeps the value in a wrapper of that
				// interface, and hands it back to no interface of a
				// cell's.
				continue
			}
			note(v.target, v.value)
		}
		if call, ok := cur.Node().(*ast.CallExpr); ok && c.Types.IsType(call.Fun) && len(call.Args) == 1 {
			note(c.Types.TypeOf(call.Fun), call.Args[0])
		}
		return true
	})
	for n, e := range first {
		if c.Session == nil || c.Session.Escaped()[escapeKey(n)] || c.err != nil {
			continue
		}
		if f, how := c.earlierObserver(n); f != "" {
			u := types.TypeString(n.Underlying(), nil)
			c.Fail(e.Pos(), "%s puts %s in an interface for the first time, and %s, declared in an earlier cell, asks the type of interface values (%s), where the interpreter cannot tell %s from %s; declare %s outside the function, where interfaces keep its type, or keep the value in a variable of type %s",
				ExprString(e), an(n.Obj().Name()+" (type "+n.Obj().Name()+" "+u+")"), f, how, an(n.Obj().Name()), an(u), n.Obj().Name(), n.Obj().Name())
		}
	}
	return c.Escaped
}

// earlierObserver is a function an earlier cell declared (and this cell
// does not declare again) that asks the type of interface values in a
// way that cannot tell n from its underlying basic type, compiled while
// no value of n was in an interface (so not refused then): an assertion
// or a type switch case naming that type, %T, or reflect.TypeOf. It
// returns the function's name and how it asks, or "".
func (c *Cell) earlierObserver(n *types.Named) (name, how string) {
	u, ok := n.Underlying().(*types.Basic)
	if !ok || c.Session == nil {
		return "", ""
	}
	again := map[string]bool{}
	if c.Decls != nil {
		for _, d := range c.Decls.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				again[FuncKey(fd)] = true
			}
		}
	}
	for _, key := range c.Session.Funcs() {
		fd := c.Session.Func(key)
		if again[key] || fd == nil || fd.Body == nil {
			continue
		}
		ast.Inspect(fd.Body, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.TypeAssertExpr:
				if isIdent(x.Type, u.Name()) {
					how = ExprString(x)
					if id, ok := x.X.(*ast.Ident); ok && strings.HasPrefix(id.Name, tempPrefix) {
						how = "case " + u.Name() // a type switch the passes wrote as assertions
					}
				}
			case *ast.TypeSwitchStmt:
				for _, st := range x.Body.List {
					for _, t := range st.(*ast.CaseClause).List {
						if isIdent(t, u.Name()) {
							how = "case " + u.Name()
						}
					}
				}
			case *ast.BasicLit:
				if x.Kind == token.STRING && strings.Contains(x.Value, "%T") {
					how = "%T"
				}
			case *ast.SelectorExpr:
				if isIdent(x.X, "reflect") && x.Sel.Name == "TypeOf" {
					how = "reflect.TypeOf"
				}
			}
			return how == ""
		})
		if how != "" {
			return key, how
		}
	}
	return "", ""
}

// compositeDecl is a declaration of a named type for t, an unnamed
// slice, array or map of based types all declared at a cell's top level
// (type Nimbers []Nimber): boxBasic gives such a type a method, so an
// interface keeps its values with its name.
func (b basedCheck) compositeDecl(t types.Type) (string, bool) {
	var name string
	switch types.Unalias(t).(type) {
	case *types.Slice, *types.Array:
		name = "s"
	case *types.Map:
		name = "Map"
	default:
		return "", false
	}
	first := basedIn(t)
	if first == nil {
		return "", false
	}
	topLevel := true
	typeIn(t, func(u types.Type) bool {
		if n, ok := u.(*types.Named); ok && isBased(n) {
			o := n.Obj()
			topLevel = topLevel && n.TypeArgs().Len() == 0 && o.Pkg() != nil && o.Parent() == o.Pkg().Scope()
		}
		return false
	})
	if !topLevel {
		return "", false
	}
	return first.Obj().Name() + name + " " + b.name(t), true
}

// remedy is what to write instead of storing a value of n in an
// interface the interpreter keeps it bare in.
func (b basedCheck) remedy(n *types.Named) string {
	return b.redeclare(n) + ", or keep the value in a variable of type " + b.name(n)
}

// redeclare is how to declare n for the interpreter to keep its type in
// an interface.
func (b basedCheck) redeclare(n *types.Named) string {
	name := n.Obj().Name()
	if boxable(n) && n.Obj().Parent() != nil && n.Obj().Parent() != n.Obj().Pkg().Scope() {
		// Declared in a function (boxBasic gives the others a method).
		return "declare " + name + " outside the function, where interfaces keep its type"
	}
	return "declare " + name + " as a struct (type " + b.declared(n, "struct{ V "+b.name(n.Origin().Underlying())+" }") + ")"
}

// assertion checks x.(t) (or a type switch case t on x): refused when
// the interpreter cannot tell t's values from others x may hold, made to
// ask the dynamic type's name when the values are in boxes that name it
// (see assertVerdict); a type switch's cases are guarded by typeSwitches.
func (b basedCheck) assertion(x, t ast.Expr, inSwitch *ast.TypeSwitchStmt) {
	c := b.c
	xt, tt := c.Types.TypeOf(x), c.Types.TypeOf(t)
	what := ExprString(x) + ".(" + ExprString(t) + ")"
	if inSwitch != nil {
		what = "case " + ExprString(t) + " of a type switch on " + ExprString(x)
	}
	if tt != nil && (!isIfaceType(tt) || upgrades(xt, tt)) && b.twins(x, what) {
		return
	}
	if b.twinInstances(x, tt, what) {
		return
	}
	v, n := c.assertVerdict(xt, tt)
	if v == assertFine {
		return
	}
	if v == assertChecked {
		return // basedAsserts or typeSwitches checks the name (typeSwitches moves an init statement out first)
	}
	under := b.name(n.Underlying())
	if decl, ok := b.compositeDecl(tt); ok {
		c.Fail(t.Pos(), "%s: the interpreter keeps %s in an interface as %s, so it cannot tell one from %s there; declare a type for it at a cell's top level (type %s), which interfaces keep with its name, and assert to that",
			what, an(b.name(tt)), an(b.name(erased(tt, map[types.Type]bool{}))), an(b.name(erased(tt, map[types.Type]bool{}))), decl)
		return
	}
	if basedIn(tt) != nil {
		held, as, remedy := b.described(n), under, b.remedy(n)
		if _, ptr := types.Unalias(tt).(*types.Pointer); ptr {
			held, as = "*"+b.described(n), b.name(erased(tt, map[types.Type]bool{}))
			remedy = b.redeclare(n) + ", or keep the pointer in a variable of type " + b.name(tt)
		}
		c.Fail(t.Pos(), "%s: the interpreter keeps %s in an interface as %s, so it cannot tell one from %s there; %s",
			what, an(held), an(as), an(as), remedy)
		return
	}
	c.Fail(t.Pos(), "%s: %s may hold %s, which the interpreter keeps in an interface as %s, so it cannot tell the two apart there; %s",
		what, ExprString(x), an(b.described(n)), an(b.name(tt)), b.remedy(n))
}

// twinInstances holds back the refusal of what, an assertion of x, a
// value of an interface type, to tt, an instance of a generic struct type,
// when another instance of it that differs by based type arguments
// (Const[Heap] and Const[int], type Heap int) is made by the cell, or tt
// has a based type argument: the interpreter instantiates the type for
// Heap as for int, one reflect type, and asserts by that (x.(Const[int])
// was true of a Const[Heap]), unless the engine wrote tt's name in its
// tag before a value of it was made (engine.makeInstances): the refusal
// stands only if the engine did not (NamedInstances). Where tt's name
// cannot be written (a type argument Go's runtime does not name), the
// assertion is refused. It reports whether it refused or held it back.
func (b basedCheck) twinInstances(x ast.Expr, tt types.Type, what string) bool {
	c := b.c
	xt := c.Types.TypeOf(x)
	n, ok := types.Unalias(deref(tt)).(*types.Named)
	if xt == nil || !isIfaceType(xt) || !ok || n.TypeArgs().Len() == 0 || hasTypeParam(n) {
		return false
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return false
	}
	twin := n
	if !basedArgs(n) {
		// The instances the cell makes, and those earlier cells put in
		// interfaces (basedEscapes).
		var others []types.Type
		for _, inst := range c.Types.Instances {
			others = append(others, inst.Type)
		}
		if c.Session != nil {
			for _, k := range slices.Sorted(maps.Keys(c.Session.Escaped())) {
				if strings.Contains(k, "[") {
					others = append(others, c.earlierType(k))
				}
			}
		}
		twin = nil
		for _, o := range others {
			m, ok := o.(*types.Named)
			if !ok || m.Origin() != n.Origin() || types.Identical(m, n) || hasTypeParam(m) || !basedArgs(m) {
				continue
			}
			if types.Identical(erased(m, map[types.Type]bool{}), erased(n, map[types.Type]bool{})) {
				twin = m
				break
			}
		}
	}
	if twin == nil {
		return false
	}
	arg, plain := b.plainTwin(twin)
	name := twin.Origin().Obj().Name()
	e := c.errorAt(x.Pos(), "%s: the interpreter instantiates %s for %s as for %s, so it cannot tell %s from %s there; declare %s as a struct (type %s struct{ V %s }), or assert to an interface",
		what, name, b.name(arg), b.name(arg.Underlying()), an(b.name(twin)), an(plain),
		arg.Obj().Name(), arg.Obj().Name(), b.name(arg.Underlying()))
	b.unlessNamed(n, x.Pos(), e)
	return true
}

// unlessNamed refuses with e, at pos, unless the engine names n, an
// instance of a generic struct type, in its tag before the cell's
// statements (NamedInstances); at once where it cannot.
func (b basedCheck) unlessNamed(n *types.Named, pos token.Pos, e *Error) {
	c := b.c
	key, ok := c.Types.TypeString(n)
	rn, named := RuntimeName(n)
	if !ok || !named || c.Session == nil {
		c.Fail(pos, "%s", e.Msg)
		return
	}
	if c.NamedInstances == nil {
		c.NamedInstances = map[string]NamedInstance{}
	}
	if _, ok := c.NamedInstances[key]; !ok {
		c.NamedInstances[key] = NamedInstance{Err: e, Runtime: rn}
	}
}

// unnamedStore holds back the refusal of putting e, an instance of a
// generic struct type with a based type argument (Entry[Heap, Label],
// type Heap int), in an empty interface: there the interpreter knows it
// by its reflect type, which it makes alike for Entry[int, string], so
// %T, == and map keys would take one for the other, unless the engine
// named the instance in its tag (see twinInstances).
func (b basedCheck) unnamedStore(e ast.Expr, t types.Type, to types.Type) {
	c := b.c
	n, ok := types.Unalias(deref(t)).(*types.Named)
	if !ok || n.TypeArgs().Len() == 0 || hasTypeParam(n) || !basedArgs(n) {
		return
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return
	}
	arg, plain := b.plainTwin(n)
	name := n.Origin().Obj().Name()
	b.unlessNamed(n, e.Pos(), c.errorAt(e.Pos(), "%s, %s, cannot be put in an interface (%s): the engine could not name this instance of %s apart (its methods make other instances of %s, or a generic function made it first), and the interpreter instantiates %s for %s as for %s, so %%T, == and map keys would take it for %s; keep it in a variable of type %s, or declare %s as a struct (type %s struct{ V %s })",
		ExprString(e), an(b.name(t)), b.name(to), name, name, name, b.name(arg), b.name(arg.Underlying()), an(plain), b.name(t),
		arg.Obj().Name(), arg.Obj().Name(), b.name(arg.Underlying())))
}

// plainTwin is the first based type among n's type arguments, and n, an
// instance, written with its type arguments as the interpreter has them
// (Pair[int, string] for Pair[Heap, Label]).
func (b basedCheck) plainTwin(n *types.Named) (*types.Named, string) {
	var arg *types.Named
	var plain []string
	for i := range n.TypeArgs().Len() {
		ta := n.TypeArgs().At(i)
		if a := basedIn(ta); a != nil && arg == nil {
			arg = a
		}
		plain = append(plain, b.name(erased(ta, map[types.Type]bool{})))
	}
	return arg, n.Origin().Obj().Name() + "[" + strings.Join(plain, ", ") + "]"
}

// basedArgs reports whether one of n's type arguments has a based type
// in it.
func basedArgs(n *types.Named) bool {
	for i := range n.TypeArgs().Len() {
		if basedIn(n.TypeArgs().At(i)) != nil {
			return true
		}
	}
	return false
}

// twinsIn are two boxed based types of one underlying type whose values a
// value of it, a native interface type with methods (fmt.Stringer, error),
// may hold: the interpreter gives native code such a value in a wrapper
// whose methods name its type, and theirs are alike (nil when there are
// none).
func (c *Cell) twinsIn(it types.Type) (a, b *types.Named) {
	if it == nil || !isIfaceType(it) || emptyIface(it) || cellTypeOrIfaceLit(it) {
		return nil, nil
	}
	iface := it.Underlying().(*types.Interface)
	var found []*types.Named
	for _, n := range c.basedCellTypes() {
		if !boxed(n) || !types.Implements(n, iface) {
			continue
		}
		for _, f := range found {
			if types.Identical(f.Underlying(), n.Underlying()) {
				return f, n
			}
		}
		found = append(found, n)
	}
	return nil, nil
}

// twins refuses what, which looks at the type of x's value, when x's
// interface type may hold one of twin types (see twinsIn); it reports
// whether it refused.
func (b basedCheck) twins(x ast.Expr, what string) bool {
	xt := b.c.Types.TypeOf(x)
	t1, t2 := b.c.twinsIn(xt)
	if t1 == nil {
		return false
	}
	b.c.Fail(x.Pos(), "%s: %s may hold %s or %s, which the interpreter keeps alike in %s (types on %s with its methods); declare one of them as a struct (type %s struct{ V %s }), or keep such values in an any",
		what, ExprString(x), an(t1.Obj().Name()), an(t2.Obj().Name()), an(b.name(xt)), b.name(t1.Underlying()), t2.Obj().Name(), b.name(t2.Underlying()))
	return true
}

// call checks %T and reflect.TypeOf of interface values, conversions to
// interfaces (as stores) and instantiations.
func (b basedCheck) call(call *ast.CallExpr) {
	c := b.c
	if c.Types.IsType(call.Fun) {
		if len(call.Args) == 1 {
			b.store(call.Args[0], c.Types.TypeOf(call.Fun))
		}
		return
	}
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	switch {
	case fn.Pkg().Path() == "errors" && (fn.Name() == "Is" || fn.Name() == "As") && len(call.Args) == 2:
		b.twins(call.Args[0], ExprString(call))
	case fn.Pkg().Path() == "reflect" && fn.Name() == "TypeOf" && len(call.Args) == 1:
		b.dynamicType(call.Args[0], "reflect.TypeOf("+ExprString(call.Args[0])+")")
	case fn.Pkg().Path() == "fmt" || isLogFunc(fn):
		skip, ok := fmtArgStart[fn.Name()]
		if ok && skip > 0 && strings.HasSuffix(fn.Name(), "f") {
			for _, i := range c.verbArgs(call.Args[skip-1], 'T') {
				if skip+i < len(call.Args) {
					b.dynamicType(call.Args[skip+i], "%T of "+ExprString(call.Args[skip+i]))
				}
			}
		}
		if ok && skip <= len(call.Args) {
			for _, a := range call.Args[skip:] {
				b.printedTwins(a)
			}
		}
	}
}

// printedTwins refuses printing x when its native interface type, which
// has no String, may hold either of twin types one of which fmt would
// print by a method the interface does not have (Format or GoString in
// an error): the wrapper keeps the bare value and the interface's
// methods, by which the printer finds the value's type (grundyrt's
// derive) only when one type can be it. Twins without such methods print
// as Go prints them (the wrapper calls the interface's Error).
func (b basedCheck) printedTwins(x ast.Expr) {
	xt := b.c.Types.TypeOf(x)
	if xt == nil || !isIfaceType(xt) || emptyIface(xt) || cellTypeOrIfaceLit(xt) {
		return
	}
	iface, ok := xt.Underlying().(*types.Interface)
	if !ok {
		return
	}
	for i := range iface.NumMethods() {
		if iface.Method(i).Name() == "String" {
			return // the wrapper calls it, and the printer finds the type by it
		}
	}
	var held []*types.Named
	for _, n := range b.c.basedCellTypes() {
		if boxed(n) && types.Implements(n, iface) {
			held = append(held, n)
		}
	}
	for i, t1 := range held {
		for _, t2 := range held[i+1:] {
			if types.Identical(t1.Underlying(), t2.Underlying()) && (fmtMethodBeyond(t1, iface) || fmtMethodBeyond(t2, iface)) {
				b.c.Fail(x.Pos(), "printing %s: it may hold %s or %s, which the interpreter keeps alike in %s (types on %s with its methods), and fmt would print one by its method; declare one of them as a struct (type %s struct{ V %s }), or keep such values in an any",
					ExprString(x), an(t1.Obj().Name()), an(t2.Obj().Name()), an(b.name(xt)), b.name(t1.Underlying()), t2.Obj().Name(), b.name(t2.Underlying()))
				return
			}
		}
	}
}

// dynamicType refuses what, which names the dynamic type of x, when x may
// hold a based type without methods (kept as its underlying type's value).
// A value of an interface type with methods that a cell declares (type
// Game interface{ Moves(int) []int }, or such a literal) is in yaegi's box
// naming its dynamic type (interp/value.go:240, genValueInterface:
// valueInterface{node, value}), which the printer and reflectNames read,
// whatever the type is declared on (type SubSet []int): there only an
// instance of a generic type, whose box names its underlying type, is
// refused. Native interfaces keep such a value in a wrapper that names
// only the methods, and any keeps it bare.
func (b basedCheck) dynamicType(x ast.Expr, what string) {
	xt := b.c.Types.TypeOf(x)
	if xt == nil || !isIfaceType(xt) || b.twins(x, what) {
		return
	}
	lost := bare
	if cellTypeOrIfaceLit(xt) && !emptyIface(xt) {
		lost = func(n *types.Named) bool { return bare(n) && n.Origin() != n }
	}
	if n := b.held(xt, lost); n != nil {
		b.c.Fail(x.Pos(), "%s cannot name %s it may hold: the interpreter keeps one in an interface as %s; %s",
			what, an(b.described(n)), an(b.name(n.Underlying())), b.remedy(n))
	}
}

// store refuses putting e into a place of type to, an interface, when e's
// value would lose its type there.
func (b basedCheck) store(e ast.Expr, to types.Type) {
	c := b.c
	if e == nil || to == nil || !isIfaceType(to) {
		return
	}
	if it, ok := to.Underlying().(*types.Interface); !ok || !it.Empty() {
		return // a box or wrapper with the methods keeps the type
	}
	t := c.Types.TypeOf(e)
	if t == nil || isIfaceType(t) || !c.Types.IsValue(e) {
		return
	}
	if !losesType(t) {
		b.unnamedStore(e, t, to)
		return
	}
	if decl, ok := b.compositeDecl(t); ok {
		c.Fail(e.Pos(), "%s, %s, cannot be put in an interface (%s): the interpreter keeps it there as %s, so fmt, json and reflect would not see its type; keep it in a variable of type %s, or declare a type for it at a cell's top level (type %s), which interfaces keep with its name",
			ExprString(e), an(b.name(t)), b.name(to), an(b.name(erased(t, map[types.Type]bool{}))), b.name(t), decl)
		return
	}
	name := "Box"
	if named, ok := types.Unalias(t).(*types.Named); ok {
		name = named.Obj().Name() + "Box"
	} else if n := basedIn(t); n != nil {
		name = n.Obj().Name() + "s"
	}
	c.Fail(e.Pos(), "%s, %s, cannot be put in an interface (%s): the interpreter keeps it there as %s, so fmt, json and reflect would not see its type; keep it in a variable of type %s, or wrap it in a struct (type %s struct{ V %s })",
		ExprString(e), an(b.name(t)), b.name(to), an(b.name(erased(t, map[types.Type]bool{}))), b.name(t), name, b.name(t))
}

// earlyAsserts refuses a type this cell declares on a basic type (type
// Heap int) when a method an earlier cell compiled asserts to that basic
// type (x.(int), case int): the method was compiled before the type was
// declared, without basedAsserts' rewriting, and the interpreter's
// assertion takes a Heap for an int (Bag.Ints counted Heap(2) among its
// ints, silently). Functions are compiled again when a later cell
// declares types (replay.go), so they see the type; a method is not
// (yaegi cannot replace one in place). The earlier cell's compiled form
// is read syntactically: an assertion basedAsserts rewrote is no longer
// a bare x.(int).
func (b basedCheck) earlyAsserts() {
	c := b.c
	if c.Session == nil || c.Decls == nil {
		return
	}
	again := map[string]bool{} // methods this cell declares again
	for _, d := range c.Decls.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			again[FuncKey(fd)] = true
		}
	}
	for _, n := range b.based {
		basic, ok := n.Underlying().(*types.Basic)
		id := declIdent(c, n)
		if !ok || id == nil {
			continue // an earlier cell's type: its cell checked
		}
		for _, key := range c.Session.Funcs() {
			fd := c.Session.Func(key)
			if fd == nil || fd.Recv == nil || fd.Body == nil || again[key] || len(receiverTypeArgs(fd)) > 0 {
				continue // (a generic type's methods are compiled for each instance: basedCheck.instances)
			}
			if at := assertsTo(fd.Body, basic.Name()); at != "" {
				c.Fail(id.Pos(), "type %s %s: the method %s, compiled in an earlier cell, asserts to %s (%s), which in this interpreter would take %s for %s; declare %s in the cell that declares %s, and run that cell again (its assertions then tell them apart)",
					n.Obj().Name(), basic.Name(), key, basic.Name(), at, an(n.Obj().Name()), an(basic.Name()), n.Obj().Name(), key)
				return
			}
		}
	}
	for _, n := range b.based {
		id := declIdent(c, n)
		u := types.TypeString(n.Underlying(), nil)
		if at := c.Session.LiteralAsserts()[u]; at != "" && id != nil {
			c.Fail(id.Pos(), "type %s %s: a function literal an earlier cell made, whose value may still be held, asserts to %s (%s), which in this interpreter would take %s for %s; declare %s in a cell before that literal's (move its cell up and restart the kernel), or as a struct (type %s struct{ V %s })",
				n.Obj().Name(), u, u, at, an(n.Obj().Name()), an(u), n.Obj().Name(), n.Obj().Name(), u)
			return
		}
	}
}

// literalAsserts notes, for the session, the types other than named
// ones and interfaces this cell's function literals assert to bare
// (x.(float64), case []int) while no type
// of the session or the cell is declared on them (basedAsserts rewrites
// those it is), in a literal whose value may outlive the cell: one at the
// cell's top level, or in a function but not a call's function or
// argument (a literal returned, stored in a variable, a field or a map).
// Functions are compiled again when a later cell declares a type, a
// literal's value is not, and its assertion would take a later cell's
// type Pct float64 for a float64 (earlyAsserts refuses that type; it is
// the silently wrong case of a type the interpreter keeps as its
// underlying type).
func (c *Cell) literalAsserts(based []*types.Named) {
	taken := map[string]bool{} // types a type is declared on
	for _, n := range based {
		taken[types.TypeString(n.Underlying(), nil)] = true
	}
	note := func(e ast.Expr, at string) {
		t := types.Unalias(c.Types.TypeOf(e))
		switch t.(type) {
		case nil, *types.Named, *types.Interface, *types.TypeParam:
			return
		}
		k := types.TypeString(t, nil)
		if taken[k] || c.LiteralAsserts[k] != "" {
			return
		}
		if c.LiteralAsserts == nil {
			c.LiteralAsserts = map[string]string{}
		}
		c.LiteralAsserts[k] = at
	}
	kept := func(lit *ast.FuncLit) {
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.TypeAssertExpr:
				if x.Type != nil {
					note(x.Type, ExprString(x))
				}
			case *ast.TypeSwitchStmt:
				for _, st := range x.Body.List {
					for _, t := range st.(*ast.CaseClause).List {
						note(t, "case "+ExprString(t))
					}
				}
			}
			return true
		})
	}
	for _, root := range c.Roots() {
		inspectStack(root, func(n ast.Node, stack []ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok && literalKept(lit, stack) {
				kept(lit)
				return false
			}
			return true
		})
	}
}

// literalKept reports whether the function literal lit, below the nodes
// of stack, may keep its value past the statement that makes it: it is
// not a call's function or argument inside a function declaration.
func literalKept(lit *ast.FuncLit, stack []ast.Node) bool {
	inFunc := false
	for _, n := range stack {
		if _, ok := n.(*ast.FuncDecl); ok {
			inFunc = true
		}
	}
	if !inFunc {
		return true
	}
	if call, ok := stack[len(stack)-1].(*ast.CallExpr); ok {
		return call.Fun != lit && !slices.Contains(call.Args, ast.Expr(lit))
	}
	return true
}

// declIdent is the identifier this cell declares n with, or nil.
func declIdent(c *Cell, n *types.Named) *ast.Ident {
	for id, obj := range c.Types.Defs {
		if obj == n.Obj() {
			return id
		}
	}
	return nil
}

// assertsTo is the first assertion x.(name) or type switch case name in
// body, written out, or "".
func assertsTo(body *ast.BlockStmt, name string) string {
	found := ""
	ast.Inspect(body, func(n ast.Node) bool {
		if found != "" {
			return false
		}
		switch x := n.(type) {
		case *ast.TypeAssertExpr:
			if isIdent(x.Type, name) {
				found = ExprString(x)
			}
		case *ast.CaseClause:
			for _, t := range x.List {
				if isIdent(t, name) {
					found = "case " + name
				}
			}
		}
		return true
	})
	return found
}

// storeFunc refuses a function value whose signature names a based cell
// type (func(s Score) Score, the method expression Set.Add) put in an
// empty interface: the interpreter keeps it there with its reflect type,
// which has the underlying types, so %T said func(int) int and a type
// switch took it for one, silently. Handed to a native function
// (template.FuncMap, a native parameter) it runs.
func (b basedCheck) storeFunc(e ast.Expr, to types.Type) {
	c := b.c
	if e == nil || to == nil || c.err != nil {
		return
	}
	if it, ok := to.Underlying().(*types.Interface); !ok || !it.Empty() {
		return
	}
	t := c.Types.TypeOf(e)
	sig, ok := types.Unalias(t).(*types.Signature) // a named one is boxed with its name
	if !ok || !c.Types.IsValue(e) {
		return
	}
	var n *types.Named
	for _, tu := range []*types.Tuple{sig.Params(), sig.Results()} {
		for i := range tu.Len() {
			if n == nil {
				n = basedIn(tu.At(i).Type())
			}
		}
	}
	if n == nil {
		return
	}
	what := ExprString(e)
	if _, lit := ast.Unparen(e).(*ast.FuncLit); lit {
		what = "a function literal"
	}
	plain := b.name(paramTypesOnly(sig))
	c.Fail(e.Pos(), "%s, a %s, cannot be put in an interface (%s): the interpreter keeps a function there by the underlying types of its parameters and results, so %%T, assertions and type switches would not see %s; keep it in a variable of its function type, or wrap it in a struct (type %sFunc struct{ F %s })",
		what, plain, b.name(to), n.Obj().Name(), n.Obj().Name(), plain)
}

// paramTypesOnly is sig without its parameters' and results' names, as
// %T writes it.
func paramTypesOnly(sig *types.Signature) *types.Signature {
	strip := func(tu *types.Tuple) *types.Tuple {
		vs := make([]*types.Var, tu.Len())
		for i := range tu.Len() {
			vs[i] = types.NewParam(tu.At(i).Pos(), tu.At(i).Pkg(), "", tu.At(i).Type())
		}
		return types.NewTuple(vs...)
	}
	return types.NewSignatureType(nil, nil, nil, strip(sig.Params()), strip(sig.Results()), sig.Variadic())
}

// libraryType reports whether t is a named type of a native package
// (template.FuncMap).
func libraryType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && !typecheck.IsCellType(n)
}

// mapKeys checks the keys of a map literal of an interface key type
// (assignedValues lists its values).
func (b basedCheck) mapKeys(cl *ast.CompositeLit) {
	m, ok := typeUnder(b.c.Types.TypeOf(cl)).(*types.Map)
	if !ok {
		return
	}
	for _, el := range cl.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if !b.jsonOnly[cl] || hasJSONMethods(b.c.Types.TypeOf(kv.Key)) {
				b.store(kv.Key, m.Key())
			}
			b.mapKey(kv.Key, m.Key())
		}
	}
}

// switchTag refuses switch x { case v: } when x's native interface type
// may hold either of twin types (see twinsIn); ifaceCompare makes the
// switch compare as == does.
func (b basedCheck) switchTag(s *ast.SwitchStmt) {
	if s.Tag != nil {
		b.twins(s.Tag, "switch "+ExprString(s.Tag))
	}
}

// mapKey refuses a key of interface type kt that may hold a based type
// with methods (keys compare as == does).
func (b basedCheck) mapKey(k ast.Expr, kt types.Type) {
	if !isIfaceType(kt) || isError(kt) || cellTypeOrIfaceLit(kt) && !emptyIface(kt) || emptyIface(kt) {
		return // (ifaceKeys interns the keys of an interface the cell declares, and of any)
	}
	if n := b.held(kt, boxed); n != nil {
		b.c.Fail(k.Pos(), "a map keyed by %s may hold %s as a key, and the interpreter tells two such keys of one value apart; key the map by %s (map[%s]...) or by a string of it",
			b.name(kt), an(b.described(n)), n.Obj().Name(), n.Obj().Name())
	}
}

// isNil reports whether e is the untyped nil.
func isNil(c *Cell, e ast.Expr) bool {
	if isIdent(e, "nil") {
		return true
	}
	tv, ok := c.Types.Types[e]
	return ok && tv.IsNil()
}

// fmtMethodBeyond reports whether n has a method fmt calls (String,
// Error, Format, GoString) that the interface iface does not.
func fmtMethodBeyond(n *types.Named, iface *types.Interface) bool {
	for _, m := range []string{"String", "Error", "Format", "GoString"} {
		if obj, _, _ := types.LookupFieldOrMethod(n, true, n.Obj().Pkg(), m); obj != nil {
			if in, _, _ := types.LookupFieldOrMethod(iface, false, nil, m); in == nil {
				return true
			}
		}
	}
	return false
}

// upgrades reports whether an assertion of a value of the interface type
// xt to the interface type tt asks for a method xt does not have.
func upgrades(xt, tt types.Type) bool {
	xi, ok1 := xt.Underlying().(*types.Interface)
	ti, ok2 := tt.Underlying().(*types.Interface)
	if !ok1 || !ok2 {
		return false
	}
	for i := range ti.NumMethods() {
		m := ti.Method(i)
		if in, _, _ := types.LookupFieldOrMethod(xi, false, m.Pkg(), m.Name()); in == nil {
			return true
		}
	}
	return false
}
