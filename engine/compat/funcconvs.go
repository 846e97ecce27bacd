package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// funcConvs: a conversion to a function type with one result (type Filter
// func(string) bool; Filter(f)). yaegi v0.16.1 types such a conversion,
// where it types an expression before compiling it, as a call of the
// function type: its result type, bool (interp/type.go:686, nodeType2 of
// a callExpr takes t.ret[0] of whatever the callee's type is). It does so
// for the variables of a cell's top-level statements and package-level
// declarations (interp/gta.go:80), whose type is fixed before the
// statement compiles, and for the operand of a selector in the elements
// of a composite literal (interp/cfg.go:411): so `long := Filter(f)`
// made long a bool for the rest of the cell, and `long.And(g)` or
// `[]Filter{Filter(f).Not()}` failed with "undefined selector And".
// There the conversion is passed through a function literal whose result
// type is the conversion's, which yaegi types right:
//
//	func(_grundyConv1 Filter) Filter { return _grundyConv1 }(Filter(f))
//
// Inside functions, conversions elsewhere compile first and keep their
// type, so they are left as they are.
var funcConvs = Pass{
	Name:     "funcconvs",
	Run:      runFuncConvs,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"func_type_conversions"},
}

func runFuncConvs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || !c.Types.IsType(call.Fun) {
			return true
		}
		if sel, ok := cur.Parent().(*ast.SelectorExpr); !cur.TopLevel() && !(ok && sel.X == call) {
			return true
		}
		t := c.Types.TypeOf(call)
		if t == nil {
			return true
		}
		if sig, ok := t.Underlying().(*types.Signature); !ok || sig.Results().Len() != 1 {
			return true
		}
		if through, ok := c.throughParam(t, call, call.Pos()); ok {
			cur.Replace(through)
		}
		return true
	})
}

// throughParam is the call of a function literal that takes x as a
// parameter of type t and returns it, typed where yaegi types a
// parameter:
//
//	func(_grundyConv1 T) T { return _grundyConv1 }(x)
func (c *Cell) throughParam(t types.Type, x ast.Expr, pos token.Pos) (*ast.CallExpr, bool) {
	return c.returnedAs(t, t, x, pos)
}

// returnedAs is the call of a function literal that takes x as a
// parameter of type from and returns it as a result of type to:
//
//	func(_grundyConv1 From) To { return _grundyConv1 }(x)
func (c *Cell) returnedAs(from, to types.Type, x ast.Expr, pos token.Pos) (*ast.CallExpr, bool) {
	xs, ok := c.typeExprs([]types.Type{from, to}, pos)
	if !ok {
		return nil, false
	}
	tx, rx := xs[0], xs[1]
	v := c.Temp("Conv")
	param := &ast.Field{Names: []*ast.Ident{ident(v, pos)}, Type: tx}
	result := &ast.Field{Type: rx}
	lit := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, List: []*ast.Field{param}, Closing: pos}, Results: &ast.FieldList{List: []*ast.Field{result}}},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident(v, pos)}}}, Rbrace: pos},
	}
	call := &ast.CallExpr{Fun: lit, Lparen: pos, Args: []ast.Expr{x}, Rparen: pos}
	// Typed for the passes after this one: fmtArgs gives fmt the type of
	// fmt.Printf("%T", Filter(nil)) from it (untyped, %T printed the
	// function type, not main.Filter).
	c.Types.Types[call] = types.TypeAndValue{Type: to}
	return call, true
}
