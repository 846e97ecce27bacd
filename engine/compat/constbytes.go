package compat

import (
	"go/ast"
	"go/constant"
	"go/types"
	"unicode/utf8"
)

// constBytes: a constant string converted to a byte or rune slice
// ([]byte("abc"), []rune("héllo"), Body("{}") of type Body []byte) has
// exactly its length as capacity in Go, where yaegi v0.16.1 converts at
// run time and the allocator rounds the capacity up (cap 8 for "abc"):
// a := []byte("abc"); b := append(a, 'd'); c := append(a, 'X') then
// wrote both appends into a's array (b said abcX), silently. The
// conversion is sliced to its length:
//
//	a := []byte("abc")   =>   a := []byte("abc")[:3:3]
//
// (A conversion of a string variable rounds up in Go too, the same way,
// but for a short slice that does not leave its function, which Go keeps
// on the stack: that depends on gc's escape analysis, KNOWN_FAILURES'
// escape-capacities.)
var constBytes = Pass{
	Name:     "constbytes",
	Run:      runConstBytes,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"const_byte_slices"},
}

func runConstBytes(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		kind := c.stringToSlice(call)
		if kind == types.Invalid {
			return true
		}
		tv := c.Types.Types[call.Args[0]]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			return true
		}
		t := c.Types.TypeOf(call)
		str := constant.StringVal(tv.Value)
		var n int
		switch kind {
		case types.Byte:
			n = len(str)
		case types.Rune:
			n = utf8.RuneCountInString(str)
		default:
			return true
		}
		pos := call.End()
		sl := &ast.SliceExpr{X: call, Lbrack: pos, High: intLit(n, pos), Max: intLit(n, pos), Slice3: true, Rbrack: pos}
		c.Types.Types[sl] = types.TypeAndValue{Type: t}
		for _, e := range []ast.Expr{sl.High, sl.Max} {
			c.Types.Types[e] = types.TypeAndValue{Type: types.Typ[types.Int], Value: constant.MakeInt64(int64(n))}
		}
		cur.Replace(sl)
		return true
	})
}
