package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// runeDefines: a variable a cell's top-level statements define from an
// untyped rune constant (x := 'a', c := 'a' + 1, the init of a top-level
// for, if or switch: for c := 'a'; c <= 'z'; c++) is a rune in Go; yaegi
// v0.16.1 made it an int. Its global analysis types such a definition
// first (interp/gta.go:42, through nodeType), which turns the rune
// literal's value into a constant.Value (interp/type.go:520); typing it
// again in the control flow pass then finds an untyped int constant, not
// a rune. So %T said int, any(x).(rune) failed, and []rune{x} or
// var r rune = x did not compile ("cannot use type int as type int32").
// Inside functions and nested blocks the global analysis does not look,
// and var x = 'a' is typed once. The value is written converted to rune:
//
//	c := 'a' + 1  =>  c := rune('a' + 1)
var runeDefines = Pass{
	Name:     "runedefines",
	Run:      runRuneDefines,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"rune_defines_top_level"},
}

func runRuneDefines(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		s, ok := cur.Node().(*ast.AssignStmt)
		if !ok || s.Tok != token.DEFINE || !cur.TopLevel() || len(s.Lhs) != len(s.Rhs) {
			return true
		}
		for i, r := range s.Rhs {
			if c.untypedRune(r) {
				s.Rhs[i] = &ast.CallExpr{Fun: ident("rune", r.Pos()), Lparen: r.Pos(), Args: []ast.Expr{r}, Rparen: r.End()}
				c.Types.Types[s.Rhs[i]] = types.TypeAndValue{Type: types.Universe.Lookup("rune").Type()}
			}
		}
		return true
	})
}

// untypedRune reports whether e is an untyped rune constant expression:
// the oracle records it with its default type, rune, and no typed
// constant or conversion is in it.
func (c *Cell) untypedRune(e ast.Expr) bool {
	tv, ok := c.Types.Types[e]
	if !ok || tv.Value == nil || tv.Type == nil {
		return false
	}
	b, ok := tv.Type.(*types.Basic)
	return ok && b.Kind() == types.Int32 && !c.typedConstOperand(e)
}
