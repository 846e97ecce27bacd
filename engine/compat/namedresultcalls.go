package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// namedResultCalls: a call of a cell's function with a named result as
// the one value of an assignment, or as a result of a return (x = g(),
// p.v = g(), return g(), nil). yaegi v0.16.1 lets such a function write
// its named result straight into the destination's place, so when it
// panicked after setting it (func g() (s int) { s = 6; panic("x") }) the
// destination kept the 6, and a caller that recovered returned it: Go
// returns 0 (a parser reporting errors by panicking returned the partial
// values), silently. In parentheses, which yaegi evaluates into a place
// of their own (see tupleAssigns), the value reaches the destination only
// when the call returns:
//
//	return g(), nil  =>  return (g()), nil
//
// A local variable of a function without defers or function literals,
// which nothing can read after such a panic, is assigned as it is.
var namedResultCalls = Pass{
	Name:     "namedresultcalls",
	Run:      runNamedResultCalls,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil), (*ast.ReturnStmt)(nil)},
	Snippets: []string{"named_result_panics"},
}

func runNamedResultCalls(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.ReturnStmt:
			for i, r := range n.Results {
				if c.namedResultCall(r) {
					n.Results[i] = &ast.ParenExpr{Lparen: r.Pos(), X: r, Rparen: r.End()}
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) != 1 || len(n.Rhs) != 1 || !c.namedResultCall(n.Rhs[0]) {
				return true
			}
			if n.Tok == token.DEFINE || c.unseenLocal(n.Lhs[0], cur.Func, cur.FuncNode) {
				return true
			}
			n.Rhs[0] = &ast.ParenExpr{Lparen: n.Rhs[0].Pos(), X: n.Rhs[0], Rparen: n.Rhs[0].End()}
		}
		return true
	})
}

// namedResultCall reports whether e is a call of a function the cells
// declare (not a method or a function value) with one result, named.
func (c *Cell) namedResultCall(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != c.Types.Pkg.Path() {
		return false
	}
	sig := fn.Type().(*types.Signature)
	// (one result: a call of several in parentheses gave only its first)
	return sig.Recv() == nil && sig.Results().Len() == 1 && sig.Results().At(0).Name() != ""
}

// unseenLocal reports whether x is a variable declared in fn (a function
// declaration or literal, of type ft) other than a named result, and fn
// defers nothing and has no function literals: nothing reads it after a
// panic goes through fn.
func (c *Cell) unseenLocal(x ast.Expr, ft *ast.FuncType, fn ast.Node) bool {
	id, ok := x.(*ast.Ident)
	body := funcBody(fn)
	if !ok || body == nil {
		return false
	}
	v, ok := c.Types.ObjectOf(id).(*types.Var)
	if !ok || v.Pos() < fn.Pos() || v.Pos() >= fn.End() {
		return false
	}
	if ft.Results != nil && slices.ContainsFunc(fieldNames(ft.Results), func(r *ast.Ident) bool { return r.Pos() == v.Pos() }) {
		return false // a named result: the caller's
	}
	return !contains(body, false, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.DeferStmt, *ast.FuncLit:
			return true
		}
		return false
	})
}
