package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
)

// newInstances: new(T) with T an instance of a generic type (new(Stack[int]),
// new(SafeMap[string, int])) becomes func() *T { var v T; return &v }().
// yaegi v0.16.1 resolves new's argument as an expression, not a type:
// with two or more type arguments its compiler dereferenced a nil type
// (interp/type.go:2065, refType, from _new); with one it looks the
// instance up by name (interp/cfg.go:968), and one no code had made yet
// was not found ("type not found: main.Stack[int]", new(Stack[int]) in a
// function beside a Stack[rune]). A variable's type is a type, which
// makes the instance; an instance of a struct type with one type argument
// and none a type parameter is made by a literal instead, &Stack[int]{},
// which costs no call (a loop making Box values ran three times as long
// through the function). Passes that write new(T)
// themselves (nilconv's stand-in of a nil pointer, zeroValue's *new(T))
// meet it too, so this pass comes after them and also reads the
// declarations they add (Insts) and the statements run first (Before).
var newInstances = Pass{
	Name:     "newinstances",
	Run:      runNewInstances,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)}, // (also in Insts, which kinds does not see)
	Snippets: []string{"new_generic_two_args"},
}

func runNewInstances(c *Cell) {
	roots := c.Roots()
	for _, d := range c.Insts {
		roots = append(roots, d)
	}
	for _, s := range c.Before {
		roots = append(roots, s)
	}
	for _, root := range roots {
		astutil.Apply(root, nil, func(cur *astutil.Cursor) bool {
			call, ok := cur.Node().(*ast.CallExpr)
			if !ok || len(call.Args) != 1 || !isIdent(call.Fun, "new") {
				return true
			}
			arg := ast.Unparen(call.Args[0])
			_, ptr := arg.(*ast.StarExpr)
			for {
				star, ok := arg.(*ast.StarExpr)
				if !ok {
					break
				}
				arg = ast.Unparen(star.X)
			}
			switch arg.(type) {
			case *ast.IndexListExpr, *ast.IndexExpr:
			default:
				return true
			}
			if _, one := arg.(*ast.IndexExpr); one && !ptr && c.structInstance(call.Args[0]) {
				// &Box[int]{}: as new makes it, and without a call.
				lit := &ast.CompositeLit{Type: call.Args[0], Lbrace: call.Pos(), Rbrace: call.Pos()}
				cur.Replace(&ast.UnaryExpr{OpPos: call.Pos(), Op: token.AND, X: lit})
				return true
			}
			t := ExprString(call.Args[0])
			v := tempPrefix + "New"
			src := "func() *" + t + " { var " + v + " " + t + "; return &" + v + " }"
			args := []ast.Expr(nil)
			if ptr {
				// new(*entry[K, V]) (zeroValue's of a pointer): a
				// variable of the type, in a function, was compiled as
				// an expression too (no type for the index list); a
				// parameter's type is compiled as a type.
				src = "func(" + v + " " + t + ") *" + t + " { return &" + v + " }"
				args = []ast.Expr{ident("nil", call.Pos())}
			}
			lit, err := parser.ParseExpr(src)
			if err != nil {
				return true
			}
			lit = AtPos(lit, call.Pos())
			call.Fun, call.Args, call.Lparen, call.Rparen = lit, args, call.Pos(), call.Pos()
			return true
		})
	}
}

// structInstance reports whether t, a type expression, is an instance of
// a generic struct type with no type parameter among its type arguments,
// as the oracle knows it (not a node an earlier pass wrote).
func (c *Cell) structInstance(t ast.Expr) bool {
	tt := c.Types.TypeOf(t)
	if tt == nil || hasTypeParam(tt) {
		return false
	}
	n, ok := types.Unalias(tt).(*types.Named)
	if !ok || n.TypeArgs().Len() == 0 {
		return false
	}
	_, ok = n.Underlying().(*types.Struct)
	return ok
}
