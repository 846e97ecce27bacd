package compat

import (
	"go/ast"
	"go/token"
	"strconv"

	"grundy/engine/prelude"
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
// parameter cannot be declared at package level and stays. (The engine
// makes the instances a cell's expressions have before its statements,
// and before its declarations where it can: not those of a generic type
// with methods the cell declares, which may call what it declares
// later, engine.makeInstances.)
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
			if r := c.listPtrAssert(n, commaOkParent(cur)); r != nil {
				cur.Replace(r)
			} else if n.Type != nil {
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

// listPtrAssert is x.(*entry[K, V]), an assertion to a pointer to an
// instance written with two or more type arguments among which a type
// parameter (in a generic function or method, where it has no alias), as
// an assertion into a variable of that type. yaegi v0.16.1 compiles the
// assertion's type as an expression, and has no case for an index list
// there: *entry[K, V] had no type, and the compiler dereferenced it
// (interp/typecheck.go:121, starExpr), so a generic LRU cache over
// container/list (e.Value.(*entry[K, V]).val) could not be compiled. A
// variable's type is a type, which it makes (a type switch's case
// *entry[K, V] too, which typeSwitches has written as assertions):
//
//	func() (_grundyP *entry[K, V]) { grundyrt.MustAssertInto(&_grundyP, x, "interface {}"); return }()
//	func() (_grundyP *entry[K, V], _grundyOK bool) { _grundyOK = grundyrt.AssertInto(&_grundyP, x); return }()
func (c *Cell) listPtrAssert(n *ast.TypeAssertExpr, commaOk bool) ast.Expr {
	star, ok := n.Type.(*ast.StarExpr)
	if !ok {
		return nil
	}
	if _, ok := ast.Unparen(star.X).(*ast.IndexListExpr); !ok {
		return nil
	}
	tt, xt := c.Types.TypeOf(n.Type), c.Types.TypeOf(n.X)
	if tt == nil || !hasTypeParam(tt) {
		return nil
	}
	iface := "interface {}" // (x an identifier typeSwitches wrote, asserted where it holds)
	if xt != nil {
		iface = reflectString(xt, false)
	}
	pos := n.Pos()
	p := func() *ast.Ident { return ident(tempPrefix+"P", pos) }
	addr := &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: p()}
	res := &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{p()}, Type: n.Type}}}
	var set ast.Stmt
	if commaOk {
		okID := ident(tempPrefix+"OK", pos)
		res.List = append(res.List, &ast.Field{Names: []*ast.Ident{okID}, Type: ident("bool", pos)})
		set = &ast.AssignStmt{Lhs: []ast.Expr{ident(okID.Name, pos)}, TokPos: pos, Tok: token.ASSIGN,
			Rhs: []ast.Expr{&ast.CallExpr{Fun: rtSelector(prelude.RTAssertInto, pos), Lparen: pos, Args: []ast.Expr{addr, n.X}, Rparen: pos}}}
	} else {
		lit := &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(iface)}
		set = &ast.ExprStmt{X: &ast.CallExpr{Fun: rtSelector(prelude.RTMustAssertInto, pos), Lparen: pos, Args: []ast.Expr{addr, n.X, lit}, Rparen: pos}}
	}
	return &ast.CallExpr{Fun: funcLit(pos, n.End(), res, set, &ast.ReturnStmt{Return: pos}), Lparen: pos, Rparen: n.End()}
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
