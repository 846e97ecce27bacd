package compat

import (
	"go/ast"
	"sort"
	"strings"
)

// selfGenerics: generic types of a cell that refer to themselves other
// than through one type argument: type node[K, V any] struct{ left
// *node[K, V] } (the generic tree map), or A[K] holding a *B[K] that
// holds an *A[K]. yaegi v0.16.1 instantiates a generic type by generating
// its declaration anew and typing it; only a reference to the type itself
// with a single argument is caught as recursive (interp/generic.go:47,
// genAST's indexExpr case), so any other cycle instantiated again without
// end, and the engine process died of a stack overflow that named no
// line of the cell. Refused at the declaration, with the shape that runs:
// one type parameter for the type that refers to itself, the other
// values kept as any (nested instances, node[entry[K, V]], do not compile
// in a generic method either).
var selfGenerics = Pass{
	Name:     "selfgenerics",
	Run:      runSelfGenerics,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"recursive_generic_pair_refused"},
}

func runSelfGenerics(c *Cell) {
	if c.Decls == nil {
		return
	}
	generic := map[string]*ast.TypeSpec{}
	var names []string
	for _, d := range c.Decls.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, sp := range gd.Specs {
			if ts, ok := sp.(*ast.TypeSpec); ok && ts.TypeParams != nil {
				generic[ts.Name.Name] = ts
				names = append(names, ts.Name.Name)
			}
		}
	}
	if len(generic) == 0 {
		return
	}
	// refs are the instances of the cell's generic types a type
	// expression names: name and the instantiation.
	type ref struct {
		name string
		at   ast.Expr
		args int
	}
	refs := func(ts *ast.TypeSpec) []ref {
		var out []ref
		ast.Inspect(ts.Type, func(n ast.Node) bool {
			var x ast.Expr
			args := 0
			switch n := n.(type) {
			case *ast.IndexExpr:
				x, args = n.X, 1
			case *ast.IndexListExpr:
				x, args = n.X, len(n.Indices)
			default:
				return true
			}
			if id, ok := x.(*ast.Ident); ok && generic[id.Name] != nil {
				out = append(out, ref{id.Name, n.(ast.Expr), args})
			}
			return true
		})
		return out
	}
	sort.Strings(names)
	for _, name := range names {
		ts := generic[name]
		// A path from the type back to itself: refused unless it is the
		// type naming itself with one argument.
		path := map[string]string{} // type reached -> the one it was reached from
		queue := []string{name}
		for len(queue) > 0 && c.err == nil {
			at := queue[0]
			queue = queue[1:]
			for _, r := range refs(generic[at]) {
				if r.name == name && !(at == name && r.args == 1) {
					via := ExprString(r.at)
					if at != name {
						chain := []string{name}
						for t := at; t != name; t = path[t] {
							chain = append([]string{t}, chain...)
						}
						via = name + " → " + strings.Join(chain, " → ")
					}
					c.Fail(ts.Name.Pos(), "type %s refers to itself through %s, which makes this interpreter instantiate it without end (only a type naming itself with one type argument works); give the type that refers to itself one type parameter, and keep the other values as any: type node[K cmp.Ordered] struct{ k K; v any; left, right *node[K] }", name, via)
					return
				}
				if _, seen := path[r.name]; !seen && r.name != name {
					path[r.name] = at
					queue = append(queue, r.name)
				}
			}
		}
	}
}
