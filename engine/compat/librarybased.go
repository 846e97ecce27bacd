package compat

import (
	"go/ast"
	"go/types"
)

// libraryBased: a type a cell declares on a library's named type whose
// underlying type is basic (type Dur time.Duration, type Day
// time.Weekday) is declared on that basic type instead (type Dur int64).
// In Go the two are one type: its underlying type is int64 either way,
// and it has none of time.Duration's methods. yaegi v0.16.1 gives it the
// library type's reflect type, so a value of it converted to an interface
// the library type implements was the library's value there, without the
// wrapper that carries the cell's methods: a Dur with its own String in a
// fmt.Stringer (a variable, a []fmt.Stringer, a map's values, the
// assertion x.(fmt.Stringer) of an any) called time.Duration's String (3s
// where Dur's said 3.0s), and a trailing Dur showed by it. Declared on
// int64, the type is the interpreter's own, as type Dur int64 is.
var libraryBased = Pass{
	Name:     "librarybased",
	Run:      runLibraryBased,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"library_based_type_in_stringer"},
}

func runLibraryBased(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		ts, ok := cur.Node().(*ast.TypeSpec)
		if !ok || ts.Assign.IsValid() || ts.TypeParams != nil {
			return true
		}
		n, ok := types.Unalias(c.Types.TypeOf(ts.Type)).(*types.Named)
		if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() == "main" {
			return true
		}
		b, ok := n.Underlying().(*types.Basic)
		if !ok || b.Kind() == types.UnsafePointer {
			return true
		}
		ts.Type = ident(b.Name(), ts.Type.Pos())
		return true
	})
}
