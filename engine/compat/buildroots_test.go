package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"
)

// BuildRoots names, for each group of structs that refer to each other,
// the one struct every cycle passes through and none holds by value.
func TestBuildRoots(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"type List struct{ head *Node }; type Node struct{ next *Node; list *List }", []string{"Node"}},
		{"type Graph struct{ nodes []*Node }; type Node struct{ g *Graph; edges []*Node }", []string{"Node"}},
		{"type Kids struct{ xs []*Tree }; type Tree struct{ kids Kids }", []string{"Tree"}},
		{"type A struct{ b *B }; type B struct{ a *A }", []string{"A"}},
		{"type Edge struct{ To *Node; W int }; type Node struct{ Edges []Edge }", []string{"Node"}},
		{"type Dir struct{ Files []File }; type File struct{ Parent *Dir }", []string{"Dir"}},
		{"type Node struct{ next *Node }; type Plain struct{ n int }", nil},
		// No struct lies on every cycle: left to the interpreter.
		{"type G struct{ parent *G; ms []*M }; type M struct{ next *M; g *G }", nil},
		// Groups referred to come first.
		{"type Outer struct{ self *Outer; l *List }; type List struct{ head *Node }; type Node struct{ next *Node; list *List }", []string{"Node"}},
		{"type X struct{ y *Y; self []*X }; type Y struct{ x *X; l *List }; type List struct{ head *Node }; type Node struct{ next *Node; list *List }", []string{"Node", "X"}},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", "package main\n"+c.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := (&types.Config{}).Check("main", fset, []*ast.File{f}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ts []*types.Named
		for _, name := range pkg.Scope().Names() {
			ts = append(ts, pkg.Scope().Lookup(name).Type().(*types.Named))
		}
		var got []string
		for _, r := range BuildRoots(ts) {
			got = append(got, r.Obj().Name())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: roots %v, want %v", c.src, got, c.want)
		}
	}
}
