package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// runeConsts: an untyped rune constant that takes its default type, rune,
// where yaegi v0.16.1 gives it int, is written converted to rune:
//
//	c := 'a' + 1          =>  c := rune('a' + 1)
//	bad := utf8.RuneError  =>  bad := rune(utf8.RuneError)
//
// Two places:
//   - a variable a cell's top-level statements define (x := 'a', the
//     init of a top-level for, if or switch: for c := 'a'; c <= 'z'; c++).
//     yaegi's global analysis types such a definition first
//     (interp/gta.go:42, through nodeType), which turns the rune literal's
//     value into a constant.Value (interp/type.go:520); typing it again in
//     the control flow pass then finds an untyped int constant. Inside
//     functions and nested blocks the global analysis does not look, and
//     var x = 'a' is typed once.
//   - a package's rune constant (utf8.RuneError, unicode.MaxRune,
//     unicode.ReplacementChar), anywhere: the symbol tables hold its
//     value as a constant.Value, which yaegi types as an untyped int.
//
// So %T said int, any(x).(rune) was false, and []rune{x}, var r rune = x,
// r > x or returning x from a func(rune) rune did not compile ("cannot
// use type int as type int32", "mismatched types rune and int").
var runeConsts = Pass{
	Name:     "runeconsts",
	Run:      runRuneConsts,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil), (*ast.SelectorExpr)(nil)},
	Snippets: []string{"rune_defines_top_level", "rune_consts_of_packages"},
}

func runRuneConsts(c *Cell) {
	wrapped := map[ast.Node]bool{}
	asRune := func(e ast.Expr) ast.Expr {
		x := &ast.CallExpr{Fun: ident("rune", e.Pos()), Lparen: e.Pos(), Args: []ast.Expr{e}, Rparen: e.End()}
		c.Types.Types[x] = types.TypeAndValue{Type: types.Universe.Lookup("rune").Type()}
		wrapped[x] = true
		return x
	}
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE || !cur.TopLevel() || len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, r := range n.Rhs {
				if !wrapped[r] && c.untypedRune(r) {
					n.Rhs[i] = asRune(r)
				}
			}
		case ast.Expr:
			if c.packageRune(n, wrapped) {
				cur.Replace(asRune(n))
			}
		}
		return true
	})
}

// untypedRune reports whether e is an untyped rune constant expression
// taking its default type: the oracle records it as a rune, and no typed
// constant or conversion is in it.
func (c *Cell) untypedRune(e ast.Expr) bool {
	tv, ok := c.Types.Types[e]
	if !ok || tv.Value == nil || tv.Type == nil {
		return false
	}
	b, ok := tv.Type.(*types.Basic)
	return ok && b.Kind() == types.Int32 && !c.typedConstOperand(e)
}

// packageRune reports whether e is a constant the oracle records as a
// rune, not a conversion, with a package's untyped rune constant in it
// (utf8.RuneError, unicode.MaxASCII + 1; the operands of a constant
// expression stay untyped) that is not already converted.
func (c *Cell) packageRune(e ast.Expr, wrapped map[ast.Node]bool) bool {
	if call, ok := e.(*ast.CallExpr); ok && (wrapped[call] || c.Types.IsType(call.Fun)) {
		return false
	}
	tv, ok := c.Types.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	if b, ok := tv.Type.(*types.Basic); !ok || b.Kind() != types.Int32 {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found || wrapped[n] {
			return false
		}
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok {
			if _, ok := c.Types.Uses[x].(*types.PkgName); ok {
				if k, ok := c.Types.Uses[sel.Sel].(*types.Const); ok {
					b, _ := k.Type().(*types.Basic)
					found = b != nil && b.Kind() == types.UntypedRune
				}
			}
		}
		return false
	})
	return found
}
