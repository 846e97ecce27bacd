package compat

import (
	"go/ast"
	"go/types"
)

// deleteKeys: delete(m, k) with k a constant (delete(m, 1), m a
// map[uint64]string) is written with k converted to the map's key type:
// delete(m, uint64(1)). yaegi v0.16.1 hands reflect the constant as a
// value of its default type (interp/run.go, _delete: genValue of an
// untyped constant is an int), and reflect refused it for another key
// type ("reflect.Value.SetMapIndex: value of type int is not assignable
// to type uint64"): the cell panicked where Go deletes the entry (for
// uint8, float64 and a type Sq int8 keys alike). Only a key of a basic
// type, or a type on one, is written so (not complex: see complexConsts),
// and not a constant declared of the key's type.
var deleteKeys = Pass{
	Name:     "deletekeys",
	Run:      runDeleteKeys,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"delete_constant_keys"},
}

func runDeleteKeys(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || len(call.Args) != 2 || !isIdent(call.Fun, "delete") || !c.isBuiltin(call.Fun) {
			return true
		}
		k := call.Args[1]
		if tv, ok := c.Types.Types[k]; !ok || tv.Value == nil {
			return true
		}
		mt := c.Types.TypeOf(call.Args[0])
		if mt == nil {
			return true
		}
		m, ok := mt.Underlying().(*types.Map)
		if !ok || types.IsInterface(m.Key()) {
			return true
		}
		if b, ok := m.Key().Underlying().(*types.Basic); !ok || b.Info()&types.IsComplex != 0 {
			return true // (a complex key is complexConsts')
		}
		if id, ok := ast.Unparen(k).(*ast.Ident); ok {
			if obj := c.Types.ObjectOf(id); obj != nil && types.Identical(obj.Type(), m.Key()) {
				return true // a constant of the key's type
			}
		}
		if te, ok := c.TypeExpr(m.Key(), k.Pos()); ok {
			call.Args[1] = &ast.CallExpr{Fun: te, Lparen: k.Pos(), Args: []ast.Expr{k}, Rparen: k.End()}
		}
		return true
	})
}
