package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"grundy/engine/prelude"
)

// ifaceCompare: x == y and x != y, with x or y of an interface type and
// neither nil, compare the values inside yaegi's wrappers. yaegi v0.16.1
// holds a cell type's value in an interface as a wrapper with the node
// that made it (valueInterface, interp/value.go), and compares wrappers:
// two equal values of a cell type with methods in a non-empty interface
// were unequal; comparing errors panicked (their wrappers hold a func:
// "comparing uncomparable type interp._error"), and each conversion makes
// a new one. (The keys of a value of a type on a basic type with methods,
// type Nim int, carry its name, which the value inside the wrapper lacks:
// any(Nim(3)) is not any(3).)
var ifaceCompare = Pass{
	Name:     "ifacecompare",
	Run:      runIfaceCompare,
	Kinds:    []ast.Node{(*ast.BinaryExpr)(nil)},
	Snippets: []string{"errors_compare_sentinels", "iface_compare_cell_values"},
}

func runIfaceCompare(c *Cell) {
	isIface := func(e ast.Expr) bool {
		t := c.Types.TypeOf(e)
		_, param := t.(*types.TypeParam)
		return t != nil && !param && types.IsInterface(t)
	}
	c.Apply(func(cur Cursor) bool {
		b, ok := cur.Node().(*ast.BinaryExpr)
		if !ok || b.Op != token.EQL && b.Op != token.NEQ || isIdent(b.X, "nil") || isIdent(b.Y, "nil") {
			return true
		}
		if !isIface(b.X) && !isIface(b.Y) {
			return true
		}
		key := func(e ast.Expr) ast.Expr {
			v := e
			if conv, ok := e.(*ast.CallExpr); ok && len(conv.Args) == 1 && c.Types.IsType(conv.Fun) && types.IsInterface(c.Types.TypeOf(conv.Fun)) {
				// any(Nim(3)): the interpreter hands native code the
				// bare value of a conversion.
				v = conv.Args[0]
			}
			if n, ok := types.Unalias(c.Types.TypeOf(v)).(*types.Named); ok && isBased(n) && boxed(n) {
				e = v
				// Keyed with its name, as the value in the other
				// operand's box is.
				name := &ast.BasicLit{ValuePos: e.Pos(), Kind: token.STRING, Value: strconv.Quote(reflectString(n, false))}
				return &ast.CallExpr{Fun: rtSelector(prelude.RTCompareKeyAs, e.Pos()), Args: []ast.Expr{e, name}, Lparen: e.Pos(), Rparen: e.End()}
			}
			return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(prelude.Runtime, e.Pos()), Sel: ident(prelude.RTCompareKey, e.Pos())}, Args: []ast.Expr{e}, Lparen: e.Pos(), Rparen: e.End()}
		}
		b.X, b.Y = key(b.X), key(b.Y)
		return true
	})
}
