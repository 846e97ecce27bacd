package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// elidedAddrs: an element or key of a composite literal of pointer type
// *T written without &T (Go lets []*T{{...}} stand for []*T{&T{...}}), T
// not a struct type. yaegi v0.16.1 takes the elided literal for a value
// of type T, not for its address (interp/cfg.go, compositeLit: only a
// struct's address is taken), so []*[2]int{{}} held a nil pointer and
// []*[2]int{{1, 2}}, []*[]int{{1}} or map[string]*Row{"a": {1}} did not
// compile ("reflect.Value.Convert: value of type int cannot be converted
// to type [2]int"). The literal gets its &T:
//
//	[]*[2]int{{1, 2}}  =>  []*[2]int{&[2]int{1, 2}}
var elidedAddrs = Pass{
	Name:     "elidedaddrs",
	Run:      runElidedAddrs,
	Kinds:    []ast.Node{(*ast.CompositeLit)(nil)},
	Snippets: []string{"composite_elided_pointer_to_array"},
}

func runElidedAddrs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		lit, ok := cur.Node().(*ast.CompositeLit)
		if !ok {
			return true
		}
		var key, elem types.Type
		switch t := typeUnder(c.Types.TypeOf(lit)).(type) {
		case *types.Slice:
			elem = t.Elem()
		case *types.Array:
			elem = t.Elem()
		case *types.Map:
			key, elem = t.Key(), t.Elem()
		default:
			return true
		}
		for i, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if key != nil {
					kv.Key = c.withAddr(kv.Key, key)
				}
				kv.Value = c.withAddr(kv.Value, elem)
				continue
			}
			lit.Elts[i] = c.withAddr(e, elem)
		}
		return true
	})
}

// withAddr is e, an elided literal of type t = *T with T not a struct
// type, as &T{...}; other expressions as they are.
func (c *Cell) withAddr(e ast.Expr, t types.Type) ast.Expr {
	inner, ok := e.(*ast.CompositeLit)
	if !ok || inner.Type != nil {
		return e
	}
	p, ok := typeUnder(t).(*types.Pointer)
	if !ok {
		return e
	}
	if _, isStruct := typeUnder(p.Elem()).(*types.Struct); isStruct {
		return e
	}
	tx, ok := c.TypeExpr(p.Elem(), inner.Lbrace)
	if !ok {
		return e
	}
	inner.Type = tx
	return &ast.UnaryExpr{OpPos: inner.Lbrace, Op: token.AND, X: inner}
}
