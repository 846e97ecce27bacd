package compat

import (
	"go/ast"
	"go/types"
)

// pkgConsts: a constant expression that combines a native package's
// untyped constant with a literal or a cell's untyped constant by an
// operator (0.5 * math.Pi, math.Pi * 2.5, math.MaxInt8 * 1e2) is written
// as its exact value, from the oracle. yaegi v0.16.1 gives the package's
// constant the type "untyped float64" and refuses to combine it with an
// untyped float ("invalid operation: mismatched types untyped float64 and
// untyped float"); math.Pi * 2 and a float64 variable times math.Pi
// compiled. Only floats: runeConsts writes runes.
var pkgConsts = Pass{
	Name:     "pkgconsts",
	Run:      runPkgConsts,
	Kinds:    []ast.Node{(*ast.BinaryExpr)(nil)},
	Snippets: []string{"package_consts_times_floats"},
}

func runPkgConsts(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		b, ok := cur.Node().(*ast.BinaryExpr)
		if !ok {
			return true
		}
		tv, ok := c.Types.Types[b]
		if !ok || tv.Value == nil || !isFloatType(tv.Type) || !c.untypedConst(b) || !c.mentionsPkgConst(b) {
			return true
		}
		if _, parent := cur.Parent().(*ast.BinaryExpr); parent {
			if ptv, ok := c.Types.Types[cur.Parent().(ast.Expr)]; ok && ptv.Value != nil && isFloatType(ptv.Type) {
				return true // the whole constant is written where it ends
			}
		}
		if x := c.constExpr(tv.Value, tv.Type, b.Pos()); x != nil {
			cur.Replace(x)
		}
		return true
	})
}

// mentionsPkgConst reports whether e names a constant of a native package.
func (c *Cell) mentionsPkgConst(e ast.Expr) bool {
	return contains(e, false, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		k, ok := c.Types.Uses[sel.Sel].(*types.Const)
		return ok && k.Pkg() != nil && k.Pkg().Path() != "main"
	})
}

// isFloatType reports whether t is a floating-point type, typed or not.
func isFloatType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}
