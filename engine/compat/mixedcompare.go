package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// mixedCompares: a comparison of a value of a named type with one of its
// underlying type (type Pair [2]Nimber; p == [2]Nimber{1, 2}, or a struct
// literal of the same fields), which Go allows as the unnamed value is
// assignable to the named type. yaegi v0.16.1 requires the two types to
// be the same (interp/typecheck.go:190, comparison) and refused the
// cell with "invalid operation: mismatched types main.Pair and
// [2]main.Nimber". The unnamed side is converted to the named type:
//
//	p == Pair([2]Nimber{1, 2})
//
// and a channel compared with a directional channel of its element type
// to that type: recv == (<-chan int)(jobs).
//
// A map's key of the other of two such types (m[d] with m a map[Pos]bool
// and d a struct{ R, C int }; delete(m, d); a key in a map literal) was
// refused alike ("cannot use type struct { R int; C int } as type
// main.Pos in map index"): it is converted to the map's key type.
var mixedCompares = Pass{
	Name:     "mixedcompares",
	Run:      runMixedCompares,
	Kinds:    []ast.Node{(*ast.BinaryExpr)(nil), (*ast.IndexExpr)(nil), (*ast.CallExpr)(nil), (*ast.CompositeLit)(nil)},
	Snippets: []string{"compare_named_with_unnamed", "compare_directional_channels", "map_keys_named_and_unnamed"},
}

func runMixedCompares(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		c.mixedKeys(cur.Node())
		be, ok := cur.Node().(*ast.BinaryExpr)
		if !ok || be.Op != token.EQL && be.Op != token.NEQ {
			return true
		}
		tx, ty := c.Types.TypeOf(be.X), c.Types.TypeOf(be.Y)
		if tx == nil || ty == nil || types.Identical(tx, ty) || types.IsInterface(tx) || types.IsInterface(ty) {
			return true
		}
		if cx, cy, ok := chanPair(tx, ty); ok {
			// A channel compared with a directional one of the same
			// element (recv == jobs, recv a <-chan int, jobs a chan
			// int), which yaegi refused alike ("mismatched types <-chan
			// int and chan int"): the bidirectional one is converted.
			switch {
			case cx.Dir() == types.SendRecv && cy.Dir() != types.SendRecv:
				be.X = c.convertTo(ty, be.X)
			case cy.Dir() == types.SendRecv && cx.Dir() != types.SendRecv:
				be.Y = c.convertTo(tx, be.Y)
			}
			return true
		}
		if !types.Identical(tx.Underlying(), ty.Underlying()) {
			return true
		}
		switch {
		case isNamedType(tx) && !isNamedType(ty):
			be.Y = c.convertTo(tx, be.Y)
		case isNamedType(ty) && !isNamedType(tx):
			be.X = c.convertTo(ty, be.X)
		}
		return true
	})
}

// mixedKeys converts the key n gives a map (m[k], delete(m, k), the keys
// of a map literal) to the map's key type where the two are a named type
// and its unnamed underlying type.
func (c *Cell) mixedKeys(n ast.Node) {
	keyOf := func(m ast.Expr) types.Type {
		if mt, ok := typeUnder(c.Types.TypeOf(m)).(*types.Map); ok {
			return mt.Key()
		}
		return nil
	}
	fix := func(kt types.Type, k *ast.Expr) {
		t := c.Types.TypeOf(*k)
		if kt == nil || t == nil || types.Identical(t, kt) || types.IsInterface(kt) || types.IsInterface(t) || c.Types.Types[*k].Value != nil {
			return
		}
		if types.Identical(t.Underlying(), kt.Underlying()) && isNamedType(t) != isNamedType(kt) {
			*k = c.convertTo(kt, *k)
		}
	}
	switch n := n.(type) {
	case *ast.IndexExpr:
		fix(keyOf(n.X), &n.Index)
	case *ast.CallExpr:
		if isIdent(n.Fun, "delete") && c.isBuiltin(n.Fun) && len(n.Args) == 2 {
			fix(keyOf(n.Args[0]), &n.Args[1])
		}
	case *ast.CompositeLit:
		kt := keyOf(n)
		for _, el := range n.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				fix(kt, &kv.Key)
			}
		}
	}
}

// chanPair is tx and ty as channel types of identical elements.
func chanPair(tx, ty types.Type) (*types.Chan, *types.Chan, bool) {
	cx, okx := tx.Underlying().(*types.Chan)
	cy, oky := ty.Underlying().(*types.Chan)
	if !okx || !oky || !types.Identical(cx.Elem(), cy.Elem()) {
		return nil, nil, false
	}
	return cx, cy, true
}

// isNamedType reports whether t is a defined type (not a type parameter).
func isNamedType(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.Named)
	return ok
}

// convertTo is e converted to t, T(e) ((*T)(e) for a type that needs
// the parentheses), or e where t cannot be written.
func (c *Cell) convertTo(t types.Type, e ast.Expr) ast.Expr {
	tx, ok := c.TypeExpr(t, e.Pos())
	if !ok {
		return e
	}
	switch tx.(type) {
	case *ast.StarExpr, *ast.FuncType, *ast.ChanType:
		tx = &ast.ParenExpr{Lparen: e.Pos(), X: tx, Rparen: e.Pos()}
	}
	conv := &ast.CallExpr{Fun: tx, Lparen: e.Pos(), Args: []ast.Expr{c.exactComplex(e)}, Rparen: e.End()}
	c.Types.Types[conv] = types.TypeAndValue{Type: t, Value: c.Types.Types[e].Value} // (for the passes after: fmtArgs names its type)
	return conv
}
