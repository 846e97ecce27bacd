package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// nilAsserts: x.(I), I an interface type other than error, x of an
// interface type and nil. yaegi v0.16.1 looks into the value before it
// looks at whether there is one (interp/run.go:295, typeAssert: a nil
// interface of a cell-declared interface type is a valueInterface whose
// node it dereferences; a nil native one is a zero reflect.Value whose
// Type it asks), so "s, ok := v.(fmt.Stringer)" with v nil panicked with
// a nil pointer dereference where Go gives false, and the one-value form
// panicked with that instead of Go's "interface conversion: interface is
// nil, not I". The assertion is made in a function literal that answers
// for nil first:
//
//	func(_grundyNA X) (I, bool) {
//		if _grundyNA == nil { return nil, false }
//		_grundyNV, _grundyOK := _grundyNA.(I)
//		return _grundyNV, _grundyOK
//	}(x)
//
// (x.(error) is the error passes'.) An assertion to a type parameter T,
// which the oracle takes for one to an interface, is made so too; as its
// type argument may be one that yaegi's assertion by assignability gets
// wrong (see lookalikeAssert: x.(T) passed a games.Pos for T = []int),
// the literal asks the runtime first, after nil:
//
//	var _grundyNZ T
//	if _grundyNA == nil { return _grundyNZ, false }  // nil: T may be int
//	if _grundyNU, _grundyOK := grundyrt.AssertsParam(_grundyNA, &_grundyNZ, []any{_grundyNZ}[0]); !_grundyOK {
//		return _grundyNZ, false
//	} else if _grundyNU != nil { return _grundyNU.(T), true }
//
// and in the one-value form, nil included,
//
//	if _grundyNU := grundyrt.MustAssertParam(_grundyNA, &_grundyNZ, "interface {}", []any{_grundyNZ}[0]); _grundyNU != nil { return _grundyNU.(T) }
//
// []any{_grundyNZ}[0] is a zero T in the interpreter's box when T is bound
// to a cell type on a basic type, an array, a slice or a map: in a generic
// type's method the interpreter's T is then the underlying type, and its
// assertion of a value in the box failed ("interface {} is main.Pos, not
// [2]int"); the runtime checks the box's name against the zero value's and
// gives the value out of the box. (Each costs one call of the runtime;
// the interpreter's own assertion ends each, so that its failures keep
// their words.)
var nilAsserts = Pass{
	Name:     "nilasserts",
	Run:      runNilAsserts,
	Kinds:    []ast.Node{(*ast.TypeAssertExpr)(nil)},
	Snippets: []string{"type_assert_nil_interface", "type_param_assert", "assert_stringer_basic_type", "type_assert_empty_interface", "assert_cell_iface_missing_method", "assert_native_iface_missing_method", "assert_native_iface_from_other_wrapper", "generic_method_asserts_cell_iface"},
}

func runNilAsserts(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		ta, ok := cur.Node().(*ast.TypeAssertExpr)
		if !ok || ta.Type == nil {
			return true
		}
		xt, tt := c.Types.TypeOf(ta.X), c.Types.TypeOf(ta.Type)
		if xt == nil || tt == nil || !types.IsInterface(xt) || !types.IsInterface(tt) || isError(tt) {
			return true
		}
		if _, param := types.Unalias(xt).(*types.TypeParam); param {
			return true
		}
		commaOk := commaOkParent(cur)
		_, param := types.Unalias(tt).(*types.TypeParam)
		// yaegi's assertion to an empty interface says no to a value it
		// did not store itself with its type (a native int in an any),
		// and its one-value form panics "nil is not any": a value is one
		// (interp/run.go:319).
		empty := !param && emptyIface(tt)
		pos := ta.Pos()
		xtype, ok := c.TypeExpr(xt, pos)
		if !ok {
			return true
		}
		arg := func() *ast.Ident { return ident(tempPrefix+"NA", pos) }
		val := func() *ast.Ident { return ident(tempPrefix+"NV", pos) }
		okID := func() *ast.Ident { return ident(okName, pos) }
		isNil := &ast.BinaryExpr{X: arg(), OpPos: pos, Op: token.EQL, Y: ident("nil", pos)}
		assert := &ast.TypeAssertExpr{X: arg(), Type: ta.Type, Lparen: ta.Lparen, Rparen: ta.Rparen}
		var res *ast.FieldList
		var body []ast.Stmt
		// The cell's struct types that implement a native interface,
		// asserted first: yaegi's own assertion builds their wrapper from
		// the node that made the value, evaluated in the wrong frame (a
		// nil dereference, also when only ok is used: _, ok := x.(io.Closer)).
		var first []ast.Stmt
		if !typecheck.IsCellType(tt) && !empty && !param {
			impls, implTypes, _ := c.cellStructs(xt, tt, pos)
			for i, impl := range impls {
				subjects := []ast.Expr{arg()}
				if basedWrapperSubject(xt) {
					// In another native interface's wrapper (a *Tape
					// held in an io.Reader, then in an any, asserted to
					// io.ReadWriter), which yaegi's assertion does not
					// look inside.
					subjects = append(subjects, inWrapperCall(arg()))
				}
				for _, x := range subjects {
					then := []ast.Stmt{&ast.ReturnStmt{Return: pos, Results: []ast.Expr{val(), ident("true", pos)}}}
					// Into a native interface, the value goes through a
					// variable of its type: var r I = value; return r, true.
					r := ident(tempPrefix+"R", pos)
					var value ast.Expr
					var after []ast.Stmt
					_, ptr := impl.(*ast.StarExpr)
					switch {
					case !c.isNativeIface(tt):
					case !ptr:
						// The whole value in yaegi's wrapper, as a
						// conversion puts it (see grundyrt.Rewrap): a
						// Blob asserted to io.Reader printed 4, not its
						// String's blob(4).
						value, after = val(), []ast.Stmt{&ast.ExprStmt{X: rewrapCall(r, val(), pos)}}
					case !isError(tt):
						// A nil pointer stays a typed nil in the
						// interface (yaegi made it a nil interface:
						// st == nil, and <nil> for its String's
						// words), as nilConv converts it.
						if conv, ok := c.nilConv(tt, implTypes[i], val()); ok {
							value = conv
						}
					}
					if value != nil {
						rt, ok := c.TypeExpr(tt, pos)
						if !ok {
							return true
						}
						then = append(append([]ast.Stmt{varDecl(pos, r.Name, rt, value)}, after...),
							&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident(r.Name, pos), ident("true", pos)}})
					}
					first = append(first, &ast.IfStmt{If: pos,
						Init: define(pos, []ast.Expr{val(), okID()}, &ast.TypeAssertExpr{X: x, Type: impl, Lparen: pos, Rparen: pos}),
						Cond: okID(),
						Body: &ast.BlockStmt{Lbrace: pos, List: then, Rbrace: pos}})
				}
			}
		}
		// A library value kept in a cell's interface, then in an any
		// (Push(x any) appending x.(Named), Pop returning it): it is in
		// yaegi's valueInterface, whose assertion to a native interface
		// said no (x.(games.Game) of a popped *SetGame was false),
		// silently; the value inside is asserted, once the assertion
		// itself said no (comma-ok), or before the one-value form panics.
		library := c.libraryInCellIface(xt, tt)
		unwrapped := func() ast.Expr {
			return &ast.TypeAssertExpr{X: unwrapCall(arg(), pos), Type: ta.Type, Lparen: pos, Rparen: pos}
		}
		if library && !commaOk {
			first = append(first, &ast.IfStmt{If: pos,
				Init: define(pos, []ast.Expr{val(), okID()}, unwrapped()),
				Cond: okID(),
				Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.ReturnStmt{Return: pos, Results: []ast.Expr{val()}}}, Rbrace: pos}})
		}
		// The interface as the runtime names it in its messages:
		// interface { Timeout() bool }, where go/types writes
		// interface{Timeout() bool}.
		name := reflectString(tt, false)
		quote := func(s string) ast.Expr {
			return &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(s)}
		}
		// A value of a cell struct type that does not implement the
		// interface, said no to: yaegi's assertion passes a struct value
		// whose methods have pointer receivers, and a call of one through
		// the interface then dereferences nil.
		var others []cellStruct
		if !param {
			_, _, others = c.cellStructs(xt, tt, pos)
		}
		for _, o := range others {
			var no ast.Stmt = &ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident("nil", pos), ident("false", pos)}}
			if !commaOk {
				no = &ast.ExprStmt{X: &ast.CallExpr{Fun: ident("panic", pos), Args: []ast.Expr{&ast.CallExpr{
					Fun:  &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(prelude.RTAssertionError, pos)},
					Args: []ast.Expr{arg(), quote(name), quote(o.missing)}}}}}
			}
			first = append(first, ifThen(pos, asserts(arg(), o.x), no))
		}
		if (!typecheck.IsCellType(tt) || cellTypeOrIfaceLit(xt) && !emptyIface(xt)) && !param {
			// A type on a basic type without the methods, said no to by
			// the name its box carries: yaegi's assertion fails on it
			// (see boxedOthers; one with them is ifaceAsserts'), or, from
			// an interface the cell declares, passes it when a method
			// is on the pointer (d.(Zeroer) of a D holding an M2, Zero
			// on *M2).
			bo, missing := c.boxedOthers(tt)
			for i, n := range bo {
				var no ast.Stmt = &ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident("nil", pos), ident("false", pos)}}
				if !commaOk {
					no = &ast.ExprStmt{X: &ast.CallExpr{Fun: ident("panic", pos), Args: []ast.Expr{&ast.CallExpr{
						Fun:  &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(prelude.RTAssertionError, pos)},
						Args: []ast.Expr{arg(), quote(name), quote(missing[i])}}}}}
				}
				first = append(first, ifThen(pos, c.boxedOther(arg, xt, tt, n, pos), no))
			}
		}
		if commaOk {
			res = results(ta.Type, ident("bool", pos))
			body = []ast.Stmt{ifThen(pos, isNil, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident("nil", pos), ident("false", pos)}})}
			if param {
				// The zero value, not nil: the type argument may be int.
				body = paramCheck(arg(), isNil, ta.Type, xt, true, pos)
			}
			body = append(body, first...)
			if later := c.laterMethods(arg, tt, pos); later != nil {
				body = append(body, &ast.ExprStmt{X: later})
			}
			if empty {
				body = append(body, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{arg(), ident("true", pos)}})
			} else {
				body = append(body, define(pos, []ast.Expr{val(), okID()}, assert))
				if library {
					body = append(body, ifThen(pos, &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: okID()},
						&ast.AssignStmt{Lhs: []ast.Expr{val(), okID()}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{unwrapped()}}))
				}
				body = append(body, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{val(), okID()}})
			}
		} else {
			// Go's words: "interface conversion: interface is nil, not main.I".
			fail := &ast.CallExpr{
				Fun:  &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(prelude.RTAssertionError, pos)},
				Args: []ast.Expr{ident("nil", pos), quote(name), quote("")},
			}
			res = results(ta.Type)
			for _, st := range first {
				list := st.(*ast.IfStmt).Body.List
				if r, ok := list[len(list)-1].(*ast.ReturnStmt); ok {
					r.Results = r.Results[:1]
				}
			}
			body = []ast.Stmt{ifThen(pos, isNil, &ast.ExprStmt{X: &ast.CallExpr{Fun: ident("panic", pos), Args: []ast.Expr{fail}}})}
			if param {
				// The runtime names the type argument, for nil too.
				body = paramCheck(arg(), nil, ta.Type, xt, false, pos)
			}
			body = append(body, first...)
			if later := c.laterMethods(arg, tt, pos); later != nil {
				body = append(body, &ast.ExprStmt{X: later})
			}
			switch {
			case empty:
				body = append(body, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{arg()}})
			case !param:
				// yaegi's one-value assertion of a value it stored with
				// its cell type (var x any = &Stack{}) fails without a
				// panic when the type has as many methods as the
				// interface but not its, to an interface a cell declares
				// (interp/run.go:351) or a native one (run.go:405): it
				// gave nil. Its comma-ok form answers right, and the
				// panic names the first missing method (a cell struct
				// type with some of them is said no to above, by name).
				body = append(body,
					define(pos, []ast.Expr{val(), okID()}, assert),
					ifThen(pos, &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: okID()}, &ast.ExprStmt{X: &ast.CallExpr{
						Fun:  &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(prelude.RTAssertPanic, pos)},
						Args: []ast.Expr{arg(), quote(name), methodNames(tt, pos)}}}),
					&ast.ReturnStmt{Return: pos, Results: []ast.Expr{val()}})
			default:
				body = append(body, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{assert}})
			}
		}
		lit := funcLit(pos, ta.End(), res, body...)
		lit.Type.Params.List = []*ast.Field{{Names: []*ast.Ident{arg()}, Type: xtype}}
		x := ta.X
		if c.ifaceResult(x, c.interpreted) {
			// In parentheses, as ifaceCopies passes a call's interface
			// result (G(p).(Mover).Move() dereferenced nil).
			x = &ast.ParenExpr{Lparen: x.Pos(), X: x, Rparen: x.End()}
		}
		call := &ast.CallExpr{Fun: lit, Lparen: ta.End(), Args: []ast.Expr{x}, Rparen: ta.End()}
		cur.Replace(call)
		c.Types.Types[call] = c.Types.Types[ta] // (for the passes after: fmtArgs prints it as a T)
		return true
	})
}

// ifThen is "if cond { then }".
func ifThen(pos token.Pos, cond ast.Expr, then ...ast.Stmt) *ast.IfStmt {
	return &ast.IfStmt{If: pos, Cond: cond, Body: &ast.BlockStmt{Lbrace: pos, List: then, Rbrace: pos}}
}

// commaOkParent reports whether the node at cur is the value of a
// two-variable assignment or declaration (v, ok := x.(T)).
func commaOkParent(cur Cursor) bool {
	switch p := cur.Parent().(type) {
	case *ast.AssignStmt:
		return len(p.Lhs) == 2 && len(p.Rhs) == 1
	case *ast.ValueSpec:
		return len(p.Names) == 2 && len(p.Values) == 1
	}
	return false
}

// paramCheck is the check nilAsserts writes in an assertion of x (of
// type xt) to a type parameter t: in the comma-ok form, after a variable
// of type t for the zero value, the answer for nil (isNil) and then the
// runtime's; in the one-value form the runtime's, which panics for nil
// too. It calls the runtime with a pointer to a variable of type t,
// not a generic helper with t as type argument, which yaegi v0.16.1
// cannot compile in a function literal of a generic function.
func paramCheck(x, isNil, t ast.Expr, xt types.Type, commaOk bool, pos token.Pos) []ast.Stmt {
	if cellTypeOrIfaceLit(xt) {
		// A value of a cell type on a basic type in an interface the
		// cell declares is the bare value to a native function (the
		// runtime saw an int, not a Nim); put in an any, it is in its
		// box.
		x = sliceElem(ident("any", pos), x)
	}
	z := func() *ast.Ident { return ident(tempPrefix+"NZ", pos) }
	decl := &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{z()}, Type: ident(ExprString(t), pos)}}}}
	like := &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: z()}
	if commaOk {
		// if _grundyNU, _grundyOK := grundyrt.AssertsParam(x, &_grundyNZ, []any{_grundyNZ}[0]); !_grundyOK {
		// 	return _grundyNZ, false
		// } else if _grundyNU != nil { return _grundyNU.(T), true }
		no := func() ast.Stmt { return &ast.ReturnStmt{Return: pos, Results: []ast.Expr{z(), ident("false", pos)}} }
		check := &ast.CallExpr{Fun: rtSelector(prelude.RTAssertsParam, pos), Lparen: pos, Args: []ast.Expr{x, like, paramSample(pos)}, Rparen: pos}
		u, ok := ident(tempPrefix+"NU", pos), ident(okName, pos)
		st := ifThen(pos, &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: ident(okName, pos)}, no())
		st.Init = define(pos, []ast.Expr{u, ok}, check)
		st.Else = ifThen(pos, &ast.BinaryExpr{X: ident(tempPrefix+"NU", pos), OpPos: pos, Op: token.NEQ, Y: ident("nil", pos)},
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{&ast.TypeAssertExpr{X: ident(tempPrefix+"NU", pos), Type: t, Lparen: pos, Rparen: pos}, ident("true", pos)}})
		return []ast.Stmt{decl, ifThen(pos, isNil, no()), st}
	}
	// The one-value form's check gives the value out of its box too:
	//
	//	if _grundyNU := grundyrt.MustAssertParam(x, &_grundyNZ, "interface {}", []any{_grundyNZ}[0]); _grundyNU != nil { return _grundyNU.(T) }
	iface := &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(reflectString(xt, false))}
	must := &ast.CallExpr{Fun: rtSelector(prelude.RTMustAssertParam, pos), Lparen: pos, Args: []ast.Expr{x, like, iface, paramSample(pos)}, Rparen: pos}
	u := func() *ast.Ident { return ident(tempPrefix+"NU", pos) }
	st := ifThen(pos, &ast.BinaryExpr{X: u(), OpPos: pos, Op: token.NEQ, Y: ident("nil", pos)},
		&ast.ReturnStmt{Return: pos, Results: []ast.Expr{&ast.TypeAssertExpr{X: u(), Type: t, Lparen: pos, Rparen: pos}}})
	st.Init = define(pos, []ast.Expr{u()}, must)
	return []ast.Stmt{decl, st}
}

// paramSample is []any{_grundyNZ}[0], paramCheck's zero value of the type
// parameter in an interface: for a type argument on a basic type, an
// array, a slice or a map, in the interpreter's box that names it, which
// the runtime checks the asserted value's box against (in a generic
// type's method the interpreter's own T is the underlying type).
func paramSample(pos token.Pos) ast.Expr {
	return sliceElem(ident("any", pos), ident(tempPrefix+"NZ", pos))
}
