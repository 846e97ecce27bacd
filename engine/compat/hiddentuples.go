package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Hidden composites in tuples. A value of several results or a comma-ok
// whose component of a Hideable type goes into an empty interface (_, x
// = two() or x, ok = m[k] with x an any and a []Kind there; var a, b any
// = two(); return two() from a function with an any result; f(two()) to
// an any parameter) is not an expression of its own that HideComposites
// can convert: yaegi put the []Kind in the any as a []int (%T said
// []int, x.([]Kind) was false, silently). Such a value is made by a
// function literal called in place, which converts it:
//
//	_, x = two()  =>  _, x = func() (int, any) { _grundyHt1, _grundyHt2 := two(); return _grundyHt1, _grundyComposite1(_grundyHt2) }()
//
// A range assigning one (for _, r = range rows, r an any) defines
// temporaries instead, which its body assigns, converted, first.

// hiddenReturn is ret, return g() stored in places of the given types,
// as a block that defines g()'s results and returns them converted (see
// hiddenTuple: yaegi v0.16.1 returned the first result of a function
// literal's call handed on by return, and zero values for the others);
// nil where it returns no such value.
//
//	return two()  =>  { _grundyHt1, _grundyHt2 := two(); return _grundyComposite1(_grundyHt1), _grundyHt2 }
func (c *Cell) hiddenReturn(ret *ast.ReturnStmt, places []types.Type, hide func(types.Type) ast.Expr) ast.Stmt {
	lit, ok := c.hiddenTuple(ret.Results[0], places, hide).(*ast.CallExpr)
	if !ok {
		return nil
	}
	body := lit.Fun.(*ast.FuncLit).Body
	return &ast.BlockStmt{Lbrace: ret.Pos(), List: body.List, Rbrace: ret.End()}
}

// hiddenTuple is x, a value of several results or a comma-ok stored in
// places of the given types (nil: not stored), made by a function literal
// that converts each component of a Hideable type stored in an empty
// interface to the type hide names; nil where no component is.
func (c *Cell) hiddenTuple(x ast.Expr, places []types.Type, hide func(types.Type) ast.Expr) ast.Expr {
	tuple, ok := c.Types.TypeOf(x).(*types.Tuple)
	if !ok || tuple.Len() != len(places) {
		return nil
	}
	hidden := func(i int) bool {
		return places[i] != nil && emptyIface(places[i]) && Hideable(tuple.At(i).Type())
	}
	pos := x.Pos()
	var res []ast.Expr
	some := false
	for i := range tuple.Len() {
		if hidden(i) {
			some = true
			res = append(res, &ast.InterfaceType{Interface: pos, Methods: &ast.FieldList{Opening: pos, Closing: pos}})
			continue
		}
		te, ok := c.TypeExpr(tuple.At(i).Type(), pos)
		if !ok {
			return nil
		}
		res = append(res, te)
	}
	if !some {
		return nil
	}
	var defs, uses []ast.Expr
	for i := range tuple.Len() {
		tmp := c.Temp("Ht")
		defs = append(defs, ident(tmp, pos))
		var use ast.Expr = ident(tmp, pos)
		if hidden(i) {
			h := hide(tuple.At(i).Type())
			if h == nil {
				return nil
			}
			use = &ast.CallExpr{Fun: hiddenAt(h, pos), Lparen: pos, Args: []ast.Expr{use}, Rparen: pos}
		}
		uses = append(uses, use)
	}
	return called(funcLit(pos, x.End(), results(res...), define(pos, defs, x), &ast.ReturnStmt{Return: pos, Results: uses}))
}

// argPlaces is the types of the parameters f(g())'s values go to, nil
// where call hands on no value of several results.
func (c *Cell) argPlaces(call *ast.CallExpr) []types.Type {
	if len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return nil
	}
	tuple, ok := c.Types.TypeOf(call.Args[0]).(*types.Tuple)
	if !ok || tuple.Len() < 2 || c.Types.IsType(call.Fun) {
		return nil
	}
	sig, ok := typeUnder(c.Types.TypeOf(call.Fun)).(*types.Signature)
	if !ok {
		return nil
	}
	places := make([]types.Type, tuple.Len())
	for i := range places {
		places[i] = paramType(sig, i, false)
	}
	return places
}

// hiddenRange writes a range statement assigning a key or a value of a
// Hideable type to an empty interface as one defining temporaries, which
// its body assigns first, converted; it returns how to undo that, or nil.
//
//	for _, r = range rows { body }  =>  for _, _grundyHt1 := range rows { r = _grundyComposite1(_grundyHt1); body }
func (c *Cell) hiddenRange(s *ast.RangeStmt, hide func(types.Type) ast.Expr) (undo func()) {
	if s.Tok != token.ASSIGN {
		return nil
	}
	key, value := rangeElems(c.Types.TypeOf(s.X))
	elems, places := []types.Type{key, value}, []*ast.Expr{&s.Key, &s.Value}
	some := false
	for i, at := range places {
		if *at != nil && !isIdent(*at, "_") && elems[i] != nil && emptyIface(c.Types.TypeOf(*at)) && Hideable(elems[i]) {
			some = true
		}
	}
	if !some {
		return nil
	}
	oldKey, oldValue, oldList := s.Key, s.Value, s.Body.List
	pos := s.For
	as := &ast.AssignStmt{TokPos: pos, Tok: token.ASSIGN}
	for i, at := range places {
		if *at == nil || isIdent(*at, "_") {
			continue
		}
		tmp := c.Temp("Ht")
		var use ast.Expr = ident(tmp, pos)
		if emptyIface(c.Types.TypeOf(*at)) && Hideable(elems[i]) {
			h := hide(elems[i])
			if h == nil {
				s.Key, s.Value = oldKey, oldValue
				return nil
			}
			use = &ast.CallExpr{Fun: hiddenAt(h, pos), Lparen: pos, Args: []ast.Expr{use}, Rparen: pos}
		}
		as.Lhs, as.Rhs = append(as.Lhs, *at), append(as.Rhs, use)
		*at = ident(tmp, pos)
	}
	s.Tok = token.DEFINE
	s.Body.List = append([]ast.Stmt{as}, s.Body.List...)
	return func() { s.Key, s.Value, s.Tok, s.Body.List = oldKey, oldValue, token.ASSIGN, oldList }
}
