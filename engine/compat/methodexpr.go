package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"grundy/engine/prelude"
	"grundy/engine/typecheck"
	"strconv"
	"strings"
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
			c.nilValueMethod(lit, s)
			// The literal has the expression's type, for the passes
			// after (fmtargs' %T, reflectnames' TypeOf of Set.Add).
			c.Types.Types[lit] = types.TypeAndValue{Type: s.Type()}
			if m, ok := s.Obj().(*types.Func); ok {
				c.noteCallee(lit, methodCallee(s.Recv(), m)) // (deferred through a relay: see throughValue)
			}
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
	if len(res) == 1 {
		c.Types.Types[ce] = types.TypeAndValue{Type: sig.Results().At(0).Type()} // (for returnedFuncs)
	}
	return &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, List: params, Closing: pos}, Results: rl},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{body}, Rbrace: pos},
	}
}

// nilValueMethod makes lit, the function literal of (*T).M with M a
// value method of T, a cell's type, panic as Go's wrapper does when its
// receiver is nil ("value method main.Sq.Area called using nil *Sq
// pointer"; the interpreter dereferenced it, and said nil dereference):
//
//	func(_grundyRecv1 *T) R { if _grundyRecv1 == nil { grundyrt.NilValueMethod("main.T.M", "T") }; return _grundyRecv1.M() }
func (c *Cell) nilValueMethod(lit ast.Expr, s *types.Selection) {
	fl, ok := lit.(*ast.FuncLit)
	if !ok || len(fl.Type.Params.List) == 0 {
		return
	}
	if _, ptr := s.Recv().(*types.Pointer); !ptr {
		return
	}
	m, ok := s.Obj().(*types.Func)
	if !ok || !typecheck.IsCellType(deref(s.Recv())) {
		return
	}
	if _, ptrRecv := m.Signature().Recv().Type().(*types.Pointer); ptrRecv {
		return
	}
	name := types.TypeString(deref(s.Recv()), (*types.Package).Name)
	pos := fl.Pos()
	str := func(s string) ast.Expr {
		return &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(s)}
	}
	recv := fl.Type.Params.List[0].Names[0].Name
	check := ifThen(pos, &ast.BinaryExpr{X: ident(recv, pos), OpPos: pos, Op: token.EQL, Y: ident("nil", pos)},
		&ast.ExprStmt{X: &ast.CallExpr{Fun: rtSelector(prelude.RTNilValueMethod, pos), Lparen: pos, Rparen: pos,
			Args: []ast.Expr{str(name + "." + m.Name()), str(strings.TrimPrefix(name, "main."))}}})
	fl.Body.List = append([]ast.Stmt{check}, fl.Body.List...)
}

// deref is t, or what it points to.
func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}
