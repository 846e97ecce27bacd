package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
)

// boxBasic: a cell type declared at package level on a basic type (type
// Player int, type Heap uint8), a function type (type Rule func(int)
// []int), an array (type Row [3]int8), a slice (type Heaps []int) or a
// map (type Table map[string]int) without methods gets one, unexported
// and empty:
//
//	func (Player) _grundyBoxed() {}
//
// yaegi v0.16.1 keeps a value of such a type in an interface as its
// underlying type's value unless the type has methods, when it puts the
// value in a box naming the type (interp/value.go:240,
// genValueInterface). Bare, a Player and an int were one thing in an
// interface: any(Alice) == any(0) was true, a map[any]int took
// m[Alice] and m[0] for one key, and x.(Player), case Player and %T
// could not be told from int, so the engine refused them (basedtypes).
// With a method of its own the type is boxed like one with a String
// method, and the engine asks the box (basedAsserts, typeSwitches,
// ifaceCompare, reflectNames). The method is unexported, so reflect's
// NumMethod and every interface a cell declares see the type as Go does.
// A type declared in a function cannot have methods and stays bare. (So
// does a generic type: its instances are asked as types of their own.)
var boxBasic = Pass{
	Name:     "boxbasic",
	Run:      runBoxBasic,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"based_basic_boxed", "func_type_boxed", "array_type_boxed", "slice_map_types_boxed"},
}

func runBoxBasic(c *Cell) {
	c.declareMethods(false, func(ts *ast.TypeSpec) []ast.Decl {
		tn, ok := c.Types.Defs[ts.Name].(*types.TypeName)
		if !ok {
			return nil
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || !isBased(n) || hasMethodsAt(n) {
			return nil
		}
		if !boxable(n) {
			return nil
		}
		pos := ts.Pos()
		return []ast.Decl{&ast.FuncDecl{
			Recv: &ast.FieldList{Opening: pos, List: []*ast.Field{{Type: ident(ts.Name.Name, pos)}}, Closing: pos},
			Name: ident(prelude.Boxed, pos),
			Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
			Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos},
		}}
	})
}

// boxedAtDeclaration reports whether boxBasic gave the based type n a
// method: it is declared at package level on a basic or function type.
func boxedAtDeclaration(n *types.Named) bool {
	obj := n.Obj()
	return boxable(n) && obj.Pkg() != nil && obj.Parent() == obj.Pkg().Scope()
}

// interpMethods reports whether the interpreter sees methods on a value
// of t or a pointer to one: the cells' own, or boxBasic's (which the type
// oracle does not see). Such a value is what yaegi boxes and wraps in
// interfaces.
func interpMethods(t types.Type) bool {
	if types.NewMethodSet(t).Len() > 0 || types.NewMethodSet(types.NewPointer(t)).Len() > 0 {
		return true
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && isBased(n) && boxedAtDeclaration(n)
}
