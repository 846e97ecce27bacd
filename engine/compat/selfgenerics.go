package compat

import (
	"fmt"
	"go/ast"
	"go/parser"
	"sort"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// selfGenerics: generic types of a cell that refer to themselves other
// than through one type argument: type node[K, V any] struct{ left
// *node[K, V] } (the generic tree map), or A[K] holding a *B[K] that
// holds an *A[K]. yaegi v0.16.1 instantiates a generic type by generating
// its declaration anew and typing it; only a reference to the type itself
// with a single argument is caught as recursive (interp/generic.go:47,
// genAST's indexExpr case), so any other cycle instantiated again without
// end, and the engine process died of a stack overflow that named no
// line of the cell. Refused at the declaration, with the shape that runs
// written out for the user's own type: one type parameter for the type
// that refers to itself, the other values kept as any (nested instances,
// node[entry[K, V]], do not compile in a generic method either); for a
// cycle through other generic types, the field that closes it kept as
// any (yaegi's single-argument check runs on a rewrite of the same
// declaration with node[K] for node[K, V], but the instances it builds
// then differ by reflect type: assignments panic in reflect.Set).
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
					if at == name {
						c.Fail(ts.Name.Pos(), "type %s refers to itself through %s, which makes this interpreter instantiate it without end (only a type naming itself with one type argument works); give it one type parameter, and keep the other values as any: %s", name, ExprString(r.at), oneParam(ts))
						return
					}
					chain := []string{name}
					for t := at; t != name; t = path[t] {
						chain = append([]string{t}, chain...)
					}
					via := name + " → " + strings.Join(chain, " → ")
					c.Fail(ts.Name.Pos(), "type %s refers to itself through %s, which makes this interpreter instantiate it without end (only a type naming itself with one type argument works); break the cycle: %s", name, via, cycleBreak(generic[at], r.at))
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

// oneParam writes ts as the declaration that runs: its first type
// parameter only, the others' values kept as any, and the type's
// references to itself with that one argument (type node[K cmp.Ordered]
// struct{ k K; v any; left, right *node[K] }), on one line.
func oneParam(ts *ast.TypeSpec) string {
	first := ts.TypeParams.List[0]
	kept := first.Names[0].Name
	dropped := map[string]bool{}
	for _, f := range ts.TypeParams.List {
		for _, n := range f.Names {
			if n.Name != kept {
				dropped[n.Name] = true
			}
		}
	}
	// A copy to rewrite: the cell's own tree stays as it is.
	e, err := parser.ParseExpr(ExprString(ts.Type))
	if err != nil {
		return "type node[K cmp.Ordered] struct{ k K; v any; left, right *node[K] }"
	}
	e = astutil.Apply(e, nil, func(cur *astutil.Cursor) bool {
		switch x := cur.Node().(type) {
		case *ast.Ident:
			_, field := cur.Parent().(*ast.Field)
			_, sel := cur.Parent().(*ast.SelectorExpr)
			if dropped[x.Name] && !(field && cur.Name() == "Names") && !sel {
				cur.Replace(ast.NewIdent("any"))
			}
		case *ast.IndexListExpr:
			if isIdent(x.X, ts.Name.Name) {
				cur.Replace(&ast.IndexExpr{X: x.X, Index: ast.NewIdent(kept)})
			}
		}
		return true
	}).(ast.Expr)
	decl := fmt.Sprintf("type %s[%s %s] %s", ts.Name.Name, kept, ExprString(first.Type), oneLine(e))
	if st, ok := ts.Type.(*ast.StructType); ok {
		for _, f := range st.Fields.List {
			if id, ok := f.Type.(*ast.Ident); ok && dropped[id.Name] && len(f.Names) > 0 {
				return fmt.Sprintf("%s, and assert them where they are read (x.%s.(%s))", decl, f.Names[0].Name, id.Name)
			}
		}
	}
	return decl
}

// oneLine writes a type expression on one line (the printer writes a
// struct's fields on lines of their own).
func oneLine(e ast.Expr) string {
	st, ok := e.(*ast.StructType)
	if !ok {
		return ExprString(e)
	}
	var fields []string
	for _, f := range st.Fields.List {
		var names []string
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
		if len(names) == 0 {
			fields = append(fields, oneLine(f.Type))
			continue
		}
		fields = append(fields, strings.Join(names, ", ")+" "+oneLine(f.Type))
	}
	return "struct{ " + strings.Join(fields, "; ") + " }"
}

// cycleBreak says which reference to keep as any so that the cycle of
// generic types that ref closes (A[K] holding *B[K] holding *A[K]) is
// broken: the field of from that holds ref, asserted back where it is
// read.
func cycleBreak(from *ast.TypeSpec, ref ast.Expr) string {
	if st, ok := from.Type.(*ast.StructType); ok {
		for _, f := range st.Fields.List {
			if len(f.Names) == 0 || !contains(f.Type, false, func(n ast.Node) bool { return n == ref }) {
				continue
			}
			n := f.Names[0].Name
			return fmt.Sprintf("declare the field %s of %s as any (%s any), and assert it where it is read (x.%s.(%s))", n, from.Name.Name, n, n, ExprString(f.Type))
		}
	}
	return fmt.Sprintf("keep %s's reference to %s as any, and assert it where it is read", from.Name.Name, ExprString(ref))
}
