package compat

import (
	"go/ast"
	"go/types"
)

// nativeIfaceTypes: a type a cell declares on a native interface type
// (type Problem error, type Src io.Reader, type Shower fmt.Stringer).
// yaegi v0.16.1 gives such a type the native interface's reflect type and
// none of its own handling of the cells' interfaces, so a cell's value put
// in one (func mk() Problem { return E{"x"} }, a parameter, an element)
// panicked in reflect ("value of type struct {...} is not assignable to
// type error"). The declaration is written as an interface embedding the
// native one, which declares the same type in Go (an interface type is
// its method set) and which yaegi handles as a cell's interface:
//
//	type Problem error  =>  type Problem interface{ error }
var nativeIfaceTypes = Pass{
	Name:     "nativeifacetypes",
	Run:      runNativeIfaceTypes,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"types_on_native_interfaces"},
}

func runNativeIfaceTypes(c *Cell) {
	for _, ts := range c.typeSpecs() {
		if ts.Assign.IsValid() || ts.TypeParams != nil {
			continue
		}
		var id *ast.Ident
		switch t := ts.Type.(type) {
		case *ast.Ident:
			id = t
		case *ast.SelectorExpr:
			id = t.Sel
		default:
			continue
		}
		tn, ok := c.Types.ObjectOf(id).(*types.TypeName)
		if !ok || tn.IsAlias() || !types.IsInterface(tn.Type()) || tn.Pkg() != nil && tn.Pkg().Path() == c.Types.Pkg.Path() {
			continue
		}
		if _, named := tn.Type().(*types.Named); !named {
			continue // (any: interface{} itself)
		}
		pos := ts.Type.Pos()
		ts.Type = &ast.InterfaceType{Interface: pos, Methods: &ast.FieldList{Opening: pos, List: []*ast.Field{{Type: ts.Type}}, Closing: ts.Type.End()}}
	}
}
