package compat

import (
	"go/ast"
	"go/types"
)

// returnFuncs: a function a cell declares, returned as a value (return
// double, from a func() func(int) int, or return f after f := double). yaegi v0.16.1 returns the
// function's node where the result's frame slot holds a Go function (the
// funcT case of _return takes genValue, interp/run.go:2432), and the
// return panicked "reflect.Set: value of type *interp.node is not
// assignable to type func(int) int". A conversion to the result's type
// makes the Go function yaegi stores everywhere else:
//
//	return double  =>  return (func(int) int)(double)
//
// (To the underlying function type: yaegi types a conversion to a named
// function type as a call of it, see funcConvs, and the caller's f(5)
// failed to compile.)
// (A generic function as a value is genericFuncValues'.)
var returnFuncs = Pass{
	Name:     "returnfuncs",
	Run:      runReturnFuncs,
	Kinds:    []ast.Node{(*ast.ReturnStmt)(nil)},
	Snippets: []string{"return_declared_function"},
}

func runReturnFuncs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		ret, ok := cur.Node().(*ast.ReturnStmt)
		if !ok {
			return true
		}
		rs := c.resultTypes(cur.Func)
		if len(rs) != len(ret.Results) {
			return true
		}
		for i, r := range ret.Results {
			id, ok := r.(*ast.Ident)
			if !ok {
				continue
			}
			switch obj := c.Types.ObjectOf(id).(type) {
			case *types.Func:
				if obj.Signature().TypeParams().Len() > 0 {
					continue
				}
			case *types.Var:
				// It may hold a declared function (f := double).
				if _, sig := typeUnder(obj.Type()).(*types.Signature); !sig {
					continue
				}
			default:
				continue
			}
			if _, sig := typeUnder(rs[i]).(*types.Signature); !sig || selfFunc(rs[i]) {
				continue // (selfFuncs made it a struct)
			}
			if x, ok := c.asGoFunc(id, typeUnder(rs[i])); ok {
				ret.Results[i] = x
			}
		}
		return true
	})
}

// asGoFunc is id, a function the cells declare (or a variable that may
// hold one), converted to the function type sig: the Go function yaegi
// stores everywhere else, where it would put its node (see returnFuncs,
// funcIfaceValues). The conversion has sig for the passes after.
func (c *Cell) asGoFunc(id *ast.Ident, sig types.Type) (ast.Expr, bool) {
	te, ok := c.TypeExpr(sig, id.Pos())
	if !ok {
		return nil, false
	}
	x := &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: id.Pos(), X: te, Rparen: id.Pos()}, Lparen: id.Pos(), Args: []ast.Expr{id}, Rparen: id.End()}
	c.Types.Types[x] = types.TypeAndValue{Type: sig}
	return x, true
}
