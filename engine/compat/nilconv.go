package compat

import (
	"go/ast"
	"go/token"
	"go/types"

	"grundy/engine/typecheck"
)

// nilConv is e, a value of the cell type from on a pointer, slice or map
// type, converted to target, a native interface type with methods, by a
// function the session declares once for the two types:
//
//	games.Game(_grundyNilConv_123(p))
//
//	func _grundyNilConv_123(v *Pos) (r games.Game) {
//		if v == nil {
//			return _grundyNilConv_123Nil(v) // grundyrt.WrapNil(&r, ...), see wrapNil
//		}
//		r = v
//		return
//	}
//
// yaegi v0.16.1 converts a nil such value to a nil interface
// (interp/run.go:1089), so s == nil was true, fmt printed <nil> for a
// String method that handles a nil receiver, and calling a method
// panicked. A declared function, not a function literal: yaegi allocates
// a literal's closure each time it is evaluated (a loop of 300,000
// conversions took 2.5 times as long, and 500 MB), while a call of a
// declared one costs about what the conversion does. false where the
// types cannot be written at the top of the cell (a type a function
// declares, an instance of a generic type).
func (c *Cell) nilConv(target, from types.Type, e ast.Expr) (ast.Expr, bool) {
	if !topLevelType(c, from) {
		return c.genericNilConv(target, from, e)
	}
	name := hashedName("NilConv", types.TypeString(from, nil), types.TypeString(target, nil))
	if !c.declareNilConv(name, target, from, nil, e.Pos()) {
		return nil, false
	}
	call := &ast.CallExpr{Fun: ident(name, e.Pos()), Lparen: e.Pos(), Args: []ast.Expr{e}, Rparen: e.End()}
	c.Types.Types[call] = types.TypeAndValue{Type: target} // (for the passes after: fmtArgs prints it as a target)
	return call, true
}

// nilConvGenericKind names genericNilConv's functions; NilConvGeneric
// begins their names (they take their type arguments from the value they
// convert, and make no other instance).
const (
	nilConvGenericKind = "NilConvG"
	NilConvGeneric     = tempPrefix + nilConvGenericKind
)

// genericNilConv is nilConv for e of an instance of a generic type the
// cells declare at top level whose type arguments name a type parameter
// (a *Stack[T] in a generic function or method): the function converting
// it is generic, declared once for the generic type and the target, and
// called with the instance's type arguments,
//
//	_grundyNilConv_123[T](s)
//
//	func _grundyNilConv_123[T any](v *Stack[T]) (r fmt.Stringer) { ... }
func (c *Cell) genericNilConv(target, from types.Type, e ast.Expr) (ast.Expr, bool) {
	n, ok := types.Unalias(deref(from)).(*types.Named)
	if !ok || n.TypeArgs().Len() == 0 || !topLevelType(c, n.Origin()) {
		return nil, false
	}
	pos := e.Pos()
	tparams := n.Origin().TypeParams()
	own := make([]types.Type, tparams.Len())
	for i := range own {
		own[i] = tparams.At(i)
	}
	general, err := types.Instantiate(nil, n.Origin(), own, false)
	if err != nil {
		return nil, false
	}
	if _, ptr := from.(*types.Pointer); ptr {
		general = types.NewPointer(general)
	}
	targs, ok := c.writtenTypeArgs(types.Instance{TypeArgs: n.TypeArgs()}, pos)
	if !ok {
		return nil, false
	}
	name := hashedName(nilConvGenericKind, types.TypeString(general, nil), types.TypeString(target, nil))
	if !c.declareNilConv(name, target, general, tparams, pos) {
		return nil, false
	}
	var ts []types.Type
	for i := range n.TypeArgs().Len() {
		ts = append(ts, n.TypeArgs().At(i))
	}
	targs = padTypeParam(nil, targs, ts)
	call := &ast.CallExpr{Fun: withTypeArgs(ident(name, pos), targs), Lparen: pos, Args: []ast.Expr{e}, Rparen: e.End()}
	c.Types.Types[call] = types.TypeAndValue{Type: target}
	return call, true
}

// declareNilConv declares name, the function converting a value of from
// to target (see nilConv), generic in tparams when there are any, unless
// the cell or the session has it; false where it cannot be written.
func (c *Cell) declareNilConv(name string, target, from types.Type, tparams *types.TypeParamList, pos token.Pos) bool {
	if c.declared[name] || c.Session.Func(name) != nil {
		return true // (the session keeps them: a cell type cannot be declared again)
	}
	xs, ok := c.typeExprs([]types.Type{from, target}, pos)
	if !ok {
		return false
	}
	fx, tx := xs[0], xs[1]
	var tps *ast.FieldList
	if tparams.Len() > 0 {
		tps = &ast.FieldList{Opening: pos, Closing: pos}
		for i := range tparams.Len() {
			cx, ok := c.TypeExpr(tparams.At(i).Constraint(), pos)
			if !ok {
				return false
			}
			tps.List = append(tps.List, &ast.Field{Names: []*ast.Ident{ident(tparams.At(i).Obj().Name(), pos)}, Type: cx})
		}
	}
	v, r := ident(tempPrefix+"V", pos), ident(tempPrefix+"R", pos)
	nilCase := c.wrapNil(target, from, fx, r, v, pos)
	if nilCase == nil {
		return false
	}
	// The nil case in a function of its own: in the same one, its
	// function literals made every call cost half as much again.
	nilName := name + "Nil"
	var nilFun ast.Expr = ident(nilName, pos)
	if tps != nil {
		var own []ast.Expr
		var ts []types.Type
		for i, f := range tps.List {
			own = append(own, ident(f.Names[0].Name, pos))
			ts = append(ts, tparams.At(i))
		}
		nilFun = withTypeArgs(nilFun, padTypeParam(nil, own, ts))
	}
	toNil := &ast.ReturnStmt{Return: pos, Results: []ast.Expr{&ast.CallExpr{Fun: nilFun, Lparen: pos, Args: []ast.Expr{v}, Rparen: pos}}}
	body := []ast.Stmt{ifThen(pos, &ast.BinaryExpr{X: v, OpPos: pos, Op: token.EQL, Y: ident("nil", pos)}, toNil),
		&ast.AssignStmt{Lhs: []ast.Expr{r}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{v}}}
	if _, ptr := from.Underlying().(*types.Pointer); !ptr {
		body = append(body, rewrapStmts(from, r, v, pos)...) // (see convCall)
	}
	body = append(body, &ast.ReturnStmt{Return: pos})
	c.Insts = append(c.Insts, convFunc(nilName, tps, v, r, fx, tx, nilCase.(*ast.IfStmt).Body.List), convFunc(name, tps, v, r, fx, tx, body))
	c.noteDeclared(name)
	return true
}

// convFunc is func name[tps](v fx) (r tx) { body }.
func convFunc(name string, tps *ast.FieldList, v, r *ast.Ident, fx, tx ast.Expr, body []ast.Stmt) *ast.FuncDecl {
	pos := v.Pos()
	return &ast.FuncDecl{
		Name: ident(name, pos),
		Type: &ast.FuncType{Func: pos, TypeParams: tps,
			Params:  &ast.FieldList{Opening: pos, List: []*ast.Field{{Names: []*ast.Ident{v}, Type: fx}}, Closing: pos},
			Results: &ast.FieldList{Opening: pos, List: []*ast.Field{{Names: []*ast.Ident{r}, Type: tx}}, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, List: body, Rbrace: pos},
	}
}

// topLevelType reports whether t, or what it points to, is a type the
// session declares at the top of a cell, or an instance of a generic one
// with type arguments that name no type parameter (Stack[int], not
// Stack[T]): a function at the top of a cell can name it.
func topLevelType(c *Cell, t types.Type) bool {
	n, ok := types.Unalias(deref(t)).(*types.Named)
	if !ok || !typecheck.IsCellType(n) || n.Obj().Parent() != n.Obj().Pkg().Scope() {
		return false // (an earlier cell's type is in a package of its own)
	}
	for i := range n.TypeArgs().Len() {
		if hasTypeParam(n.TypeArgs().At(i)) {
			return false
		}
	}
	return true
}

// mayBeNil reports whether e, of a pointer type, may be nil: a variable,
// a field, an element, a call's result; not &T{...}, &v or new(T), nor a
// variable that only ever holds one (p := &Pos{i};
// out = append(out, p)): the commonest values stored in a []games.Game
// need no conversion.
func (c *Cell) mayBeNil(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if c.nonNil == nil {
			c.nonNil = c.nonNilPointers()
		}
		return e.Name != "nil" && !c.nonNil[c.Types.ObjectOf(e)]
	case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr, *ast.TypeAssertExpr:
		return true
	case *ast.CallExpr:
		return !isIdent(e.Fun, "new")
	}
	return false
}

// nonNilPointers are the pointer variables that keep their value (see
// freshPointers) and are defined as &T{...}, &v or new(T).
func (c *Cell) nonNilPointers() map[types.Object]bool {
	fresh := c.freshPointers()
	out := map[types.Object]bool{}
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return true
			}
			if id, ok := as.Lhs[0].(*ast.Ident); ok && fresh[c.Types.Defs[id]] && nonNilValue(as.Rhs[0]) {
				out[c.Types.Defs[id]] = true
			}
			return true
		})
	}
	return out
}

// nonNilValue reports whether e is &T{...}, &v or new(T).
func nonNilValue(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		return e.Op == token.AND
	case *ast.CallExpr:
		return isIdent(e.Fun, "new")
	}
	return false
}
