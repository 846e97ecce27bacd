package engine

import (
	"cmp"
	"context"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"hash/fnv"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"grundy/engine/compat"
	"grundy/engine/prelude"
	"grundy/engine/prelude/grundyrt"
	"grundy/engine/typecheck"
)

// makeInstances makes the instances of the cells' generic struct types
// that the cell's expressions have (Pair[Nim, string], Tree[int]) and the
// session has not made, each in a compilation of its own, and gives each
// what yaegi v0.16.1 would not:
//
//   - Its name in the tag that names it (compat's structNames tags the
//     generic type main.Pair[0,1], saying where its type arguments are):
//     main.Pair[main.Nim,string]. yaegi builds an instance's reflect type
//     from its fields (reflect.StructOf), and a type on a basic type is
//     that basic type to reflect: Pair[Nim, string] and Pair[int, string]
//     were one reflect type, so in an interface the printer could not
//     tell them (it printed {2 x} for Go's {*2 x}, Nim's String unused,
//     and %T said struct { Key int; Val string }), and == said equal.
//     The tag is written before the instance's reflect type is made
//     again (it has no values yet), so the two differ.
//   - For a type that refers to itself (type Tree[T any] struct{ Kids
//     []*Tree[T] }), a name for its pointer type: yaegi makes the pointer
//     type (*Tree[int], for the field) while the instance is being built,
//     and names it after what it is so far, *struct {} for every instance
//     (interp/type.go, ptrOf). Instances of other generic types are keyed
//     by their type arguments' names (Stack[*struct {}]), so a
//     Stack[*Tree[string]] stood for the Stack[*Tree[int]] of another
//     function, or of one generic function instantiated for both trees
//     ("cannot use type int as type string", a reflect.Call panic). (Its
//     tag is left: its fields' reflect types were made with its own.)
//
// Names are written only in a session that declares a type on a basic
// type, an array, a slice or a map (declaresBasedTypes): elsewhere the
// printer names an instance by where its type arguments are. Instances
// a generic function the cell instantiates writes in its body with its
// type parameters (Pair[K, V]) are made too (bodyInstances); others made
// only inside a generic function's body are made where yaegi meets them.
//
// Before the cell's declarations (beforeDecls), an instance of a generic
// type the cell declares with methods is left for later, unless early
// has it: its methods, made with it, may call what the cell declares
// after it. So is one with a type the cell declares among its type
// arguments, unless early has the type: yaegi would keep the alias it
// could not make yet, and make it with the cell's declarations. early
// names the cell's types compiled already (see typesFirst and
// readyGenerics).
func (it *Interp) makeInstances(ctx context.Context, pos token.Pos, beforeDecls bool, early map[string]bool) {
	if it.info == nil || !it.declaresGenericStructs() {
		return
	}
	all := compat.CellInstances(it.info)
	found := map[string]*types.Named{}
	for name, n := range all {
		if _, ok := n.Underlying().(*types.Struct); ok {
			found[name] = n
		}
	}
	for name, n := range it.bodyInstances(all) {
		if found[name] == nil {
			found[name] = n
		}
	}
	if beforeDecls {
		for name, n := range found {
			if n.Origin().NumMethods() > 0 && n.Origin().Obj().Pkg() == it.info.Pkg && !early[n.Origin().Obj().Name()] || it.namesCellTypes(n.TypeArgs(), early) {
				delete(found, name)
			}
		}
	}
	based := false // (a type of early on a basic type: see typesFirst)
	for name := range early {
		if tn, ok := it.info.Pkg.Scope().Lookup(name).(*types.TypeName); ok {
			if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() == 0 {
				based = true
			}
		}
	}
	it.makeNamed(ctx, pos, found, based)
}

// makeNamed makes the instances found, by name, that the session has not
// made, and names them (see makeInstances); it keeps them, for a rebuilt
// session to make them again (see rebuild). based says the running cell
// has declared a type on a basic type, an array, a slice or a map
// already (see typesFirst).
func (it *Interp) makeNamed(ctx context.Context, pos token.Pos, found map[string]*types.Named, based bool) {
	for name := range it.pinned {
		if g, ok := strings.CutPrefix(name, compat.PinnedGeneric); ok {
			it.pinnedGenerics[g] = true
		}
	}
	based = based || it.declaresBasedTypes()
	names := slices.Sorted(maps.Keys(found))
	// Those among another's type arguments before it: made with it, they
	// would be named as it is (Stack[string] in Stack[Stack[string]]),
	// and its name may be made of their pointers' (Stack[*Tree[int]]).
	// Then those without methods: the methods of another, compiled with
	// it, may make one (Box[Nim]'s returning a Pair[T, string]).
	methods := func(name string) int { return min(found[name].Origin().NumMethods(), 1) }
	slices.SortStableFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(instanceDepth(found[a]), instanceDepth(found[b])), cmp.Compare(methods(a), methods(b)))
	})
	for _, name := range names {
		n := found[name]
		generic := it.yaegiGenericType(n.Origin().Obj().Name())
		if !generic.IsValid() {
			continue // (declared by this cell, with the cell's other declarations)
		}
		key := fmt.Sprintf("%x %s", generic.UnsafeAddr(), name) // (a type declared again has instances of its own)
		if it.instancesMade[key] {
			continue
		}
		self := compat.SelfReferring(n)
		if !self && !based {
			continue // (told apart by where their type arguments are: see grundyrt's instanceName)
		}
		delete(it.instanceTags, name) // (of a generic type of that name declared before)
		rn, named := compat.RuntimeName(n)
		named = named && !it.pinned[name] && !it.pinnedGenerics[n.Origin().Obj().Name()]
		switch {
		case self:
			if !it.makeSelfReferring(ctx, generic, name, pos) {
				continue
			}
		case named && n.Origin().NumMethods() > 0:
			// Its methods are compiled with it, which makes its reflect
			// type: named in the generic type's tag while it is made.
			tagged, ok := it.makeTagged(ctx, generic, name, rn, pos)
			if !ok {
				continue
			}
			if tagged {
				it.instanceTags[name] = rn
				it.declareInstance(ctx, name, n, pos)
			}
		default:
			t, ok := it.makeByAlias(ctx, name, n, pos)
			if !ok {
				continue
			}
			if named && nameInstance(t, rn) {
				it.instanceTags[name] = rn
				it.declareInstance(ctx, name, n, pos)
			}
		}
		it.instancesMade[key] = true
		it.madeTypes[name] = n
	}
}

// typesFirst cuts from decls, a cell's or a rebuilt session's, the
// declarations of types on a basic type, an array, a slice or a map
// (type Heap int, type Row []Heap) that name nothing but such types,
// predeclared ones, packages' and the session's, with their methods,
// which must name nothing else decls declare: compiled before the others,
// they let makeInstances make and name the instances that have them among
// their type arguments (Pair[Heap, int]) before the functions beside them
// make those unnamed. (An instance's methods are compiled with it: its
// type arguments' methods must be there, for Option[Nim]'s String to
// print a Nim by Nim's.) Only in a session with generic struct types; nil
// where there is none to cut. session are the types declared before
// decls.
func (it *Interp) typesFirst(decls []ast.Decl, session map[string]*ast.TypeSpec) (first, rest []ast.Decl) {
	if !it.declaresGenericStructs() {
		return nil, decls
	}
	candidates := map[string]*ast.TypeSpec{}
	methods := map[string][]*ast.FuncDecl{}
	for _, d := range decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil {
				name := compat.FuncKey(d)
				name = name[:strings.IndexByte(name, '.')]
				methods[name] = append(methods[name], d)
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				ts, ok := sp.(*ast.TypeSpec)
				if !ok || ts.TypeParams != nil || ts.Assign.IsValid() || session[ts.Name.Name] != nil {
					continue
				}
				switch ts.Type.(type) {
				case *ast.Ident, *ast.ArrayType, *ast.MapType:
					candidates[ts.Name.Name] = ts
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		others := declaredNames(decls) // (those not cut)
		for name := range candidates {
			delete(others, name)
		}
		for name, ts := range candidates {
			ok := namesOnlyTypes(ts.Type, session, candidates)
			for _, m := range methods[name] {
				ok = ok && !namesAnyIn(m, others)
			}
			if !ok {
				delete(candidates, name)
				changed = true
			}
		}
	}
	if len(candidates) == 0 {
		return nil, decls
	}
	return compat.FirstDecls(decls, slices.Collect(maps.Keys(candidates)))
}

// namesOnlyTypes reports whether the type expression x names nothing but
// predeclared types, packages' types, those of session and those of
// candidates (an array's length a constant: no).
func namesOnlyTypes(x ast.Expr, session, candidates map[string]*ast.TypeSpec) bool {
	ok := true
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			return false // (a package's type: nativebased wrote a cell's type on one as its underlying type)
		case *ast.Ident:
			_, predeclared := types.Universe.Lookup(n.Name).(*types.TypeName)
			ok = ok && (predeclared || session[n.Name] != nil || candidates[n.Name] != nil)
		case *ast.ArrayType:
			if _, isLit := n.Len.(*ast.BasicLit); n.Len != nil && !isLit {
				ok = false
			}
		case *ast.FuncType, *ast.ChanType, *ast.StructType, *ast.InterfaceType:
			ok = false
		}
		return ok
	})
	return ok
}

// typeNamesOf are the names the type declarations among decls declare.
func typeNamesOf(decls []ast.Decl) map[string]bool {
	names := map[string]bool{}
	for _, d := range decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, sp := range gd.Specs {
				names[sp.(*ast.TypeSpec).Name.Name] = true
			}
		}
	}
	return names
}

// makeSelfReferring makes name, an instance of generic that refers to
// itself, as a function literal's parameter's type (made by an alias, its
// fields' types were left unmade: the cell's compilation found a nil
// type), and names its pointer type after it if the instance is new.
func (it *Interp) makeSelfReferring(ctx context.Context, generic reflect.Value, name string, pos token.Pos) bool {
	before := yaegiField(generic, "instance").Len()
	stmt, err := blankAt(fmt.Sprintf("func(%sP *%s) {}", prelude.Temp, name), pos)
	if err != nil {
		return false
	}
	if _, err := it.compileRun(ctx, &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{stmt}, Rbrace: pos}); err != nil {
		return false
	}
	if made := yaegiField(generic, "instance"); made.Len() == before+1 {
		// (made before, or with others: left as yaegi made them, its
		// pointer's name perhaps in others' already)
		t := derefAll(made.Index(before))
		str, pstr := yaegiField(t, "str"), yaegiField(derefAll(yaegiField(t, "ptr")), "str")
		if str.Kind() == reflect.String && pstr.Kind() == reflect.String {
			pstr.SetString("*" + str.String())
		}
	}
	return true
}

// makeByAlias makes the instance name, n, by a package-level alias of it
// (yaegi's global analysis makes an instance without making its reflect
// type) and gives yaegi's type of it. A type argument that is an instance
// made so before is written as its alias: yaegi declares an alias of an
// instance whose argument is itself an instantiation as it would compile
// the instance in a statement, making its reflect type (see compat's
// instanceAlias).
func (it *Interp) makeByAlias(ctx context.Context, name string, n *types.Named, pos token.Pos) (reflect.Value, bool) {
	src := name
	if it.info != nil && n != nil {
		var args []string
		for i := range n.TypeArgs().Len() {
			a := n.TypeArgs().At(i)
			s, ok := it.info.TypeString(a)
			if !ok {
				args = nil
				break
			}
			if m, isNamed := types.Unalias(a).(*types.Named); isNamed && m.TypeArgs().Len() > 0 && it.yaegiType(instanceAlias(s)).IsValid() {
				s = instanceAlias(s)
			}
			args = append(args, s)
		}
		if len(args) > 0 {
			src = n.Origin().Obj().Name() + "[" + strings.Join(args, ", ") + "]"
		}
	}
	alias := instanceAlias(name)
	f, err := parser.ParseFile(token.NewFileSet(), "", fmt.Sprintf("package main\ntype %s = %s", alias, src), parser.SkipObjectResolution)
	if err != nil {
		return reflect.Value{}, false
	}
	if _, err := it.compileRun(ctx, compat.AtPos(f, pos)); err != nil {
		return reflect.Value{}, false
	}
	t := it.yaegiType(alias)
	return t, t.IsValid()
}

// declareInstance describes the instance name, which makeNamed named, to
// the session's printer, as declareInstances does those the cell's
// expressions have: a value of one made in a generic function's body
// (Pair[K, V]{k, v}, put in an []any) is named by its tag, and without
// the description the printer walked its fields by their reflect types,
// which have lost their names (Pair[int, Label]'s Val printed a where Go
// calls Label's String: <a>), silently.
func (it *Interp) declareInstance(ctx context.Context, name string, n *types.Named, pos token.Pos) {
	src, key := instanceDeclaration(name, n)
	if it.declared[name] == key {
		return
	}
	stmt, err := blankAt(src, pos)
	if err != nil {
		return
	}
	if _, err := it.compileRun(ctx, &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{stmt}, Rbrace: pos}); err == nil {
		it.typesDeclared(map[string]string{name: key})
	}
}

// instanceAlias is the name of makeByAlias's alias of the instance name.
func instanceAlias(name string) string {
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%sInstance_%d", prelude.Temp, h.Sum32())
}

// makeTagged makes name, an instance of generic (a generic type of the
// cells with methods), by an alias, with rn in the tag of its first field
// where structNames wrote where its type arguments are: the generic
// type's own syntax carries it while the instance is made (yaegi copies
// it for each instance). Its methods, compiled with it, may make other
// instances of it (Flip() Entry[V, K]), which get that tag too: their
// fields tell them apart from it (Entry[Label, Heap] from Entry[Heap,
// Label]), and the printer is told their names (grundyrt.RenameInstance);
// where one's reflect type is the instance's (Entry[Nim, Heap] beside
// Entry[Heap, Nim], both on int), none is named. named reports whether
// the instance was named; ok whether it was made.
func (it *Interp) makeTagged(ctx context.Context, generic reflect.Value, name, rn string, pos token.Pos) (named, ok bool) {
	tag := genericTag(generic)
	if !tag.IsValid() {
		_, ok := it.makeByAlias(ctx, name, nil, pos)
		return false, ok
	}
	saved := tag.Interface().(reflect.Value)
	text := ""
	if saved.Kind() == reflect.String {
		text = saved.String()
	} else if c, isConst := saved.Interface().(constant.Value); isConst && c.Kind() == constant.String {
		text = constant.StringVal(c)
	}
	renamed, found := withName(text, rn)
	if !found {
		_, ok := it.makeByAlias(ctx, name, nil, pos)
		return false, ok
	}
	before := yaegiField(generic, "instance").Len()
	tag.Set(reflect.ValueOf(reflect.ValueOf(renamed)))
	_, ok = it.makeByAlias(ctx, name, nil, pos)
	tag.Set(reflect.ValueOf(saved))
	made := yaegiField(generic, "instance")
	if !ok || made.Len() == before {
		return false, ok
	}
	own := rtypeOf(derefAll(made.Index(before)))
	others := map[reflect.Type]string{}
	for i := before + 1; i < made.Len(); i++ {
		t := derefAll(made.Index(i))
		rt, str := rtypeOf(t), yaegiField(t, "str")
		if own == nil || rt == nil || rt == own || str.Kind() != reflect.String {
			return false, ok // (not told apart from the instance)
		}
		others[rt] = str.String()
	}
	for rt, str := range others {
		grundyrt.RenameInstance(rt, str)
		it.namedRuntime[str] = true
	}
	return true, ok
}

// rtypeOf is the reflect type yaegi made of t, a yaegi type; nil if it
// has made none.
func rtypeOf(t reflect.Value) reflect.Type {
	rt := yaegiField(t, "rtype")
	if !rt.IsValid() || rt.IsNil() {
		return nil
	}
	out, _ := rt.Interface().(reflect.Type)
	return out
}

// genericTag is the value (yaegi's node's rval) of the tag of the first
// field of generic's declaration, a generic struct type's; the zero Value
// if it has none.
func genericTag(generic reflect.Value) reflect.Value {
	spec := derefAll(yaegiField(derefAll(yaegiField(generic, "node")), "anc"))
	kids := yaegiField(spec, "child")
	if kids.Kind() != reflect.Slice || kids.Len() == 0 {
		return reflect.Value{}
	}
	st := derefAll(kids.Index(kids.Len() - 1)) // the struct type
	if fl := yaegiField(st, "child"); fl.Kind() == reflect.Slice && fl.Len() > 0 {
		if fields := yaegiField(derefAll(fl.Index(0)), "child"); fields.Kind() == reflect.Slice && fields.Len() > 0 {
			if f := yaegiField(derefAll(fields.Index(0)), "child"); f.Kind() == reflect.Slice && f.Len() > 1 {
				lit := derefAll(f.Index(f.Len() - 1))
				if fmtCat(yaegiField(lit, "kind")) == "basicLit" {
					if rv := yaegiField(lit, "rval"); rv.Type() == reflect.TypeFor[reflect.Value]() {
						return rv
					}
				}
			}
		}
	}
	return reflect.Value{}
}

// namesAny reports whether an identifier in n is one of names.
func namesAny(n ast.Node, names map[string]bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		found = found || ok && names[id.Name]
		return !found
	})
	return found
}

// namesAnyIn is namesAny but for the names n, a function, declares
// itself (compat.OwnNames: a method's receiver s beside a variable s the
// cell declares at top level), read from its syntax: the passes' copies
// of its identifiers have no types.
func namesAnyIn(n ast.Node, names map[string]bool) bool {
	own := compat.OwnNames(n)
	outside := map[string]bool{}
	for name := range names {
		if !own[name] {
			outside[name] = true
		}
	}
	return namesAny(n, outside)
}

// declaredNames are the names decls declare, but methods (see
// typecheck.DeclNames).
func declaredNames(decls []ast.Decl) map[string]bool {
	names := map[string]bool{}
	for _, d := range decls {
		for _, name := range typecheck.DeclNames(d) {
			names[name] = true
		}
	}
	return names
}

// readyGenerics are the generic types with methods among firsts, the
// cell's declarations compiled first (compat.GenericFirst), whose methods
// name nothing rest, the cell's other declarations, declares: their
// instances can be made before rest compiles (their methods are compiled
// with them).
func readyGenerics(firsts, rest []ast.Decl) map[string]bool {
	later := declaredNames(rest)
	ready := map[string]bool{}
	for _, d := range firsts {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
			key := compat.FuncKey(fd)
			name := key[:strings.IndexByte(key, '.')]
			if _, seen := ready[name]; !seen {
				ready[name] = true
			}
			ready[name] = ready[name] && !namesAnyIn(fd, later)
		}
	}
	maps.DeleteFunc(ready, func(_ string, ok bool) bool { return !ok })
	return ready
}

// nameInstance writes name into the tag of the first field of t, yaegi's
// type of an instance of a generic struct type, where compat's structNames
// wrote where its type arguments are, unless yaegi has made a reflect
// type from t's (or its pointer's): then nothing. It reports whether it
// wrote it.
func nameInstance(t reflect.Value, name string) bool {
	if fmtCat(yaegiField(t, "cat")) == "linkedT" {
		t = derefAll(yaegiField(t, "val"))
	}
	for _, x := range []reflect.Value{t, derefAll(yaegiField(t, "ptr"))} {
		if rt := yaegiField(x, "rtype"); x.IsValid() && (!rt.IsValid() || !rt.IsNil()) {
			return false // (a reflect type made from it may be anywhere)
		}
	}
	fields := yaegiField(t, "field")
	if fields.Kind() != reflect.Slice || fields.Len() == 0 {
		return false
	}
	tag := yaegiField(fields.Index(0), "tag")
	if tag.Kind() != reflect.String {
		return false
	}
	renamed, found := withName(tag.String(), name)
	if found {
		tag.SetString(renamed)
	}
	return found
}

// withName is tag, a struct field's, with name in place of the name its
// grundyrt.NameTag key gives; false if it has none.
func withName(tag, name string) (string, bool) {
	loc := grundyrt.NameTags.FindStringSubmatchIndex(tag)
	if loc == nil {
		return tag, false
	}
	return tag[:loc[2]] + strconv.Quote(name) + tag[loc[3]:], true
}

// namesCellTypes reports whether targs name a type the running cell
// declares, but those of early, compiled already (see typesFirst).
func (it *Interp) namesCellTypes(targs *types.TypeList, early map[string]bool) bool {
	found := false
	for i := range targs.Len() {
		compat.EachNamed(targs.At(i), func(m *types.Named) {
			found = found || m.Obj().Pkg() == it.info.Pkg && !early[m.Obj().Name()]
		})
	}
	return found
}

// declaresBasedTypes reports whether the session has declared a type on
// a basic type, an array, a slice or a map (type Nim int), which yaegi
// makes that type to reflect: only then do instances need their names
// (Pair[Nim, string] beside Pair[int, string]).
func (it *Interp) declaresBasedTypes() bool {
	for _, ts := range it.types {
		if ts.TypeParams != nil || ts.Assign.IsValid() {
			continue
		}
		switch ts.Type.(type) {
		case *ast.StructType, *ast.InterfaceType, *ast.FuncType, *ast.ChanType:
		default:
			return true
		}
	}
	return false
}

// declaresGenericStructs reports whether the session, or the running
// cell, declares a generic struct type (a cell without instances to make
// is left at once).
func (it *Interp) declaresGenericStructs() bool {
	for _, ts := range it.types {
		if _, ok := ts.Type.(*ast.StructType); ok && ts.TypeParams != nil {
			return true
		}
	}
	for _, obj := range it.info.Defs {
		if tn, ok := obj.(*types.TypeName); ok {
			if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
				return true
			}
		}
	}
	return false
}

// instanceDepth is how deep instances nest in t, as written (not
// looking into named types' fields): 1 for Pair[int, string], 2 for
// Stack[Pair[int, string]] or Stack[*Tree[int]], 0 for int.
func instanceDepth(t types.Type) int {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if t.TypeArgs().Len() == 0 {
			return 0
		}
		depth := 0
		for i := range t.TypeArgs().Len() {
			depth = max(depth, instanceDepth(t.TypeArgs().At(i)))
		}
		return 1 + depth
	case *types.Pointer:
		return instanceDepth(t.Elem())
	case *types.Slice:
		return instanceDepth(t.Elem())
	case *types.Array:
		return instanceDepth(t.Elem())
	case *types.Chan:
		return instanceDepth(t.Elem())
	case *types.Map:
		return max(instanceDepth(t.Key()), instanceDepth(t.Elem()))
	}
	return 0
}

// yaegiGenericType is yaegi's type (an itype) of the generic type the
// cells declare under name; the zero Value if there is none yet.
func (it *Interp) yaegiGenericType(name string) reflect.Value {
	t := it.yaegiType(name)
	if t.IsValid() && fmtCat(yaegiField(t, "cat")) == "genericT" && yaegiField(t, "instance").Kind() == reflect.Slice {
		return t
	}
	return reflect.Value{}
}

// yaegiType is yaegi's type (an itype) of the type the cells declare
// under name; the zero Value if there is none. It is looked up in the
// scope of package main, the cells': another package's scope may hold
// the name too (an E, a T of the engine's std packages), and the map's
// order picked one at random (a cell's generic type E[T] was taken for
// an interface, and its later methods refused).
func (it *Interp) yaegiType(name string) reflect.Value {
	syms := it.mainSymbols()
	if !syms.IsValid() {
		return reflect.Value{}
	}
	if sym := syms.MapIndex(reflect.ValueOf(name)); sym.IsValid() {
		return derefAll(yaegiField(derefAll(sym), "typ"))
	}
	return reflect.Value{}
}

// mainSymbols is yaegi's symbol table of package main, the cells' (a map
// of names to *symbol); the zero Value if there is none.
func (it *Interp) mainSymbols() reflect.Value {
	scopes := yaegiField(reflect.ValueOf(it.yi).Elem(), "scopes")
	if !scopes.IsValid() || scopes.Kind() != reflect.Map {
		return reflect.Value{}
	}
	syms := yaegiField(derefAll(scopes.MapIndex(reflect.ValueOf("main"))), "sym")
	if !syms.IsValid() || syms.Kind() != reflect.Map {
		return reflect.Value{}
	}
	return syms
}

// unnamedAsserted is the refusal of the cell's first assertion to an
// instance that yaegi cannot tell from its twins unless its tag names it
// (compat.Cell.NamedInstances), whose instance makeInstances did not name
// (made before the session declared a type on a basic type, in a
// declaration of the cell, or by a generic type's methods): nil if it
// named them all. The cell's statements have not run; its declarations,
// compiled, are not committed to the session's types, so later cells do
// not see them.
func (it *Interp) unnamedAsserted(pc *parsedCell) error {
	var first *compat.Error
	for name, ni := range pc.named {
		if it.instanceTags[name] != "" || it.namedRuntime[ni.Runtime] {
			continue
		}
		if first == nil || ni.Err.Pos.Offset < first.Pos.Offset {
			first = ni.Err
		}
	}
	if first == nil {
		return nil
	}
	msg := first.Error()
	return &EvalError{Name: "CompileError", Value: msg, Traceback: []string{msg}}
}

// bodyInstances are the instances of the cells' generic struct types that
// the generic functions and methods of generic types the cell calls make
// in their bodies, or through the generic functions and methods they
// call, with their type parameters among the type arguments, by name:
// Pair[Nim, string] of func pair[K comparable, V any](k K, v V) any {
// return Pair[K, V]{k, v} } called as pair(Nim(3), "x"), through func
// labelled[T comparable](v T) any { return pair(v, "x") }, or of
// Box[Nim]'s method returning a Pair[T, string]. yaegi makes such an
// instance when it compiles the call, after makeInstances, which then
// names it first (the cell's expressions' types tell it only the others).
func (it *Interp) bodyInstances(all map[string]*types.Named) map[string]*types.Named {
	done := map[*types.Func]bool{}     // (each function's templates worked out once)
	for _, obj := range it.info.Defs { // (for the later cells calling them)
		if fn, ok := obj.(*types.Func); ok && genericCallee(fn) != nil {
			it.instanceTemplates(fn, done)
		}
	}
	found := map[string]*types.Named{}
	add := func(fn *types.Func, tparams *types.TypeParamList, targs []types.Type) {
		for _, t := range it.instanceTemplates(fn, done) {
			n, ok := substituted(t, tparams, targs)
			if !ok || compat.HasTypeParam(n) {
				continue
			}
			if name, ok := it.info.TypeString(n); ok {
				found[name] = n
			}
		}
	}
	visit := func(e ast.Expr) {
		if fn, tparams, targs := it.called(e); fn != nil && !slices.ContainsFunc(targs, compat.HasTypeParam) {
			add(fn, tparams, targs) // (in a generic body: see instanceTemplates)
		}
	}
	for id := range it.info.Instances {
		visit(id)
	}
	for sel := range it.info.Selections {
		visit(sel)
	}
	// And the methods of the instances the cell has, all, which an
	// interface may call (var m Maker = Box[Nim]{}; m.Make()).
	for _, n := range all {
		for i := range n.Origin().NumMethods() {
			if m := genericCallee(n.Origin().Method(i)); m != nil {
				add(m, m.Type().(*types.Signature).RecvTypeParams(), slices.Collect(n.TypeArgs().Types()))
			}
		}
	}
	return found
}

// genericCallee is fn's origin if fn is a generic function or a method of
// a generic type the cells declare; nil otherwise.
func genericCallee(fn *types.Func) *types.Func {
	if fn.Pkg() == nil || fn.Pkg().Path() != "main" {
		return nil
	}
	fn = fn.Origin()
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.TypeParams().Len() == 0 && sig.RecvTypeParams().Len() == 0 {
		return nil
	}
	return fn
}

// called is the generic function or method of a generic type the cells
// declare that e, an identifier or a selector in the running cell,
// instantiates or selects, with its type parameters and the type
// arguments it is called with; nil if none.
func (it *Interp) called(e ast.Expr) (*types.Func, *types.TypeParamList, []types.Type) {
	switch e := e.(type) {
	case *ast.Ident:
		inst, ok := it.info.Instances[e]
		fn, isFunc := it.info.ObjectOf(e).(*types.Func)
		if !ok || !isFunc || genericCallee(fn) == nil || fn.Type().(*types.Signature).Recv() != nil {
			return nil, nil, nil
		}
		fn = genericCallee(fn)
		return fn, fn.Type().(*types.Signature).TypeParams(), slices.Collect(inst.TypeArgs.Types())
	case *ast.SelectorExpr:
		sel := it.info.Selections[e]
		if sel == nil || sel.Kind() == types.FieldVal {
			return nil, nil, nil
		}
		fn, ok := sel.Obj().(*types.Func)
		if !ok || genericCallee(fn) == nil {
			return nil, nil, nil
		}
		recv := sel.Recv()
		if p, isPtr := recv.(*types.Pointer); isPtr {
			recv = p.Elem()
		}
		n, ok := types.Unalias(recv).(*types.Named)
		if !ok || n.TypeArgs().Len() == 0 {
			return nil, nil, nil
		}
		fn = genericCallee(fn)
		return fn, fn.Type().(*types.Signature).RecvTypeParams(), slices.Collect(n.TypeArgs().Types())
	}
	return nil, nil, nil
}

// templateKey is the key of fn, a function or method, in templates (see
// instanceTemplates): its name, or its receiver type's and its own
// (Box.Tagged), as compat.FuncKey writes them.
func templateKey(fn *types.Func) string {
	if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			return n.Origin().Obj().Name() + "." + fn.Name()
		}
	}
	return fn.Name()
}

// instanceTemplates are the instances of the cells' generic struct types
// that fn, a generic function or a method of a generic type, makes in its
// body or through the generic functions and methods it calls, with fn's
// type parameters among their type arguments (Pair[K, V]): worked out from
// the running cell's types for one it declares, kept for later cells
// (templates). done has the functions this walk has worked out (or is
// working out).
func (it *Interp) instanceTemplates(fn *types.Func, done map[*types.Func]bool) []*types.Named {
	key := templateKey(fn)
	if fn.Pkg() != it.info.Pkg || done[fn] {
		return it.templates[key]
	}
	done[fn] = true
	decl := it.funcDecl(key)
	if decl == nil || decl.Body == nil || it.info.Defs[decl.Name] != fn {
		return it.templates[key]
	}
	var out []*types.Named
	seen := map[string]bool{}
	add := func(n *types.Named) {
		if key := n.String(); !seen[key] {
			seen[key] = true
			out = append(out, n)
		}
	}
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		if tv, ok := it.info.Types[e]; ok {
			compat.EachNamed(tv.Type, func(m *types.Named) {
				if _, isStruct := m.Underlying().(*types.Struct); isStruct && m.TypeArgs().Len() > 0 && typecheck.IsCellType(m) && compat.HasTypeParam(m) {
					add(m)
				}
			})
		}
		if callee, tparams, targs := it.called(e); callee != nil {
			for _, t := range it.instanceTemplates(callee, done) {
				if m, ok := substituted(t, tparams, targs); ok && compat.HasTypeParam(m) {
					add(m)
				}
			}
		}
		return true
	})
	if it.templates == nil {
		it.templates = map[string][]*types.Named{}
	}
	it.templates[key] = out
	return out
}

// substituted is t, an instance with the type parameters tparams among
// its type arguments, with args in their place; false where a type
// argument is not of a kind it writes again (a struct, a function, an
// interface holding them).
func substituted(t *types.Named, tparams *types.TypeParamList, args []types.Type) (*types.Named, bool) {
	if tparams == nil || tparams.Len() != len(args) {
		return nil, false
	}
	m := map[*types.TypeParam]types.Type{}
	for i := range tparams.Len() {
		m[tparams.At(i)] = args[i]
	}
	r, ok := subst(t, m)
	n, isNamed := r.(*types.Named)
	return n, ok && isNamed
}

// subst is t with the types of m in place of its type parameters.
func subst(t types.Type, m map[*types.TypeParam]types.Type) (types.Type, bool) {
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		if r, ok := m[t]; ok {
			return r, true
		}
		return t, true
	case *types.Basic:
		return t, true
	case *types.Named:
		if t.TypeArgs().Len() == 0 {
			return t, true
		}
		args := make([]types.Type, t.TypeArgs().Len())
		for i := range args {
			a, ok := subst(t.TypeArgs().At(i), m)
			if !ok {
				return nil, false
			}
			args[i] = a
		}
		r, err := types.Instantiate(nil, t.Origin(), args, false)
		return r, err == nil
	case *types.Pointer:
		e, ok := subst(t.Elem(), m)
		return types.NewPointer(e), ok
	case *types.Slice:
		e, ok := subst(t.Elem(), m)
		return types.NewSlice(e), ok
	case *types.Array:
		e, ok := subst(t.Elem(), m)
		return types.NewArray(e, t.Len()), ok
	case *types.Map:
		k, ok1 := subst(t.Key(), m)
		v, ok2 := subst(t.Elem(), m)
		return types.NewMap(k, v), ok1 && ok2
	case *types.Chan:
		e, ok := subst(t.Elem(), m)
		return types.NewChan(t.Dir(), e), ok
	}
	return t, !compat.HasTypeParam(t)
}

// funcDecl is the declaration of the function or method the cells
// declare under key (compat.FuncKey's): the session's, or the running
// cell's while its declarations are compiled (pending).
func (it *Interp) funcDecl(key string) *ast.FuncDecl {
	for _, d := range it.pending {
		if fd, ok := d.(*ast.FuncDecl); ok && compat.FuncKey(fd) == key {
			return fd
		}
	}
	if fd := it.funcs[key]; fd != nil {
		return fd.decl
	}
	return nil
}
