package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// unsafeConsts: unsafe.Sizeof, Alignof and Offsetof of a value whose type
// is known are constants, which the oracle computes (go/types' sizes are
// gc's on amd64), so the call is written as its value:
//
//	unsafe.Sizeof(x)  =>  uintptr(4)
//
// yaegi v0.16.1 has no table for unsafe unless it is given its unrestricted
// symbols (which also convert pointers behind the interpreter's back), and
// its Sizeof would measure the interpreter's own layout of a cell's types
// (an interface field is larger there). Any other use of unsafe, and the
// size of a type parameter's value (not a constant), is refused.
var unsafeConsts = Pass{
	Name:     "unsafeconsts",
	Run:      runUnsafeConsts,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil)},
	Snippets: []string{"unsafe_sizeof_constants"},
}

func runUnsafeConsts(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		if c.err != nil {
			return false
		}
		switch n := cur.Node().(type) {
		case *ast.SelectorExpr:
			if !c.isUnsafe(n) {
				return true
			}
			if call, ok := cur.Parent().(*ast.CallExpr); ok && call.Fun == n {
				return true // the call decides
			}
			c.Fail(n.Pos(), "%s: the package unsafe is not available in cells (the engine computes unsafe.Sizeof, Alignof and Offsetof of values of known types; nothing else)", ExprString(n))
			return false
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok || !c.isUnsafe(sel) {
				return true
			}
			switch sel.Sel.Name {
			case "Sizeof", "Alignof", "Offsetof":
			default:
				c.Fail(n.Pos(), "%s: the package unsafe is not available in cells (the engine computes unsafe.Sizeof, Alignof and Offsetof of values of known types; nothing else)", ExprString(sel))
				return false
			}
			tv, ok := c.Types.Types[n]
			if !ok || tv.Value == nil {
				c.Fail(n.Pos(), "%s: the size of a value whose type is a type parameter is not a constant, and the interpreter has no unsafe package to measure it; pass the size to the generic function, or call unsafe.%s where the type is known", ExprString(n), sel.Sel.Name)
				return false
			}
			u, _ := strconv.ParseUint(tv.Value.ExactString(), 10, 64)
			cur.Replace(&ast.CallExpr{Fun: ident("uintptr", n.Pos()), Lparen: n.Lparen,
				Args: []ast.Expr{&ast.BasicLit{ValuePos: n.Lparen + 1, Kind: token.INT, Value: strconv.FormatUint(u, 10)}}, Rparen: n.Rparen})
		}
		return true
	})
}

// isUnsafe reports whether sel names something of the package unsafe.
func (c *Cell) isUnsafe(sel *ast.SelectorExpr) bool {
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	pn, ok := c.Types.Uses[id].(*types.PkgName)
	return ok && pn.Imported().Path() == "unsafe"
}
