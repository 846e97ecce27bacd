package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// appendNils: a nil appended to a slice of pointers, slices, maps,
// functions or channels, append(frontier, nil), is written as the
// element type's nil:
//
//	append(frontier, nil)  =>  append(frontier, (*Node)(nil))
//
// yaegi v0.16.1 keeps one type for every nil of a session, and the first
// nil given an interface's place (var err error = nil, a = nil with a an
// any, []any{nil}, f(nil) with an interface parameter, the bounds
// checks' own helper) marks that type typed for good (interp/type.go,
// defaultType, sets untyped = false on the type it was asked about,
// which is the universe's nil): from there on, in that cell and every
// later one, append of a nil took it for an interface value and panicked
// "reflect.Set: value of type interface {} is not assignable to type
// *main.Node". The nil's type written out does not depend on the mark.
//
// A nil stored in a struct's field of a slice, map, pointer, function or
// channel type that mentions a cell type (Node{1, nil}, Node{Kids: nil},
// n.Kids = nil, with Kids a []*Node) is written so too: where another
// struct of the cell refers to Node (type Tree struct{ Root *Node }),
// yaegi v0.16.1 gives such a nil the type it made while it built Node,
// with a placeholder for Node in it, and storing it panicked
// "reflect.Set: value of type []*unsafe2.dummy is not assignable to type
// []*struct { ... }".
var appendNils = Pass{
	Name:     "appendnils",
	Run:      runAppendNils,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil), (*ast.CompositeLit)(nil), (*ast.AssignStmt)(nil)},
	Snippets: []string{"append_nil_after_interface_nil", "nil_recursive_struct_fields"},
}

// typedNil is nil written as t's nil, (T)(nil), or nil where t cannot be
// written.
func (c *Cell) typedNil(t types.Type, a ast.Expr) ast.Expr {
	tx, ok := c.TypeExpr(t, a.Pos())
	if !ok {
		return a
	}
	conv := &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: a.Pos(), X: tx, Rparen: a.Pos()}, Lparen: a.Pos(), Args: []ast.Expr{a}, Rparen: a.End()}
	c.Types.Types[conv] = types.TypeAndValue{Type: t}
	return conv
}

// fieldNil reports whether a nil stored in a field of type t is written
// as t's nil (see appendNils).
func fieldNil(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Slice, *types.Map, *types.Pointer, *types.Signature, *types.Chan:
		// (Not a generic type's: yaegi builds its instances apart,
		// and a conversion to one in a generic method did not compile.)
		return mentionsCellType(t) && !hasTypeParam(t) && !mentionsInstance(t)
	}
	return false
}

// mentionsInstance reports whether t's structure names an instance of a
// generic type.
func mentionsInstance(t types.Type) bool {
	found := false
	eachType(t, func(t types.Type) {
		if n, ok := types.Unalias(t).(*types.Named); ok && n.TypeArgs().Len() > 0 {
			found = true
		}
	})
	return found
}

func runAppendNils(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.CompositeLit:
			t := c.Types.TypeOf(n)
			if p, ok := typeUnder(t).(*types.Pointer); ok && n.Type == nil {
				t = p.Elem() // an element &T{...} written {...}
			}
			st, ok := typeUnder(t).(*types.Struct)
			if !ok {
				return true
			}
			for i, el := range n.Elts {
				v, f := &n.Elts[i], (*types.Var)(nil)
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					v = &kv.Value
					if k, ok := kv.Key.(*ast.Ident); ok {
						f, _ = c.Types.ObjectOf(k).(*types.Var)
					}
				} else if i < st.NumFields() {
					f = st.Field(i)
				}
				if f != nil && isNil(c, *v) && fieldNil(f.Type()) {
					*v = c.typedNil(f.Type(), *v)
				}
			}
			return true
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, l := range n.Lhs {
				if _, sel := ast.Unparen(l).(*ast.SelectorExpr); sel && isNil(c, n.Rhs[i]) {
					if t := c.Types.TypeOf(l); t != nil && fieldNil(t) {
						n.Rhs[i] = c.typedNil(t, n.Rhs[i])
					}
				}
			}
			return true
		}
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || !isIdent(call.Fun, "append") || !c.isBuiltin(call.Fun) || call.Ellipsis.IsValid() || len(call.Args) < 2 {
			return true
		}
		st, ok := typeUnder(c.Types.TypeOf(call.Args[0])).(*types.Slice)
		if !ok || types.IsInterface(st.Elem()) {
			return true
		}
		for i, a := range call.Args[1:] {
			if !isNil(c, a) {
				continue
			}
			call.Args[1+i] = c.typedNil(st.Elem(), a)
		}
		return true
	})
}
