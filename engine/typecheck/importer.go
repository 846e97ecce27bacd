package typecheck

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Table is one package's symbols as yaegi is given them (interp.Exports'
// values): functions and typed constants as values, variables as
// addressable values, types as typed nil pointers, untyped constants as
// constant.Value.
type Table = map[string]reflect.Value

// Universe turns symbol tables, keyed "importpath/name" as yaegi keys them,
// and packages given as Go source into go/types packages. It is safe for
// concurrent use and meant to be shared by every session of a process:
// the tables are the same native code for all of them, and a package once
// converted never changes.
type Universe struct {
	mu      sync.Mutex
	tables  map[string]tableRef // import path -> its table
	sources map[string][]string // import path -> Go source files
	generic map[string][]string // import path -> declarations a table lacks
	helpers map[string]string   // "path.Name" of a generic type among them -> the name cells' code uses for it
	pkgs    map[string]*types.Package
	done    map[string]bool  // scope filled (imported), not just referenced
	err     map[string]error // source packages that failed to type-check
	named   map[reflect.Type]types.Type
	sealed  map[string][]reflect.Type // see sealedIfaces
	fset    *token.FileSet
}

type tableRef struct {
	name string
	syms Table
}

// NewUniverse indexes tables (earlier maps win for a key present in
// several) and source packages (import path -> files), which win over
// tables: the engine gives yaegi its own source for generic packages.
func NewUniverse(sources map[string][]string, tables ...map[string]Table) *Universe {
	u := &Universe{
		tables:  map[string]tableRef{},
		sources: sources,
		pkgs:    map[string]*types.Package{},
		done:    map[string]bool{},
		err:     map[string]error{},
		named:   map[reflect.Type]types.Type{},
		fset:    token.NewFileSet(),
	}
	for _, t := range tables {
		for key, syms := range t {
			i := strings.LastIndexByte(key, '/')
			if i < 0 {
				continue
			}
			path, name := key[:i], key[i+1:]
			if _, ok := u.tables[path]; !ok {
				u.tables[path] = tableRef{name: name, syms: syms}
			}
		}
	}
	return u
}

// WithGeneric adds to the packages tables make the declarations of their
// generic API, which a table cannot hold (import path -> Go source files
// in the package's name, using its other names freely); it returns u, and
// is for before u's first import.
func (u *Universe) WithGeneric(generic map[string][]string) *Universe {
	u.generic = generic
	return u
}

// WithHelpers names what cells' code uses in place of generic types of
// native packages ("unique.Handle" -> "_grundyUniqueHandle"), for the
// types TypeString writes; it returns u.
func (u *Universe) WithHelpers(helpers map[string]string) *Universe {
	u.helpers = helpers
	return u
}

// Has reports whether path can be imported.
func (u *Universe) Has(path string) bool {
	if path == "unsafe" {
		return true
	}
	if _, ok := u.sources[path]; ok {
		return true
	}
	_, ok := u.tables[path]
	return ok
}

// Import returns the package at path with every symbol its table or
// source declares (types.Importer).
func (u *Universe) Import(path string) (*types.Package, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.importLocked(path)
}

func (u *Universe) importLocked(path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if u.done[path] {
		return u.pkgs[path], u.err[path]
	}
	if files, ok := u.sources[path]; ok {
		u.done[path] = true
		pkg, err := u.checkSource(path, files)
		u.pkgs[path], u.err[path] = pkg, err
		return pkg, err
	}
	ref, ok := u.tables[path]
	if !ok {
		return nil, fmt.Errorf("package %s is not available", path)
	}
	u.done[path] = true
	pkg := u.pkg(path, ref.name)
	names := make([]string, 0, len(ref.syms))
	for name := range ref.syms {
		names = append(names, name)
	}
	sort.Strings(names) // the same objects whatever the map order
	for _, name := range names {
		if strings.HasPrefix(name, "_") {
			continue // yaegi's interface wrappers
		}
		if obj := u.object(pkg, name, ref.syms[name]); obj != nil {
			pkg.Scope().Insert(obj)
		}
	}
	if srcs, ok := u.generic[path]; ok {
		files, err := u.parse(path, srcs)
		if err == nil {
			conf := types.Config{Importer: lockedImporter{u}}
			err = types.NewChecker(&conf, u.fset, pkg, nil).Files(files)
		}
		if err != nil {
			u.err[path] = err
			return pkg, err
		}
	}
	pkg.MarkComplete()
	return pkg, nil
}

// pkg is the package object for path, created empty on first reference:
// types of a package are met before (or without) its import.
func (u *Universe) pkg(path, name string) *types.Package {
	if p, ok := u.pkgs[path]; ok {
		return p
	}
	if name == "" {
		if ref, ok := u.tables[path]; ok {
			name = ref.name
		} else {
			name = ImportName(path)
		}
	}
	p := types.NewPackage(path, name)
	u.pkgs[path] = p
	return p
}

var constantValue = reflect.TypeFor[constant.Value]()

// object converts one table entry.
func (u *Universe) object(pkg *types.Package, name string, v reflect.Value) types.Object {
	if !v.IsValid() {
		return nil
	}
	t := v.Type()
	switch {
	case v.CanAddr():
		return types.NewVar(token.NoPos, pkg, name, u.typeOf(t))
	case t.Implements(constantValue) && (v.Kind() != reflect.Pointer || !v.IsNil()):
		cv := v.Interface().(constant.Value)
		t := untypedOf(cv)
		if cv.Kind() == constant.Int && runeConsts[pkg.Path()+"."+name] {
			t = types.Typ[types.UntypedRune]
		}
		return types.NewConst(token.NoPos, pkg, name, t, cv)
	case v.Kind() == reflect.Func:
		sig, _ := u.typeOf(t).(*types.Signature)
		if sig == nil {
			return nil
		}
		return types.NewFunc(token.NoPos, pkg, name, sig)
	case v.Kind() == reflect.Pointer && v.IsNil():
		typ := u.typeOf(t.Elem())
		if n, ok := typ.(*types.Named); ok && n.Obj().Pkg() == pkg && n.Obj().Name() == name {
			return n.Obj()
		}
		return types.NewTypeName(token.NoPos, pkg, name, typ) // an alias
	}
	if cv, ok := constantOf(v); ok {
		return types.NewConst(token.NoPos, pkg, name, u.typeOf(t), cv)
	}
	return types.NewVar(token.NoPos, pkg, name, u.typeOf(t))
}

// runeConsts are the standard library's untyped rune constants (the Go
// toolchain's api files call their type ideal-char): a table holds them
// as a constant.Value of kind Int, which would make them untyped ints
// (x := utf8.RuneError an int, not a rune). TestRuneConsts checks the
// list against the api files.
var runeConsts = map[string]bool{
	"archive/tar.TypeBlock": true, "archive/tar.TypeChar": true, "archive/tar.TypeCont": true,
	"archive/tar.TypeDir": true, "archive/tar.TypeFifo": true, "archive/tar.TypeGNULongLink": true,
	"archive/tar.TypeGNULongName": true, "archive/tar.TypeGNUSparse": true, "archive/tar.TypeLink": true,
	"archive/tar.TypeReg": true, "archive/tar.TypeRegA": true, "archive/tar.TypeSymlink": true,
	"archive/tar.TypeXGlobalHeader": true, "archive/tar.TypeXHeader": true,
	"math/big.MaxBase":     true,
	"os.PathListSeparator": true, "os.PathSeparator": true,
	"path/filepath.ListSeparator": true, "path/filepath.Separator": true,
	"text/tabwriter.Escape": true,
	"unicode.MaxASCII":      true, "unicode.MaxLatin1": true, "unicode.MaxRune": true,
	"unicode.ReplacementChar": true, "unicode.UpperLower": true,
	"unicode/utf8.MaxRune": true, "unicode/utf8.RuneError": true,
}

func untypedOf(cv constant.Value) types.Type {
	switch cv.Kind() {
	case constant.Bool:
		return types.Typ[types.UntypedBool]
	case constant.String:
		return types.Typ[types.UntypedString]
	case constant.Float:
		return types.Typ[types.UntypedFloat]
	case constant.Complex:
		return types.Typ[types.UntypedComplex]
	}
	return types.Typ[types.UntypedInt]
}

// constantOf is the value of a typed constant (time.Hour).
func constantOf(v reflect.Value) (constant.Value, bool) {
	switch {
	case v.CanInt():
		return constant.MakeInt64(v.Int()), true
	case v.CanUint():
		return constant.MakeUint64(v.Uint()), true
	case v.CanFloat():
		return constant.MakeFloat64(v.Float()), true
	case v.Kind() == reflect.String:
		return constant.MakeString(v.String()), true
	case v.Kind() == reflect.Bool:
		return constant.MakeBool(v.Bool()), true
	case v.CanComplex():
		c := v.Complex()
		return constant.BinaryOp(constant.MakeFloat64(real(c)), token.ADD, constant.MakeImag(constant.MakeFloat64(imag(c)))), true
	}
	return nil, false
}

var basics = map[reflect.Kind]types.BasicKind{
	reflect.Bool: types.Bool, reflect.Int: types.Int, reflect.Int8: types.Int8, reflect.Int16: types.Int16,
	reflect.Int32: types.Int32, reflect.Int64: types.Int64, reflect.Uint: types.Uint, reflect.Uint8: types.Uint8,
	reflect.Uint16: types.Uint16, reflect.Uint32: types.Uint32, reflect.Uint64: types.Uint64,
	reflect.Uintptr: types.Uintptr, reflect.Float32: types.Float32, reflect.Float64: types.Float64,
	reflect.Complex64: types.Complex64, reflect.Complex128: types.Complex128, reflect.String: types.String,
	reflect.UnsafePointer: types.UnsafePointer,
}

var errorType = reflect.TypeFor[error]()

// typeOf converts a reflect type; named types once each, with their
// exported methods.
func (u *Universe) typeOf(t reflect.Type) types.Type {
	if t == errorType {
		return types.Universe.Lookup("error").Type()
	}
	if t.Name() != "" && t.PkgPath() == "" {
		if k, ok := basics[t.Kind()]; ok {
			return types.Typ[k]
		}
	}
	if nt, ok := u.named[t]; ok {
		return nt
	}
	if t.Name() == "" {
		return u.structure(t, nil)
	}
	if inst := u.sourceInstance(t); inst != nil {
		u.named[t] = inst
		return inst
	}
	pkg := u.pkg(t.PkgPath(), "")
	obj := types.NewTypeName(token.NoPos, pkg, t.Name(), nil)
	named := types.NewNamed(obj, nil, nil)
	u.named[t] = named
	named.SetUnderlying(u.structure(t, pkg).Underlying())
	if t.Kind() == reflect.Interface {
		return named
	}
	have := map[string]bool{}
	for i := range t.NumMethod() {
		m := t.Method(i)
		have[m.Name] = true
		named.AddMethod(u.method(pkg, named, m))
	}
	pt := reflect.PointerTo(t)
	for i := range pt.NumMethod() {
		if m := pt.Method(i); !have[m.Name] {
			named.AddMethod(u.method(pkg, types.NewPointer(named), m))
		}
	}
	u.unexportedMethods(pkg, named, t, have)
	return named
}

// unexportedMethods adds to named, the native type t, the unexported
// methods by which it implements an interface of its package that has
// some (ast.Expr's exprNode, types.Object's order): reflect lists a
// concrete type's exported methods only, so without them the oracle said
// *ast.CallExpr does not implement ast.Expr, and e.(*ast.CallExpr) was an
// impossible assertion. reflect's Implements knows them.
func (u *Universe) unexportedMethods(pkg *types.Package, named *types.Named, t reflect.Type, have map[string]bool) {
	for _, it := range u.sealedIfaces(t.PkgPath()) {
		var recv types.Type
		switch {
		case t.Implements(it):
			recv = named
		case reflect.PointerTo(t).Implements(it):
			recv = types.NewPointer(named)
		default:
			continue
		}
		for i := range it.NumMethod() {
			m := it.Method(i)
			if m.PkgPath == "" || have[m.Name] {
				continue
			}
			have[m.Name] = true
			sig, _ := u.structure(m.Type, pkg).(*types.Signature)
			if sig == nil {
				continue
			}
			sig = types.NewSignatureType(types.NewParam(token.NoPos, pkg, "", recv), nil, nil, sig.Params(), sig.Results(), sig.Variadic())
			named.AddMethod(types.NewFunc(token.NoPos, pkg, m.Name, sig))
		}
	}
}

// sealedIfaces are the interface types of the package at path (its
// table's) with unexported methods.
func (u *Universe) sealedIfaces(path string) []reflect.Type {
	if out, ok := u.sealed[path]; ok {
		return out
	}
	var out []reflect.Type
	for _, v := range u.tables[path].syms {
		if !v.IsValid() || v.Kind() != reflect.Pointer || !v.IsNil() || v.Type().Elem().Kind() != reflect.Interface {
			continue
		}
		it := v.Type().Elem()
		for i := range it.NumMethod() {
			if it.Method(i).PkgPath != "" {
				out = append(out, it)
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	if u.sealed == nil {
		u.sealed = map[string][]reflect.Type{}
	}
	u.sealed[path] = out
	return out
}

// sourceInstance is t, an instance of a generic type of a package the
// universe has as source (iter.Seq[string], the result of the native
// strings.SplitSeq), as that package's generic type instantiated: the
// same type the engine's iter functions take. nil for other types.
func (u *Universe) sourceInstance(t reflect.Type) types.Type {
	i := strings.IndexByte(t.Name(), '[')
	if _, ok := u.sources[t.PkgPath()]; !ok || i < 0 {
		return nil
	}
	pkg, err := u.importLocked(t.PkgPath())
	if err != nil || pkg == nil {
		return nil
	}
	tn, ok := pkg.Scope().Lookup(t.Name()[:i]).(*types.TypeName)
	if !ok {
		return nil
	}
	gen, ok := tn.Type().(*types.Named)
	if !ok || gen.TypeParams().Len() == 0 {
		return nil
	}
	bound := map[*types.TypeParam]types.Type{}
	if !bindParams(gen.Underlying(), u.structure(t, nil).Underlying(), bound) {
		return nil
	}
	args := make([]types.Type, gen.TypeParams().Len())
	for i := range args {
		if args[i] = bound[gen.TypeParams().At(i)]; args[i] == nil {
			return nil
		}
	}
	inst, err := types.Instantiate(nil, gen, args, true)
	if err != nil {
		return nil
	}
	return inst
}

// bindParams matches the type pattern, which mentions type parameters,
// against t, binding each parameter to what it stands for in t.
func bindParams(pattern, t types.Type, bound map[*types.TypeParam]types.Type) bool {
	switch p := pattern.(type) {
	case *types.TypeParam:
		if b, ok := bound[p]; ok {
			return types.Identical(b, t)
		}
		bound[p] = t
		return true
	case *types.Signature:
		s, ok := t.(*types.Signature)
		if !ok || s.Variadic() != p.Variadic() || s.Params().Len() != p.Params().Len() || s.Results().Len() != p.Results().Len() {
			return false
		}
		for i := range p.Params().Len() {
			if !bindParams(p.Params().At(i).Type(), s.Params().At(i).Type(), bound) {
				return false
			}
		}
		for i := range p.Results().Len() {
			if !bindParams(p.Results().At(i).Type(), s.Results().At(i).Type(), bound) {
				return false
			}
		}
		return true
	case *types.Slice:
		s, ok := t.(*types.Slice)
		return ok && bindParams(p.Elem(), s.Elem(), bound)
	case *types.Pointer:
		s, ok := t.(*types.Pointer)
		return ok && bindParams(p.Elem(), s.Elem(), bound)
	case *types.Array:
		s, ok := t.(*types.Array)
		return ok && s.Len() == p.Len() && bindParams(p.Elem(), s.Elem(), bound)
	case *types.Map:
		s, ok := t.(*types.Map)
		return ok && bindParams(p.Key(), s.Key(), bound) && bindParams(p.Elem(), s.Elem(), bound)
	case *types.Chan:
		s, ok := t.(*types.Chan)
		return ok && s.Dir() == p.Dir() && bindParams(p.Elem(), s.Elem(), bound)
	}
	return types.Identical(pattern, t)
}

// method converts a method of a named type (reflect's type has the
// receiver first).
func (u *Universe) method(pkg *types.Package, recv types.Type, m reflect.Method) *types.Func {
	mt := m.Type
	params := make([]*types.Var, 0, mt.NumIn())
	for i := 1; i < mt.NumIn(); i++ {
		params = append(params, types.NewParam(token.NoPos, pkg, "", u.typeOf(mt.In(i))))
	}
	sig := types.NewSignatureType(types.NewParam(token.NoPos, pkg, "", recv), nil, nil,
		types.NewTuple(params...), u.results(mt, pkg), mt.IsVariadic())
	return types.NewFunc(token.NoPos, pkg, m.Name, sig)
}

func (u *Universe) results(t reflect.Type, pkg *types.Package) *types.Tuple {
	out := make([]*types.Var, t.NumOut())
	for i := range out {
		out[i] = types.NewParam(token.NoPos, pkg, "", u.typeOf(t.Out(i)))
	}
	return types.NewTuple(out...)
}

// structure converts the form of t, ignoring its name; pkg owns the
// fields and interface methods of a named type's underlying type.
func (u *Universe) structure(t reflect.Type, pkg *types.Package) types.Type {
	switch t.Kind() {
	case reflect.Pointer:
		return types.NewPointer(u.typeOf(t.Elem()))
	case reflect.Slice:
		return types.NewSlice(u.typeOf(t.Elem()))
	case reflect.Array:
		return types.NewArray(u.typeOf(t.Elem()), int64(t.Len()))
	case reflect.Map:
		return types.NewMap(u.typeOf(t.Key()), u.typeOf(t.Elem()))
	case reflect.Chan:
		dir := types.SendRecv
		switch t.ChanDir() {
		case reflect.SendDir:
			dir = types.SendOnly
		case reflect.RecvDir:
			dir = types.RecvOnly
		}
		return types.NewChan(dir, u.typeOf(t.Elem()))
	case reflect.Func:
		params := make([]*types.Var, t.NumIn())
		for i := range params {
			params[i] = types.NewParam(token.NoPos, pkg, "", u.typeOf(t.In(i)))
		}
		return types.NewSignatureType(nil, nil, nil, types.NewTuple(params...), u.results(t, pkg), t.IsVariadic())
	case reflect.Struct:
		fields := make([]*types.Var, t.NumField())
		tags := make([]string, t.NumField())
		for i := range fields {
			f := t.Field(i)
			fp := pkg
			if f.PkgPath != "" {
				fp = u.pkg(f.PkgPath, "")
			}
			fields[i] = types.NewField(token.NoPos, fp, f.Name, u.typeOf(f.Type), f.Anonymous)
			tags[i] = string(f.Tag)
		}
		return types.NewStruct(fields, tags)
	case reflect.Interface:
		methods := make([]*types.Func, t.NumMethod())
		for i := range methods {
			m := t.Method(i)
			mp := pkg
			if m.PkgPath != "" {
				mp = u.pkg(m.PkgPath, "")
			}
			sig, _ := u.structure(m.Type, mp).(*types.Signature)
			methods[i] = types.NewFunc(token.NoPos, mp, m.Name, sig)
		}
		return types.NewInterfaceType(methods, nil).Complete()
	}
	if k, ok := basics[t.Kind()]; ok {
		return types.Typ[k]
	}
	return types.Typ[types.Invalid]
}

// checkSource type-checks a package given as source, importing through u.
func (u *Universe) checkSource(path string, srcs []string) (*types.Package, error) {
	files, err := u.parse(path, srcs)
	if err != nil {
		return nil, err
	}
	conf := types.Config{Importer: lockedImporter{u}}
	return conf.Check(path, u.fset, files, nil)
}

// parse parses the source files of the package at path.
func (u *Universe) parse(path string, srcs []string) ([]*ast.File, error) {
	var files []*ast.File
	for i, src := range srcs {
		f, err := parser.ParseFile(u.fset, fmt.Sprintf("%s/%d.go", path, i), src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// lockedImporter imports for a check that runs with u.mu held.
type lockedImporter struct{ u *Universe }

func (l lockedImporter) Import(path string) (*types.Package, error) { return l.u.importLocked(path) }

var majorVersion = regexp.MustCompile(`^v[0-9]+$`)

// ImportName is the name an import of path declares: its last element,
// or the one before a major version (math/rand/v2 is rand).
func ImportName(path string) string {
	name := path[strings.LastIndexByte(path, '/')+1:]
	if majorVersion.MatchString(name) && name != path {
		path = strings.TrimSuffix(path, "/"+name)
		name = path[strings.LastIndexByte(path, '/')+1:]
	}
	return name
}
