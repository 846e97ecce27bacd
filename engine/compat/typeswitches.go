package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// typeSwitches: a type switch on a value of a native interface type (any,
// error, fmt.Stringer...). yaegi v0.16.1 matches such a value against the
// case types by comparing the name of its reflect type with the case
// type's name (interp/run.go:2943, _case): a value of a cell type, which
// has no reflect name, matched no case of its own type and fell to
// default, or to a case of its underlying type; an interface case matched
// no native value (case fmt.Stringer missed time.Duration); and yaegi's
// error wrapper hid the error inside. The switch becomes an expression
// switch over comma-ok assertions, which compare types by structure and
// look inside yaegi's wrappers:
//
//	switch _grundyTS1 := x; {
//	case func() bool { _, ok := _grundyTS1.(T); return ok }():
//		v := _grundyTS1.(T)
//		...
//	}
//
// An interface case also matches the cell's struct types that implement
// the interface (the interpreter has stored their values without their
// methods). A value of a cell type defined on a basic or other native
// type (type ID int) with methods is told from a value of that type by the
// name its box carries (grundyrt.HasType guards the case); without
// methods it cannot be, and basedTypes refuses the switch. A switch
// with an init statement gets it before the switch, in a block of its
// own (before the switch's label, where it has one), as switchInits
// writes an expression switch: left alone, its cases were yaegi's
// (case Shape missed a Sq, silently); one whose label a goto names, which
// the block would leave behind, is refused.
var typeSwitches = Pass{
	Name:     "typeswitches",
	Run:      runTypeSwitches,
	Kinds:    []ast.Node{(*ast.TypeSwitchStmt)(nil)},
	Snippets: []string{"errors_type_switch_cell_types", "type_switch_cell_types", "type_switch_nil_cases", "type_assert_promoted_method_from_cell_interface", "type_switch_case_any", "cell_iface_to_native_assert", "type_switch_struct_literal_cases", "based_pointer_in_native_iface", "generic_type_switch_nil_cell_iface"},
}

func runTypeSwitches(c *Cell) {
	c.typeSwitchInits()
	if c.err != nil {
		return
	}
	c.Apply(func(cur Cursor) bool {
		s, ok := cur.Node().(*ast.TypeSwitchStmt)
		if !ok || s.Init != nil {
			return true
		}
		if out := c.typeSwitch(s); out != nil {
			cur.Replace(out)
		}
		return c.err == nil
	})
}

// typeSwitchSubject is the x and the bound name of "switch v := x.(type)".
func typeSwitchSubject(s *ast.TypeSwitchStmt) (x ast.Expr, bind *ast.Ident) {
	var subj ast.Expr
	switch a := s.Assign.(type) {
	case *ast.ExprStmt:
		subj = a.X
	case *ast.AssignStmt:
		if len(a.Lhs) != 1 || len(a.Rhs) != 1 {
			return nil, nil
		}
		bind, _ = a.Lhs[0].(*ast.Ident)
		subj = a.Rhs[0]
	}
	ta, ok := subj.(*ast.TypeAssertExpr)
	if !ok || ta.Type != nil {
		return nil, nil
	}
	return ta.X, bind
}

func (c *Cell) typeSwitch(s *ast.TypeSwitchStmt) ast.Stmt {
	x, bind := typeSwitchSubject(s)
	if x == nil {
		return nil
	}
	xt := c.Types.TypeOf(x)
	if xt == nil || !types.IsInterface(xt) {
		return nil
	}
	// A cell interface's values keep their types, but yaegi's switch
	// matches none of them to an interface case (interp/run.go:3081,
	// _case compares the value's type with the case's).
	cellSubject := typecheck.IsCellType(xt) && !emptyIface(xt)
	if cellSubject && !c.interfaceCase(s) && !nilWithTypes(s) {
		return c.nilCaseFirst(s, x, bind)
	}
	errorSubject := isError(xt)
	if !errorSubject && !cellSubject && !c.needsAssertions(s, xt) {
		return nil
	}
	pos := s.Switch
	tmpName := c.Temp("TS")
	tmp := func() *ast.Ident { return ident(tmpName, pos) }
	// A struct case asserts _grundyTW, the subject, or the value in it
	// when it is yaegi's wrapper (see structAsserts): the first struct
	// case sets it, asking the wrapper only when the subject is not of
	// its type (the cost of the question is paid by the other values).
	paramSubject := c.paramInAny(x)
	if paramSubject {
		// any(x) of a nil x of a type parameter bound to a cell's
		// interface is a value yaegi calls both == nil and != nil, which
		// fmt could not print: made a plain nil where it can.
		v := func() *ast.Ident { return ident(tempPrefix+"NV", pos) }
		lit := funcLit(pos, pos, results(ident("any", pos)),
			ifThen(pos, &ast.BinaryExpr{X: v(), OpPos: pos, Op: token.EQL, Y: ident("nil", pos)}, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident("nil", pos)}}),
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{v()}})
		lit.Type.Params.List = []*ast.Field{{Names: []*ast.Ident{v()}, Type: ident("any", pos)}}
		x = &ast.CallExpr{Fun: lit, Lparen: pos, Args: []ast.Expr{x}, Rparen: pos}
	}
	init := define(pos, []ast.Expr{tmp()}, x)
	var wrapped string
	if c.structCase(s, xt) {
		wrapped = c.Temp("TW")
		nilAny := &ast.CallExpr{Fun: ident("any", pos), Lparen: pos, Args: []ast.Expr{ident("nil", pos)}, Rparen: pos}
		init = define(pos, []ast.Expr{tmp(), ident(wrapped, pos)}, x, nilAny)
	}
	tw := func() *ast.Ident { return ident(wrapped, pos) }
	firstStruct := true
	caseTest := func(t ast.Expr, tt types.Type) ast.Expr {
		if c.inCellIface(xt, tt) {
			return asserts(unwrapCall(tmp(), t.Pos()), t)
		}
		if wrapped != "" && inWrapperBased(xt, tt) {
			// After grundyrt.HasType said the name is T's:
			// func() bool { _, ok := tmp.(T); if ok { tw = tmp } else { tw = InWrapper(tmp); _, ok = tw.(T) }; return ok }()
			return c.wrapperTest(t, tmp, tw)
		}
		if wrapped == "" || !c.inWrapper(xt, tt) {
			return asserts(tmp(), t)
		}
		if !firstStruct {
			return asserts(tw(), t)
		}
		firstStruct = false
		return c.wrapperTest(t, tmp, tw)
	}
	asserted := func(tt types.Type) ast.Expr {
		if c.inCellIface(xt, tt) {
			return unwrapCall(tmp(), pos)
		}
		if wrapped != "" && (c.inWrapper(xt, tt) || inWrapperBased(xt, tt)) {
			return tw()
		}
		return tmp()
	}
	out := &ast.SwitchStmt{
		Switch: pos,
		Init:   init,
		Body:   &ast.BlockStmt{Lbrace: s.Body.Lbrace, Rbrace: s.Body.Rbrace},
	}
	var concrete []types.Type
	for _, st := range s.Body.List {
		cc := st.(*ast.CaseClause)
		nc := &ast.CaseClause{Case: cc.Case, Colon: cc.Colon}
		var cond ast.Expr
		for _, t := range cc.List {
			var e ast.Expr
			tt := c.Types.TypeOf(t)
			switch {
			case isIdent(t, "nil"):
				e = &ast.BinaryExpr{X: tmp(), OpPos: t.Pos(), Op: token.EQL, Y: ident("nil", t.Pos())}
			case tt != nil && isIfaceType(tt) && emptyIface(tt):
				// case any: every value but nil (yaegi's assertion to an
				// empty interface says no to native values).
				e = ident("true", t.Pos())
			case tt != nil && types.IsInterface(tt) && (!errorSubject || cellTypeOrIfaceLit(tt) || c.isNativeIface(tt) && !isError(tt)):
				e = c.matchesInterface(tmp, xt, t, tt)
			default:
				e = caseTest(t, tt)
				if !errorSubject && tt != nil {
					if lookalikeAssert(xt, tt) {
						if tx, ok := c.TypeExpr(tt, t.Pos()); ok {
							e = &ast.BinaryExpr{X: e, OpPos: t.Pos(), Op: token.LAND, Y: exactCall(tmp(), tx, t.Pos())}
							break
						}
					}
					if v, _ := c.assertVerdict(xt, tt); v == assertChecked {
						// The name of the value's type tells it, asked
						// first: yaegi's assertion to a type with
						// methods dereferences nil on the box of another
						// (a Tag asserted to Celsius).
						e = &ast.BinaryExpr{X: hasTypeCall(tmp(), tt, t.Pos()), OpPos: t.Pos(), Op: token.LAND, Y: e}
						break
					}
					if cellSubject {
						break
					}
					if c.ambiguousCase(t, tt, concrete) {
						return nil
					}
					concrete = append(concrete, tt)
				}
			}
			if e == nil {
				return nil
			}
			if tt != nil && types.IsInterface(tt) && !isIdent(t, "nil") {
				// A nil value matches no interface case (and the
				// interpreter's assertion of nil to one panics).
				var notNil ast.Expr = &ast.BinaryExpr{X: tmp(), OpPos: t.Pos(), Op: token.NEQ, Y: ident("nil", t.Pos())}
				if paramSubject {
					// (yaegi's != nil of such a nil said true; its == nil
					// says true too, as Go does)
					notNil = &ast.UnaryExpr{OpPos: t.Pos(), Op: token.NOT, X: &ast.ParenExpr{Lparen: t.Pos(), Rparen: t.Pos(),
						X: &ast.BinaryExpr{X: tmp(), OpPos: t.Pos(), Op: token.EQL, Y: ident("nil", t.Pos())}}}
				}
				e = &ast.BinaryExpr{X: notNil, OpPos: t.Pos(), Op: token.LAND, Y: &ast.ParenExpr{Lparen: t.Pos(), X: e, Rparen: t.Pos()}}
			}
			if cond == nil {
				cond = e
			} else {
				cond = &ast.BinaryExpr{X: cond, OpPos: t.Pos(), Op: token.LOR, Y: e}
			}
		}
		if cond != nil {
			nc.List = []ast.Expr{cond}
		}
		if bind != nil && bind.Name != "_" {
			var val ast.Expr = tmp()
			if len(cc.List) == 1 && !isIdent(cc.List[0], "nil") {
				t := cc.List[0]
				if tt := c.Types.TypeOf(t); tt != nil && isIfaceType(tt) && emptyIface(tt) {
					val = &ast.CallExpr{Fun: t, Lparen: cc.Colon, Args: []ast.Expr{tmp()}, Rparen: cc.Colon}
				} else if tt != nil && isIfaceType(tt) && (!errorSubject || cellTypeOrIfaceLit(tt) || c.isNativeIface(tt) && !isError(tt)) {
					val = c.asInterface(tmp, xt, t, tt)
				} else {
					val = &ast.TypeAssertExpr{X: asserted(tt), Type: t, Lparen: cc.Colon, Rparen: cc.Colon}
				}
			}
			nc.Body = append(nc.Body,
				define(cc.Colon, []ast.Expr{ident(bind.Name, cc.Colon)}, val),
				&ast.AssignStmt{Lhs: []ast.Expr{ident("_", cc.Colon)}, Tok: token.ASSIGN, TokPos: cc.Colon, Rhs: []ast.Expr{ident(bind.Name, cc.Colon)}})
		}
		nc.Body = append(nc.Body, cc.Body...)
		out.Body.List = append(out.Body.List, nc)
	}
	return out
}

// nilWithTypes reports whether a case of s lists nil with other types
// (case nil, Take:), which nilCaseFirst cannot test first without
// writing the clause twice: such a switch is written as the tests.
func nilWithTypes(s *ast.TypeSwitchStmt) bool {
	for _, st := range s.Body.List {
		cc := st.(*ast.CaseClause)
		if len(cc.List) > 1 && slices.ContainsFunc(cc.List, func(e ast.Expr) bool { return isIdent(e, "nil") }) {
			return true
		}
	}
	return false
}

// paramInAny reports whether x is a value of a type parameter's type
// converted to an interface (any(v) with v a T).
func (c *Cell) paramInAny(x ast.Expr) bool {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	return ok && len(call.Args) == 1 && c.Types.IsType(call.Fun) && isTypeParam(c.Types.TypeOf(call.Args[0]))
}

// interfaceCase reports whether a case of s lists an interface type.
func (c *Cell) interfaceCase(s *ast.TypeSwitchStmt) bool {
	for _, st := range s.Body.List {
		for _, t := range st.(*ast.CaseClause).List {
			if tt := c.Types.TypeOf(t); tt != nil && !isIdent(t, "nil") && types.IsInterface(tt) {
				return true
			}
		}
	}
	return false
}

// needsAssertions reports whether a case of s lists a type yaegi's type
// switch gets wrong on a value of a native interface type xt: a cell type,
// an interface, or a type whose values it cannot tell from a cell type's
// (see assertVerdict).
func (c *Cell) needsAssertions(s *ast.TypeSwitchStmt, xt types.Type) bool {
	for _, st := range s.Body.List {
		for _, t := range st.(*ast.CaseClause).List {
			if tt := c.Types.TypeOf(t); tt != nil && (types.IsInterface(tt) || mentionsCellType(tt) || c.inCellIface(xt, tt) || unnamedStruct(tt)) {
				return true
			}
			if v, _ := c.assertVerdict(xt, c.Types.TypeOf(t)); v == assertChecked {
				return true
			}
		}
	}
	return false
}

// unnamedStruct reports whether t is or is made of a struct type
// literal (struct{ a, b float64 }, *struct{ A int }): yaegi's type switch
// without a variable matched no such case (interp/run.go, _case compares
// the name reflect gives the value's type with its own name of the
// case's), silently; its assertion matches them.
func unnamedStruct(t types.Type) bool {
	switch u := types.Unalias(t).(type) {
	case *types.Struct:
		return true
	case *types.Pointer:
		return unnamedStruct(u.Elem())
	case *types.Slice:
		return unnamedStruct(u.Elem())
	case *types.Array:
		return unnamedStruct(u.Elem())
	case *types.Map:
		return unnamedStruct(u.Key()) || unnamedStruct(u.Elem())
	case *types.Chan:
		return unnamedStruct(u.Elem())
	}
	return false
}

// structCase reports whether a case of s, a type switch on a value of
// xt, is a type whose values may be in yaegi's wrapper (see
// structAsserts).
func (c *Cell) structCase(s *ast.TypeSwitchStmt, xt types.Type) bool {
	for _, st := range s.Body.List {
		for _, t := range st.(*ast.CaseClause).List {
			if tt := c.Types.TypeOf(t); c.inWrapper(xt, tt) || inWrapperBased(xt, tt) {
				return true
			}
		}
	}
	return false
}

// wrapperTest is the test of a case whose type t may be asserted from
// yaegi's wrapper of a native interface (see inWrapper, inWrapperBased),
// setting tw, the value the case's variable is asserted from:
//
//	func() bool { _, ok := tmp.(T); if ok { tw = tmp } else { tw = InWrapper(tmp); _, ok = tw.(T) }; return ok }()
func (c *Cell) wrapperTest(t ast.Expr, tmp, tw func() *ast.Ident) ast.Expr {
	pos := t.Pos()
	ok := func() *ast.Ident { return ident(okName, pos) }
	set := func(v ast.Expr) ast.Stmt {
		return &ast.AssignStmt{Lhs: []ast.Expr{tw()}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{v}}
	}
	retry := &ast.AssignStmt{Lhs: []ast.Expr{ident("_", pos), ok()}, TokPos: pos, Tok: token.ASSIGN,
		Rhs: []ast.Expr{&ast.TypeAssertExpr{X: tw(), Type: t, Lparen: pos, Rparen: pos}}}
	return called(funcLit(t.Pos(), t.End(), results(ident("bool", pos)),
		define(pos, []ast.Expr{ident("_", pos), ok()}, &ast.TypeAssertExpr{X: tmp(), Type: t, Lparen: pos, Rparen: pos}),
		&ast.IfStmt{If: pos, Cond: ok(), Body: &ast.BlockStmt{List: []ast.Stmt{set(tmp())}},
			Else: &ast.BlockStmt{List: []ast.Stmt{set(rtCall(prelude.RTInWrapper, pos, tmp())), retry}}},
		&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ok()}}))
}

// ambiguousCase refuses the case type t when the interpreter cannot tell
// its values, once in an interface, from those of an earlier case (cell
// types defined on other types are basedTypes' to refuse). It reports
// whether it refused.
func (c *Cell) ambiguousCase(t ast.Expr, tt types.Type, earlier []types.Type) bool {
	for _, e := range earlier {
		// (One told is enough: its reflect type carries its name, which
		// the other's lacks: case P: and case struct{ X, Y int }:.)
		if types.Identical(erased(e, map[types.Type]bool{}), erased(tt, map[types.Type]bool{})) && !told(e) && !told(tt) {
			c.Fail(t.Pos(), "a type switch on a value of an interface type cannot tell %s from %s: the interpreter keeps the values of both the same way; switch on a value of an interface type the cell declares, with a method these types have", ExprString(t), types.TypeString(e, shortQualifier))
			return true
		}
	}
	return false
}

func shortQualifier(p *types.Package) string {
	if p.Path() == "main" {
		return ""
	}
	return p.Name()
}

// structBased reports whether t is a cell struct type or a pointer to one:
// the interpreter's values of those are told apart by their fields.
func structBased(t types.Type) bool {
	_, ok := deref(t).Underlying().(*types.Struct)
	return ok
}

// erased is t as the interpreter represents it: cell types replaced by
// their underlying types.
func erased(t types.Type, seen map[types.Type]bool) types.Type {
	if seen[t] {
		return t
	}
	seen[t] = true
	switch x := types.Unalias(t).(type) {
	case *types.Named:
		if typecheck.IsCellType(x) {
			return erased(x.Underlying(), seen)
		}
	case *types.Pointer:
		return types.NewPointer(erased(x.Elem(), seen))
	case *types.Slice:
		return types.NewSlice(erased(x.Elem(), seen))
	case *types.Array:
		return types.NewArray(erased(x.Elem(), seen), x.Len())
	case *types.Map:
		return types.NewMap(erased(x.Key(), seen), erased(x.Elem(), seen))
	case *types.Struct:
		fields := make([]*types.Var, x.NumFields())
		tags := make([]string, x.NumFields())
		for i := range fields {
			f := x.Field(i)
			fields[i] = types.NewField(f.Pos(), f.Pkg(), f.Name(), erased(f.Type(), seen), f.Embedded())
			tags[i] = x.Tag(i)
		}
		return types.NewStruct(fields, tags)
	case *types.Chan:
		return types.NewChan(x.Dir(), erased(x.Elem(), seen))
	case *types.Signature:
		if x.TypeParams().Len() > 0 {
			return t
		}
		tuple := func(tup *types.Tuple) *types.Tuple {
			vars := make([]*types.Var, tup.Len())
			for i := range vars {
				v := tup.At(i)
				vars[i] = types.NewParam(v.Pos(), v.Pkg(), v.Name(), erased(v.Type(), seen))
			}
			return types.NewTuple(vars...)
		}
		return types.NewSignatureType(nil, nil, nil, tuple(x.Params()), tuple(x.Results()), x.Variadic())
	}
	return t
}

// mentionsCellType reports whether t is or contains a cell type.
func mentionsCellType(t types.Type) bool {
	return !types.Identical(erased(t, map[types.Type]bool{}), t)
}

// asserts is func() bool { _, ok := x.(T); return ok }().
func asserts(x ast.Expr, t ast.Expr) ast.Expr {
	okID := func() *ast.Ident { return ident(okName, t.Pos()) }
	return called(funcLit(t.Pos(), t.End(), results(ident("bool", t.Pos())),
		define(t.Pos(), []ast.Expr{ident("_", t.Pos()), okID()}, &ast.TypeAssertExpr{X: x, Type: t, Lparen: t.Pos(), Rparen: t.End()}),
		&ast.ReturnStmt{Return: t.Pos(), Results: []ast.Expr{okID()}}))
}

// nilCaseFirst is a type switch on a value of an interface type a cell
// declared, with a clause "case nil:" alone: yaegi's switch never takes
// it (interp/run.go:2943, _case looks for the nil value's type), so nil
// went to default. The nil value is tested first:
//
//	switch _grundyTS1 := x; {
//	case _grundyTS1 == nil:
//		v := _grundyTS1
//		...
//	default:
//		switch v := _grundyTS1.(type) { the other clauses }
//	}
//
// (A break in the nil clause leaves the outer switch, as it left the
// type switch.) A nil listed with other types is left alone.
func (c *Cell) nilCaseFirst(s *ast.TypeSwitchStmt, x ast.Expr, bind *ast.Ident) ast.Stmt {
	var nilClause *ast.CaseClause
	var others []ast.Stmt
	for _, st := range s.Body.List {
		cc := st.(*ast.CaseClause)
		if len(cc.List) == 1 && isIdent(cc.List[0], "nil") {
			nilClause = cc
			continue
		}
		others = append(others, cc)
	}
	if nilClause == nil {
		return nil
	}
	pos := s.Switch
	tmpName := c.Temp("TS")
	tmp := func() *ast.Ident { return ident(tmpName, pos) }
	var nilBody []ast.Stmt
	if bind != nil && bind.Name != "_" {
		nilBody = append(nilBody,
			define(nilClause.Colon, []ast.Expr{ident(bind.Name, nilClause.Colon)}, tmp()),
			&ast.AssignStmt{Lhs: []ast.Expr{ident("_", nilClause.Colon)}, Tok: token.ASSIGN, TokPos: nilClause.Colon, Rhs: []ast.Expr{ident(bind.Name, nilClause.Colon)}})
	}
	nilBody = append(nilBody, nilClause.Body...)
	guard := &ast.TypeAssertExpr{X: tmp(), Lparen: pos, Rparen: pos}
	var assign ast.Stmt = &ast.ExprStmt{X: guard}
	if bind != nil {
		assign = define(pos, []ast.Expr{ident(bind.Name, bind.Pos())}, guard)
	}
	inner := &ast.TypeSwitchStmt{Switch: pos, Assign: assign, Body: &ast.BlockStmt{Lbrace: s.Body.Lbrace, List: others, Rbrace: s.Body.Rbrace}}
	return &ast.SwitchStmt{
		Switch: pos,
		Init:   define(pos, []ast.Expr{tmp()}, x),
		Body: &ast.BlockStmt{Lbrace: s.Body.Lbrace, Rbrace: s.Body.Rbrace, List: []ast.Stmt{
			&ast.CaseClause{Case: nilClause.Case, List: []ast.Expr{&ast.BinaryExpr{X: tmp(), OpPos: pos, Op: token.EQL, Y: ident("nil", pos)}}, Colon: nilClause.Colon, Body: nilBody},
			&ast.CaseClause{Case: pos, Colon: pos, Body: []ast.Stmt{inner}},
		}},
	}
}

// typeSwitchInits writes each type switch's init statement before it, in
// a block of its own (see typeSwitches):
//
//	L: switch x := f(); v := x.(type) {...}  =>  { x := f(); L: switch v := x.(type) {...} }
func (c *Cell) typeSwitchInits() {
	c.Apply(func(cur Cursor) bool {
		if c.err != nil {
			return false
		}
		stmt, ok := cur.Node().(ast.Stmt)
		if !ok || cur.Index() < 0 {
			return true
		}
		s, _ := stmt.(*ast.TypeSwitchStmt)
		if l, labeled := stmt.(*ast.LabeledStmt); labeled {
			if s, _ = l.Stmt.(*ast.TypeSwitchStmt); s != nil && s.Init != nil && c.gotoTarget(l.Label.Name) {
				c.Fail(l.Pos(), "a type switch with an init statement, labeled %s, which a goto names: write the init statement before the label and the switch without it", userLabel(l.Label))
				return false
			}
		}
		if s == nil || s.Init == nil {
			return true
		}
		init := s.Init
		s.Init = nil
		cur.Replace(&ast.BlockStmt{Lbrace: stmt.Pos(), List: []ast.Stmt{init, stmt}, Rbrace: stmt.End()})
		return true
	})
}
