package compat

import (
	"go/ast"
	"go/types"
)

// funcTypeDefs: a function type declared on another named function type,
// type Heuristic EvalFunc, is declared on the function type itself:
//
//	type Heuristic EvalFunc  =>  type Heuristic func(Pos) int
//
// Go gives the new type the other's underlying type and none of its
// methods, so nothing changes. yaegi v0.16.1 took a call h(p) of such a
// value, in a method of the new type, for a call with the receiver too
// ("too many arguments"), and the cell failed to compile.
var funcTypeDefs = Pass{
	Name:     "functypedefs",
	Run:      runFuncTypeDefs,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"func_type_on_func_type"},
}

func runFuncTypeDefs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		ts, ok := cur.Node().(*ast.TypeSpec)
		if !ok || ts.Assign.IsValid() || ts.TypeParams != nil {
			return true
		}
		tn, ok := c.Types.Defs[ts.Name].(*types.TypeName)
		if !ok {
			return true
		}
		from, ok := types.Unalias(c.Types.TypeOf(ts.Type)).(*types.Named)
		if !ok || selfFunc(from) || selfFunc(tn.Type()) {
			return true
		}
		if _, isFunc := from.Underlying().(*types.Signature); !isFunc {
			return true
		}
		if tx, ok := c.TypeExpr(from.Underlying(), ts.Type.Pos()); ok {
			ts.Type = tx
		}
		return true
	})
}
