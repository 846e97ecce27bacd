package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/typecheck"
)

// nativeVariadics: values of cell types among the variadic arguments of a
// native function whose variadic parameter is a non-empty interface,
// io.MultiReader(r, &repeat{...}). yaegi v0.16.1 wraps a cell value for a
// native interface parameter in a value with its methods, but for a
// variadic argument it asks for a wrapper of the parameter's slice type,
// not of its element (interp/run.go:1506, defType = funcType.In(variadic)),
// gets the bare value, and reflect panics in Call ("cannot use *struct
// {...} as type io.Reader"). A slice literal of the element type wraps
// each element, so the arguments are passed as one: io.MultiReader(
// []io.Reader{r, &repeat{...}}...).
var nativeVariadics = Pass{
	Name:     "nativevariadics",
	Run:      runNativeVariadics,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"native_variadic_cell_values"},
}

func runNativeVariadics(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || call.Ellipsis.IsValid() {
			return true
		}
		fn := c.callee(call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() == "main" || stdGeneric[fn.Pkg().Path()] {
			return true
		}
		sig, ok := fn.Type().(*types.Signature)
		if !ok || !sig.Variadic() {
			return true
		}
		last := sig.Params().Len() - 1
		slice, ok := sig.Params().At(last).Type().(*types.Slice)
		if !ok || !types.IsInterface(slice.Elem()) || slice.Elem().Underlying().(*types.Interface).Empty() {
			return true
		}
		if types.Identical(slice.Elem(), types.Universe.Lookup("error").Type()) {
			return true // the error passes make cell errors native (errors.Join)
		}
		if len(call.Args) <= last || !c.anyCellValue(call.Args[last:]) {
			return true
		}
		c.packVariadic(call, last, slice)
		return true
	})
}

// packVariadic passes call's arguments from first on as one slice
// literal of the variadic parameter's type, with an ellipsis:
// f(a, b, c) => f(a, []T{b, c}...).
func (c *Cell) packVariadic(call *ast.CallExpr, first int, slice *types.Slice) {
	st, ok := c.TypeExpr(slice, call.Args[first].Pos())
	if !ok {
		return
	}
	lit := &ast.CompositeLit{Type: st, Lbrace: call.Args[first].Pos(), Elts: call.Args[first:], Rbrace: call.Rparen}
	c.Types.Types[lit] = types.TypeAndValue{Type: slice} // (for ifaceCopies, which copies its elements in)
	call.Args = append(call.Args[:first:first], lit)
	call.Ellipsis = call.Rparen
}

// anyCellValue reports whether one of args is of a cell type (or a
// pointer to one) that is not an interface.
func (c *Cell) anyCellValue(args []ast.Expr) bool {
	for _, a := range args {
		t := c.Types.TypeOf(a)
		if t == nil || types.IsInterface(t) {
			continue
		}
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if typecheck.IsCellType(t) {
			return true
		}
	}
	return false
}
