package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
)

// reflectNames: t.Name(), t.String() and t.PkgPath() of a reflect.Type.
// yaegi v0.16.1 builds the types cells declare with reflect
// (interp/type.go:2058, refType), which gives them no names: the reflect
// type of a cell's Point is struct { X int; Y int }, whose Name is "".
// The calls go to grundyrt, which names the interpreter's reflect types
// by the types the session declared (see Types.TypeString): a struct type
// by its name, unless another cell type has its structure, and composites
// of them likewise. (A type declared on a basic type keeps the basic
// type's name: its reflect type is that type.)
var reflectNames = Pass{
	Name:     "reflectnames",
	Run:      runReflectNames,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"reflect_cell_type_names"},
}

var reflectNameCalls = map[string]string{"Name": prelude.RTTypeName, "String": prelude.RTTypeString, "PkgPath": prelude.RTTypePkgPath}

func runReflectNames(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		rt, ok := reflectNameCalls[sel.Sel.Name]
		if !ok || !isReflectType(c.Types.TypeOf(sel.X)) {
			return true
		}
		cur.Replace(&ast.CallExpr{Fun: rtSelector(rt, sel.Pos()), Lparen: call.Lparen, Args: []ast.Expr{sel.X}, Rparen: call.Rparen})
		return true
	})
}

// isReflectType reports whether t is reflect.Type.
func isReflectType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "reflect" && n.Obj().Name() == "Type"
}
