package compat

import (
	"go/ast"
	"go/constant"
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
//
// An array type whose length calls len, cap or unsafe.Sizeof of an
// earlier cell's variable ([len(a) * 2]bool, a := [4]string{} above) is
// written with the length too: yaegi's global analysis cannot evaluate it
// there, "variable definition loop". So is one given by a float constant
// ([N]int with const N = 1e2, [2.0]int): yaegi takes an array's length
// as an integer constant only ("constant definition loop", or a panic,
// "2 not an Int", interp/typecheck.go constToInt).
var arrayLens = Pass{
	Name:     "arraylens",
	Run:      runArrayLens,
	Kinds:    []ast.Node{(*ast.CompositeLit)(nil), (*ast.ArrayType)(nil)},
	Snippets: []string{"array_literal_keyed_length", "array_length_of_earlier_array"},
}

func runArrayLens(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		if at, ok := cur.Node().(*ast.ArrayType); ok {
			c.constArrayLen(at)
			return true
		}
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

// constArrayLen writes the length of an array type that calls a function
// (len(a) * 2) as the constant it is.
func (c *Cell) constArrayLen(at *ast.ArrayType) {
	if at.Len == nil {
		return
	}
	if lit, ok := at.Len.(*ast.BasicLit); ok && lit.Kind == token.INT {
		return
	}
	tv, ok := c.Types.Types[at.Len]
	if !ok || tv.Value == nil {
		return
	}
	n := constant.ToInt(tv.Value)
	if n.Kind() != constant.Int {
		return
	}
	calls, floats := false, false
	ast.Inspect(at.Len, func(n ast.Node) bool {
		_, isCall := n.(*ast.CallExpr)
		calls = calls || isCall
		if e, ok := n.(ast.Expr); ok {
			if tv, ok := c.Types.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.Float {
				floats = true
			}
		}
		return !calls
	})
	if calls || floats {
		at.Len = &ast.BasicLit{ValuePos: at.Len.Pos(), Kind: token.INT, Value: n.ExactString()}
	}
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
