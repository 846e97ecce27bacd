package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// embedMethods: a cell struct type that embeds an interface (type Named
// struct{ games.Game; label string }) gets the methods promoted through
// that interface declared as methods of its own, which call the field:
//
//	func (_grundyR Named) Heaps() int { return _grundyR.Game.Heaps() }
//
// yaegi v0.16.1 builds the struct with reflect.StructOf, which gives an
// embedded interface's methods only stubs that panic ("reflect: StructOf
// does not support methods of embedded interfaces", reflect/type.go,
// embeddedIfaceMethStub), and its own method lookup for a conversion to an
// interface does not look into the embedded field (interp/run.go,
// genInterfaceWrapper: "method not found: Err"), so such a value put in
// an interface (solve.Values(Named{...}, 3), var g games.Game = n) failed
// at its first promoted method. Only the methods of the value's method set
// the cell does not declare are added (one the type declares on its
// pointer takes the name from the value's set, as in Go), so what the
// value does is Go's. A later cell declaring one of these methods
// replaces it, which rebuilds the session (see changesTypes; the values
// move when their interfaces hold native values: basedCellType). The methods
// promoted from an embedded native type, a struct (strings.Builder,
// sync.Mutex) or one on a basic type (time.Duration), are declared so
// too: yaegi calls them on the struct, but does not see them in a
// conversion to an interface ("cannot use type *main.Doc as type
// io.Writer", "method not found: String"); a direct call names the field
// instead (see promotedPaths). A generic type gets them too, declared
// with its type parameters (func (r *SafeMap[K, V]) Lock()): the engine
// keys each generic type's methods apart in yaegi's cache of instances
// (engine.keyGenericMethods), so two generic types embedding sync.Mutex
// do not share a Lock.
var embedMethods = Pass{
	Name:     "embedmethods",
	Run:      runEmbedMethods,
	Kinds:    []ast.Node{(*ast.StructType)(nil), (*ast.SelectorExpr)(nil)},
	Snippets: []string{"embedded_interface_converted", "embedded_native_struct_converted"},
}

func runEmbedMethods(c *Cell) {
	c.promotedPaths()
	c.declareMethods(true, func(ts *ast.TypeSpec) []ast.Decl {
		if _, ok := ts.Type.(*ast.StructType); !ok {
			return nil
		}
		return c.embedForwarders(ts)
	})
}

// declareMethods adds to the cell the methods decl declares for each of
// its types that can have methods of their own (not an alias: it has
// none of its own), generic ones when generic is true (decl then writes
// the receiver with its type parameters: see recvOf).
func (c *Cell) declareMethods(generic bool, decl func(ts *ast.TypeSpec) []ast.Decl) {
	if c.Decls == nil {
		return
	}
	var added []ast.Decl
	for _, d := range c.Decls.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, sp := range gd.Specs {
			if ts := sp.(*ast.TypeSpec); (generic || ts.TypeParams == nil) && !ts.Assign.IsValid() {
				added = append(added, decl(ts)...)
			}
		}
	}
	c.Decls.Decls = append(c.Decls.Decls, added...)
}

// embedForwarders declares the methods ts's value has through an embedded
// interface.
func (c *Cell) embedForwarders(ts *ast.TypeSpec) []ast.Decl {
	obj, ok := c.Types.Defs[ts.Name].(*types.TypeName)
	if !ok {
		return nil
	}
	named, ok := obj.Type().(*types.Named)
	if !ok {
		return nil
	}
	ms := types.NewMethodSet(named)
	var out []ast.Decl
	add := func(recv string, path []string, m *types.Func) bool {
		if slices.Contains(path, "") {
			return false // (a field yaegi gives no name: see embeddedLists)
		}
		src, ok := c.embedForwarder(recv, path, m)
		if !ok {
			return false
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+src, 0)
		if err != nil || len(f.Decls) != 1 {
			return false
		}
		out = append(out, AtPos(f.Decls[0], ts.Pos()))
		return true
	}
	forwarded := map[int]bool{} // a field embedding a native interface: all its methods forwarded
	for i := 0; i < ms.Len(); i++ {
		s := ms.At(i)
		path, ok := ifacePath(named, s.Index())
		if !ok {
			continue
		}
		done := add(recvOf(ts), path, s.Obj().(*types.Func))
		if first := s.Index()[0]; len(s.Index()) == 2 {
			if prev, seen := forwarded[first]; !seen || prev {
				forwarded[first] = done
			}
		}
	}
	c.nameNativeIfaceFields(ts, forwarded)
	// Methods promoted from an embedded native struct type
	// (strings.Builder, sync.Mutex): yaegi calls them on the struct, but does
	// not see them when the struct is converted to an interface ("cannot
	// use type *main.R as type io.Writer", or "method not found: Write").
	// Those of the pointer's method set only take a pointer receiver.
	ps := types.NewMethodSet(types.NewPointer(named))
	for i := 0; i < ps.Len(); i++ {
		s := ps.At(i)
		path, ok := nativePath(named, s.Index())
		if !ok {
			continue
		}
		recv := recvOf(ts)
		if ms.Lookup(s.Obj().Pkg(), s.Obj().Name()) == nil {
			recv = "*" + recv
		}
		add(recv, path, s.Obj().(*types.Func))
	}
	// Methods promoted from the cell's own struct types whose name yaegi
	// may find elsewhere first (see promotedPaths): its interface wrapper
	// and fmt would call the other.
	for i := 0; i < ps.Len(); i++ {
		s := ps.At(i)
		if len(s.Index()) < 2 || !yaegiPicks(named, s.Obj().Name(), s.Index(), true, true) {
			continue
		}
		if _, native := nativePath(named, s.Index()); native {
			continue
		}
		path, _, iface := embedPath(named, s.Index())
		if iface {
			continue
		}
		recv := recvOf(ts)
		if ms.Lookup(s.Obj().Pkg(), s.Obj().Name()) == nil {
			recv = "*" + recv
		}
		add(recv, path, s.Obj().(*types.Func))
	}
	return out
}

// nameNativeIfaceFields gives a name to each field of ts's struct that
// embeds a native interface whose promoted methods all have forwarders
// (forwarded, by field index): type Twice struct{ games.Game } is declared
// to yaegi as struct{ Game games.Game }. yaegi v0.16.1 makes the struct
// with reflect.StructOf, whose embedded interface promotes its methods as
// stubs that panic ("reflect: StructOf does not support methods of
// embedded interfaces", reflect/type.go, embeddedIfaceMethStub), and a
// method called through a cell's interface holding the value (var le
// Lener = rev{sort.IntSlice(xs)}; le.Len()), or such a value converted
// from a cell's interface to a native one, takes the reflect method before
// the forwarder (interp/run.go:1990, getMethodByName; :1103,
// genInterfaceWrapper). Not embedded, the field promotes nothing there,
// and the forwarders are what those find; the cell's code, checked as
// written, still selects the field by the same name, and fmt and json
// treat an embedded interface as a field of that name.
func (c *Cell) nameNativeIfaceFields(ts *ast.TypeSpec, forwarded map[int]bool) {
	st, ok := ts.Type.(*ast.StructType)
	if !ok {
		return
	}
	obj, ok := c.Types.Defs[ts.Name].(*types.TypeName)
	if !ok {
		return
	}
	under, ok := obj.Type().Underlying().(*types.Struct)
	if !ok {
		return
	}
	i := 0
	for _, f := range st.Fields.List {
		if len(f.Names) > 0 {
			i += len(f.Names)
			continue
		}
		if v := under.Field(i); forwarded[i] && v.Embedded() && (c.isNativeIface(v.Type()) || isError(v.Type())) && !listEmbedded(v) {
			f.Names = []*ast.Ident{ident(v.Name(), f.Type.Pos())}
		}
		i++
	}
}

// recvOf is the receiver type of a method declared on ts: its name, with
// its type parameters for a generic type (SafeMap[K, V]).
func recvOf(ts *ast.TypeSpec) string {
	if ts.TypeParams == nil {
		return ts.Name.Name
	}
	var names []string
	for _, f := range ts.TypeParams.List {
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
	}
	return ts.Name.Name + "[" + strings.Join(names, ", ") + "]"
}

// nativePath names the fields from t to the embedded native type (one of
// a package's, not the cell's; not an interface) a promoted method with
// this selection index is declared by; false when the method is not
// reached so (the cell's own, or one through an interface, see ifacePath).
func nativePath(t types.Type, index []int) ([]string, bool) {
	if len(index) < 2 {
		return nil, false
	}
	path, t, iface := embedPath(t, index)
	if iface {
		return nil, false
	}
	n, ok := types.Unalias(deref(t)).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() == "main" {
		return nil, false
	}
	if _, ok := n.Underlying().(*types.Interface); ok {
		return nil, false
	}
	return path, true
}

// ifacePath names the fields from t to the embedded interface a promoted
// method with this selection index is declared by; false when the method
// is not reached through an interface.
func ifacePath(t types.Type, index []int) ([]string, bool) {
	path, _, iface := embedPath(t, index)
	return path, iface
}

// embedPath names the embedded fields from t that lead to the method with
// this selection index, up to the first interface (iface true) or to the
// type declaring the method; last is the type of the last field named.
func embedPath(t types.Type, index []int) (path []string, last types.Type, iface bool) {
	for _, i := range index[:len(index)-1] {
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok {
			return nil, nil, false
		}
		f := st.Field(i)
		name := f.Name()
		if listEmbedded(f) {
			name = "" // (yaegi gives it no name: see embeddedLists)
		}
		path = append(path, name)
		t = f.Type()
		if types.IsInterface(t) {
			return path, t, true
		}
	}
	return path, t, false
}

// embedForwarder writes the method m of type recv calling it on the field at
// path.
func (c *Cell) embedForwarder(recv string, path []string, m *types.Func) (string, bool) {
	sig := m.Type().(*types.Signature)
	r := tempPrefix + "R"
	var params, args []string
	for i := 0; i < sig.Params().Len(); i++ {
		t := sig.Params().At(i).Type()
		name := tempPrefix + "A" + itoa(i)
		arg := name
		if sig.Variadic() && i == sig.Params().Len()-1 {
			t = t.(*types.Slice).Elem()
			s, ok := c.Types.TypeString(t)
			if !ok {
				return "", false
			}
			params = append(params, name+" ..."+s)
			args = append(args, arg+"...")
			continue
		}
		s, ok := c.Types.TypeString(t)
		if !ok {
			return "", false
		}
		params = append(params, name+" "+s)
		args = append(args, arg)
	}
	var results []string
	for i := 0; i < sig.Results().Len(); i++ {
		s, ok := c.Types.TypeString(sig.Results().At(i).Type())
		if !ok {
			return "", false
		}
		results = append(results, s)
	}
	call := r + "." + strings.Join(path, ".") + "." + m.Name() + "(" + strings.Join(args, ", ") + ")"
	body := call
	if len(results) > 0 {
		body = "return " + call
	}
	return "func (" + r + " " + recv + ") " + m.Name() + "(" + strings.Join(params, ", ") + ") (" +
		strings.Join(results, ", ") + ") { " + body + " }", true
}

// promotedPaths makes a selector of a field or method promoted through
// embedded fields name the fields it goes through (t.Y => t.Other.Y)
// where the interpreter would find another: yaegi v0.16.1 looks a name up
// depth first, in the order of the fields, and into fields that are not
// embedded too (interp/type.go:1726, lookupField; :1833, lookupMethod),
// where Go takes the shallowest embedded one, so t.Y of a struct{ B; C }
// with Y in B's embedded A and in C read A's, and t.X of a struct{ P
// Point; Inner } read t.P.X, silently. Only a selector where it would take
// another is written so (yaegiPicks). And a
// call or method value of a method promoted from an embedded native
// struct type (c.Lock(), c.Lock with c embedding sync.Mutex) names the
// field (c.Mutex.Lock()): through the method embedForwarders declares for
// conversions to interfaces, each native call would run an interpreted
// function too (a loop locking and unlocking a mutex ran seven times as
// long).
func (c *Cell) promotedPaths() {
	c.Apply(func(cur Cursor) bool {
		sel, ok := cur.Node().(*ast.SelectorExpr)
		if !ok {
			return true
		}
		s := c.Types.Selections[sel]
		if s == nil || len(s.Index()) < 2 || s.Kind() != types.MethodVal && s.Kind() != types.FieldVal {
			return true
		}
		if _, native := nativePath(s.Recv(), s.Index()); !native && (throughIface(s) || !yaegiPicks(s.Recv(), sel.Sel.Name, s.Index(), s.Kind() == types.MethodVal, false)) {
			return true
		}
		if x, _, ok := fieldPath(sel.X, s.Recv(), s.Index()[:len(s.Index())-1], sel.Sel.Pos()); ok {
			if s.Kind() == types.MethodVal {
				c.notePromoted(sel, s, len(s.Index())-1)
			}
			sel.X = x
		}
		return true
	})
}

// Promoted is a selector of a promoted method (w.M(), c.Lock) that a pass
// wrote through the embedded fields it is promoted by (w.I.M(),
// c.Mutex.Lock): Depth selectors were added to what the cell wrote, and
// Types are the cell's named types on the way, the receiver's first. A
// later cell declaring the method on one of them takes its place in Go;
// the engine then writes the selector as the cell did (see the
// session's rebuild), where the path would go on calling the embedded
// field's.
type Promoted struct {
	Depth  int
	Types  []string
	Method string
}

// notePromoted records sel, the selection s, as written through depth
// embedded fields (see Promoted).
func (c *Cell) notePromoted(sel *ast.SelectorExpr, s *types.Selection, depth int) {
	var names []string
	t := s.Recv()
	add := func(t types.Type) {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "main" {
			names = append(names, n.Obj().Name())
		}
	}
	add(t)
	for _, i := range s.Index()[:depth] {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			break
		}
		t = st.Field(i).Type()
		add(t)
	}
	if c.Promoted == nil {
		c.Promoted = map[*ast.SelectorExpr]Promoted{}
	}
	c.Promoted[sel] = Promoted{Depth: depth, Types: names, Method: s.Obj().Name()}
}

// Unpromote writes sel as the cell wrote it (see Promoted).
func Unpromote(sel *ast.SelectorExpr, p Promoted) {
	for range p.Depth {
		x, ok := sel.X.(*ast.SelectorExpr)
		if !ok {
			return
		}
		sel.X = x.X
	}
}

// throughIface reports whether the promoted method s is reached through
// an embedded interface (which embedForwarders declares methods for).
func throughIface(s *types.Selection) bool {
	_, _, iface := embedPath(s.Recv(), s.Index())
	return iface
}

// yaegiPicks reports whether yaegi v0.16.1 would take another field or
// method than Go's for the name of the selection with index path index
// (method tells a method's path, whose last index is the method's) on a
// value of type t (see promotedPaths): it looks for a field first, depth
// first through every struct field in order, and takes it unless a
// method is shallower (interp/cfg.go:1843); a method depth first through
// the embedded fields (interp/type.go:1833, lookupMethod), which is also
// what an interface wrapper calls (iface: no field is looked for).
func yaegiPicks(t types.Type, name string, index []int, method, iface bool) bool {
	m := yaegiMethodPath(t, name, map[types.Type]bool{})
	if !iface {
		// yaegi counts a field one level deeper than Go: a field reached
		// through one embedded struct and a method through two are a tie
		// there ("ambiguous selector").
		if f := yaegiFieldPath(t, name, map[types.Type]bool{}); f != nil && (m == nil || len(m) > len(f)) {
			return method || !slices.Equal(f, index)
		}
	}
	if !method {
		return true
	}
	return m == nil || !slices.Equal(m, index[:len(index)-1])
}

// yaegiFieldPath is the path to the field name yaegi's lookupField takes
// in t (see yaegiPicks), or nil; the cell's struct types only.
func yaegiFieldPath(t types.Type, name string, seen map[types.Type]bool) []int {
	st, ok := ownStruct(t)
	if !ok || seen[deref(t)] {
		return nil
	}
	seen[deref(t)] = true
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			return []int{i}
		}
	}
	for i := range st.NumFields() {
		if p := yaegiFieldPath(st.Field(i).Type(), name, seen); p != nil {
			return append([]int{i}, p...)
		}
	}
	return nil
}

// yaegiMethodPath is the path of embedded fields to the method name
// yaegi's lookupMethod takes in t (see yaegiPicks), or nil; the cell's
// named types only.
func yaegiMethodPath(t types.Type, name string, seen map[types.Type]bool) []int {
	t = deref(t)
	if seen[t] {
		return nil
	}
	seen[t] = true
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "main" {
		for i := range n.NumMethods() {
			if n.Method(i).Name() == name {
				return []int{}
			}
		}
		// A method promoted to it through an interface or a native
		// type is one of its own there: embedForwarders declares it.
		if s := types.NewMethodSet(types.NewPointer(n)).Lookup(n.Obj().Pkg(), name); s != nil && len(s.Index()) > 1 {
			if _, through := ifacePath(n, s.Index()); through {
				return []int{}
			}
			if _, native := nativePath(n, s.Index()); native {
				return []int{}
			}
		}
	}
	if it, ok := t.Underlying().(*types.Interface); ok {
		for i := range it.NumMethods() {
			if it.Method(i).Name() == name {
				return []int{} // (an embedded interface: yaegi finds its methods)
			}
		}
		return nil
	}
	st, ok := ownStruct(t)
	if !ok {
		return nil
	}
	for i := range st.NumFields() {
		if f := st.Field(i); f.Embedded() {
			if p := yaegiMethodPath(f.Type(), name, seen); p != nil {
				return append([]int{i}, p...)
			}
		}
	}
	return nil
}

// ownStruct is the struct type t (or what it points to) is, when the
// cell declares it or it is unnamed.
func ownStruct(t types.Type) (*types.Struct, bool) {
	t = deref(t)
	if n, ok := types.Unalias(t).(*types.Named); ok && (n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "main") {
		return nil, false
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}
