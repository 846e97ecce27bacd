package compat

import (
	"go/ast"
	"go/types"
	"strings"
)

// basicGenerics: a generic type declared on a basic type (type ModInt[M
// Modulus] uint64, type F[T any] int). yaegi v0.16.1 makes each instance
// of it the basic type itself, with the methods of the first instance
// made: a String method of F[string] was then called for every int the
// session printed (fmt.Println(3, len(s)) printed "F F"), ModInt[P7]'s
// methods computed with the first instance's modulus (Pow gave 729 where
// Go gives 1), and F[int](3) in an any was an int (x.(int) true),
// silently. Refused at the declaration, with the struct that runs: type
// F[T any] struct{ V int }. (A generic type on an array, a slice, a map,
// a function or a struct keeps its instances apart.)
var basicGenerics = Pass{
	Name:     "basicgenerics",
	Run:      runBasicGenerics,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"generic_basic_type_refused"},
}

func runBasicGenerics(c *Cell) {
	if c.Decls == nil {
		return
	}
	for _, d := range c.Decls.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range gd.Specs {
			ts, ok := s.(*ast.TypeSpec)
			if !ok || ts.TypeParams == nil || ts.Assign.IsValid() {
				continue
			}
			tn, ok := c.Types.Defs[ts.Name].(*types.TypeName)
			if !ok {
				continue
			}
			b, ok := tn.Type().Underlying().(*types.Basic)
			if !ok {
				continue
			}
			var params []string
			for _, f := range ts.TypeParams.List {
				var names []string
				for _, n := range f.Names {
					names = append(names, n.Name)
				}
				params = append(params, strings.Join(names, ", ")+" "+ExprString(f.Type))
			}
			decl := ts.Name.Name + "[" + strings.Join(params, ", ") + "]"
			c.Fail(ts.Name.Pos(), "type %s %s: this interpreter makes each instance of a generic type on a basic type the %s type itself (%s's methods would be called for every %s, and each instance would use the first one's type arguments); declare it as a struct: type %s struct{ V %s }",
				decl, b.Name(), b.Name(), ts.Name.Name, b.Name(), decl, b.Name())
			return
		}
	}
}
