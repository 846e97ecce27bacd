package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// mapIndexAssign: in "k, m[k] = v1, v2" Go evaluates the map and the key
// of m[k] before it assigns anything, so m[k] is m[old k]. yaegi v0.16.1
// evaluates a map index on the left when it assigns to it, after the
// assignments before it in the tuple (slices and pointers are evaluated
// first, as in Go), and wrote m["b"]. The map and key of each map index
// after the first place are bound first:
//
//	{ _grundyM1, _grundyK2 := m, k; k, _grundyM1[_grundyK2] = v1, v2 }
//
// Only operands without calls or receives are bound (binding one with a
// call could move the call before those of places left of it); constants
// need none. A map index among the places of a tuple assigned one
// multi-valued expression (m["a"], m["b"] = f(), m[i], ok = v[k],
// m[k], ok = x.(T)) was not assigned at all (the map stayed as it was):
// the values are bound too, after the places' operands, and assigned
// one by one (a place's operands that call are bound before them, in
// order: Go makes the calls in order):
//
//	{ var (_grundyV1 int; _grundyV2 int); _grundyV1, _grundyV2 = f(); m["a"], m["b"] = _grundyV1, _grundyV2 }
//
// And m[k] = *p with a nil p stored nothing and did not panic: yaegi's
// map assignment takes the invalid value of the failed dereference for a
// deletion (reflect's SetMapIndex). The value is bound first, which
// panics as Go does: { _grundyV1 := *p; m[k] = _grundyV1 }.
var mapIndexAssign = Pass{
	Name:     "mapindexassign",
	Run:      runMapIndexAssign,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"map_index_in_tuple_assignment", "map_index_assigned_multi_value"},
}

func runMapIndexAssign(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		as, ok := cur.Node().(*ast.AssignStmt)
		if ok && as.Tok == token.ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 && cur.Index() >= 0 {
			c.derefIntoMap(cur, as)
			return true
		}
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) < 2 || cur.Index() < 0 {
			return true
		}
		var lhs, rhs []ast.Expr
		bind := func(kind string, e ast.Expr) ast.Expr {
			if tv, ok := c.Types.Types[e]; ok && tv.Value != nil {
				return e
			}
			t := c.Temp(kind)
			lhs, rhs = append(lhs, ident(t, as.Pos())), append(rhs, e)
			return ident(t, e.Pos())
		}
		multi := len(as.Rhs) == 1 && slices.ContainsFunc(as.Lhs, c.isMapIndex) // asked before binding
		for _, l := range as.Lhs[1:] {
			ix, ok := ast.Unparen(l).(*ast.IndexExpr)
			if !ok || !c.isMap(ix.X) || !sideEffectFree(ix.X) || !sideEffectFree(ix.Index) {
				continue
			}
			ix.X, ix.Index = bind("M", ix.X), bind("K", ix.Index)
		}
		var list []ast.Stmt
		if len(lhs) > 0 {
			list = append(list, define(as.Pos(), lhs, rhs...))
		}
		if multi {
			// The places' operands that call are made first, in
			// order, before the value (m[key()], ok = vals(): Go
			// calls key, then vals), each bound on its own.
			for _, l := range as.Lhs {
				ix, ok := ast.Unparen(l).(*ast.IndexExpr)
				if !ok {
					continue
				}
				for _, p := range []*ast.Expr{&ix.X, &ix.Index} {
					if !sideEffectFree(*p) {
						t := c.Temp("K")
						list = append(list, define(as.Pos(), []ast.Expr{ident(t, as.Pos())}, *p))
						*p = ident(t, (*p).Pos())
					}
				}
			}
			vals, decls := c.tupleTemps(as.Rhs[0], len(as.Lhs))
			list = append(list, decls...)
			as.Rhs = nil
			for _, v := range vals {
				as.Rhs = append(as.Rhs, ident(v.Name, v.Pos()))
			}
		}
		if len(list) == 0 {
			return true
		}
		cur.Replace(&ast.BlockStmt{Lbrace: as.Pos(), List: append(list, as), Rbrace: as.End()})
		return true
	})
}

// isMapIndex reports whether e is m[k], m a map.
func (c *Cell) isMapIndex(e ast.Expr) bool {
	ix, ok := ast.Unparen(e).(*ast.IndexExpr)
	return ok && c.isMap(ix.X)
}

func (c *Cell) isMap(e ast.Expr) bool {
	t := c.Types.TypeOf(e)
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// sideEffectFree reports whether evaluating e calls nothing and receives
// nothing.
func sideEffectFree(e ast.Expr) bool {
	return !contains(e, true, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			return true
		case *ast.UnaryExpr:
			return n.Op == token.ARROW
		}
		return false
	})
}

// tupleTemps binds the n values of x to new variables, one per value:
// declared with their types and then assigned, so that a value a comma-ok
// expression does not set is its type's zero (in a loop too, where yaegi
// v0.16.1 reuses a variable's storage: see commaOkZero), or, when the
// oracle cannot write a type, defined with :=.
func (c *Cell) tupleTemps(x ast.Expr, n int) (vals []*ast.Ident, stmts []ast.Stmt) {
	pos := x.Pos()
	for range n {
		vals = append(vals, ident(c.Temp("V"), pos))
	}
	lhs := func() []ast.Expr {
		var out []ast.Expr
		for _, v := range vals {
			out = append(out, ident(v.Name, pos))
		}
		return out
	}
	tup, _ := c.Types.TypeOf(x).(*types.Tuple)
	if tup == nil || tup.Len() != n {
		return vals, []ast.Stmt{define(pos, lhs(), x)}
	}
	var specs []ast.Spec
	for i, v := range vals {
		t, ok := c.TypeExpr(tup.At(i).Type(), pos)
		if !ok {
			return vals, []ast.Stmt{define(pos, lhs(), x)}
		}
		specs = append(specs, &ast.ValueSpec{Names: []*ast.Ident{ident(v.Name, pos)}, Type: t})
	}
	decl := &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Lparen: pos, Specs: specs, Rparen: pos}}
	return vals, []ast.Stmt{decl, &ast.AssignStmt{Lhs: lhs(), TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{x}}}
}

// derefIntoMap binds the dereference as, m[k] = *p, stores in a map (see
// mapIndexAssign), where the map's and the key's operands make no calls.
func (c *Cell) derefIntoMap(cur Cursor, as *ast.AssignStmt) {
	ix, ok := ast.Unparen(as.Lhs[0]).(*ast.IndexExpr)
	if !ok || !c.isMap(ix.X) || callsOrReceives(ix) {
		return
	}
	if _, deref := ast.Unparen(as.Rhs[0]).(*ast.StarExpr); !deref {
		return
	}
	v := c.Temp("V")
	bind := define(as.Pos(), []ast.Expr{ident(v, as.Pos())}, as.Rhs[0])
	as.Rhs[0] = ident(v, as.Rhs[0].Pos())
	cur.Replace(&ast.BlockStmt{Lbrace: as.Pos(), List: []ast.Stmt{bind, as}, Rbrace: as.End()})
}
