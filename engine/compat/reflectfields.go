package compat

import (
	"go/ast"

	"grundy/engine/prelude"
)

// reflectFields: t.Field(i) of a reflect.Type. The engine tags the first
// field of each struct type a cell declares with the type's name (see
// structNames), and yaegi v0.16.1 exports unexported fields as X+name
// (interp/type.go, refType), which the engine tags too (see
// hiddenFields): a cell reading f.Tag saw grundy:"main.P", and an
// unexported field z was Xz, exported. The field goes through
// grundyrt.StructField, which gives it back as Go describes it:
//
//	rt.Field(i)  =>  grundyrt.StructField(rt.Field(i))
var reflectFields = Pass{
	Name:     "reflectfields",
	Run:      runReflectFields,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"reflect_struct_field_tags"},
}

func runReflectFields(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Field" || !isReflectType(c.Types.TypeOf(sel.X)) {
			return true
		}
		cur.Replace(&ast.CallExpr{Fun: rtSelector(prelude.RTStructField, call.Pos()), Lparen: call.Pos(), Args: []ast.Expr{call}, Rparen: call.End()})
		return true
	})
}
