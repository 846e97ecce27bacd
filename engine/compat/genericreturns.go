package compat

import (
	"go/ast"
	"go/types"
)

// genericReturns: the function a generic call returns, returned as it is
// (return Adder(d), return slices.Values(xs), return s.All() of a
// Stack[int]). yaegi v0.16.1's return statement sets the node of each
// operand's type to the operand (interp/cfg.go:1785, see returnedFuncs):
// the instance's result type became the returned call, and a later call
// of the instance (Adder(2)(3)) failed to compile ("the interpreter
// cannot compile this"), or panicked in reflect.Set through the standard
// helpers (maps.Collect(maps.All(m))). It is returned through a variable,
// which yaegi types with a node of its own:
//
//	return Adder(d)  =>  { _grundyRF1 := Adder(d); return _grundyRF1 }
//
// It runs before the passes that write the calls' type arguments.
var genericReturns = Pass{
	Name:     "genericreturns",
	Run:      runGenericReturns,
	Kinds:    []ast.Node{(*ast.ReturnStmt)(nil)},
	Snippets: []string{"generic_func_results_returned"},
}

func runGenericReturns(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		ret, ok := cur.Node().(*ast.ReturnStmt)
		if !ok || cur.TopLevel() {
			return true
		}
		if block := c.genericFuncResults(ret); block != nil {
			cur.Replace(block)
		}
		return true
	})
}

// genericFuncResults is ret with each result that is a call of a generic
// function, or of a method of a generic type's instance, returning a
// function, defined first (see returnedFuncs); nil if it has none.
func (c *Cell) genericFuncResults(ret *ast.ReturnStmt) ast.Stmt {
	var defs []ast.Stmt
	for i, r := range ret.Results {
		call, ok := ast.Unparen(r).(*ast.CallExpr)
		if !ok || !c.callsInstance(call) {
			continue
		}
		if _, sig := typeUnder(c.Types.TypeOf(call)).(*types.Signature); !sig {
			continue
		}
		tmp := ident(c.Temp("RF"), r.Pos())
		defs = append(defs, define(r.Pos(), []ast.Expr{tmp}, r))
		ret.Results[i] = ident(tmp.Name, r.Pos())
	}
	if defs == nil {
		return nil
	}
	return &ast.BlockStmt{Lbrace: ret.Pos(), List: append(defs, ret), Rbrace: ret.End()}
}

// callsInstance reports whether call calls an instance of a generic
// function or a method of an instance of a generic type.
func (c *Cell) callsInstance(call *ast.CallExpr) bool {
	id := calleeIdent(call)
	if id == nil {
		return false
	}
	if _, ok := c.Types.Instances[id]; ok {
		return true
	}
	sel, ok := unindex(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if s := c.Types.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
		n, ok := types.Unalias(deref(s.Recv())).(*types.Named)
		return ok && n.TypeArgs().Len() > 0
	}
	return false
}
