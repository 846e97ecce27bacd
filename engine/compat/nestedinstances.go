package compat

import (
	"go/ast"
	"go/types"
	"strings"
)

// nestedInstances: in a method of a generic type, an instance of a
// generic type with the method's type parameters among the type
// arguments of another (List[Pair[K, V]]). yaegi v0.16.1 names such an
// instance by its argument's type, which it has not worked out for an
// argument that is itself an instantiation with two or more arguments
// (interp/cfg.go:968, n.child[1].typ is nil): a nil dereference, "cannot
// compile this". Outside methods it is written as an alias (instanceArgs)
// or, in a generic function, the function is called as a copy with its
// type arguments written in (nestsInstances); a method is compiled with
// its type, so it is refused, with the shape that runs: a generic type
// that holds the inner instance, its parameters its own. A pointer to
// such an instance in a generic signature (f *Stack[*Tree[T]]) is refused
// too: yaegi cannot even declare it (see refuseNestedPointer).
var nestedInstances = Pass{
	Name:     "nestedinstances",
	Run:      runNestedInstances,
	Kinds:    []ast.Node{(*ast.IndexListExpr)(nil), (*ast.IndexExpr)(nil)},
	Snippets: []string{"generics_nested_instance_in_method", "generics_nested_pointer_in_signature"},
}

func runNestedInstances(c *Cell) {
	if c.Decls == nil {
		return
	}
	for _, d := range c.Decls.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && c.refuseNestedPointer(fd) {
			return
		}
	}
	for _, d := range c.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || !genericMethod(fd) {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if c.err != nil {
				return false
			}
			for _, a := range indexArgs(n) {
				inner, ok := a.(*ast.IndexListExpr)
				if !ok {
					continue
				}
				if t := c.Types.TypeOf(inner); t != nil && hasTypeParam(t) {
					c.refuseNested(n.(ast.Expr), inner, fd)
					return false
				}
			}
			return true
		})
	}
}

// refuseNested refuses outer, which has inner among its type arguments,
// in the method fd.
func (c *Cell) refuseNested(outer ast.Expr, inner *ast.IndexListExpr, fd *ast.FuncDecl) {
	holder := holderName(inner.X, "s")
	var params, args []string
	seen := map[string]bool{}
	ast.Inspect(inner, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || seen[id.Name] {
			return true
		}
		if tn, ok := c.Types.ObjectOf(id).(*types.TypeName); ok {
			if tp, ok := tn.Type().(*types.TypeParam); ok {
				seen[id.Name] = true
				cons, _ := c.Types.TypeString(tp.Constraint())
				params = append(params, id.Name+" "+cons)
				args = append(args, id.Name)
			}
		}
		return true
	})
	c.Fail(outer.Pos(), "%s in the method %s of a generic type: this interpreter cannot compile an instance with the method's type parameters among another's type arguments; declare a generic type that holds it (type %s[%s] struct{ xs []%s }) and use %s[%s]",
		ExprString(outer), fd.Name.Name, holder, strings.Join(params, ", "), ExprString(inner), holder, strings.Join(args, ", "))
}

// refuseNestedPointer refuses fd, a generic function or a method of a
// generic type, when its parameters or results have a pointer to an
// instance with its type parameters among another's type arguments
// (Walk[T any](root *Tree[T], f *Stack[*Tree[T]]), the frontier of a
// tree's search): yaegi v0.16.1 fails to declare such a signature, even
// uncalled ("reflect.Type is nil" in its type of the inner pointer). A
// generic type with T as its parameter that names *Tree[T] inside it
// runs, and so does an instance of a generic interface (f
// frontier[*Tree[T]]). It reports whether it refused.
func (c *Cell) refuseNestedPointer(fd *ast.FuncDecl) bool {
	if fd.Type.TypeParams == nil && !genericMethod(fd) {
		return false
	}
	sig := &ast.FuncType{Params: fd.Type.Params, Results: fd.Type.Results}
	var outer ast.Expr
	var inner *ast.StarExpr
	ast.Inspect(sig, func(n ast.Node) bool {
		for _, a := range indexArgs(n) {
			star, ok := a.(*ast.StarExpr)
			if !ok || outer != nil {
				continue
			}
			if t := c.Types.TypeOf(n.(ast.Expr)); t != nil && types.IsInterface(t) {
				continue // (an interface's instance is declared: frontier[*Tree[T]])
			}
			switch ast.Unparen(star.X).(type) {
			case *ast.IndexExpr, *ast.IndexListExpr:
				if t := c.Types.TypeOf(star); t != nil && hasTypeParam(t) {
					outer, inner = n.(ast.Expr), star
				}
			}
		}
		return outer == nil
	})
	if outer == nil {
		return false
	}
	what := "the generic function " + fd.Name.Name
	if fd.Recv != nil {
		what = "the method " + fd.Name.Name + " of a generic type"
	}
	name := "Ptrs"
	if base, _ := indexed(ast.Unparen(inner.X)); base != nil {
		name = holderName(base, "Ptrs")
	}
	c.Fail(outer.Pos(), "%s in the signature of %s: this interpreter cannot declare a generic signature with a pointer to an instance (%s) among another's type arguments; declare a generic type that names %s inside it (type %s[T any] struct{ xs []%s }, or an interface whose methods take and return %s) and use that",
		ExprString(outer), what, ExprString(inner), ExprString(inner), name, ExprString(inner), ExprString(inner))
	return true
}

// genericMethod reports whether fd is a method of a generic type.
func genericMethod(fd *ast.FuncDecl) bool {
	return fd.Recv != nil && len(fd.Recv.List) == 1 && len(receiverTypeParams(fd.Recv.List[0].Type)) > 0
}

// holderName is the name of a type to declare for values of the generic
// type named by base (List, pkg.List), with suffix: Lists.
func holderName(base ast.Expr, suffix string) string {
	name := ExprString(base)
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	return strings.ToUpper(name[:1]) + name[1:] + suffix
}
