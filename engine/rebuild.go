package engine

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	"grundy/engine/compat"
	"grundy/engine/prelude/grundyrt"
)

// unpromote writes as their cells wrote them the selectors of promoted
// methods (w.M() of a W embedding an interface I, c.Lock() of a C
// embedding sync.Mutex) that the passes wrote through the embedded field
// (w.I.M(), c.Mutex.Lock(): compat's embedIface and promotedPaths) when a
// method the rebuilding cell declares (funcs) takes the promoted one's
// place on a type on the way: compiled as they were, earlier functions
// went on calling the field's method, silently. The methods compat's
// embedMethods declared for such a promoted method on a type embedding
// the one that now declares it are dropped (the keys returned): the new
// method is promoted in their place.
func (it *Interp) unpromote(funcs map[string]*ast.FuncDecl) (dropped map[string]bool) {
	declared := func(key string) bool { return funcs[key] != nil }
	for sel, p := range it.promoted {
		for _, t := range p.Types {
			if declared(t + "." + p.Method) {
				compat.Unpromote(sel, p)
				delete(it.promoted, sel)
				break
			}
		}
	}
	dropped = map[string]bool{}
	for key, fd := range it.funcs {
		if !fd.forwarder() || declared(key) {
			continue
		}
		for _, t := range it.forwardedThrough(fd.decl) {
			if declared(t + "." + fd.decl.Name.Name) {
				dropped[key] = true
			}
		}
	}
	return dropped
}

// forwardedThrough are the cell types whose fields the forwarder fd (see
// compat's embedForwarders: func (_grundyR D) Lock() {
// _grundyR.C.Mutex.Lock() }) goes through, after its receiver's.
func (it *Interp) forwardedThrough(fd *ast.FuncDecl) []string {
	var fields []string
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || fields != nil {
			return fields == nil
		}
		var path []string
		for x := ast.Expr(sel); ; {
			s, ok := x.(*ast.SelectorExpr)
			if !ok {
				if id, ok := x.(*ast.Ident); ok && id.Name == fd.Recv.List[0].Names[0].Name {
					fields = path[:len(path)-1] // (the last is the method)
				}
				return false
			}
			path = append([]string{s.Sel.Name}, path...)
			x = s.X
		}
	})
	var out []string
	tn, ok := it.tc.Lookup(compat.FuncKey(fd)[:strings.IndexByte(compat.FuncKey(fd), '.')]).(*types.TypeName)
	if !ok {
		return nil
	}
	t := tn.Type()
	for _, f := range fields {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			break
		}
		var next types.Type
		for i := range st.NumFields() {
			if st.Field(i).Name() == f {
				next = st.Field(i).Type()
			}
		}
		if next == nil {
			break
		}
		t = next
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "main" {
			out = append(out, n.Obj().Name())
		}
	}
	return out
}

// changesTypes reports whether f declares a type or a method that exists
// with a different definition, or changes a function or declares again a
// variable that a method uses (directly or not): yaegi cannot recompile a
// method in place either.
func (it *Interp) changesTypes(f *ast.File) bool {
	changedFuncs := it.redeclaredConsts(f) // (followed as functions are)
	vars := it.redeclaredVars(f)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if it.broken[compat.FuncKey(d)] {
				return true // (see failedcells.go)
			}
			old, ok := it.funcs[compat.FuncKey(d)]
			if !ok && it.overridesPromoted(d) {
				return true
			}
			if !ok || exprString(old.decl) == exprString(d) {
				continue
			}
			if d.Recv != nil {
				return true
			}
			changedFuncs[d.Name.Name] = true
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, sp := range d.Specs {
				ts := sp.(*ast.TypeSpec)
				if old, ok := it.types[ts.Name.Name]; ok && exprString(old) != exprString(ts) {
					return true
				}
			}
		}
	}
	return it.callersReachMethod(changedFuncs, vars, nil)
}

// callersReachMethod follows the callers of the functions changed (and of
// those using a variable of vars), adding them to changed, up to a method
// (not counting the methods of the types in but): it reports whether one
// calls them.
func (it *Interp) callersReachMethod(changed map[string]bool, vars map[string]types.Type, but map[string]bool) bool {
	for grew := len(changed) > 0 || len(vars) > 0; grew; {
		grew = false
		for key, fd := range it.funcs {
			if !it.dependsOn(fd, changed, vars) {
				continue
			}
			if fd.decl.Recv != nil {
				if but[key[:strings.IndexByte(key, '.')]] {
					continue
				}
				return true
			}
			if !changed[fd.decl.Name.Name] {
				changed[fd.decl.Name.Name] = true
				grew = true
			}
		}
	}
	return false
}

// rebuild replaces the interpreter by a new one holding every declaration
// so far, with those of cell taking precedence, and the variables whose
// values can move (their types are native, or cell types of data: see
// basedCellType); the others are dropped, with a note on stderr. It returns the names of the variables cell declares,
// which the new interpreter has. On failure the old interpreter stays.
func (it *Interp) rebuild(cell *ast.File) (map[string]bool, error) {
	newTypes := map[string]*ast.TypeSpec{}
	newFuncs := map[string]*ast.FuncDecl{}
	var newVars []*ast.GenDecl
	newVarNames := map[string]bool{}
	for _, d := range cell.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			newFuncs[compat.FuncKey(d)] = d
		case *ast.GenDecl:
			switch d.Tok {
			case token.TYPE:
				for _, sp := range d.Specs {
					ts := sp.(*ast.TypeSpec)
					newTypes[ts.Name.Name] = ts
				}
			case token.VAR, token.CONST:
				// (A constant too: what the old value was compiled into
				// is compiled again here.)
				newVars = append(newVars, d)
				for _, sp := range d.Specs {
					for _, id := range sp.(*ast.ValueSpec).Names {
						newVarNames[id.Name] = true
					}
				}
			}
		}
	}
	var src bytes.Buffer
	src.WriteString("package main\n\n")
	for _, name := range sortedKeys(it.imports) {
		fmt.Fprintf(&src, "import %s %q\n", name, it.imports[name])
	}
	type origin struct {
		line int
		what string
	}
	var origins []origin
	print := func(n ast.Node) {
		what := "declaration"
		switch d := n.(type) {
		case *ast.FuncDecl:
			what = "func " + compat.FuncKey(d)
		case *ast.GenDecl:
			if ts, ok := d.Specs[0].(*ast.TypeSpec); ok {
				what = "type " + ts.Name.Name
			}
		}
		origins = append(origins, origin{1 + bytes.Count(src.Bytes(), []byte("\n")), what})
		printer.Fprint(&src, it.fset, n)
		src.WriteString("\n\n")
	}
	for _, name := range sortedKeys(it.types) {
		ts := it.types[name]
		if nt, ok := newTypes[name]; ok {
			ts = nt
		}
		print(&ast.GenDecl{Tok: token.TYPE, Specs: []ast.Spec{ts}})
	}
	for name, ts := range newTypes {
		if _, ok := it.types[name]; !ok {
			print(&ast.GenDecl{Tok: token.TYPE, Specs: []ast.Spec{ts}})
		}
	}
	unpromoted := it.unpromote(newFuncs)
	for _, key := range sortedKeys(it.funcs) {
		fd := it.funcs[key].decl
		if nf, ok := newFuncs[key]; ok {
			fd = nf
		} else if unpromoted[key] {
			continue
		}
		print(fd)
	}
	for key, fd := range newFuncs {
		if _, ok := it.funcs[key]; !ok {
			print(fd)
		}
	}

	// The variables whose values move, declared with the functions that
	// use them, and the cell's; the others are dropped.
	staleFuncs := it.staleClosures(it.changedBy(cell))
	oldGlobals := it.globalValues()
	var dropped []string
	moved := map[string]reflect.Value{}
	for _, name := range sortedKeys(it.globals) {
		kind := it.globals[name]
		if kind != "var" && kind != "const" || newVarNames[name] {
			continue
		}
		v, ok := oldGlobals[name]
		if !ok || !v.IsValid() {
			continue
		}
		// (Only a constant's value is asked for: Interface of a value of
		// a one-field struct type embedding time.Duration, which yaegi
		// builds with reflect.StructOf, ended the process: "type offset
		// base pointer out of range".)
		if cv, isConst := constValue(kind, v); isConst {
			fmt.Fprintf(&src, "const %s = %s\n", name, cv.ExactString())
			continue
		}
		typ, ok := it.basedCellType(name, v, newTypes)
		if !ok {
			typ, ok = it.goType(v.Type(), v)
			// An interface in it holding a value of a cell type holds it
			// with the earlier interpreter's methods (var s fmt.Stringer
			// = d kept calling the method d's type had before).
			// (A library's struct holding one, a *solve.Table of a cell's
			// game, moves: the library calls the game's methods through
			// the session, which has the new ones.)
			ok = ok && (libraryStruct(v.Type()) || !reflectIfaces(v.Type(), map[reflect.Type]bool{}) || nativeHeld(v, map[uintptr]bool{}))
		}
		if !ok {
			dropped = append(dropped, name)
			continue
		}
		fmt.Fprintf(&src, "var %s %s\n", name, typ)
		moved[name] = v
	}
	for _, d := range newVars {
		print(d)
	}

	oldYi, oldFset, oldPkgs := it.yi, it.fset, it.pkgs
	made, tags, madeKeys, runtimeNamed := it.madeTypes, it.instanceTags, it.instancesMade, it.namedRuntime
	restore := func() {
		it.yi, it.fset, it.pkgs = oldYi, oldFset, oldPkgs
		it.madeTypes, it.instanceTags, it.instancesMade, it.namedRuntime = made, tags, madeKeys, runtimeNamed
	}
	if err := it.load(); err != nil {
		restore()
		return nil, err
	}
	f, err := parser.ParseFile(it.fset, it.name, src.String(), parser.SkipObjectResolution)
	if err == nil {
		// The generic types with methods first, as a cell's (see runDecls).
		// (Each with the imports: yaegi resolves a package's name by the
		// file naming it.)
		var imports []ast.Decl
		for _, d := range f.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
				imports = append(imports, d)
			}
		}
		firsts, rest := compat.FirstDecls(f.Decls, compat.GenericFirst(f.Decls))
		if len(firsts) > 0 {
			_, err = it.compileRun(context.Background(), &ast.File{Package: f.Package, Name: f.Name, Imports: f.Imports, Decls: slices.Concat(imports, firsts)})
		}
		// Then the types on basic types, and the instances the session
		// made (and named) made again before anything else makes them
		// (see makeInstances): those of generic types without methods,
		// which would be compiled with them before what they call.
		early, rest := it.typesFirst(rest, nil)
		if err == nil && len(early) > 0 {
			_, err = it.compileRun(context.Background(), &ast.File{Package: f.Package, Name: f.Name, Imports: f.Imports, Decls: slices.Concat(imports, early)})
		}
		if err == nil {
			again := maps.Clone(made)
			maps.DeleteFunc(again, func(_ string, n *types.Named) bool { return n.Origin().NumMethods() > 0 })
			it.makeNamed(context.Background(), f.Package, again, len(early) > 0)
			_, err = it.compileRun(context.Background(), &ast.File{Package: f.Package, Name: f.Name, Imports: f.Imports, Decls: rest})
		}
	}
	if err != nil {
		restore()
		msg := firstLine(err.Error())
		if ee, ok := err.(*EvalError); ok {
			msg = ee.Value
		}
		// Say which earlier declaration broke, not a line of the replay.
		if m := posPrefix.FindStringSubmatch(msg); m != nil {
			line := atoi(m[1])
			what := ""
			for _, o := range origins {
				if o.line <= line {
					what = o.what
				}
			}
			if what != "" {
				msg = what + " no longer compiles: " + m[3]
			}
		}
		return nil, cannotApply(msg)
	}
	for name, path := range it.imports {
		it.pkgs[name] = path
	}
	// Declarations now live in the new file set (and refer to what they
	// did).
	old := it.funcs
	it.funcs = map[string]*funcDecl{}
	it.broken = nil // (the new interpreter has only the methods that compiled)
	it.types = map[string]*ast.TypeSpec{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			fd := &funcDecl{decl: d}
			fd.refs, fd.varTypes = globalRefs(d, nil)
			if o, ok := old[compat.FuncKey(d)]; ok {
				fd.refs, fd.varTypes, fd.src, fd.generic, fd.text = o.refs, o.varTypes, o.src, o.generic, o.text
			}
			it.funcs[compat.FuncKey(d)] = fd
		case *ast.GenDecl:
			if d.Tok == token.TYPE {
				for _, sp := range d.Specs {
					ts := sp.(*ast.TypeSpec)
					it.types[ts.Name.Name] = ts
				}
			}
		}
	}
	now := it.globalValues()
	var stale []string
	for name, v := range moved {
		nv, ok := now[name]
		switch {
		case ok && v.Type() == nv.Type() && it.shareGlobal(name, v):
		case ok && nv.CanSet() && v.Type().AssignableTo(nv.Type()):
			nv.Set(v)
		default:
			dropped = append(dropped, name)
			continue
		}
		if staleFuncs[name] {
			stale = append(stale, compat.SourceName(name))
		}
	}
	for i, name := range dropped {
		delete(it.globals, name)
		dropped[i] = compat.SourceName(name)
	}
	it.tc.Forget(dropped...)
	if len(dropped) > 0 {
		sort.Strings(dropped)
		if out := it.io.output(); out != nil {
			out.Stderr(fmt.Sprintf("note: types changed, so the session was rebuilt; these variables were dropped: %s (re-run the cells that define them)\n",
				strings.Join(dropped, ", ")))
		}
	}
	if out := it.io.output(); out != nil && len(stale) > 0 {
		sort.Strings(stale)
		out.Stderr(fmt.Sprintf("note: types changed, so the session was rebuilt; these variables hold functions made before, which go on running the earlier definitions they use: %s (re-run the cells that make them)\n",
			strings.Join(stale, ", ")))
	}
	return newVarNames, nil
}

// basedCellType is the type of the session's variable name as its cell
// declared it, when that is made of cell types of data: on basic types,
// slices, arrays, maps, pointers and structs of them (type Val int; []Val;
// type Sub []int; *Counter with Counter struct{ n int }), and of native
// types, no functions or channels. The interpreter keeps their values as
// the underlying types' (reflect's structs), which goType writes for some
// and not at all for structs: "var v int" had lost Val and its methods (a
// method a later cell added was an "undefined selector"), and a variable
// of a struct type was dropped whenever a method changed. An interface in
// it (a struct embedding games.Game, to which a later cell adds a method)
// moves only while what v holds there is of a native type (see
// nativeHeld): a value of a cell type there carries the earlier
// interpreter's methods. The value still moves only if the new type holds
// it (a struct redeclared with other fields does not: see rebuild).
func (it *Interp) basedCellType(name string, v reflect.Value, newTypes map[string]*ast.TypeSpec) (string, bool) {
	obj, ok := it.tc.Lookup(compat.SourceName(name)).(*types.Var)
	if !ok {
		return "", false
	}
	cell, ifaces := false, false
	seen := map[*types.Named]bool{} // (type Node struct{ Kids []*Node })
	var based func(t types.Type) bool
	based = func(t types.Type) bool {
		switch t := t.(type) {
		case *types.Basic:
			return true
		case *types.Interface:
			ifaces = true
			return true
		case *types.Named:
			// An instance of a generic type moves as the type does, its
			// type arguments too (bi := Box[int]{7} was dropped), unless
			// the cell declares the generic type again (Pair[int] of a
			// Pair[A, B] did not compile).
			if t.TypeArgs().Len() > 0 && newTypes[t.Obj().Name()] != nil {
				return false
			}
			for i := range t.TypeArgs().Len() {
				if !based(t.TypeArgs().At(i)) {
					return false
				}
			}
			if t.Obj().Pkg() == nil || t.Obj().Pkg().Path() != "main" {
				// A native type (strings.Builder, games.Game), or error.
				if types.IsInterface(t) {
					ifaces = true
				}
				return true
			}
			if seen[t] {
				return true
			}
			seen[t] = true
			cell = true
			return based(t.Underlying())
		case *types.Slice:
			return based(t.Elem())
		case *types.Array:
			return based(t.Elem())
		case *types.Pointer:
			return based(t.Elem())
		case *types.Map:
			return based(t.Key()) && based(t.Elem())
		case *types.Chan:
			return based(t.Elem())
		case *types.Struct:
			for i := range t.NumFields() {
				if !based(t.Field(i).Type()) {
					return false
				}
			}
			return true
		case *types.Signature: // (mk := func() W; a function value moves as a closure does)
			for _, tu := range []*types.Tuple{t.Params(), t.Results()} {
				for i := range tu.Len() {
					if !based(tu.At(i).Type()) {
						return false
					}
				}
			}
			return true
		}
		return false
	}
	if !based(obj.Type()) || !cell {
		return "", false
	}
	if ifaces && !nativeHeld(v, map[uintptr]bool{}) {
		return "", false
	}
	return typeName(obj.Type()), true
}

// nativeHeld reports whether every interface in v holds nil or a value of
// a native type: not one the interpreter made (its structs, its
// functions, its wrappers of cell types in interfaces).
func nativeHeld(v reflect.Value, seen map[uintptr]bool) bool {
	switch v.Kind() {
	case reflect.Interface:
		return v.IsNil() || nativeType(v.Elem().Type())
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return true
		}
		seen[v.Pointer()] = true
		return nativeHeld(v.Elem(), seen)
	case reflect.Struct:
		for i := range v.NumField() {
			if !nativeHeld(v.Field(i), seen) {
				return false
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if !nativeHeld(v.Index(i), seen) {
				return false
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if !nativeHeld(it.Key(), seen) || !nativeHeld(it.Value(), seen) {
				return false
			}
		}
	}
	return true
}

// nativeType reports whether t is compiled Go's: a named type of a
// package other than the interpreter's, not a wrapper of a cell type's value, or
// built of such types.
func nativeType(t reflect.Type) bool {
	if t.Name() != "" {
		return !grundyrt.WrapperShape(t) && !strings.HasPrefix(t.PkgPath(), "github.com/traefik/yaegi")
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		return nativeType(t.Elem())
	case reflect.Map:
		return nativeType(t.Key()) && nativeType(t.Elem())
	}
	return false // (the interpreter's structs and functions)
}

// goType writes t as Go source when its values can move to a new
// interpreter: built from builtin types and types of native packages.
// Types the interpreter built (cell-defined structs) cannot.
func (it *Interp) goType(t reflect.Type, v reflect.Value) (string, bool) {
	if t == errorType {
		return "error", true
	}
	if t.Name() != "" {
		if t.PkgPath() == "" {
			return t.Name(), true
		}
		for name, path := range it.pkgs {
			if path == t.PkgPath() {
				return name + "." + t.Name(), true
			}
		}
		return "", false
	}
	elem := func(et reflect.Type) (string, bool) { return it.goType(et, reflect.Value{}) }
	switch t.Kind() {
	case reflect.Pointer:
		s, ok := elem(t.Elem())
		return "*" + s, ok
	case reflect.Slice:
		s, ok := elem(t.Elem())
		return "[]" + s, ok
	case reflect.Array:
		s, ok := elem(t.Elem())
		return fmt.Sprintf("[%d]%s", t.Len(), s), ok
	case reflect.Map:
		k, ok1 := elem(t.Key())
		e, ok2 := elem(t.Elem())
		return "map[" + k + "]" + e, ok1 && ok2
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return "", false
		}
		// An any holding a value of a native type.
		if v.IsValid() && !v.IsNil() {
			if _, ok := it.goType(v.Elem().Type(), v.Elem()); !ok {
				return "", false
			}
		}
		return "any", true
	case reflect.Chan:
		s, ok := elem(t.Elem())
		switch t.ChanDir() {
		case reflect.RecvDir:
			return "<-chan " + s, ok
		case reflect.SendDir:
			return "chan<- " + s, ok
		}
		if strings.HasPrefix(s, "<-") {
			s = "(" + s + ")"
		}
		return "chan " + s, ok
	case reflect.Func:
		// An iterator or a callback a generic function returned.
		var in, out []string
		for i := range t.NumIn() {
			s, ok := elem(t.In(i))
			if !ok {
				return "", false
			}
			if t.IsVariadic() && i == t.NumIn()-1 {
				s = "..." + strings.TrimPrefix(s, "[]")
			}
			in = append(in, s)
		}
		for i := range t.NumOut() {
			s, ok := elem(t.Out(i))
			if !ok {
				return "", false
			}
			out = append(out, s)
		}
		sig := "func(" + strings.Join(in, ", ") + ")"
		switch len(out) {
		case 0:
		case 1:
			sig += " " + out[0]
		default:
			sig += " (" + strings.Join(out, ", ") + ")"
		}
		return sig, true
	}
	return "", false
}

// posPrefix splits "cell:3:7: msg" into its line, column and message.
var posPrefix = regexp.MustCompile(`^[^\s:]+:(\d+):(\d+): (.*)$`)

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// shareGlobal makes the interpreter's variable name the storage v, the
// variable of the interpreter before a rebuild, of the same type: copied
// (Set), the variable lost what held its address before the rebuild (p
// := &x, a closure counting in it, a method value bound to &c still
// changed the old copy: x printed 1 after *p = 5), and a strings.Builder
// panicked "illegal use of non-zero Builder copied by value". yaegi keeps
// a package's variables in its root frame, one reflect.Value each, read
// at each use; the slot is given v's. false where yaegi's structures are
// not as expected (the value is copied then).
func (it *Interp) shareGlobal(name string, v reflect.Value) bool {
	yi := reflect.ValueOf(it.yi).Elem()
	syms := it.mainSymbols()
	if !syms.IsValid() {
		return false
	}
	sym := syms.MapIndex(reflect.ValueOf(name))
	if !sym.IsValid() {
		return false
	}
	index := yaegiField(derefAll(sym), "index")
	data := yaegiField(derefAll(yaegiField(yi, "frame")), "data")
	if index.Kind() != reflect.Int || data.Kind() != reflect.Slice || data.Type().Elem() != reflect.TypeOf(reflect.Value{}) {
		return false
	}
	i := int(index.Int())
	if i < 0 || i >= data.Len() || !v.CanAddr() {
		return false
	}
	data.Index(i).Set(reflect.ValueOf(v))
	return true
}

// libraryStruct reports whether t is a native package's struct type or a
// pointer to one.
func libraryStruct(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct && nativeType(t)
}

// reflectIfaces reports whether values of t may hold interfaces.
func reflectIfaces(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		return reflectIfaces(t.Elem(), seen)
	case reflect.Map:
		return reflectIfaces(t.Key(), seen) || reflectIfaces(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if reflectIfaces(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// constValue is the value of the session's constant of kind (the
// session's kind of the name) with value v.
func constValue(kind string, v reflect.Value) (constant.Value, bool) {
	if kind != "const" || !v.CanInterface() {
		return nil, false
	}
	cv, ok := v.Interface().(constant.Value)
	return cv, ok
}
