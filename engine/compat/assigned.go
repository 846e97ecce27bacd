package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// assignedValue is one place where Go gives a value a type it may not
// have yet: the value is assigned to a variable, field, element, parameter
// or result whose type is target. Set replaces the value in the syntax
// tree.
type assignedValue struct {
	target types.Type
	value  ast.Expr
	set    func(ast.Expr)
	stored bool // assigned to a field, element or *p (not a variable)
}

// assignedKinds are the nodes assignedValues looks in, for a pass's Kinds.
var assignedKinds = []ast.Node{(*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.ReturnStmt)(nil), (*ast.SendStmt)(nil), (*ast.CompositeLit)(nil), (*ast.CallExpr)(nil)}

// assignedValues lists the values n assigns, which are the places Go
// converts a value implicitly: assignments (not :=, which takes the
// value's type), var declarations with a type, returns, sends, elements
// and fields of composite literals (a map's values, not its keys), the
// arguments of a call (calls with f(g()) or xs... aside), append's
// elements and panic's argument. Calls for which keep is false are skipped (keep nil: none).
// Conversions T(v) are not listed: they are explicit.
func (c *Cell) assignedValues(cur Cursor, keep func(call *ast.CallExpr) bool) []assignedValue {
	var out []assignedValue
	add := func(t types.Type, e *ast.Expr) {
		if t != nil && *e != nil {
			out = append(out, assignedValue{t, *e, func(x ast.Expr) { *e = x }, false})
		}
	}
	switch n := cur.Node().(type) {
	case *ast.AssignStmt:
		if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
			break
		}
		for i, l := range n.Lhs {
			add(c.Types.TypeOf(l), &n.Rhs[i])
			if _, plain := ast.Unparen(l).(*ast.Ident); !plain && len(out) > 0 {
				out[len(out)-1].stored = true
			}
		}
	case *ast.ValueSpec:
		if n.Type == nil || len(n.Values) != len(n.Names) {
			break
		}
		t := c.Types.TypeOf(n.Type)
		for i := range n.Values {
			add(t, &n.Values[i])
		}
	case *ast.ReturnStmt:
		rs := c.resultTypes(cur.Func)
		if len(rs) != len(n.Results) {
			break
		}
		for i, t := range rs {
			add(t, &n.Results[i])
		}
	case *ast.SendStmt:
		if ch, ok := typeUnder(c.Types.TypeOf(n.Chan)).(*types.Chan); ok {
			add(ch.Elem(), &n.Value)
		}
	case *ast.CompositeLit:
		switch t := typeUnder(c.Types.TypeOf(n)).(type) {
		case *types.Struct:
			for i, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok {
						for j := range t.NumFields() {
							if f := t.Field(j); f.Name() == k.Name {
								add(f.Type(), &kv.Value)
							}
						}
					}
				} else if i < t.NumFields() {
					add(t.Field(i).Type(), &n.Elts[i])
				}
			}
		case *types.Slice, *types.Array, *types.Map:
			elem := t.(interface{ Elem() types.Type }).Elem()
			for i, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					add(elem, &kv.Value)
				} else {
					add(elem, &n.Elts[i])
				}
			}
		}
	case *ast.CallExpr:
		if c.Types.IsType(n.Fun) || n.Ellipsis.IsValid() || keep != nil && !keep(n) {
			break
		}
		if c.isBuiltin(n.Fun) {
			if isIdent(n.Fun, "panic") && len(n.Args) == 1 {
				add(types.Universe.Lookup("any").Type(), &n.Args[0]) // (its parameter is an interface{})
			}
			if isIdent(n.Fun, "append") {
				if s, ok := typeUnder(c.Types.TypeOf(n)).(*types.Slice); ok {
					for i := 1; i < len(n.Args); i++ {
						add(s.Elem(), &n.Args[i])
					}
				}
			}
			break
		}
		sig, ok := typeUnder(c.Types.TypeOf(n.Fun)).(*types.Signature)
		if !ok {
			break
		}
		if len(n.Args) == 1 {
			if _, multi := c.Types.TypeOf(n.Args[0]).(*types.Tuple); multi {
				break // f(g()): the values pass as they are
			}
		}
		for i := range n.Args {
			add(paramType(sig, i, false), &n.Args[i])
		}
	}
	return out
}
