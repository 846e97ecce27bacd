package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// newExprs: new(v) with a value, not a type (Go 1.26: new(123),
// new(x), new(i > 0)), a pointer to a new variable holding v. yaegi
// v0.16.1 took the argument for a type and made a pointer to a zero
// value (*new(123) was 0, *new("hi") ""), silently. The call becomes a
// function literal's, declaring the variable with the type the oracle
// gives it (the default type of an untyped constant):
//
//	new(123)  =>  func() *int { var _grundyV int = 123; return &_grundyV }()
//
// (A generic helper, _grundyNew[int](123), made yaegi's analysis of a
// cell's top-level p := ... fail with "constant definition loop".)
//
// And new(T) of an interface type with methods a cell declares, or of a
// type parameter, points to a value that is not nil in yaegi (see
// newZeroNotNil): it becomes &make([]T, 1)[0].
var newExprs = Pass{
	Name:     "newexprs",
	Run:      runNewExprs,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"builtin_new_of_value", "iface_zero_values"},
}

func runNewExprs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call := c.builtinCall(cur.Node(), "new")
		if call == nil {
			return true
		}
		if c.Types.Types[call.Args[0]].IsType() {
			if t := c.Types.TypeOf(call.Args[0]); t != nil && c.newZeroNotNil(t) {
				// new(Shape): a pointer to a nil interface (see
				// newZeroNotNil), &make([]Shape, 1)[0].
				pos := call.Pos()
				x := &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: madeZero(call.Args[0], pos)}
				c.Types.Types[x] = c.Types.Types[call]
				cur.Replace(x)
			}
			return true
		}
		ptr, ok := c.Types.TypeOf(call).(*types.Pointer)
		if !ok {
			return true
		}
		targ, ok := c.TypeExpr(ptr.Elem(), call.Pos())
		if !ok {
			c.Fail(call.Pos(), "cannot name the type %s of new's value here; declare a variable and take its address: v := %s; p := &v", ptr.Elem(), ExprString(call.Args[0]))
			return true
		}
		pos := call.Pos()
		v := ident(tempPrefix+"V", pos)
		body := []ast.Stmt{varDecl(pos, v.Name, targ, call.Args[0]),
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{&ast.UnaryExpr{OpPos: pos, Op: token.AND, X: ident(v.Name, pos)}}}}
		lit := &ast.FuncLit{Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos},
			Results: results(&ast.StarExpr{Star: pos, X: targ})}, Body: &ast.BlockStmt{Lbrace: pos, List: body, Rbrace: call.End()}}
		x := &ast.CallExpr{Fun: lit, Lparen: call.End(), Rparen: call.End()}
		c.Types.Types[x] = types.TypeAndValue{Type: ptr} // for the passes after
		cur.Replace(x)
		return true
	})
}
