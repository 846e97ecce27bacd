package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// instanceArgs: a generic type instantiated with an instance of a generic
// type, Queue[Pair[string, int]]. Where yaegi v0.16.1 compiles such a type
// in a statement (var q Queue[Pair[string, int]]), it names the instance
// by its argument's type, which it has not worked out for an argument
// that is itself an instantiation (interp/cfg.go:968, n.child[1].typ is
// nil): a nil dereference. It works out an alias's type when it declares
// it, so the argument is written as an instance alias declared with the
// cell (instanceAliases), as typeArgs does for generic functions, and so
// is the type of the cell's composite literals of the aliased types. A
// type that mentions a type parameter cannot be declared at package level
// and stays.
//
// A composite literal of an instance with two or more type arguments
// (Pair[int, int]{p.Second, p.First}) is written with an alias too. yaegi
// compiles such a literal's type as the node of the instance's
// declaration, shared by every literal of the instance (interp/cfg.go:361,
// n.child[0] = g.lastChild()), and each compilation gives that node a
// place in the frame of the function it is compiling: a literal compiled
// later moves the place an earlier one reads, which then reads zeros
// (Pair[int, int]{p.Second, p.First} at top level printed {0 0}) or
// indexes past its frame ("index out of range"). An alias is typed once,
// where it is declared. A literal whose type has a type parameter (in a
// generic function's body) cannot be aliased (see instanceLits).
var instanceArgs = Pass{
	Name:     "instanceargs",
	Run:      runInstanceArgs,
	Kinds:    []ast.Node{(*ast.IndexExpr)(nil), (*ast.IndexListExpr)(nil)},
	Snippets: []string{"generics_nested_type_args", "generics_instance_literals"},
}

func runInstanceArgs(c *Cell) {
	aliased := map[string]bool{} // the types written as aliases, as source
	c.Apply(func(cur Cursor) bool {
		var x ast.Expr
		var args []ast.Expr
		switch e := cur.Node().(type) {
		case *ast.IndexExpr:
			x, args = e.X, []ast.Expr{e.Index}
		case *ast.IndexListExpr:
			x, args = e.X, e.Indices
		default:
			return true
		}
		if !c.isGenericType(x) {
			return true
		}
		for i, a := range args {
			t := c.Types.TypeOf(a)
			if t == nil || !isInstantiation(a) || hasTypeParam(t) {
				continue
			}
			tx, ok := c.TypeExpr(t, a.Pos())
			if !ok {
				continue
			}
			aliased[ExprString(tx)] = true
			args[i] = c.instanceAliases([]ast.Expr{tx})[0]
		}
		if e, ok := cur.Node().(*ast.IndexExpr); ok {
			e.Index = args[0]
		}
		return true
	})
	// A literal of an aliased type (Pair[string, int]{...}) is written with
	// the alias too: passed where the alias is expected, it left a generic
	// method instantiated for the alias nil at its second call. So is a
	// literal of any instance with two or more type arguments.
	c.Apply(func(cur Cursor) bool {
		lit, ok := cur.Node().(*ast.CompositeLit)
		if !ok || lit.Type == nil {
			return true
		}
		_, list := ast.Unparen(lit.Type).(*ast.IndexListExpr)
		if _, index := ast.Unparen(lit.Type).(*ast.IndexExpr); !index && !list {
			return true
		}
		t := c.Types.TypeOf(lit)
		if t == nil || hasTypeParam(t) || localNamed(t) {
			return true
		}
		if tx, ok := c.TypeExpr(t, lit.Pos()); ok && (list || aliased[ExprString(tx)]) {
			lit.Type = c.instanceAliases([]ast.Expr{tx})[0]
		}
		return true
	})
}

// localNamed reports whether t mentions a type declared in a function,
// which an alias at package level cannot name.
func localNamed(t types.Type) bool {
	found := false
	eachNamed(t, func(n *types.Named) {
		if o := n.Obj(); o.Pkg() != nil && o.Parent() != nil && o.Parent() != o.Pkg().Scope() {
			found = true
		}
	})
	return found
}

// isGenericType reports whether x names a generic type (Pair, or pkg.Pair).
func (c *Cell) isGenericType(x ast.Expr) bool {
	id := aliasName(x)
	if id == nil {
		return false
	}
	tn, ok := c.Types.ObjectOf(id).(*types.TypeName)
	if !ok {
		return false
	}
	named, ok := types.Unalias(tn.Type()).(*types.Named)
	return ok && named.TypeParams().Len() > 0
}

// isInstantiation reports whether a type expression mentions an
// instantiation (Pair[string, int], []Pair[string, int]).
func isInstantiation(e ast.Expr) bool {
	return contains(e, false, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.IndexExpr, *ast.IndexListExpr:
			return true
		}
		return false
	})
}

// aliasedTypeExpr is TypeExpr(t, pos) with the instances among the type
// arguments in it written as aliases, as instanceArgs writes them in the
// cell: for the type of a variable a pass declares (var s
// Set[Pair[int, int]] for s := Set[Pair[int, int]]{}), which yaegi
// compiles in a statement like any other.
func (c *Cell) aliasedTypeExpr(t types.Type, pos token.Pos) (ast.Expr, bool) {
	tx, ok := c.TypeExpr(t, pos)
	if !ok || hasTypeParam(t) {
		return tx, ok
	}
	ast.Inspect(tx, func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.IndexExpr:
			e.Index = c.instanceAliases([]ast.Expr{e.Index})[0]
		case *ast.IndexListExpr:
			e.Indices = c.instanceAliases(e.Indices)
		}
		return true
	})
	return tx, true
}
