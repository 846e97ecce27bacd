package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"grundy/engine/prelude"
)

// basedAsserts: x.(T) (and v, ok := x.(T)) where the interpreter's
// assertion is right once the name of the value's dynamic type is checked
// (see assertVerdict): x of a native interface type, T a based cell type
// with methods or the underlying type of one. yaegi v0.16.1 asserts from
// an empty interface by the reflect type of the value in the box
// (interp/run.go:471, typeAssert: canAssertTypes), which is the
// underlying type's, so x.(Nimber) passed an int and x.(int) a Nimber.
// canAssertTypes also passes a value whose type is merely assignable to
// T (interp/run.go:569), so a games.Pos or a sort.IntSlice passed for a
// []int, and a []int for a games.Pos (see lookalikeAssert; nilAsserts
// checks an assertion to a type parameter, which an instance may make
// one). It runs after the passes
// that ask the assertion's type (fmtArgs: fmt.Println(x.(Nimber)) calls
// String), as it hides it.
var basedAsserts = Pass{
	Name:     "basedasserts",
	Run:      runBasedAsserts,
	Kinds:    []ast.Node{(*ast.TypeAssertExpr)(nil)},
	Snippets: []string{"based_types_asserted", "assert_native_lookalike_types", "cell_iface_lookalikes_asserted", "assert_named_struct_composites"},
}

func runBasedAsserts(c *Cell) {
	based := len(c.basedCellTypes()) > 0
	c.Apply(func(cur Cursor) bool {
		ta, ok := cur.Node().(*ast.TypeAssertExpr)
		if !ok || ta.Type == nil {
			return true
		}
		xt, tt := c.Types.TypeOf(ta.X), c.Types.TypeOf(ta.Type)
		if lookalikeAssert(xt, tt) {
			c.exactAssert(ta, xt, tt, cur)
		} else if v, _ := c.assertVerdict(xt, tt); based && v == assertChecked || based && c.lookalikeInCellIface(xt, tt) {
			c.checkedAssert(ta.X, ta.Type, xt, tt, cur)
		}
		return true
	})
}

// hasTypeCall is grundyrt.HasType(x, "T"): whether x's dynamic type is tt.
func hasTypeCall(x ast.Expr, tt types.Type, pos token.Pos) ast.Expr {
	return &ast.CallExpr{Fun: rtSelector(prelude.RTHasType, pos), Lparen: pos, Rparen: pos,
		Args: []ast.Expr{x, &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(reflectString(tt, false))}}}
}

// checkedAssert rewrites x.(T), x of type X, the interpreter's assertion being right
// once the dynamic type's name is checked:
//
//	func(_grundyBV X) T { grundyrt.MustHaveType(_grundyBV, "main.T", "interface {}"); return _grundyBV.(T) }(x)
//
// and, as the value of v, ok := x.(T):
//
//	func(_grundyBV X) (T, bool) { if !grundyrt.HasType(_grundyBV, "main.T") { var z T; return z, false }; return _grundyBV.(T), true }(x)
func (c *Cell) checkedAssert(x, t ast.Expr, xt, tt types.Type, cur Cursor) {
	pos := t.Pos()
	typ := func() ast.Expr {
		tx, _ := c.TypeExpr(tt, pos)
		return tx
	}
	if typ() == nil {
		return
	}
	v := func() *ast.Ident { return ident(tempPrefix+"BV", pos) }
	commaOk := commaOkParent(cur)
	assert := &ast.TypeAssertExpr{X: v(), Type: typ(), Lparen: pos, Rparen: pos}
	str := func(s string) ast.Expr {
		return &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(s)}
	}
	// What the runtime checks: v, or, from an interface the cell
	// declares, where a native function's argument gets the bare value,
	// v in an any, which is in the box that names its type.
	checked := func() ast.Expr {
		if cellTypeOrIfaceLit(xt) && !emptyIface(xt) {
			return sliceElem(ident("any", pos), v())
		}
		return v()
	}
	var lit *ast.FuncLit
	if inWrapperBased(xt, tt) {
		// The value may be in a native interface's wrapper:
		//	one value: if w, in := grundyrt.MustHaveTypeIn(v, "main.T", "interface {}"); in { return w.(T) }; return v.(T)
		//	comma-ok:  w, in, ok := grundyrt.HasTypeIn(v, "main.T"); if !ok { var z T; return z, false }; if in { return w.(T), true }; return v.(T), true
		w, in, ok := ident(tempPrefix+"BW", pos), ident(tempPrefix+"BI", pos), ident(tempPrefix+"OK", pos)
		fromW := &ast.TypeAssertExpr{X: ident(w.Name, pos), Type: typ(), Lparen: pos, Rparen: pos}
		if commaOk {
			z := ident(tempPrefix+"BZ", pos)
			call := &ast.CallExpr{Fun: rtSelector(prelude.RTHasTypeIn, pos), Lparen: pos, Rparen: pos, Args: []ast.Expr{checked(), str(reflectString(tt, false))}}
			lit = funcLit(pos, t.End(), results(typ(), ident("bool", pos)),
				define(pos, []ast.Expr{w, in, ok}, call),
				ifThen(pos, &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: ident(ok.Name, pos)},
					&ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{z}, Type: typ()}}}},
					&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident(z.Name, pos), ident("false", pos)}}),
				ifThen(pos, ident(in.Name, pos), &ast.ReturnStmt{Return: pos, Results: []ast.Expr{fromW, ident("true", pos)}}),
				&ast.ReturnStmt{Return: pos, Results: []ast.Expr{assert, ident("true", pos)}})
		} else {
			call := &ast.CallExpr{Fun: rtSelector(prelude.RTMustHaveTypeIn, pos), Lparen: pos, Rparen: pos,
				Args: []ast.Expr{checked(), str(reflectString(tt, false)), str(reflectString(xt, false))}}
			lit = funcLit(pos, t.End(), results(typ()),
				define(pos, []ast.Expr{w, in}, call),
				ifThen(pos, ident(in.Name, pos), &ast.ReturnStmt{Return: pos, Results: []ast.Expr{fromW}}),
				&ast.ReturnStmt{Return: pos, Results: []ast.Expr{assert}})
		}
	} else if commaOk {
		z := ident(tempPrefix+"BZ", pos)
		lit = funcLit(pos, t.End(), results(typ(), ident("bool", pos)),
			ifThen(pos, &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: hasTypeCall(checked(), tt, pos)},
				&ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{z}, Type: typ()}}}},
				&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident(z.Name, pos), ident("false", pos)}}),
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{assert, ident("true", pos)}})
	} else {
		lit = funcLit(pos, t.End(), results(typ()),
			&ast.ExprStmt{X: &ast.CallExpr{Fun: rtSelector(prelude.RTMustHaveType, pos), Lparen: pos, Rparen: pos,
				Args: []ast.Expr{checked(), str(reflectString(tt, false)), str(reflectString(xt, false))}}},
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{assert}})
	}
	xtx, ok := c.TypeExpr(xt, pos)
	if !ok {
		return
	}
	// The value keeps x's type: the interpreter asserts from a native
	// interface other than any through its wrapper.
	lit.Type.Params.List = []*ast.Field{{Names: []*ast.Ident{v()}, Type: xtx}}
	cur.Replace(&ast.CallExpr{Fun: lit, Lparen: pos, Args: []ast.Expr{x}, Rparen: t.End()})
}

// lookalikeAssert reports whether x.(t), x of type xt and t of type tt,
// is one yaegi's assignability test gets wrong on native types: tt a
// slice, map, array or channel type, named or not, without cell types (a
// value of a named native type with tt's underlying type, or of the
// unnamed one when tt is named, passes it), or an unnamed channel type
// of one direction (a two-way channel passes it). Pointers are left
// out: a named pointer type is too rare to slow
// every x.(*big.Int).
func lookalikeAssert(xt, tt types.Type) bool {
	if xt == nil || tt == nil || !isIfaceType(xt) || isIfaceType(tt) || cellTypeOrIfaceLit(xt) && !emptyIface(xt) || isError(xt) {
		return false
	}
	switch u := tt.Underlying().(type) {
	case *types.Chan:
		// A channel of one direction, of any element: a two-way channel
		// is assignable to it (any(make(chan J)).(<-chan J) passed).
		// (Not of a cell's interface, nor a named type: the interpreter's
		// reflect type of chan<- Shape, or of Outbox's value, is not its
		// own.)
		_, unnamed := types.Unalias(tt).(*types.Chan)
		return unnamed && u.Dir() != types.SendRecv && !cellIfaceIn(u.Elem()) || !mentionsCellType(tt)
	case *types.Slice, *types.Map, *types.Array:
		return !mentionsCellType(tt)
	}
	return false
}

// exactCall is grundyrt.AssertsExactly(x, (*T)(nil)): whether x's
// dynamic type is T, for the types lookalikeAssert names (a comparison
// of reflect types, where HasType would ask the printer for the name).
func exactCall(x, t ast.Expr, pos token.Pos) ast.Expr {
	nilPtr := &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: pos, X: &ast.StarExpr{Star: pos, X: t}, Rparen: pos}, Lparen: pos, Args: []ast.Expr{ident("nil", pos)}, Rparen: pos}
	return &ast.CallExpr{Fun: rtSelector(prelude.RTAssertsExactly, pos), Lparen: pos, Args: []ast.Expr{x, nilPtr}, Rparen: pos}
}

// exactAssert rewrites x.(T), T a type lookalikeAssert names, to assert
// what the runtime's Exact gives back: x, or a value the assertion fails
// on (a function literal around the assertion, as checkedAssert writes,
// costs the interpreter a closure at each evaluation: 30 times a bare
// assertion in a loop):
//
//	x.(T)  =>  grundyrt.Exact(x, (*T)(nil)).(T)                                   // v, ok := x.(T)
//	x.(T)  =>  grundyrt.MustExact(x, (*T)(nil), "interface {}").(T)               // the one-value form
func (c *Cell) exactAssert(ta *ast.TypeAssertExpr, xt, tt types.Type, cur Cursor) {
	pos := ta.Type.Pos()
	tx, ok := c.TypeExpr(tt, pos)
	if !ok {
		return
	}
	x := ta.X
	if inner, ok := ast.Unparen(x).(*ast.CallExpr); ok && !c.Types.IsType(inner.Fun) {
		// In parentheses: yaegi hands a native function the result of a
		// call nested in its arguments out of its box (interp/run.go:1477,
		// valueInterfaceValue), so Exact saw the []int of a Row that
		// load("row") returned in an any, and load("row").([]int) passed.
		x = &ast.ParenExpr{Lparen: x.Pos(), X: x, Rparen: x.End()}
	}
	call := exactCall(x, tx, pos).(*ast.CallExpr)
	call.Fun = rtSelector(prelude.RTExact, pos)
	if !commaOkParent(cur) {
		call.Fun = rtSelector(prelude.RTMustExact, pos)
		call.Args = append(call.Args, &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(reflectString(xt, false))})
	}
	ta.X = call
}

type assertVerdictKind int

const (
	assertFine    assertVerdictKind = iota // the interpreter's assertion is right
	assertChecked                          // right once the dynamic type's name is checked (grundyrt.HasType)
	assertRefused                          // the interpreter cannot tell: n is the type in question
)

// assertVerdict says whether the interpreter's x.(t), x of type xt and t
// of type tt, is right: x of a native interface type (any, fmt.Stringer)
// may hold a value of a based cell type, which the interpreter's
// assertion takes for a value of its underlying type. A value of a based
// type with methods is in a box naming its type, so checking the name
// makes the assertion right; one of a type without methods, or a
// composite of based types, is the bare value (n names the type). A
// value in an interface the cell declares is in a box the interpreter's
// assertion compares by type, and errors have passes of their own.
func (c *Cell) assertVerdict(xt, tt types.Type) (assertVerdictKind, *types.Named) {
	if xt == nil || tt == nil || !isIfaceType(xt) || isIfaceType(tt) || cellTypeOrIfaceLit(xt) && !emptyIface(xt) || isError(xt) {
		return assertFine, nil
	}
	if b, ok := tt.(*types.Basic); ok && b.Kind() == types.UntypedNil {
		return assertFine, nil
	}
	if n := basedIn(tt); n != nil {
		if named, ok := types.Unalias(tt).(*types.Named); ok && boxed(named) {
			return assertChecked, nil
		}
		if c.onlyLookalike(xt, tt) {
			return assertFine, nil
		}
		return assertRefused, n
	}
	verdict := assertFine
	like := erased(tt, map[types.Type]bool{}) // ([]Pt is a Path's, type Path []Pt, Pt a struct)
	for _, n := range c.basedCellTypes() {
		if !heldAs(n, xt, like) || !c.mayBeHeld(n) {
			continue
		}
		if bare(n) {
			return assertRefused, n
		}
		verdict = assertChecked
	}
	return verdict, nil
}

// lookalikeInCellIface reports whether x.(T), x of xt, an interface type
// with methods a cell declares, may meet a value of another cell type
// that the interpreter keeps as T's (type Nim int and type Heap int, both
// Games, or pointers to them): yaegi v0.16.1 asserts from its
// valueInterface by the reflect type of the value in it (interp/run.go,
// typeAssert's default case: canAssertTypes), which is the underlying
// type's for both, so g.(Nim) of a Heap passed, silently. The check goes
// through the box the value is in once put in an any (checkedAssert).
func (c *Cell) lookalikeInCellIface(xt, tt types.Type) bool {
	if xt == nil || tt == nil || !cellTypeOrIfaceLit(xt) || emptyIface(xt) || isIfaceType(tt) {
		return false
	}
	iface, ok := xt.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	like := erased(tt, map[types.Type]bool{})
	for _, n := range c.basedCellTypes() {
		for _, m := range []types.Type{n, types.NewPointer(n)} {
			if !types.Identical(m, tt) && types.Implements(m, iface) && types.Identical(erased(m, map[types.Type]bool{}), like) && c.mayBeHeld(n) {
				return true
			}
		}
	}
	return false
}

// onlyLookalike reports whether tt is the only type the session has that
// the interpreter keeps as tt's erased type and that implements xt, a
// native interface type with methods (hi.(*NimHeap), hi a heap.Interface,
// type NimHeap []Nimber): the interpreter's assertion, by the reflect type
// of the value in xt, then tells as Go's does.
func (c *Cell) onlyLookalike(xt, tt types.Type) bool {
	iface, ok := xt.Underlying().(*types.Interface)
	if !ok || iface.Empty() || !types.Implements(tt, iface) {
		return false
	}
	like := erased(tt, map[types.Type]bool{})
	for _, n := range c.basedCellTypes() {
		for _, m := range []types.Type{n, types.NewPointer(n)} {
			if !types.Identical(m, tt) && types.Implements(m, iface) && types.Identical(erased(m, map[types.Type]bool{}), like) {
				return false
			}
		}
	}
	return true
}

// heldAs reports whether a value of interface type it may hold a value of
// n that the interpreter keeps as one of type like.
func heldAs(n *types.Named, it, like types.Type) bool {
	iface, ok := it.Underlying().(*types.Interface)
	return ok && types.Implements(n, iface) && types.Identical(erased(n, map[types.Type]bool{}), like)
}

// emptyIface reports whether t is an interface type without methods,
// which the interpreter represents as any, a cell's own too.
func emptyIface(t types.Type) bool {
	it, ok := typeUnder(t).(*types.Interface)
	return ok && it.Empty()
}

// isIfaceType reports whether t is an interface type (not a type
// parameter, whose values are the instantiation's).
func isIfaceType(t types.Type) bool {
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return false
	}
	return types.IsInterface(t)
}
