package compat

import (
	"go/ast"
	"go/token"
	"go/types"

	"grundy/engine/typecheck"
)

// ifaceStore: "h.N = person{...}", a value of a concrete type stored into
// a struct field, slice or map element whose type is an interface a cell
// declared. yaegi v0.16.1 sets the element to the value as it wrapped it
// for the interface, but takes the element's type from the value's
// ("reflect.Set: value of type interp.valueInterface is not assignable to
// type struct {...}"); a conversion to the interface first stores it:
//
//	h.N = Named(person{...})
var ifaceStore = Pass{
	Name:     "ifacestore",
	Run:      runIfaceStore,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"embedded_interface_promoted_method"},
}

func runIfaceStore(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		as, ok := cur.Node().(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			if _, plain := ast.Unparen(l).(*ast.Ident); plain {
				continue // a variable is stored right
			}
			lt := c.Types.TypeOf(l)
			if lt == nil || !typecheck.IsCellType(lt) || !types.IsInterface(lt) {
				continue
			}
			rt := c.Types.TypeOf(as.Rhs[i])
			if rt == nil || types.IsInterface(rt) || !c.Types.IsValue(as.Rhs[i]) {
				continue
			}
			if b, ok := rt.(*types.Basic); ok && b.Kind() == types.UntypedNil {
				continue
			}
			if t, ok := c.TypeExpr(lt, as.Rhs[i].Pos()); ok {
				as.Rhs[i] = &ast.CallExpr{Fun: t, Lparen: as.Rhs[i].Pos(), Args: []ast.Expr{as.Rhs[i]}, Rparen: as.Rhs[i].End()}
			}
		}
		return true
	})
}
