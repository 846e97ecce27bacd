package compat

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
)

// minMax: the builtins min and max (Go 1.21), which yaegi v0.16.1 lacks.
// The prelude declares them as generic functions of one variadic
// parameter (a -0 argument would otherwise arrive as +0), and yaegi can
// infer no type argument from variadic arguments, nor the right one from
// the first argument of several (min(1, x) with x a float64 ran as
// min[int]). The call gets the type argument the oracle knows: min(1, x)
// becomes min[float64](1, x). A call of constants is a constant, its
// value written in its place as Go folds it (max(1, 2) is 2): the
// generic call in the header of an if, for or switch among a cell's
// statements failed with "constant definition loop".
var minMax = Pass{
	Name:     "minmax",
	Run:      runMinMax,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"builtin_min_untyped_first", "builtin_min_max", "builtin_max_constant_header"},
}

func runMinMax(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		if c.bareMinMax(call) {
			if t := c.Types.TypeOf(call); t != nil {
				if v := c.Types.Types[call].Value; v != nil {
					if x := c.constExpr(v, t, call.Pos()); x != nil {
						cur.Replace(x)
						return true
					}
				}
			}
		}
		c.typeMinMax(call, cur.Parent())
		return true
	})
}

// typeMinMax gives a call of min or max the type argument the oracle
// knows, and reports whether it did.
func (c *Cell) typeMinMax(call *ast.CallExpr, parent ast.Node) bool {
	if !c.bareMinMax(call) {
		return false
	}
	t := c.Types.TypeOf(call)
	if t == nil {
		return false
	}
	targ, ok := c.TypeExpr(types.Default(t), call.Fun.Pos())
	if ok {
		setTypeArgs(call, padTypeParam(parent, []ast.Expr{targ}, []types.Type{types.Default(t)}))
	}
	return ok
}

// typedSource is Go source for e, of the cell, with its calls of min and
// max given their type arguments: for code a pass writes as text from the
// cell's expressions (the bounds checks), which this pass, running later,
// cannot type (without them the interpreter infers none: "undefined type
// for _grundyT").
func (c *Cell) typedSource(e ast.Expr) string {
	type undo struct {
		call *ast.CallExpr
		fun  ast.Expr
	}
	var undos []undo
	var parent []ast.Node
	ast.Inspect(e, func(n ast.Node) bool {
		if n == nil {
			parent = parent[:len(parent)-1]
			return true
		}
		if call, ok := n.(*ast.CallExpr); ok {
			var p ast.Node
			if len(parent) > 0 {
				p = parent[len(parent)-1]
			}
			fun := call.Fun
			if c.typeMinMax(call, p) {
				undos = append(undos, undo{call, fun})
			}
		}
		parent = append(parent, n)
		return true
	})
	src := ExprString(e)
	for _, u := range slices.Backward(undos) {
		u.call.Fun = u.fun
	}
	return src
}

// constExpr writes the constant v of type t as an expression at pos
// (T(v) for a typed constant), or nil when it cannot.
func (c *Cell) constExpr(v constant.Value, t types.Type, pos token.Pos) ast.Expr {
	src, ok := constSource(v, t)
	if !ok {
		return nil
	}
	x, err := parser.ParseExpr(src)
	if err != nil {
		return nil
	}
	x = AtPos(x, pos)
	if isUntyped(t) {
		return x
	}
	tx, ok := c.TypeExpr(t, pos)
	if !ok {
		return nil
	}
	return &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: pos, X: tx, Rparen: pos}, Lparen: pos, Args: []ast.Expr{x}, Rparen: pos}
}

// bareMinMax reports whether call calls the builtin min or max with
// arguments and no type argument yet.
func (c *Cell) bareMinMax(call *ast.CallExpr) bool {
	_, bare := call.Fun.(*ast.Ident)
	return bare && len(call.Args) > 0 && c.isMinMax(call)
}
