package compat

import (
	"go/ast"
	"go/types"

	"grundy/engine/typecheck"
)

// methodExprs: a method expression on a cell type, T.M or (*T).M. yaegi
// v0.16.1 calls the function it makes with the receiver missing from the
// arguments it counts (the method's own signature, not the expression's),
// so calls failed or shifted their arguments. It becomes the function
// literal Go means:
//
//	func(_grundyRecv T, _grundyP0 A) R { return _grundyRecv.M(_grundyP0) }
var methodExprs = Pass{
	Name:     "methodexprs",
	Run:      runMethodExprs,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil)},
	Snippets: []string{"method_expressions"},
}

func runMethodExprs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		sel, ok := cur.Node().(*ast.SelectorExpr)
		if !ok {
			return true
		}
		s := c.Types.Selections[sel]
		if s == nil || s.Kind() != types.MethodExpr || !typecheck.IsCellType(deref(s.Recv())) {
			return true
		}
		if lit := c.methodLit(sel, s.Type().(*types.Signature)); lit != nil {
			cur.Replace(lit)
		}
		return true
	})
}

// methodLit is the function literal for the method expression sel of
// signature sig (receiver first).
func (c *Cell) methodLit(sel *ast.SelectorExpr, sig *types.Signature) ast.Expr {
	pos := sel.Pos()
	recv := c.Temp("Recv")
	var params []*ast.Field
	var args []ast.Expr
	for i := range sig.Params().Len() {
		t := sig.Params().At(i).Type()
		variadic := sig.Variadic() && i == sig.Params().Len()-1
		if variadic {
			t = t.(*types.Slice).Elem()
		}
		tx, ok := c.TypeExpr(t, pos)
		if !ok {
			return nil
		}
		name := recv
		if i > 0 {
			name = c.Temp("P")
			args = append(args, ident(name, pos))
		}
		if variadic {
			tx = &ast.Ellipsis{Ellipsis: pos, Elt: tx}
		}
		params = append(params, &ast.Field{Names: []*ast.Ident{ident(name, pos)}, Type: tx})
	}
	call := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(recv, pos), Sel: ident(sel.Sel.Name, pos)}, Args: args, Lparen: pos, Rparen: pos}
	if sig.Variadic() {
		call.Ellipsis = pos
	}
	var res []ast.Expr
	for i := range sig.Results().Len() {
		tx, ok := c.TypeExpr(sig.Results().At(i).Type(), pos)
		if !ok {
			return nil
		}
		res = append(res, tx)
	}
	var body ast.Stmt = &ast.ExprStmt{X: call}
	var rl *ast.FieldList
	if len(res) > 0 {
		body = &ast.ReturnStmt{Return: pos, Results: []ast.Expr{call}}
		rl = results(res...)
	}
	return &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, List: params, Closing: pos}, Results: rl},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{body}, Rbrace: pos},
	}
}

// deref is t, or what it points to.
func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}
