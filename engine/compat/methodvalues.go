package compat

import (
	"go/ast"
	"go/token"
	"go/types"

	"grundy/engine/prelude"
)

// methodValues: a method value x.M binds its receiver when it is
// evaluated: a copy of x for a value receiver, the pointer for a pointer
// receiver. yaegi v0.16.1 binds the place x is read from instead and reads
// it at each call (interp/run.go, genFunctionWrapper's rcvr, and
// interp/cfg.go, the selectorExpr cases that make a method value), so
// "get := acc.Get" saw later changes to acc, and method values taken in a
// loop all called the last element. The receiver is bound in a function
// of its own, where nothing changes it:
//
//	get := acc.Get  =>  get := func() func() int { _grundyR1 := acc; return _grundyR1.Get }()
//
// A method value of an interface (f := s.String) panics with Go's nil
// dereference where it is taken when the interface is nil (yaegi's
// panicked only when called): the bound function checks (not for a
// receiver whose type is a type parameter, which cannot be compared with
// nil).
var methodValues = Pass{
	Name:     "methodvalues",
	Run:      runMethodValues,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil)},
	Snippets: []string{"method_value_receiver_bound", "method_value_nil_interface"},
}

func runMethodValues(c *Cell) {
	for _, root := range c.Roots() {
		if !contains(root, false, c.isMethodValue) {
			continue
		}
		applyIn(root, func(cur Cursor) bool {
			sel, ok := cur.Node().(*ast.SelectorExpr)
			if !ok || !c.isMethodValue(sel) {
				return true
			}
			if call, isCall := cur.Parent().(*ast.CallExpr); isCall && call.Fun == sel {
				return true // called at once: nothing to bind
			}
			if rangedOver(cur) {
				return true // for x := range d.All
			}
			if c.nativeOnVariable(sel) {
				return true
			}
			if b := c.boundMethodValue(sel); b != nil {
				if tv, ok := c.Types.Types[sel]; ok {
					c.Types.Types[b] = tv // (for the passes after: fmtArgs names its type for %T)
				}
				if s := c.Types.Selections[sel]; s != nil {
					if m, ok := s.Obj().(*types.Func); ok {
						c.noteCallee(b, methodCallee(s.Recv(), m)) // (for funcdefers' relays)
					}
				}
				cur.Replace(b)
			}
			return true
		})
	}
}

func (c *Cell) isMethodValue(n ast.Node) bool {
	sel, ok := n.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := c.Types.Selections[sel]
	return s != nil && s.Kind() == types.MethodVal
}

// nativeOnVariable reports whether sel is a native method with a pointer
// receiver taken on a variable (wg.Done, mu.Unlock): yaegi binds &x right,
// and a native method value stays native, so native code may call it
// after the cell was interrupted (an interpreted wrapper would not run).
func (c *Cell) nativeOnVariable(sel *ast.SelectorExpr) bool {
	s := c.Types.Selections[sel]
	m, _ := s.Obj().(*types.Func)
	if m == nil || m.Pkg() == nil || m.Pkg().Path() == "main" || len(s.Index()) != 1 {
		return false
	}
	return ptrMethodOnValue(s)
}

// boundMethodValue is func() T { r := recv; return r.M }(), or nil when
// the cell cannot name the method value's type.
func (c *Cell) boundMethodValue(sel *ast.SelectorExpr) ast.Expr {
	pos := sel.Pos()
	t, ok := c.TypeExpr(c.Types.TypeOf(sel), pos)
	if !ok {
		return nil
	}
	_, recv, ok := c.methodReceiver(sel, pos)
	if !ok {
		return nil
	}
	r := c.Temp("R")
	var value ast.Expr = &ast.SelectorExpr{X: ident(r, pos), Sel: ident(sel.Sel.Name, sel.Sel.Pos())}
	if m := c.Types.Selections[sel].Obj(); m.Pkg() == nil || m.Pkg().Path() != "main" {
		// yaegi cannot return a native method value (valueT is not
		// funcT): a function literal calls the method.
		sig, _ := c.Types.TypeOf(sel).(*types.Signature)
		if value = c.forwarder(sig, value, pos); value == nil {
			return nil
		}
	}
	body := []ast.Stmt{define(pos, []ast.Expr{ident(r, pos)}, recv)}
	if ifaceMethod(c.Types.Selections[sel].Obj()) && !hasTypeParam(c.Types.Selections[sel].Recv()) {
		// Go takes the method out of the interface here, and a nil
		// interface panics; yaegi's bound method panicked at the call,
		// and a method value never called went unnoticed.
		body = append(body, nilIfaceCheck(ident(r, pos), pos))
	}
	body = append(body, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{value}})
	bound := &ast.CallExpr{Fun: funcLit(pos, sel.End(), results(t), body...), Lparen: sel.End(), Rparen: sel.End()}
	if c.boundRecvs == nil {
		c.boundRecvs = map[*ast.CallExpr]ast.Expr{}
	}
	c.boundRecvs[bound] = recv // (an operand, not a call: see orderedOperands)
	return bound
}

// nilIfaceCheck panics as Go does where it takes a method out of the
// interface x, when x is nil (see methodValue; a deferred call takes it
// at the defer: funcDefers).
func nilIfaceCheck(x ast.Expr, pos token.Pos) ast.Stmt {
	return &ast.IfStmt{If: pos,
		Cond: &ast.BinaryExpr{X: x, OpPos: pos, Op: token.EQL, Y: ident("nil", pos)},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.ExprStmt{X: &ast.CallExpr{Fun: rtSelector(prelude.RTNilDeref, pos), Lparen: pos, Rparen: pos}}}, Rbrace: pos}}
}

// ifaceMethod reports whether m is a method of an interface type.
func ifaceMethod(m types.Object) bool {
	sig, _ := m.Type().(*types.Signature)
	return sig != nil && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}

// forwarder is a function literal of signature sig that calls f with its
// arguments and returns its results; nil when a type cannot be written.
func (c *Cell) forwarder(sig *types.Signature, f ast.Expr, pos token.Pos) ast.Expr {
	if sig == nil {
		return nil
	}
	ft, ok := c.TypeExpr(sig, pos)
	if !ok {
		return nil
	}
	fType := ft.(*ast.FuncType)
	call := &ast.CallExpr{Fun: f, Lparen: pos, Rparen: pos}
	for i := range sig.Params().Len() {
		p := c.Temp("P")
		fType.Params.List[i].Names = []*ast.Ident{ident(p, pos)}
		call.Args = append(call.Args, ident(p, pos))
	}
	if sig.Variadic() {
		call.Ellipsis = pos
	}
	var stmt ast.Stmt = &ast.ExprStmt{X: call}
	if sig.Results().Len() > 0 {
		stmt = &ast.ReturnStmt{Return: pos, Results: []ast.Expr{call}}
	}
	return &ast.FuncLit{Type: fType, Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{stmt}, Rbrace: pos}}
}
