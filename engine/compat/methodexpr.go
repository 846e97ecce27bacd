package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// methodExprs: a method expression, T.M or (*T).M, on any type: a cell's,
// a native one (time.Duration.String, (*strings.Builder).WriteString) or
// an interface (fmt.Stringer.String, error.Error). yaegi v0.16.1 calls
// the function it makes with the receiver missing from the arguments it
// counts (the method's own signature, not the expression's), so calls
// failed ("too many arguments") or shifted their arguments. It becomes the
// function literal Go means:
//
//	func(_grundyRecv T, _grundyP0 A) R { return _grundyRecv.M(_grundyP0) }
var methodExprs = Pass{
	Name:     "methodexprs",
	Run:      runMethodExprs,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil)},
	Snippets: []string{"method_expressions", "method_expressions_native", "func_types_of_based_types_named"},
}

func runMethodExprs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		sel, ok := cur.Node().(*ast.SelectorExpr)
		if !ok {
			return true
		}
		s := c.Types.Selections[sel]
		if s == nil || s.Kind() != types.MethodExpr {
			return true
		}
		if lit := c.methodLit(sel, s.Type().(*types.Signature)); lit != nil {
			// The literal has the expression's type, for the passes
			// after (fmtargs' %T, reflectnames' TypeOf of Set.Add).
			c.Types.Types[lit] = types.TypeAndValue{Type: s.Type()}
			cur.Replace(lit)
		}
		return true
	})
}

// methodLit is the function literal for the method expression sel of
// signature sig (receiver first).
func (c *Cell) methodLit(sel *ast.SelectorExpr, sig *types.Signature) ast.Expr {
	return c.forwardLit(sig, sel.Pos(), "Recv", func(args []ast.Expr) *ast.CallExpr {
		return &ast.CallExpr{Fun: &ast.SelectorExpr{X: args[0], Sel: ident(sel.Sel.Name, sel.Pos())}, Args: args[1:]}
	})
}

// forwardLit is a function literal of signature sig whose body returns
// the call call makes of its parameters (the first named first, the
// others P): func(first A, p B...) R { return call(first, p...) }. Nil
// where the oracle's types cannot be written.
func (c *Cell) forwardLit(sig *types.Signature, pos token.Pos, first string, call func(args []ast.Expr) *ast.CallExpr) ast.Expr {
	var params []*ast.Field
	var args []ast.Expr
	firstName := c.Temp(first)
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
		name := firstName
		if i > 0 {
			name = c.Temp("P")
		}
		if variadic {
			tx = &ast.Ellipsis{Ellipsis: pos, Elt: tx}
		}
		params = append(params, &ast.Field{Names: []*ast.Ident{ident(name, pos)}, Type: tx})
		args = append(args, ident(name, pos))
	}
	ce := call(args)
	ce.Lparen, ce.Rparen = pos, pos
	if sig.Variadic() {
		ce.Ellipsis = pos
	}
	var res []ast.Expr
	for i := range sig.Results().Len() {
		tx, ok := c.TypeExpr(sig.Results().At(i).Type(), pos)
		if !ok {
			return nil
		}
		res = append(res, tx)
	}
	var body ast.Stmt = &ast.ExprStmt{X: ce}
	var rl *ast.FieldList
	if len(res) > 0 {
		body = &ast.ReturnStmt{Return: pos, Results: []ast.Expr{ce}}
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
