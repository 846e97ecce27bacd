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
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"type_on_native_named_type", "library_based_type_in_stringer"},
}

func runNativeBased(c *Cell) {
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
