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
	assigned := map[types.Object]bool{}
	memWrite := false // a store went somewhere any read of memory may see
	affected := func(e ast.Expr) bool {
		return contains(e, false, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && assigned[c.Types.ObjectOf(id)] {
				return true
			}
			return memWrite && c.readsMemory(n)
		})
	}
	for i, l := range s.Lhs {
		r := s.Rhs[i]
		if affected(r) {
			early = append(early, r)
		} else {
			late = append(late, r)
		}
		late = append(late, l)
		if v := c.storedVar(l); v != nil && !c.inMemory(v) {
			assigned[v] = true
		} else if !isIdent(l, "_") {
			memWrite = true
		}
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

// inMemory tells a variable other code may reach (a package's, or one of
// the cell's top level), as against a function's own.
func (c *Cell) inMemory(v *types.Var) bool {
	if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
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
