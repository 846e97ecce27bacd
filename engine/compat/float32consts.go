package compat

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// float32Consts: a constant of a float32 type that yaegi v0.16.1 rounds
// twice, first to float64 and then to float32, where Go rounds its exact
// value once: an untyped constant returned or sent as a float32 (return
// c, ch <- c, with const c = 1 + 1.0/(1<<24) + 1.0/(1<<60)) was 1 where
// Go gives 1.0000001, and float32(big) of a const big int64 = 1<<60 +
// 1<<36 + 1 was 1.1529215e+18 where Go gives 1.1529216e+18, silently. The
// two differ only where the float64 lands halfway between two float32s.
// The constant is written as the float32 value the oracle computed,
// which float64 holds exactly:
//
//	return c       =>  return (float32)(1.0000001192092896)
//	float32(big)   =>  (float32)(1.1529216420458004e+18)
//
// A constant whose one rounding through float64 gives Go's value is left
// as it is (the commonest: 0.1, math.Pi); so are constant declarations,
// which constValues writes.
var float32Consts = Pass{
	Name:     "float32consts",
	Run:      runFloat32Consts,
	Kinds:    []ast.Node{(*ast.Ident)(nil), (*ast.CallExpr)(nil), (*ast.BinaryExpr)(nil), (*ast.BasicLit)(nil)},
	Snippets: []string{"float32_constants_rounded_once"},
}

func runFloat32Consts(c *Cell) {
	inConst := map[ast.Node]bool{}
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if gd, ok := n.(*ast.GenDecl); ok && gd.Tok == token.CONST {
				ast.Inspect(gd, func(m ast.Node) bool { inConst[m] = true; return true })
				return false
			}
			return true
		})
	}
	c.Apply(func(cur Cursor) bool {
		e, ok := cur.Node().(ast.Expr)
		if !ok || inConst[e] || !c.roundedTwice(e) {
			return true
		}
		tv := c.Types.Types[e]
		if x := c.constExpr(tv.Value, tv.Type, e.Pos()); x != nil {
			c.Types.Types[x] = tv
			cur.Replace(x)
		}
		return true
	})
}

// roundedTwice reports whether e is a constant of a float32 type whose
// value yaegi would round to float64 first to another value than Go's.
func (c *Cell) roundedTwice(e ast.Expr) bool {
	tv, ok := c.Types.Types[e]
	if !ok || tv.Value == nil || tv.Type == nil {
		return false
	}
	if b, ok := tv.Type.Underlying().(*types.Basic); !ok || b.Kind() != types.Float32 {
		return false
	}
	src := c.float64Source(e)
	if src == nil {
		return true // (an expression of constants: written once, as Go rounds it)
	}
	want, _ := constant.Float32Val(constant.ToFloat(tv.Value))
	f, _ := constant.Float64Val(constant.ToFloat(src))
	return float32(f) != want
}

// float64Source is the exact value yaegi rounds to a float64 for the
// constant e: a literal's, a named constant's, a conversion's operand's;
// nil for another expression.
func (c *Cell) float64Source(e ast.Expr) constant.Value {
	switch x := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return constant.MakeFromLiteral(x.Value, x.Kind, 0)
	case *ast.Ident:
		if k, ok := c.Types.ObjectOf(x).(*types.Const); ok {
			return k.Val()
		}
	case *ast.SelectorExpr: // (math.Pi)
		if k, ok := c.Types.ObjectOf(x.Sel).(*types.Const); ok {
			return k.Val()
		}
	case *ast.CallExpr:
		if len(x.Args) == 1 && c.Types.IsType(x.Fun) {
			if tv, ok := c.Types.Types[x.Args[0]]; ok && tv.Value != nil {
				return tv.Value
			}
		}
	}
	return nil
}
