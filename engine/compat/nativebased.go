package compat

import (
	"go/ast"
	"go/types"
)

// nativeBased: a cell type declared on a named type of another package
// (type Dur time.Duration, type Row games.Pos) is declared on that type's
// underlying type instead (type Dur int64, type Row []int), which is the
// same type in Go: a defined type takes its underlying type, not its
// methods. yaegi v0.16.1 makes such a type's reflect type the native
// one's (interp/type.go, refType of a valueT), so a value of it put in an
// interface was a value of the native type: var s fmt.Stringer = Dur(5)
// printed "5ns" (time.Duration's String) where Go prints the cell's own
// String (a []fmt.Stringer, a map's values, the assertion x.(fmt.Stringer)
// of an any, a trailing value alike). Types declared in functions too.
// Struct and interface types are left as they are (their fields or
// methods may be unexported there: library-struct-types in the engine's
// KNOWN_FAILURES).
var nativeBased = Pass{
	Name:     "nativebased",
	Run:      runNativeBased,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil), (*ast.FuncDecl)(nil)},
	Snippets: []string{"type_on_native_named_type", "library_based_type_in_stringer", "library_struct_methods_refused"},
}

func runNativeBased(c *Cell) {
	refuseLibraryStructMethods(c)
	c.Apply(func(cur Cursor) bool {
		ts, ok := cur.Node().(*ast.TypeSpec)
		if !ok || ts.TypeParams != nil || ts.Assign.IsValid() {
			return true
		}
		on, ok := types.Unalias(c.Types.TypeOf(ts.Type)).(*types.Named)
		if !ok || on.Obj().Pkg() == nil || on.Obj().Pkg() == c.Types.Pkg || on.Obj().Pkg().Path() == "main" {
			return true
		}
		switch u := on.Underlying().(type) {
		case *types.Basic:
			if u.Kind() == types.UnsafePointer {
				return true
			}
		case *types.Slice, *types.Array, *types.Map, *types.Signature, *types.Chan, *types.Pointer:
		default:
			return true
		}
		if tx, ok := c.TypeExpr(on.Underlying(), ts.Type.Pos()); ok {
			ts.Type = tx
		}
		return true
	})
}

// refuseLibraryStructMethods refuses a method of a cell type declared on
// a library's struct type (type Stamp time.Time; func (s Stamp) String()),
// in the type's cell or a later one: such a type cannot be declared on
// its underlying type (the fields are another package's), and yaegi
// v0.16.1 gives it the library type's reflect type, so in a native
// interface its value was the library's, and its methods the library's
// (a Stamp in a fmt.Stringer printed by time.Time's String, silently) or
// a reflect panic ("reflect.Value.Set using value obtained using
// unexported field"). Such a type is known by its fields: a struct a cell
// declares has fields of package main.
func refuseLibraryStructMethods(c *Cell) {
	if c.Decls == nil {
		return
	}
	for _, d := range c.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
			continue
		}
		t := c.Types.TypeOf(fd.Recv.List[0].Type)
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || n.TypeParams().Len() > 0 {
			continue
		}
		st, ok := n.Underlying().(*types.Struct)
		if !ok || st.NumFields() == 0 {
			continue
		}
		pkg := st.Field(0).Pkg()
		if pkg == nil || pkg == c.Types.Pkg || pkg.Path() == "main" {
			continue
		}
		on := libraryStruct(pkg, st)
		if on == "" {
			continue
		}
		name := n.Obj().Name()
		c.Fail(fd.Name.Pos(), "method %s of %s, a type declared on %s: this interpreter keeps a %s in an interface as a %s, where its own methods would not run (%s's would, or reflect panics); declare %s as a struct holding the value (type %s struct{ %s }) and give that its methods",
			fd.Name.Name, name, on, name, on, on, name, name, on)
		return
	}
}

// libraryStruct names the type of package pkg whose underlying type is
// st (time.Time); "" if none.
func libraryStruct(pkg *types.Package, st *types.Struct) string {
	for _, name := range pkg.Scope().Names() {
		if tn, ok := pkg.Scope().Lookup(name).(*types.TypeName); ok && !tn.IsAlias() && types.Identical(tn.Type().Underlying(), st) {
			return pkg.Name() + "." + name
		}
	}
	return ""
}
