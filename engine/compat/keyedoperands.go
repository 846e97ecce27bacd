package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// keyedOperands: a struct literal with keys in the left operand of && or
// || (memo[P{a: x, b: y}] || ..., isOne(P{a: x, b: y}) && ...) is
// written positionally when it names every field once, in any order, and
// its values call nothing (so their order does not matter). yaegi v0.16.1
// makes the first node a && or || evaluates a branch when that node does
// nothing itself (interp/cfg.go, landExpr and lorExpr: "if
// n.start.action == aNop { n.start.gen = branch }"), meant for a bool
// variable; a literal's first key-value pair is such a node, so the
// literal was never built: the operand read a zero struct (the memo never
// hit, silently), and at a cell's top level it panicked ("call of
// reflect.Value.Bool on interface Value"). A positional literal starts
// with the literal itself. An operand with keys left (a map literal's,
// an array's) goes after a constant: (0 == 0 && m[k] > 0) || ..., whose
// branch is the constant's.
var keyedOperands = Pass{
	Name:     "keyedoperands",
	Run:      runKeyedOperands,
	Kinds:    []ast.Node{(*ast.KeyValueExpr)(nil), (*ast.StructType)(nil)},
	Snippets: []string{"keyed_literal_in_condition"},
}

func runKeyedOperands(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			b, ok := n.(*ast.BinaryExpr)
			if !ok || b.Op != token.LAND && b.Op != token.LOR {
				return true
			}
			ast.Inspect(b.X, func(n ast.Node) bool {
				if cl, ok := n.(*ast.CompositeLit); ok {
					c.positional(cl)
				}
				return true
			})
			if contains(b.X, false, func(n ast.Node) bool { _, ok := n.(*ast.KeyValueExpr); return ok || anonStructLit(n) }) {
				// Keys left (a map's, an array's, a struct literal's
				// whose values call), or a literal of an unnamed struct
				// type (g(struct{ n int }{1}) && ...: its type's node
				// does nothing either): the operand goes after a
				// constant true, which takes the branch (0 == 0 &&
				// m[k] > 0).
				pos := b.X.Pos()
				yes := &ast.BinaryExpr{X: &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "0"}, OpPos: pos, Op: token.EQL, Y: &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "0"}}
				b.X = &ast.ParenExpr{Lparen: pos, X: &ast.BinaryExpr{X: yes, OpPos: pos, Op: token.LAND, Y: b.X}, Rparen: b.X.End()}
			}
			return true
		})
	}
}

// positional writes cl, a struct literal with keys, in the fields' order
// without keys, when its values call nothing.
func (c *Cell) positional(cl *ast.CompositeLit) {
	st, ok := typeUnder(c.Types.TypeOf(cl)).(*types.Struct)
	if !ok || len(cl.Elts) == 0 {
		return
	}
	byName := map[string]ast.Expr{}
	for _, e := range cl.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return
		}
		id, ok := kv.Key.(*ast.Ident)
		if !ok || contains(kv.Value, true, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				return !c.Types.IsType(x.Fun)
			case *ast.UnaryExpr:
				return x.Op == token.ARROW
			}
			return false
		}) {
			return
		}
		byName[id.Name] = kv.Value
	}
	elts := make([]ast.Expr, st.NumFields())
	for i := range st.NumFields() {
		v, ok := byName[st.Field(i).Name()]
		if !ok {
			t, ok := c.TypeExpr(st.Field(i).Type(), cl.Lbrace)
			if !ok {
				return
			}
			v = c.zeroOf(st.Field(i).Type(), t, cl.Lbrace) // a field left out
		}
		elts[i] = v
	}
	cl.Elts = elts
	c.addParamValues(cl)
}

// anonStructLit reports whether n is a literal of an unnamed struct type
// written out (struct{ n int }{1}).
func anonStructLit(n ast.Node) bool {
	cl, ok := n.(*ast.CompositeLit)
	if !ok {
		return false
	}
	_, ok = cl.Type.(*ast.StructType)
	return ok
}
