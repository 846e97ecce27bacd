package compat

import (
	"go/ast"
	"go/types"
)

// returnBuiltins: calls in a return statement of several results whose
// result yaegi v0.16.1 stores in the wrong frame slot.
//
// A builtin call (len, cap, append, make, new, copy, real, imag, complex)
// as a later result: yaegi stores a builtin's result straight into the
// frame slot of the function's first result whatever its place
// (interp/cfg.go:1168, "n.findex = 0" under "n.anc.kind == returnStmt"), so
// "return len(s), cap(s)" returned cap twice, and "return s, len(s)" or
// "return 1, append(xs, 2)" panicked (a nil pointer, or "reflect.Set:
// value of type []int is not assignable to type int").
//
// A call of a struct's field of function type (s.eval(n)), at any place:
// yaegi calls the field's value as a native function, which stores its
// result in the return slot of its place (interp/run.go:1628, callBin's
// aReturn), while the return statement then copies every result from the
// slot the call was given (interp/cfg.go:1265) and was never written, so
// "return s.eval(n), nil" returned 0, nil.
//
// In parentheses the call is not the return's child and gets a slot of
// its own:
//
//	return s, len(s)         =>  return s, (len(s))
//	return s.eval(n), nil    =>  return (s.eval(n)), nil
var returnBuiltins = Pass{
	Name:     "returnbuiltins",
	Run:      runReturnBuiltins,
	Kinds:    []ast.Node{(*ast.ReturnStmt)(nil)},
	Snippets: []string{"return_builtin_second_result", "return_func_field_call"},
}

func runReturnBuiltins(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		ret, ok := cur.Node().(*ast.ReturnStmt)
		if !ok {
			return true
		}
		for i, r := range ret.Results {
			// The first result's slot is the one yaegi writes.
			call, ok := r.(*ast.CallExpr)
			if ok && (i > 0 && c.isBuiltin(call.Fun) || len(ret.Results) > 1 && c.isFuncField(call.Fun)) {
				ret.Results[i] = &ast.ParenExpr{Lparen: call.Pos(), X: call, Rparen: call.End()}
			}
		}
		return true
	})
}

// isFuncField tells a selector of a struct field (of function type, as it
// is called).
func (c *Cell) isFuncField(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := c.Types.Selections[sel]
	return s != nil && s.Kind() == types.FieldVal
}
