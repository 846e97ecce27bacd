package typecheck

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Info is what the oracle found in one cell: go/types' record of every
// expression, definition and use, with questions the engine asks of it.
type Info struct {
	types.Info
	Pkg    *types.Package // the cell's package (path "main")
	Errors []error        // the first type errors, in Go's words

	session *Session
	pending map[string]types.Object // the cell's top-level names, for Commit
	docs    map[types.Object]string // their doc comments, for Commit
	drafted map[*types.Named][]*types.Func
	// attached are the methods the check added to earlier cells' types,
	// taken off again unless the cell is committed (see Session.discard).
	attached []attachedMethod
	renamed  map[*types.TypeName]string // see RenameType
	// written are the type expressions the passes wrote (see
	// NoteTypeExpr), which the check never saw.
	written map[ast.Expr]bool
}

// NoteTypeExpr records that x, which a pass wrote, is a type expression
// (see WrittenType).
func (in *Info) NoteTypeExpr(x ast.Expr) {
	if in == nil {
		return
	}
	if in.written == nil {
		in.written = map[ast.Expr]bool{}
	}
	in.written[x] = true
}

// RenameType records that the rewritten cell calls tn, a type parameter
// or a type declared in a function, name (compat's typeParamRenames and
// localTypeNames): TypeString writes it so.
func (in *Info) RenameType(tn *types.TypeName, name string) {
	if in.renamed == nil {
		in.renamed = map[*types.TypeName]string{}
	}
	in.renamed[tn] = name
}

// Renamed is the name RenameType gave tn, in this cell or (a type declared
// in a function) an earlier one, "" when none.
func (in *Info) Renamed(tn *types.TypeName) string {
	if in == nil {
		return ""
	}
	if name, ok := in.renamed[tn]; ok {
		return name
	}
	if in.session != nil {
		return in.session.locals[tn]
	}
	return ""
}

// RenamedType is the type RenameType gave name in this cell, nil when none
// did.
func (in *Info) RenamedType(name string) *types.TypeName {
	if in == nil {
		return nil
	}
	for tn, n := range in.renamed {
		if n == name {
			return tn
		}
	}
	return nil
}

// LocalTypes are the types declared in functions that RenameType named
// for package level, in this cell and the earlier ones, sorted by those
// names.
func (in *Info) LocalTypes() []*types.TypeName {
	if in == nil {
		return nil
	}
	var out []*types.TypeName
	for tn := range in.renamed {
		if _, ok := tn.Type().(*types.Named); ok {
			out = append(out, tn)
		}
	}
	if in.session != nil {
		for tn := range in.session.locals {
			if _, ok := in.renamed[tn]; !ok {
				out = append(out, tn)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return in.Renamed(out[i]) < in.Renamed(out[j]) })
	return out
}

// DraftMethods lists the methods a draft (Session.Draft) declares on n, a
// type of an earlier cell, which the draft leaves without them.
func (in *Info) DraftMethods(n *types.Named) []*types.Func {
	if in == nil {
		return nil
	}
	return in.drafted[n]
}

// TypeOf is e's type, or nil when the oracle could not type it (synthetic
// nodes, code with errors). A constant has its untyped type.
func (in *Info) TypeOf(e ast.Expr) types.Type {
	if in == nil || e == nil {
		return nil
	}
	if p, ok := e.(*ast.ParenExpr); ok {
		return in.TypeOf(p.X)
	}
	tv, ok := in.Types[e]
	if !ok {
		if id, isID := e.(*ast.Ident); isID {
			if obj := in.ObjectOf(id); obj != nil {
				if _, isVar := obj.(*types.Var); isVar {
					return obj.Type()
				}
			}
		}
		return nil
	}
	if tv.Type == nil || tv.Type == types.Typ[types.Invalid] {
		return nil
	}
	return tv.Type
}

// IsValue reports whether e is known to be a value (not a type, package
// or builtin).
func (in *Info) IsValue(e ast.Expr) bool {
	if in == nil {
		return false
	}
	if p, ok := e.(*ast.ParenExpr); ok {
		return in.IsValue(p.X)
	}
	tv, ok := in.Types[e]
	return ok && tv.IsValue() && tv.Type != types.Typ[types.Invalid]
}

// RecordTypeExpr records that e, an expression a pass wrote, denotes the
// type t (for IsType, TypeOf and, a name, ObjectOf).
func (in *Info) RecordTypeExpr(e ast.Expr, t types.Type) {
	tv := typeExprTV()
	tv.Type = t
	in.Types[e] = tv
	id, ok := e.(*ast.Ident)
	if !ok {
		return
	}
	switch t := types.Unalias(t).(type) {
	case *types.TypeParam:
		in.Uses[id] = t.Obj()
	case *types.Named:
		in.Uses[id] = t.Obj()
	case *types.Basic:
		in.Uses[id] = types.Universe.Lookup(t.Name())
	}
}

// typeExprTV is a TypeAndValue of a type expression, whose mode is not
// otherwise to be had outside go/types.
var typeExprTV = sync.OnceValue(func() types.TypeAndValue {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "t.go", "package t\n\nvar _ int\n", 0)
	if err != nil {
		panic(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	if _, err := (&types.Config{}).Check("t", fset, []*ast.File{f}, info); err != nil {
		panic(err)
	}
	return info.Types[f.Decls[0].(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Type]
})

// IsType reports whether e denotes a type.
func (in *Info) IsType(e ast.Expr) bool {
	if in == nil {
		return false
	}
	tv, ok := in.Types[e]
	return ok && tv.IsType()
}

// WrittenType reports whether e is a type expression a pass wrote (see
// NoteTypeExpr), which the check never saw, so IsType says no and TypeOf
// is nil: a conversion a pass writes, int(s[0]), is no call.
func (in *Info) WrittenType(e ast.Expr) bool {
	return in != nil && in.written[ast.Unparen(e)]
}

// ObjectOf is the object id defines or uses, or nil.
func (in *Info) ObjectOf(id *ast.Ident) types.Object {
	if in == nil {
		return nil
	}
	if obj := in.Defs[id]; obj != nil {
		return obj
	}
	return in.Uses[id]
}

// Earlier is what an earlier cell declared at top level under name, or
// nil.
func (in *Info) Earlier(name string) types.Object {
	if in == nil || in.session == nil {
		return nil
	}
	return in.session.Lookup(name)
}

// EarlierNames are the names earlier cells declared at top level.
func (in *Info) EarlierNames() []string {
	if in == nil || in.session == nil {
		return nil
	}
	return in.session.Names()
}

// IsPackage reports whether name is a package's name in the session (a
// preloaded package, or one a cell imported).
func (in *Info) IsPackage(name string) bool { return in.PackagePath(name) != "" }

// PackagePath is the import path of the package the session knows by
// name, "" for none.
func (in *Info) PackagePath(name string) string {
	if in == nil || in.session == nil {
		return ""
	}
	return in.session.packages()[name]
}

// IsInteger reports whether e is known to have an integer type (typed or
// untyped).
func (in *Info) IsInteger(e ast.Expr) bool {
	t := in.TypeOf(e)
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// IsCellType reports whether t is a named type a cell declared.
func IsCellType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "main"
}

// LibraryIfaceHolder reports whether t is a library's struct type with a
// field of an interface type, or of a slice of one (io.LimitedReader's R,
// list.Element's Value, sort.Reverse's embedded Interface, io.MultiReader's
// readers), which may hold a value of a cell
// type: fmt prints the interpreter's wrapper or box there, so such a value
// is printed as one of a cell type is.
func LibraryIfaceHolder(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || IsCellType(n) {
		return false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	// (A type with a method fmt or the display calls, an error, a table
	// with HTML, is shown and printed by it.)
	ms := types.NewMethodSet(types.NewPointer(n))
	for _, m := range []string{"Error", "String", "Format", "GoString", "HTML", "Markdown", "LaTeX", "SVG", "PNG", "JPEG", "JSON", "MIMETypes", "Bundle"} {
		if ms.Lookup(nil, m) != nil {
			return false
		}
	}
	for i := range st.NumFields() {
		ft := st.Field(i).Type()
		if s, ok := ft.Underlying().(*types.Slice); ok {
			ft = s.Elem() // (io.MultiReader's []io.Reader)
		}
		if types.IsInterface(ft) {
			return true
		}
	}
	return false
}

// TypeString writes t as source a cell can contain: packages by the names
// the session knows them by, cell types by their names, untyped constants
// by their default types. ok is false when t cannot be written so (a
// package the cell has no name for, an invalid type).
func (in *Info) TypeString(t types.Type) (s string, ok bool) {
	if in == nil || t == nil {
		return "", false
	}
	t = expandGenericAliases(types.Default(t))
	var names map[string]string // path -> name
	ok = true
	s = types.TypeString(t, func(p *types.Package) string {
		if p.Path() == "main" {
			return ""
		}
		if names == nil {
			names = map[string]string{}
			for name, path := range in.session.packages() {
				if old, dup := names[path]; !dup || name == p.Name() && old != p.Name() {
					names[path] = name
				}
			}
		}
		n, found := names[p.Path()]
		if !found {
			if n = in.aliasingPackage(p, t); n == "" {
				ok = false
			}
		}
		return n
	})
	if len(in.renamed) > 0 || in.session != nil && len(in.session.locals) > 0 {
		s = in.renameTypes(s, t)
	}
	if in.session != nil && in.session.u != nil && len(in.session.u.helpers) > 0 {
		// A generic type of a native package is its helper's in cells'
		// code (unique.Handle[Pos] is _grundyUniqueHandle[Pos]).
		walkWritten(t, map[types.Type]bool{}, func(t types.Type) {
			if n, isNamed := t.(*types.Named); isNamed && n.Obj().Pkg() != nil && names != nil {
				if h, ok := in.session.u.helpers[n.Obj().Pkg().Path()+"."+n.Obj().Name()]; ok && names[n.Obj().Pkg().Path()] != "" {
					s = strings.ReplaceAll(s, names[n.Obj().Pkg().Path()]+"."+n.Obj().Name()+"[", h+"[")
				}
			}
		})
	}
	return s, ok && !hasInvalid(t, map[types.Type]bool{})
}

// aliasingPackage is the name of a package the session imports that
// declares an alias, under its own name, of each type of p that t names
// (os for io/fs in *fs.PathError: os.PathError = fs.PathError); "" if
// none does. The oracle knows such a type by the package declaring it,
// which the cell may not import.
func (in *Info) aliasingPackage(p *types.Package, t types.Type) string {
	var named []*types.Named
	walkWritten(t, map[types.Type]bool{}, func(t types.Type) {
		if n, ok := t.(*types.Named); ok && n.Obj().Pkg() == p {
			named = append(named, n)
		}
	})
	if len(named) == 0 || in.session == nil || in.session.u == nil {
		return ""
	}
	pkgs := in.session.packages()
	for _, name := range slices.Sorted(maps.Keys(pkgs)) {
		q, err := in.session.u.Import(pkgs[name])
		if err != nil || q == nil || q == p {
			continue
		}
		all := true
		for _, n := range named {
			obj, isType := q.Scope().Lookup(n.Obj().Name()).(*types.TypeName)
			all = all && isType && types.Identical(obj.Type(), n)
		}
		if all {
			return name
		}
	}
	return ""
}

// renameTypes writes the renamed type parameters and local types of t
// in s, t written as types.TypeString writes it: a type parameter or a
// type of package main by its bare name, which only field and method
// names can also be.
func (in *Info) renameTypes(s string, t types.Type) string {
	to := map[string]string{}
	walkWritten(t, map[types.Type]bool{}, func(t types.Type) {
		var obj *types.TypeName
		switch t := t.(type) {
		case *types.TypeParam:
			obj = t.Obj()
		case *types.Named:
			obj = t.Obj()
		}
		if name := in.Renamed(obj); name != "" {
			to[obj.Name()] = name
		}
	})
	if len(to) == 0 {
		return s
	}
	x, err := parser.ParseExpr(s)
	if err != nil {
		return s
	}
	names := map[*ast.Ident]bool{} // field and method names
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, id := range n.Names {
				names[id] = true
			}
		case *ast.SelectorExpr:
			names[n.Sel] = true
		case *ast.Ident:
			if name, ok := to[n.Name]; ok && !names[n] {
				n.Name = name
			}
		}
		return true
	})
	var b strings.Builder
	if err := format.Node(&b, token.NewFileSet(), x); err != nil {
		return s
	}
	return b.String()
}

// walkWritten calls f on t and each type t is written with (not looking
// into a named type's underlying type: its type arguments).
func walkWritten(t types.Type, seen map[types.Type]bool, f func(types.Type)) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	f(t)
	walk := func(u types.Type) { walkWritten(u, seen, f) }
	switch x := t.(type) {
	case *types.Pointer:
		walk(x.Elem())
	case *types.Slice:
		walk(x.Elem())
	case *types.Array:
		walk(x.Elem())
	case *types.Map:
		walk(x.Key())
		walk(x.Elem())
	case *types.Chan:
		walk(x.Elem())
	case *types.Signature:
		for _, tu := range []*types.Tuple{x.Params(), x.Results()} {
			for i := range tu.Len() {
				walk(tu.At(i).Type())
			}
		}
	case *types.Struct:
		for i := range x.NumFields() {
			walk(x.Field(i).Type())
		}
	case *types.Interface:
		for i := range x.NumMethods() {
			walk(x.Method(i).Type())
		}
		for i := range x.NumEmbeddeds() {
			walk(x.EmbeddedType(i))
		}
	case *types.Union:
		for i := range x.Len() {
			walk(x.Term(i).Type())
		}
	case *types.Named:
		if args := x.TypeArgs(); args != nil {
			for i := range args.Len() {
				walk(args.At(i))
			}
		}
	case *types.Alias:
		walk(types.Unalias(x))
	}
}

// expandGenericAliases is t with each instance of a generic alias
// (Set[int], Set a generic alias) written out as its type: the cell's code
// has them so (see compat's genericAliases), and yaegi v0.16.1 cannot
// compile them. So is an alias declared in a function or a block (type P
// = Point), which the cell's code no longer declares (see compat's
// localAliases). Instances inside pointers, slices, arrays, maps and
// channels are written out too.
func expandGenericAliases(t types.Type) types.Type {
	switch x := t.(type) {
	case *types.Alias:
		if o := x.Obj(); x.TypeArgs().Len() > 0 || o.Parent() != nil && o.Pkg() != nil && o.Parent() != o.Pkg().Scope() {
			return expandGenericAliases(types.Unalias(x))
		}
	case *types.Pointer:
		return types.NewPointer(expandGenericAliases(x.Elem()))
	case *types.Slice:
		return types.NewSlice(expandGenericAliases(x.Elem()))
	case *types.Array:
		return types.NewArray(expandGenericAliases(x.Elem()), x.Len())
	case *types.Map:
		return types.NewMap(expandGenericAliases(x.Key()), expandGenericAliases(x.Elem()))
	case *types.Chan:
		return types.NewChan(x.Dir(), expandGenericAliases(x.Elem()))
	}
	return t
}

// hasInvalid reports whether t mentions an invalid or untyped type.
func hasInvalid(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch x := t.(type) {
	case *types.Basic:
		return x.Kind() == types.Invalid || x.Info()&types.IsUntyped != 0
	case *types.Pointer:
		return hasInvalid(x.Elem(), seen)
	case *types.Slice:
		return hasInvalid(x.Elem(), seen)
	case *types.Array:
		return hasInvalid(x.Elem(), seen)
	case *types.Map:
		return hasInvalid(x.Key(), seen) || hasInvalid(x.Elem(), seen)
	case *types.Chan:
		return hasInvalid(x.Elem(), seen)
	case *types.Signature:
		for _, tu := range []*types.Tuple{x.Params(), x.Results()} {
			for i := range tu.Len() {
				if hasInvalid(tu.At(i).Type(), seen) {
					return true
				}
			}
		}
	case *types.Named:
		if args := x.TypeArgs(); args != nil {
			for i := range args.Len() {
				if hasInvalid(args.At(i), seen) {
					return true
				}
			}
		}
	}
	return false
}

// CellTypes lists the named types the cells declared, this one's included
// (the latest declaration of each name), sorted by name.
func (in *Info) CellTypes() []*types.TypeName {
	if in == nil {
		return nil
	}
	byName := map[string]*types.TypeName{}
	if in.session != nil {
		for name, obj := range in.session.objs {
			if tn, ok := obj.(*types.TypeName); ok {
				byName[name] = tn
			}
		}
	}
	for name, obj := range in.pending {
		if tn, ok := obj.(*types.TypeName); ok {
			byName[name] = tn
		} else {
			delete(byName, name)
		}
	}
	out := make([]*types.TypeName, 0, len(byName))
	for _, tn := range byName {
		out = append(out, tn)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// CellObject is what the cells declared last under name at top level
// (this one's included), or nil.
func (in *Info) CellObject(name string) types.Object {
	if in == nil {
		return nil
	}
	if obj, ok := in.pending[name]; ok {
		return obj
	}
	if in.session != nil {
		return in.session.objs[name]
	}
	return nil
}

// Import is the package at path as the oracle knows it, or nil.
func (in *Info) Import(path string) *types.Package {
	if in == nil || in.session == nil {
		return nil
	}
	p, err := in.session.u.Import(path)
	if err != nil {
		return nil
	}
	return p
}

// EarlierTypeParams maps the name of each type parameter of the generic
// functions and types earlier cells declared to the name of one such
// declaration (the first by name).
func (in *Info) EarlierTypeParams() map[string]string {
	out := map[string]string{}
	if in == nil || in.session == nil {
		return out
	}
	for name, obj := range in.session.objs {
		var tps *types.TypeParamList
		switch o := obj.(type) {
		case *types.Func:
			if sig, ok := o.Type().(*types.Signature); ok {
				tps = sig.TypeParams()
			}
		case *types.TypeName:
			if n, ok := o.Type().(*types.Named); ok {
				tps = n.TypeParams()
			}
		}
		for i := range tps.Len() {
			p := tps.At(i).Obj().Name()
			if old, ok := out[p]; !ok || name < old {
				out[p] = name
			}
		}
	}
	return out
}
