package compat

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"grundy/engine/prelude"
)

// ptrArrayLens: len(p) and cap(p) of a pointer to an array, which Go
// defines as the array's length without reading p (a constant when p has
// no call or receive in it), so a nil p has a length. yaegi v0.16.1 reads
// the array through the pointer (interp/run.go:3381, _len's Elem), and a
// nil p panicked with a nil dereference. The constant is written in
// place, with its type: len(p) => int(3); where p is not a constant
// (len(f()), len(<-c)), p is evaluated and handed to a function that
// returns the length: grundyrt.ArrayLen(f(), 3).
var ptrArrayLens = Pass{
	Name:     "ptrarraylens",
	Run:      runPtrArrayLens,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"len_of_nil_pointer_to_array"},
}

func runPtrArrayLens(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call := c.builtinCall(cur.Node(), "len", "cap")
		if call == nil {
			return true
		}
		switch t := typeUnder(c.Types.TypeOf(call.Args[0])).(type) {
		case *types.Pointer:
			a, ok := typeUnder(t.Elem()).(*types.Array)
			if tv, known := c.Types.Types[call]; ok && known && tv.Value == nil {
				pos := call.Pos()
				n := &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: itoa(int(a.Len()))}
				x := &ast.CallExpr{Fun: rtSelector(prelude.RTArrayLen, pos), Lparen: pos, Rparen: call.End() - 1, Args: []ast.Expr{call.Args[0], n}}
				c.Types.Types[x] = tv // an int, for the passes after (range len(f()))
				cur.Replace(x)
				return true
			}
		case *types.Array:
			if _, plain := ast.Unparen(call.Args[0]).(*ast.Ident); plain {
				return true // (read as it is, as an array variable has nothing to dereference)
			}
		default:
			return true
		}
		tv, ok := c.Types.Types[call]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			return true
		}
		pos := call.Pos()
		x := &ast.CallExpr{Fun: ident("int", pos), Lparen: pos, Rparen: call.End() - 1,
			Args: []ast.Expr{&ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: tv.Value.ExactString()}}}
		c.Types.Types[x] = tv // an int constant, for the passes after (range len(p): rangeInt)
		cur.Replace(x)
		return true
	})
}
