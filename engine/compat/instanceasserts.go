package compat

import (
	"go/ast"
)

// instanceAsserts: an instance of a generic type asserted to (x.(Box[int]),
// case Box[int], *Box[int], []Pair[string, int]) is written as an
// instance alias declared with the cell (instanceAlias). yaegi v0.16.1
// looks the type of an assertion up by its source name among the types it
// has declared (interp/cfg.go, typeAssert's itype of the index
// expression), and an instance is declared only where a value of it is
// made: asserting to one the code has not built a literal of failed to
// compile with "type not found: Box[int]" (in a function always, as it is
// compiled before the cell's statements make any). An alias is
// instantiated where it is declared. An instance that mentions a type
// parameter cannot be declared at package level and stays.
var instanceAsserts = Pass{
	Name:     "instanceasserts",
	Run:      runInstanceAsserts,
	Kinds:    []ast.Node{(*ast.TypeAssertExpr)(nil), (*ast.TypeSwitchStmt)(nil)},
	Snippets: []string{"generics_instance_asserted"},
}

func runInstanceAsserts(c *Cell) {
	alias := func(t ast.Expr) ast.Expr {
		if x, ok := c.instanceTypeAlias(t); ok {
			return x
		}
		c.aliasInstancesIn(t)
		return t
	}
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.TypeAssertExpr:
			if n.Type != nil {
				n.Type = alias(n.Type)
			}
		case *ast.CaseClause:
			if _, ok := cur.Parent().(*ast.BlockStmt); !ok {
				break
			}
			for i, t := range n.List {
				if c.Types.IsType(t) {
					n.List[i] = alias(t)
				}
			}
		}
		return true
	})
}

// instanceTypeAlias is t, a type expression that is an instance of a
// generic type whose type the oracle knows and which mentions no type
// parameter nor a type declared in a function, as an alias of it.
func (c *Cell) instanceTypeAlias(t ast.Expr) (ast.Expr, bool) {
	switch t.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
	default:
		return nil, false
	}
	x, _ := indexed(t)
	if x == nil || !c.isGenericType(x) {
		return nil, false
	}
	tt := c.Types.TypeOf(t)
	if tt == nil || hasTypeParam(tt) || localNamed(tt) {
		return nil, false
	}
	tx, ok := c.TypeExpr(tt, t.Pos())
	if !ok || !c.packageLevel(tx) {
		return nil, false
	}
	return ident(c.instanceAlias(tx), t.Pos()), true
}

// aliasInstancesIn writes the instances in the type expression t (the
// Box[int] of *Box[int] or []Box[int]) as aliases (instanceTypeAlias).
func (c *Cell) aliasInstancesIn(t ast.Expr) {
	switch e := t.(type) {
	case *ast.StarExpr:
		if x, ok := c.instanceTypeAlias(e.X); ok {
			e.X = x
		} else {
			c.aliasInstancesIn(e.X)
		}
	case *ast.ArrayType:
		if x, ok := c.instanceTypeAlias(e.Elt); ok {
			e.Elt = x
		} else {
			c.aliasInstancesIn(e.Elt)
		}
	case *ast.MapType:
		for _, p := range []*ast.Expr{&e.Key, &e.Value} {
			if x, ok := c.instanceTypeAlias(*p); ok {
				*p = x
			} else {
				c.aliasInstancesIn(*p)
			}
		}
	case *ast.ParenExpr:
		if x, ok := c.instanceTypeAlias(e.X); ok {
			e.X = x
		} else {
			c.aliasInstancesIn(e.X)
		}
	}
}
