package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/typecheck"
)

// returnedFuncs: a value of a function type a cell declares returned as
// an expression with operands of its own (return s.Get(), return f.A(),
// return r.routes[k], with Get returning a HandlerFunc). yaegi v0.16.1's
// return statement sets the type of each operand's node to that node
// (interp/cfg.go:1785, "c.typ.node = c"), which for a named type is the
// type itself, shared: the type's node became the returned expression,
// and yaegi, which tells a generic function by its type's node having
// children in its first child (interp/type.go:2399, isGeneric), took
// every later call of a value of the type for a call of a generic
// function, and failed to compile it (a nil dereference in
// inferTypesFromCall): "the interpreter cannot compile this" at h(1), in
// any cell after. The operand is returned converted to its own type,
// whose first child is the type's name:
//
//	return s.Get()  =>  return HF(s.Get())
//
// (The function a generic call returns: see genericReturns.)
var returnedFuncs = Pass{
	Name:     "returnedfuncs",
	Run:      runReturnedFuncs,
	Kinds:    []ast.Node{(*ast.ReturnStmt)(nil)},
	Snippets: []string{"return_func_type_from_method"},
}

func runReturnedFuncs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		ret, ok := cur.Node().(*ast.ReturnStmt)
		if !ok || cur.TopLevel() {
			return true
		}
		for i, r := range ret.Results {
			n, ok := types.Unalias(c.Types.TypeOf(r)).(*types.Named)
			if !ok || !typecheck.IsCellType(n) || n.TypeParams().Len() > 0 || n.TypeArgs().Len() > 0 || !compoundFirst(r) {
				continue
			}
			if _, sig := n.Underlying().(*types.Signature); !sig {
				continue
			}
			te, ok := c.TypeExpr(n, r.Pos())
			if _, named := te.(*ast.Ident); !ok || !named {
				continue
			}
			conv := &ast.CallExpr{Fun: te, Lparen: r.Pos(), Args: []ast.Expr{r}, Rparen: r.End()}
			c.Types.Types[conv] = types.TypeAndValue{Type: n}
			ret.Results[i] = conv
		}
		return true
	})
}

// compoundFirst reports whether the first operand of e, as yaegi's syntax
// tree has it, has operands of its own: a call of s.Get, a selector or
// an index on something other than a name.
func compoundFirst(e ast.Expr) bool {
	var first ast.Expr
	switch x := e.(type) {
	case *ast.CallExpr:
		first = x.Fun
	case *ast.SelectorExpr:
		first = x.X
	case *ast.IndexExpr:
		first = x.X
	case *ast.ParenExpr:
		first = x.X
	case *ast.TypeAssertExpr:
		first = x.X
	case *ast.StarExpr:
		first = x.X
	default:
		return false
	}
	switch first.(type) {
	case *ast.Ident, *ast.BasicLit:
		return false
	}
	return true
}
