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
//
// T a struct type too when the outer literal's type is a named type of a
// native package (fstest.MapFS, a map[string]*MapFile): yaegi types the
// elided element from the native type's reflect element type, a pointer,
// and its compositeLit has no address-taking for such a native value, so
// fstest.MapFS{"a.txt": {Data: b}} failed to compile (a nil dereference
// in the interpreter's compiler; its own map[string]*fstest.MapFile works).
var elidedAddrs = Pass{
	Name:     "elidedaddrs",
	Run:      runElidedAddrs,
	Kinds:    []ast.Node{(*ast.CompositeLit)(nil)},
	Snippets: []string{"composite_elided_pointer_to_array", "composite_elided_native_pointer_struct"},
}

func runElidedAddrs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		lit, ok := cur.Node().(*ast.CompositeLit)
		if !ok {
			return true
		}
		var key, elem types.Type
		lt := c.Types.TypeOf(lit)
		structs := isNativeNamed(lt)
		switch t := typeUnder(lt).(type) {
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
					kv.Key = c.withAddr(kv.Key, key, structs)
				}
				kv.Value = c.withAddr(kv.Value, elem, structs)
				continue
			}
			lit.Elts[i] = c.withAddr(e, elem, structs)
		}
		return true
	})
}

// withAddr is e, an elided literal of type t = *T with T not a struct
// type (any T when structs), as &T{...}; other expressions as they are.
func (c *Cell) withAddr(e ast.Expr, t types.Type, structs bool) ast.Expr {
	inner, ok := e.(*ast.CompositeLit)
	if !ok || inner.Type != nil {
		return e
	}
	p, ok := typeUnder(t).(*types.Pointer)
	if !ok {
		return e
	}
	if _, isStruct := typeUnder(p.Elem()).(*types.Struct); isStruct && !structs {
		return e
	}
	tx, ok := c.TypeExpr(p.Elem(), inner.Lbrace)
	if !ok {
		return e
	}
	inner.Type = tx
	return &ast.UnaryExpr{OpPos: inner.Lbrace, Op: token.AND, X: inner}
}

// isNativeNamed reports whether t is a named type of a native package
// (one the cells did not declare).
func isNativeNamed(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() != "main"
}
