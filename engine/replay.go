package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"grundy/engine/compat"
	"grundy/engine/typecheck"
)

// Replaying earlier functions whose rewriting depends on the session's
// types. The passes rewrite a type assertion or a type switch by the
// types the session has when the function is compiled (which values an
// interface may hold boxed, which implement an interface: compat's
// basedasserts, typeswitches, implementers.go). A function of an earlier
// cell, compiled before a later cell declared the types it is handed
// (func describe(x any) in cell 1, type Nim int in cell 2), kept the
// plain yaegi assertion: describe(Nim(2)) took the Nim for an int, or
// dereferenced nil in a type switch with a fmt.Stringer case. So a cell
// that declares a type or a method compiles such functions again, from
// their text, as if it declared them itself, unless that would change
// more than their rewriting:
//   - only functions: a changed method makes the engine rebuild the
//     interpreter (rebuild.go), dropping variables, and so does a function
//     a method calls;
//   - not one that refers to a variable, constant or function the cell
//     declares (the cell may give it another type), nor one the oracle no
//     longer accepts (a type the cell declares again without a field it
//     uses);
//   - not one whose rewriting comes out as it was.
//
// A function with a range over a function iterator is compiled again so
// too by the first cell that may declare an iterator keeping its yield
// function (mayKeepYield): from then on such a loop checks that the
// iterator stops calling yield once the loop is over (compat's rangeFunc,
// keptYield), which the earlier compilation of a loop whose body cannot
// stop it left out.

// rewritesByTypes reports whether fd's rewriting may depend on the
// session's types: it asserts or switches on a type, compares interface
// values or keys a map by one (boxed values are compared and interned by
// their types' names: ifacecompare, ifacekeys), or calls errors.As (its
// interface targets are matched against the cell types there are).
func rewritesByTypes(fd *ast.FuncDecl, info *typecheck.Info) bool {
	isIface := func(t types.Type) bool {
		_, param := t.(*types.TypeParam)
		return t != nil && !param && types.IsInterface(t)
	}
	iface := func(x ast.Expr) bool { return isIface(info.TypeOf(x)) }
	// (Each case only sets found: ast.Inspect goes on to the siblings of
	// the node that set it, and an assignment of false there, the
	// condition of if a, ok := x.(Area); ok && a.Area() > 0, unset it.)
	found := false
	ast.Inspect(fd, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.TypeAssertExpr, *ast.TypeSwitchStmt:
			found = true
		case *ast.BinaryExpr:
			found = (n.Op == token.EQL || n.Op == token.NEQ) && (iface(n.X) || iface(n.Y))
		case *ast.SwitchStmt:
			found = n.Tag != nil && iface(n.Tag)
		case *ast.IndexExpr:
			if m, ok := typeUnder(info.TypeOf(n.X)).(*types.Map); ok {
				found = isIface(m.Key())
			}
		case *ast.CompositeLit:
			if m, ok := typeUnder(info.TypeOf(n)).(*types.Map); ok {
				found = isIface(m.Key())
			}
		case *ast.SelectorExpr:
			if pkg, ok := n.X.(*ast.Ident); ok && n.Sel.Name == "As" {
				pn, _ := info.ObjectOf(pkg).(*types.PkgName)
				found = pn != nil && pn.Imported().Path() == "errors"
			}
		}
		return !found
	})
	return found
}

// rangesOverFunc reports whether fd has a range over a function iterator
// (see mayKeepYield).
func rangesOverFunc(fd *ast.FuncDecl, info *typecheck.Info) bool {
	found := false
	ast.Inspect(fd, func(n ast.Node) bool {
		if r, ok := n.(*ast.RangeStmt); ok {
			_, found = typeUnder(info.TypeOf(r.X)).(*types.Signature)
		}
		return !found
	})
	return found
}

// mayKeepYield reports whether the cell has a function with a parameter
// of a function type whose one result is bool: an iterator that may keep
// its yield (compat's keptYield decides, once the cell is typed).
func mayKeepYield(pc *parsedCell) bool {
	found := false
	look := func(n ast.Node) bool {
		if ft, ok := n.(*ast.FuncType); ok && ft.Params != nil {
			for _, f := range ft.Params.List {
				if y, ok := f.Type.(*ast.FuncType); ok && y.Results.NumFields() == 1 {
					if id, ok := y.Results.List[0].Type.(*ast.Ident); ok && id.Name == "bool" {
						found = true
					}
				}
			}
		}
		return !found
	}
	if pc.Decls != nil {
		ast.Inspect(pc.Decls, look)
	}
	if pc.Stmts != nil && !found {
		ast.Inspect(pc.Stmts, look)
	}
	return found
}

// typeUnder is t's underlying type, or nil.
func typeUnder(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// noteSources keeps, for the cell's functions that rewritesByTypes, and
// its generic functions (for typed copies: typedcopies.go), their text
// as written (after the oracle's check, before the passes change them):
// runDecls stores it with the function.
func (it *Interp) noteSources(pc *parsedCell) {
	it.cellGenerics = map[string]funcSource{}
	it.cellTexts = map[string]funcSource{}
	if pc.Decls == nil {
		return
	}
	for _, d := range pc.Decls.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && !slices.Contains(pc.replayed, fd) {
			if text, at := pc.DeclSource(it.fset, fd); text != "" {
				it.cellTexts[compat.FuncKey(fd)] = funcSource{text: text, at: at}
			}
		}
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE && len(gd.Specs) == 1 && gd.Specs[0].(*ast.TypeSpec).TypeParams != nil {
			if text, at := pc.DeclSource(it.fset, gd); text != "" {
				if it.typeSrcs == nil {
					it.typeSrcs = map[string]funcSource{}
				}
				it.typeSrcs[gd.Specs[0].(*ast.TypeSpec).Name.Name] = funcSource{text: text, at: at}
			}
		}
		fd, ok := d.(*ast.FuncDecl)
		if ok && fd.Recv != nil && fd.Body != nil && it.isGenericRecv(fd) {
			// (for a later cell declaring more: laterMethodTypes)
			if text, at := pc.DeclSource(it.fset, fd); text != "" {
				it.cellSrcs[compat.FuncKey(fd)] = funcSource{text: text, at: at}
			}
			continue
		}
		if ok && slices.Contains(pc.replayed, fd) && fd.Type.TypeParams != nil {
			// (A generic function replayed keeps its text for typed copies.)
			if f := it.funcs[compat.FuncKey(fd)]; f != nil && f.generic.text != "" {
				it.cellGenerics[fd.Name.Name] = f.generic
			}
		}
		if !ok || slices.Contains(pc.replayed, fd) || fd.Recv != nil || fd.Body == nil {
			continue
		}
		if fd.Type.TypeParams != nil {
			if text, at := pc.DeclSource(it.fset, fd); text != "" {
				it.cellGenerics[fd.Name.Name] = funcSource{text: text, at: at}
			}
		}
		if !rewritesByTypes(fd, it.info) && !rangesOverFunc(fd, it.info) {
			continue
		}
		if text, at := pc.DeclSource(it.fset, fd); text != "" {
			it.cellSrcs[compat.FuncKey(fd)] = funcSource{text: text, at: at}
		}
	}
}

// isGenericRecv reports whether fd, a method the cell declares, is one of
// a generic type (func (l *List[T]) Push), as the oracle has it.
func (it *Interp) isGenericRecv(fd *ast.FuncDecl) bool {
	fn, ok := it.info.Defs[fd.Name].(*types.Func)
	return ok && fn.Type().(*types.Signature).RecvTypeParams().Len() > 0
}

// funcSource is a function's text and where it starts in its cell.
type funcSource struct{ text, at string }

// parseFunc parses a function's kept text anew, its positions its cell's;
// nil if it is not one function.
func (it *Interp) parseFunc(src funcSource) *ast.FuncDecl {
	if src.text == "" {
		return nil
	}
	f, err := parser.ParseFile(it.fset, it.name, "package main;/*line "+src.at+"*/"+src.text, parser.SkipObjectResolution)
	if err != nil || len(f.Decls) != 1 {
		return nil
	}
	fd, _ := f.Decls[0].(*ast.FuncDecl)
	rewriteTypeFor(fd, it.reflectNames(nil))
	return fd
}

// replay adds to the cell's declarations the earlier functions to compile
// again (see above), when the cell declares a type or a method.
// With force, it replays whatever the cell is (see newInstances). It
// reports whether it replayed.
func (it *Interp) replay(pc *parsedCell, force bool) bool {
	pc.replayed = nil
	it.cellSrcs = map[string]funcSource{}
	declares := pc.Decls != nil && declaresTypesOrMethods(pc.Decls)
	if declares {
		it.typeEpoch++ // (see cellCopies)
	}
	if !(force || declares || !it.keepsYield && mayKeepYield(pc)) {
		return false
	}
	declared, typeNames := cellNames(pc)
	bases := it.laterMethodBases(pc)
	called := it.genericsOfMethods(pc)
	for _, key := range sortedKeys(it.funcs) {
		fd := it.funcs[key]
		src := fd.src
		if src.text == "" && fd.decl.Type.TypeParams != nil && (called[key] || slices.ContainsFunc(sortedKeys(fd.refs), func(n string) bool { return bases[n] })) {
			src = fd.generic // (see replaysWithType, genericsOfMethods)
		}
		if src.text == "" || fd.decl.Recv != nil || declared[key] || it.calledByMethod(key, bases) {
			continue
		}
		if slices.ContainsFunc(sortedKeys(fd.refs), func(n string) bool { return declared[n] && !typeNames[n] }) {
			continue
		}
		d := it.parseFunc(src)
		if d == nil || compat.FuncKey(d) != key {
			continue
		}
		if pc.Decls == nil {
			pc.Decls = &ast.File{Name: ast.NewIdent("main"), Package: d.Pos()}
		}
		pc.Decls.Decls = append(pc.Decls.Decls, d)
		pc.replayed = append(pc.replayed, d)
		it.cellSrcs[key] = fd.src
	}
	return true
}

// genericsOfMethods are the generic functions of earlier cells converting
// to a type parameter (T(i)) that the methods of generic types the cell
// declares call, themselves or through other such functions: the cell
// compiles them again (replay). yaegi
// v0.16.1 compiles an instance's methods with the generic functions they
// call as those were compiled, and a conversion to a type parameter in
// one of an earlier cell (Mex[T] returning T(i), called by Memo[T].At)
// failed for an instance with a type argument that is not predeclared
// (Memo[Nimber]: "index out of range [1] with length 0" where At called
// it, or compat's genericmethods refused the instance); compiled in the
// method's cell, with its conversions rewritten there (compat's
// paramconv), it runs.
func (it *Interp) genericsOfMethods(pc *parsedCell) map[string]bool {
	out, seen := map[string]bool{}, map[string]bool{}
	if pc.Decls == nil {
		return out
	}
	var visit func(refs func(yield func(string) bool))
	visit = func(refs func(yield func(string) bool)) {
		for name := range refs {
			fd := it.funcs[name]
			if seen[name] || fd == nil || fd.decl.Recv != nil || fd.decl.Type.TypeParams == nil || fd.generic.text == "" {
				continue
			}
			seen[name] = true
			if d := it.parseFunc(fd.generic); d != nil && convertsToParam(d) {
				out[name] = true
			}
			visit(maps.Keys(fd.refs))
		}
	}
	for _, d := range pc.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 || fd.Body == nil || !hasTypeArgs(fd.Recv.List[0].Type) {
			continue
		}
		visit(func(yield func(string) bool) {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && !yield(id.Name) {
					return false
				}
				return true
			})
		})
	}
	return out
}

// convertsToParam reports whether the generic function fd converts a value
// to one of its type parameters (T(i)).
func convertsToParam(fd *ast.FuncDecl) bool {
	params := map[string]bool{}
	for _, f := range fd.Type.TypeParams.List {
		for _, n := range f.Names {
			params[n.Name] = true
		}
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 1 {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && params[id.Name] {
				found = true
			}
		}
		return !found
	})
	return found
}

// hasTypeArgs reports whether a method's receiver type is written with
// type parameters (*Memo[T]).
func hasTypeArgs(recv ast.Expr) bool {
	if s, ok := recv.(*ast.StarExpr); ok {
		recv = s.X
	}
	switch recv.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// newInstances reports whether the cell, as the oracle typed it, has an
// instance of a generic type with methods that no earlier cell had
// (Box[int]{1}, NewBox(1), or one a generic function's body makes:
// wrap(1) returning Box[T]{v} as an any): such an instance is a new type
// to the functions of earlier cells, whose assertions to an interface
// (v.(fmt.Stringer)) were written for the types that implemented it then
// (compat's implementers); compiled again (replay), they find it
// (asStringer said no where Go says yes, silently).
func (it *Interp) newInstances(pc *parsedCell) bool {
	if it.info == nil || !it.declaresGenericStructs() {
		return false
	}
	if it.instancesSeen == nil {
		it.instancesSeen = map[string]bool{}
	}
	all := compat.CellInstances(it.info)
	// The generic functions the cell declares, whose bodies may make
	// instances too (wrap[T] returning Box[T]{v}, called as wrap("s") in
	// the cell declaring both: kind's case fmt.Stringer, compiled with
	// them, did not know Box[string], silently).
	if pc.Decls != nil {
		it.pending = pc.Decls.Decls
		defer func() { it.pending = nil }()
	}
	body := it.bodyInstances(all)
	found := false
	for name, n := range body {
		if _, ok := n.Underlying().(*types.Struct); ok && compat.HasMethods(n) && all[name] == nil {
			// (for the assertions' implementers: compat's
			// structInstances, through the session's Instances)
			if it.instances == nil {
				it.instances = map[string]*types.Named{}
			}
			it.instances[name] = n
		}
	}
	maps.Copy(all, body)
	for name, n := range all {
		if !it.instancesSeen[name] && compat.HasMethods(n) {
			it.instancesSeen[name] = true
			found = true
		}
	}
	return found
}

// declaresTypesOrMethods reports whether the declarations have a type or a
// method.
func declaresTypesOrMethods(f *ast.File) bool {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.TYPE {
				return true
			}
		case *ast.FuncDecl:
			if d.Recv != nil {
				return true
			}
		}
	}
	return false
}

// cellNames are the names the cell declares: its functions, types,
// variables and constants, and what its top-level statements define; and
// which of them are types (a function using a type the cell declares
// again is replayed, checked against the new type).
func cellNames(pc *parsedCell) (out, typeNames map[string]bool) {
	out, typeNames = map[string]bool{}, map[string]bool{}
	if pc.Decls != nil {
		for _, d := range pc.Decls.Decls {
			for _, n := range typecheck.DeclNames(d) {
				out[n] = true
			}
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				for _, n := range typecheck.DeclNames(gd) {
					typeNames[n] = true
				}
			}
		}
	}
	if pc.Stmts != nil {
		for _, st := range pc.Stmts.List {
			for _, id := range typecheck.DefinedIdents(st) {
				out[id.Name] = true
			}
		}
	}
	return out, typeNames
}

// calledByMethod reports whether a method calls the function key,
// directly or through other functions (changing it would rebuild the
// interpreter: see changesTypes), not counting the methods of the generic
// types in but (see replaysWithType).
func (it *Interp) calledByMethod(key string, but map[string]bool) bool {
	return it.callersReachMethod(map[string]bool{key: true}, nil, but)
}

// dropFailedReplays takes the replayed functions out of the cell when the
// oracle finds an error in one of them (the session changed under it):
// they keep their earlier compilation. It reports whether it did.
func (pc *parsedCell) dropFailedReplays(errs []error) bool {
	for _, err := range errs {
		te, ok := err.(types.Error)
		if !ok {
			continue
		}
		if slices.ContainsFunc(pc.replayed, func(d *ast.FuncDecl) bool { return d.Pos() <= te.Pos && te.Pos < d.End() }) {
			pc.Decls.Decls = slices.DeleteFunc(pc.Decls.Decls, func(d ast.Decl) bool {
				fd, ok := d.(*ast.FuncDecl)
				return ok && slices.Contains(pc.replayed, fd)
			})
			pc.replayed = nil
			return true
		}
	}
	return false
}

// dropUnchangedReplays takes out of the cell the replayed functions that
// the passes rewrote as they were: compiling them again would only
// recompile their callers.
func (it *Interp) dropUnchangedReplays(pc *parsedCell) {
	it.replaying = map[string]bool{}
	if len(pc.replayed) == 0 {
		return
	}
	keys := map[string]bool{}
	for _, d := range pc.replayed {
		keys[compat.FuncKey(d)] = true
	}
	pc.Decls.Decls = slices.DeleteFunc(pc.Decls.Decls, func(d ast.Decl) bool {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || !keys[compat.FuncKey(fd)] {
			return false
		}
		old := it.funcs[compat.FuncKey(fd)]
		if old != nil && exprString(old.decl) == exprString(fd) {
			return true
		}
		it.replaying[compat.FuncKey(fd)] = true
		return false
	})
}

// redefinedByCell are the functions the cell declares again, or that call
// one of them or use one of consts, transitively, leaving out the
// functions it replays (they are what they were, for the closures that
// hold them: see noteStaleClosures).
func (it *Interp) redefinedByCell(redefined, consts map[string]bool) map[string]bool {
	out := map[string]bool{}
	for n := range redefined {
		if !it.replaying[n] {
			out[n] = true
		}
	}
	seeds := maps.Clone(out)
	maps.Copy(seeds, consts)
	for grew := len(seeds) > 0; grew; {
		grew = false
		for _, fd := range it.funcs {
			if fd.decl.Recv == nil && !seeds[fd.decl.Name.Name] && it.dependsOn(fd, seeds, nil) {
				seeds[fd.decl.Name.Name], out[fd.decl.Name.Name] = true, true
				grew = true
			}
		}
	}
	return out
}
