package compat

import (
	"go/ast"
	"go/types"
)

// genericElements: a call of a cell's generic function with two or more
// type parameters as an element of a composite literal ([]any{1, mk(3,
// "x")}, S{mk(k, v)}, map[string]any{"a": mk(k, v)}) is called in a
// function literal of its own:
//
//	[]any{1, mk(3, "x")}  =>  []any{1, func() any { return mk(3, "x") }()}
//
// yaegi v0.16.1 asks the type of a composite literal's element of its
// function when that is an instance, and of f[X, Y] refuses to give one
// (interp/cfg.go:413, interp/type.go:870): the cell failed to compile with
// "not a generic type: func(main.K,main.V) any". (A call with one type
// argument is an index expression there, which it types.) The element is
// still evaluated in its turn.
var genericElements = Pass{
	Name:     "genericelements",
	Run:      runGenericElements,
	Kinds:    []ast.Node{(*ast.CompositeLit)(nil)},
	Snippets: []string{"generics_call_in_composite_literal"},
}

func runGenericElements(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		switch p := cur.Parent().(type) {
		case *ast.CompositeLit:
		case *ast.KeyValueExpr:
			if p.Value != call {
				return true
			}
		default:
			return true
		}
		id := calleeIdent(call)
		if id == nil {
			return true
		}
		fn, ok := c.Types.ObjectOf(id).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "main" {
			return true
		}
		if sig := fn.Type().(*types.Signature); sig.Recv() != nil || sig.TypeParams().Len() < 2 {
			return true
		}
		t := c.Types.TypeOf(call)
		if _, tuple := t.(*types.Tuple); t == nil || tuple {
			return true
		}
		rt, ok := c.TypeExpr(t, call.Pos())
		if !ok {
			return true
		}
		pos := call.Pos()
		cur.Replace(called(funcLit(pos, call.End(), results(rt), &ast.ReturnStmt{Return: pos, Results: []ast.Expr{call}})))
		return true
	})
}
