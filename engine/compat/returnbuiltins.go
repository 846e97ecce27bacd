package compat

import "go/ast"

// returnBuiltins: a builtin call (len, cap, append, make, new, copy,
// real, imag, complex) as a later result of a return statement. yaegi
// v0.16.1 stores a builtin's result straight into the frame slot of the
// function's first result whatever its place (interp/cfg.go:1168, "n.findex
// = 0" under "n.anc.kind == returnStmt"), so "return len(s), cap(s)"
// returned cap twice, and "return s, len(s)" or "return 1, append(xs, 2)"
// panicked (a nil pointer, or "reflect.Set: value of type []int is not
// assignable to type int"). In parentheses the call is not the return's
// child and gets a slot of its own:
//
//	return s, len(s)  =>  return s, (len(s))
var returnBuiltins = Pass{
	Name:     "returnbuiltins",
	Run:      runReturnBuiltins,
	Kinds:    []ast.Node{(*ast.ReturnStmt)(nil)},
	Snippets: []string{"return_builtin_second_result"},
}

func runReturnBuiltins(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		ret, ok := cur.Node().(*ast.ReturnStmt)
		if !ok {
			return true
		}
		for i, r := range ret.Results {
			// The first result's slot is the one yaegi writes.
			if call, ok := r.(*ast.CallExpr); ok && i > 0 && c.isBuiltin(call.Fun) {
				ret.Results[i] = &ast.ParenExpr{Lparen: call.Pos(), X: call, Rparen: call.End()}
			}
		}
		return true
	})
}
