package compat

import (
	"go/ast"
	"go/types"
	"slices"
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
//
// A function value of an unnamed function type that a call or an index
// expression makes (return c.S(), return r.m[k], return t[k][0]) is
// returned through a temporary, and so are the operands before it that
// call something (in Go's order):
//
//	return r.m[k], true  =>  _grundyFr1 := r.m[k]; return _grundyFr1, true
//
// yaegi v0.16.1 sets the node of a returned operand's type to the operand
// (interp/cfg.go, the returnStmt case: c.typ.node = c), and that type is
// shared (the method's result type, the map's element type): with a node
// whose first child has children, the type looked generic (isGeneric), and
// every later call of a value of it failed to compile ("the interpreter
// cannot compile this"), in that cell and the later ones, even where the
// function returning it was never called.
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
		c.returnMadeFuncs(cur, ret)
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

// returnMadeFuncs hands ret's operands of an unnamed function type made
// by a call or an index expression through temporaries (see returnFuncs).
func (c *Cell) returnMadeFuncs(cur Cursor, ret *ast.ReturnStmt) {
	if len(ret.Results) == 1 && cur.Index() >= 0 {
		// return C{1}.S() of S's (func() int, error).
		if tuple, ok := c.Types.TypeOf(ret.Results[0]).(*types.Tuple); ok && slices.ContainsFunc(tupleTypes(tuple), func(t types.Type) bool {
			_, sig := types.Unalias(t).(*types.Signature)
			return sig
		}) {
			defs, uses := c.typedTemps(tuple, ret.Pos(), func() string { return c.Temp("Fr") })
			cur.InsertBefore(define(ret.Pos(), identExprs(defs), ret.Results[0]))
			ret.Results = uses
			return
		}
	}
	last := -1
	for i, r := range ret.Results {
		if c.madeFunc(r) {
			last = i
		}
	}
	if last < 0 || cur.Index() < 0 {
		return
	}
	var lhs, rhs []ast.Expr
	for i, r := range ret.Results[:last+1] {
		t := c.Types.TypeOf(r)
		if i < last && !c.madeFunc(r) && !c.callsIn(r) || t == nil {
			continue
		}
		def, use := c.namedTemp(c.Temp("Fr"), t, r.Pos())
		lhs, rhs = append(lhs, def), append(rhs, r)
		ret.Results[i] = use
	}
	cur.InsertBefore(define(ret.Pos(), lhs, rhs...))
}

// madeFunc reports whether r is a value of an unnamed function type made
// by a call or an index expression (not a generic function's instance).
func (c *Cell) madeFunc(r ast.Expr) bool {
	if _, sig := types.Unalias(c.Types.TypeOf(r)).(*types.Signature); !sig {
		return false
	}
	switch e := ast.Unparen(r).(type) {
	case *ast.CallExpr:
		return !c.Types.IsType(e.Fun)
	case *ast.IndexExpr:
		_, generic := typeUnder(c.Types.TypeOf(e.X)).(*types.Signature)
		return !generic
	}
	return false
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
