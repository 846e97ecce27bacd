package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// rangePtrArrays: a range over a pointer to an array. yaegi v0.16.1
// keeps a hidden frame slot for the array ranged over just before the
// key's slot (interp/run.go:2803, _range's index2), but reserves it for
// arrays and slices only, not for a pointer to an array
// (interp/cfg.go:187, the ptrT case adds no dummy): the loop took the
// slot of the variable declared before it, which crashed in a method
// "func (m *Mat) Double() { for i := range m { ... } }" with a nil
// dereference, or overwrote that variable. The loop ranges over a slice
// of the array, which shares it as the pointer does:
//
//	for i, v := range m { body }  =>  for i, v := range m[:] { body }
//	for i := range m { body }     =>  for i := range [3]struct{}{} { body }
//
// With the key alone Go does not evaluate m (its length is a constant),
// so a nil m runs the loop; an array of empty structs of that length
// does the same. An m with a call or a receive in it is evaluated, as
// Go evaluates it, and ranged as a slice.
var rangePtrArrays = Pass{
	Name:     "rangeptrarrays",
	Run:      runRangePtrArrays,
	Kinds:    []ast.Node{(*ast.RangeStmt)(nil)},
	Snippets: []string{"range_pointer_to_array_in_method", "range_pointer_to_array_type_param"},
}

func runRangePtrArrays(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		s, ok := cur.Node().(*ast.RangeStmt)
		if !ok {
			return true
		}
		p, ok := rangedType(c.Types.TypeOf(s.X)).(*types.Pointer)
		if !ok {
			return true
		}
		a, ok := p.Elem().Underlying().(*types.Array)
		if !ok {
			return true
		}
		pos := s.X.Pos()
		if (s.Value == nil || isIdent(s.Value, "_")) && sideEffectFree(s.X) {
			s.X = &ast.CompositeLit{
				Type: &ast.ArrayType{Lbrack: pos, Len: &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: strconv.FormatInt(a.Len(), 10)},
					Elt: &ast.StructType{Struct: pos, Fields: &ast.FieldList{Opening: pos, Closing: pos}}},
				Lbrace: pos, Rbrace: pos,
			}
			return true
		}
		s.X = &ast.SliceExpr{X: s.X, Lbrack: pos, Rbrack: s.X.End()}
		return true
	})
}
