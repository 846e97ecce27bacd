package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// tupleOrder lists the operands of a tuple assignment (a, b = x, y) in
// the order Go indexes them, for the bounds pass to check them in: a
// right operand an earlier store of the statement may change is read
// before every store, the others just before their own store, which
// follows (the gc compiler's ascompatee, cmd/compile/internal/walk/
// assign.go). So the swap h[i], h[j] = h[j], h[i] of an empty heap's
// Swap(0, -1) fails at h[i] ("index out of range [0] with length 0"),
// where right-then-left order said [-1].
func (c *Cell) tupleOrder(s *ast.AssignStmt) []ast.Expr {
	var early, late []ast.Expr
	fx := &storeEffects{c: c, assigned: map[types.Object]bool{}}
	for i, l := range s.Lhs {
		r := s.Rhs[i]
		if fx.affected(r) {
			early = append(early, r)
		} else {
			late = append(late, r)
		}
		late = append(late, l)
		fx.stored(l)
	}
	return append(early, late...)
}

// storedVar is the variable a store to l writes into when it is one
// (through fields and array elements of it), or nil.
func (c *Cell) storedVar(l ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(l).(type) {
		case *ast.Ident:
			v, _ := c.Types.ObjectOf(x).(*types.Var)
			return v
		case *ast.IndexExpr:
			if _, ok := typeUnder(c.Types.TypeOf(x.X)).(*types.Array); !ok {
				return nil
			}
			l = x.X
		case *ast.SelectorExpr:
			if sel := c.Types.Selections[x]; sel == nil || sel.Kind() != types.FieldVal || sel.Indirect() {
				return nil
			}
			l = x.X
		default:
			return nil
		}
	}
}

// inMemory tells a variable other code may reach (a package's, one of
// the cell's top level, or one whose address is taken), as against a
// function's own.
func (c *Cell) inMemory(v *types.Var) bool {
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() || c.addressTaken(v) {
		return true
	}
	inFunc := false
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				if n.Pos() <= v.Pos() && v.Pos() < n.End() {
					inFunc = true
				}
				return false
			}
			return !inFunc
		})
	}
	return !inFunc
}

// addressTaken reports whether the cell takes v's address: &v, &v.f,
// &v[i] of an array, v[:] of an array, a method with a pointer receiver
// called on v: a store through a pointer may change it.
func (c *Cell) addressTaken(v *types.Var) bool {
	if c.addrTaken == nil {
		c.addrTaken = map[*types.Var]bool{}
		for _, root := range c.Roots() {
			ast.Inspect(root, func(n ast.Node) bool {
				var x ast.Expr
				switch n := n.(type) {
				case *ast.UnaryExpr:
					if n.Op == token.AND {
						x = n.X
					}
				case *ast.SliceExpr:
					if _, ok := typeUnder(c.Types.TypeOf(n.X)).(*types.Array); ok {
						x = n.X
					}
				case *ast.SelectorExpr:
					if sel := c.Types.Selections[n]; sel != nil && sel.Kind() != types.FieldVal {
						if sig, ok := sel.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
							if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
								x = n.X
							}
						}
					}
				}
				if x != nil {
					if v := c.storedVar(x); v != nil {
						c.addrTaken[v] = true
					}
				}
				return true
			})
		}
	}
	return c.addrTaken[v]
}

// readsMemory tells an operation whose value a store through a pointer,
// a slice or a map may change (what gc takes as one, conservatively).
func (c *Cell) readsMemory(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.Ident:
		v, ok := c.Types.ObjectOf(n).(*types.Var)
		return ok && c.inMemory(v)
	case *ast.IndexExpr, *ast.IndexListExpr, *ast.SliceExpr, *ast.StarExpr, *ast.CompositeLit:
		return true
	case *ast.CallExpr:
		return !c.Types.IsType(n.Fun)
	case *ast.UnaryExpr:
		return n.Op == token.ARROW || n.Op == token.AND
	case *ast.SelectorExpr:
		sel := c.Types.Selections[n]
		return sel != nil && sel.Indirect()
	}
	return false
}
