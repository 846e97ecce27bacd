package compat

import "go/ast"

// parens: an identifier or literal in parentheses is written bare. yaegi
// v0.16.1 fails, with a nil dereference at run time, on a comparison
// whose left operand is one, when the comparison is the left operand of
// && or ||: "(i) < 3 || i > 4" (in its compilation of conditional
// branches, interp/cfg.go, the parenthesized operand has no value of its
// own). The parentheses mean nothing there, nor anywhere around an
// identifier or a literal.
var parens = Pass{
	Name:     "parens",
	Run:      runParens,
	Kinds:    []ast.Node{(*ast.ParenExpr)(nil)},
	Snippets: []string{"parens_left_of_or"},
}

func runParens(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		if p, ok := cur.Node().(*ast.ParenExpr); ok {
			switch x := ast.Unparen(p).(type) {
			case *ast.Ident, *ast.BasicLit:
				cur.Replace(x)
			}
		}
		return true
	})
}
