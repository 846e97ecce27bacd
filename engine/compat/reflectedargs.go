package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/prelude"
)

// reflectedArgs: an empty interface handed to a native function that
// reflects on the value in it (sort.Slice(v, less) with v an any holding
// a Hand, type Hand []int, or a []Heap; binary.Write of one): yaegi
// v0.16.1 keeps a value of a cell type in an any in its box, a struct
// (see boxed), and hands the box over, so sort.Slice panicked "reflect:
// call of Swapper on struct Value" and binary.Write said "not
// fixed-sized in type interp.valueInterface". The value is taken out of
// the box first; it shares the slice's array, so sorting sorts it:
//
//	sort.Slice(v, less)  =>  sort.Slice(grundyrt.Unwrap(v), less)
var reflectedArgs = Pass{
	Name:     "reflectedargs",
	Run:      runReflectedArgs,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"sort_slice_of_boxed_any"},
}

// reflecting are the native functions that reflect on a value they are
// handed in an empty interface, by full name, with that parameter's index.
var reflecting = map[string]int{
	"sort.Slice":            0,
	"sort.SliceStable":      0,
	"sort.SliceIsSorted":    0,
	"encoding/binary.Write": 2,
	"encoding/binary.Size":  0,
}

func runReflectedArgs(c *Cell) {
	if !c.boxesBasic() {
		return // (no box to take a value out of)
	}
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		i, ok := c.nativeArg(call, reflecting)
		if !ok || !emptyIface(c.Types.TypeOf(call.Args[i])) {
			return true
		}
		a := call.Args[i]
		unwrapped := &ast.CallExpr{Fun: rtSelector(prelude.RTUnwrap, a.Pos()), Lparen: a.Pos(), Args: []ast.Expr{a}, Rparen: a.End()}
		c.Types.Types[unwrapped] = types.TypeAndValue{Type: c.Types.TypeOf(a)}
		call.Args[i] = unwrapped
		return true
	})
}
