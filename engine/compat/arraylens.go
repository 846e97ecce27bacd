package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// arrayLens: an array literal of elided length with keyed elements,
// [...]string{3: "c", 1: "a", "b"}, is written with its length, which the
// oracle knows:
//
//	[...]string{3: "c", 1: "a", "b"}  =>  [4]string{3: "c", 1: "a", "b"}
//
// yaegi v0.16.1 counts such a literal's length without going back to the
// highest index (an element after a lower key lengthened it): the array
// had one element too many, a zero at its end, silently.
var arrayLens = Pass{
	Name:     "arraylens",
	Run:      runArrayLens,
	Kinds:    []ast.Node{(*ast.CompositeLit)(nil)},
	Snippets: []string{"array_literal_keyed_length"},
}

func runArrayLens(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		lit, ok := cur.Node().(*ast.CompositeLit)
		if !ok {
			return true
		}
		at, ok := lit.Type.(*ast.ArrayType)
		if !ok {
			return true
		}
		if _, elided := at.Len.(*ast.Ellipsis); !elided || !keyed(lit) {
			return true
		}
		arr, ok := types.Unalias(c.Types.TypeOf(lit)).(*types.Array)
		if !ok {
			return true
		}
		at.Len = &ast.BasicLit{ValuePos: at.Len.Pos(), Kind: token.INT, Value: strconv.FormatInt(arr.Len(), 10)}
		return true
	})
}

// keyed reports whether one of lit's elements has a key.
func keyed(lit *ast.CompositeLit) bool {
	for _, e := range lit.Elts {
		if _, ok := e.(*ast.KeyValueExpr); ok {
			return true
		}
	}
	return false
}
