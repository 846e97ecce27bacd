package compat

import (
	"go/ast"
	"go/parser"
)

// newLists: new(T) with T an instance of a generic type written with two
// or more type arguments (new(SafeMap[string, int])) becomes
// func() *T { var v T; return &v }(). yaegi v0.16.1 resolves new's
// argument by a path that knows an index expression (Box[int]) but not
// an index list: its compiler dereferenced a nil type
// (interp/type.go:2065, refType, from _new), so the cell failed to
// compile; a variable of the type is made right. Passes that write new(T)
// themselves (nilconv's stand-in of a nil pointer, zeroValue's *new(T))
// meet it too, so this pass comes after them and also reads the
// declarations they add (Insts) and the statements run first (Before).
var newLists = Pass{
	Name:     "newlists",
	Run:      runNewLists,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)}, // (also in Insts, which kinds does not see)
	Snippets: []string{"new_generic_two_args"},
}

func runNewLists(c *Cell) {
	roots := c.Roots()
	for _, d := range c.Insts {
		roots = append(roots, d)
	}
	for _, s := range c.Before {
		roots = append(roots, s)
	}
	for _, root := range roots {
		ast.Inspect(root, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 || !isIdent(call.Fun, "new") {
				return true
			}
			if _, ok := ast.Unparen(call.Args[0]).(*ast.IndexListExpr); !ok {
				return true
			}
			t := ExprString(call.Args[0])
			v := tempPrefix + "New"
			lit, err := parser.ParseExpr("func() *" + t + " { var " + v + " " + t + "; return &" + v + " }")
			if err != nil {
				return true
			}
			lit = AtPos(lit, call.Pos())
			call.Fun, call.Args, call.Lparen, call.Rparen = lit, nil, call.Pos(), call.Pos()
			return true
		})
	}
}
