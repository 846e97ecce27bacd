package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// tupleIfaces: the values of a call with several results, or of a
// comma-ok expression, stored in places of an interface type where a
// value is not of an interface type (a, err = two() with a an any and
// two's first result an ID int; m["a"], m["b"] = parse() into a
// map[string]any; x, ok = m[k] or x, ok = v.(ID) with x an any; var a, e
// any = two(); return two() from a function whose first result is an
// any). yaegi v0.16.1 writes such a value into its place as it is, not
// boxed with its type: a value of a cell type on a basic type lost its
// type (%T int where Go says main.ID, its String not called), silently,
// or the store panicked in reflect.Set ("value of type
// interp.valueInterface is not assignable to type string"; into a map of
// an interface type, for any value; a range's key and value, for k, v =
// range m, see rangeIfaces; a select's case v, ok = <-ch, see commIfaces).
// The values go
// to temporaries of their own types first, and from them to the places,
// as single values, which yaegi boxes:
//
//	a, err = two()  =>  { _grundyV1, _grundyV2 := two(); a, err = _grundyV1, _grundyV2 }
var tupleIfaces = Pass{
	Name:     "tupleifaces",
	Run:      runTupleIfaces,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.ReturnStmt)(nil), (*ast.RangeStmt)(nil), (*ast.CommClause)(nil), (*ast.ForStmt)(nil)},
	Snippets: []string{"tuple_results_into_interfaces"},
}

func runTupleIfaces(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		switch st := cur.Node().(type) {
		case *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.ForStmt:
			// if v, ok = m[k]; ok { ... }: the temporaries and the init
			// statement before the statement, in a block of their own
			// (the init's scope; a for statement's only for an init that
			// declares nothing, whose variables would be each
			// iteration's).
			if f, isFor := st.(*ast.ForStmt); isFor {
				c.forPost(cur, f)
				if as, ok := f.Init.(*ast.AssignStmt); !ok || as.Tok != token.ASSIGN {
					return true
				}
			}
			init := stmtInit(st)
			if _, labeled := cur.Parent().(*ast.LabeledStmt); init == nil || labeled {
				return true
			}
			if first := c.ifaceTupleTemps(init, cur.Func); first != nil {
				setInit(st, nil)
				cur.Replace(&ast.BlockStmt{Lbrace: st.Pos(), List: []ast.Stmt{first.(ast.Stmt), init, st.(ast.Stmt)}, Rbrace: st.End()})
			}
		case *ast.RangeStmt:
			c.rangeIfaces(st)
		case *ast.CommClause:
			c.commIfaces(st)
		case *ast.AssignStmt, *ast.DeclStmt, *ast.GenDecl, *ast.ReturnStmt:
			if cur.Index() < 0 {
				return true
			}
			first := c.ifaceTupleTemps(st, cur.Func)
			if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && first != nil {
				// In a block of its own, the temporaries with it (among a
				// cell's statements, not globals of the session: one of
				// an instance of a generic type lost the instance's
				// methods there).
				cur.Replace(&ast.BlockStmt{Lbrace: as.Pos(), List: []ast.Stmt{first.(ast.Stmt), as}, Rbrace: as.End()})
			} else if first != nil {
				cur.InsertBefore(first)
			}
		}
		return true
	})
}

// stmtInit is the init statement of an if, a switch or a for statement,
// nil if none.
func stmtInit(st ast.Node) ast.Stmt {
	switch st := st.(type) {
	case *ast.IfStmt:
		return st.Init
	case *ast.SwitchStmt:
		return st.Init
	case *ast.TypeSwitchStmt:
		return st.Init
	case *ast.ForStmt:
		return st.Init
	}
	return nil
}

// setInit sets the init statement of an if, a switch or a for statement.
func setInit(st ast.Node, init ast.Stmt) {
	switch st := st.(type) {
	case *ast.IfStmt:
		st.Init = init
	case *ast.SwitchStmt:
		st.Init = init
	case *ast.TypeSwitchStmt:
		st.Init = init
	case *ast.ForStmt:
		st.Init = init
	}
}

// ifaceTupleTemps rewrites st, an assignment, a var declaration (in a function,
// or at a cell's top level) or a return in the function fn, to store its
// tuple's values from temporaries, and returns the definition of the
// temporaries to put before it; nil where st stores no such tuple.
func (c *Cell) ifaceTupleTemps(st ast.Node, fn *ast.FuncType) ast.Node {
	value, places := c.tuplePlaces(st, fn)
	if value == nil {
		return nil
	}
	tuple, ok := c.Types.TypeOf(*value).(*types.Tuple)
	if !ok || tuple.Len() != len(places) || !boxesInto(tuple, places) && !c.ifaceMapPlace(st) && !anySpelledApart(st, tuple, places) {
		return nil
	}
	x := *value
	pos := x.Pos()
	gd, top := st.(*ast.GenDecl)
	if top {
		pos = gd.Specs[0].Pos() // (varinits orders its assignments by their names' places)
	}
	defs, uses := c.typedTemps(tuple, pos, func() string { return c.sessionTempName(pos) })
	*value = nil
	switch st := st.(type) {
	case *ast.AssignStmt:
		st.Rhs = uses
	case *ast.DeclStmt:
		st.Decl.(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Values = uses
	case *ast.GenDecl:
		// var _grundyV1, _grundyV2 = two() before it, among the cell's
		// declarations (varinits puts both in order).
		st.Specs[0].(*ast.ValueSpec).Values = uses
		return &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{&ast.ValueSpec{Names: defs, Values: []ast.Expr{x}}}}
	case *ast.ReturnStmt:
		st.Results = uses
	}
	return define(pos, identExprs(defs), x)
}

// tuplePlaces is where a statement holds a value of several results
// (two() in a, err = two(); m[k] of x, ok = m[k]; var a, b T = two();
// return two()) and the types of the places it stores them in (nil for
// _ and a variable := defines), or nil: fn is the function the statement
// is in.
func (c *Cell) tuplePlaces(st ast.Node, fn *ast.FuncType) (value *ast.Expr, places []types.Type) {
	switch st := st.(type) {
	case *ast.AssignStmt:
		if len(st.Rhs) != 1 || len(st.Lhs) < 2 {
			return nil, nil
		}
		value = &st.Rhs[0]
		for _, l := range st.Lhs {
			var t types.Type
			if !isIdent(l, "_") && (st.Tok == token.ASSIGN || c.Types.Defs[l.(*ast.Ident)] == nil) {
				t = c.Types.TypeOf(l) // (:= stores an earlier variable)
			}
			places = append(places, t)
		}
	case *ast.DeclStmt, *ast.GenDecl: // (in a function; at a cell's top level)
		gd, ok := st.(*ast.GenDecl)
		if ds, isStmt := st.(*ast.DeclStmt); isStmt {
			gd, ok = ds.Decl.(*ast.GenDecl)
		}
		if !ok || gd.Tok != token.VAR || len(gd.Specs) != 1 {
			return nil, nil
		}
		vs := gd.Specs[0].(*ast.ValueSpec)
		if len(vs.Values) != 1 || len(vs.Names) < 2 || vs.Type == nil {
			return nil, nil
		}
		value = &vs.Values[0]
		for range vs.Names {
			places = append(places, c.Types.TypeOf(vs.Type))
		}
	case *ast.ReturnStmt:
		if len(st.Results) != 1 || fn == nil || fn.Results == nil {
			return nil, nil
		}
		value = &st.Results[0]
		places = c.resultTypes(fn)
	default:
		return nil, nil
	}
	return value, places
}

// rangeIfaces writes a range statement assigning a key or a value that
// is not of an interface type to a place of one (for k, v = range m with
// k, v any and m a map[ID]ID) as one defining temporaries, the body
// assigning them first: yaegi's range panicked in reflect.Set ("value of
// type interp.valueInterface is not assignable to type int").
//
//	for k, v = range m { body }  =>  for _grundyV1, _grundyV2 := range m { k, v = _grundyV1, _grundyV2; body }
func (c *Cell) rangeIfaces(s *ast.RangeStmt) {
	if s.Tok != token.ASSIGN {
		return
	}
	key, value := rangeElems(c.Types.TypeOf(s.X))
	places := []types.Type{nil, nil}
	elems := []types.Type{key, value}
	for i, e := range []ast.Expr{s.Key, s.Value} {
		if e != nil && !isIdent(e, "_") && elems[i] != nil {
			places[i] = c.Types.TypeOf(e)
		}
	}
	if !boxesInto(types.NewTuple(types.NewVar(0, nil, "", key), types.NewVar(0, nil, "", value)), places) {
		return
	}
	pos := s.For
	as := &ast.AssignStmt{TokPos: pos, Tok: token.ASSIGN}
	for i, e := range []*ast.Expr{&s.Key, &s.Value} {
		if places[i] == nil {
			continue
		}
		def, use := c.sessionTemp(elems[i], pos)
		as.Lhs, as.Rhs = append(as.Lhs, *e), append(as.Rhs, use)
		*e = def
	}
	if s.Key == nil || isIdent(s.Key, "_") && s.Value == nil {
		return // (for _ = range: nothing stored)
	}
	s.Tok = token.DEFINE
	s.Body.List = append([]ast.Stmt{as}, s.Body.List...)
}

// forPost writes such a store in a for statement's post statement in a
// function literal called there (the post statement is one statement;
// its init is written as an if's is, in runTupleIfaces).
//
//	for cur, ok = m[i]; ok; cur, ok = m[i] {...}
//	=>
//	{ _grundyV1, _grundyV2 := m[i]; cur, ok = _grundyV1, _grundyV2; for ; ok; func() { ... }() {...} }
func (c *Cell) forPost(cur Cursor, s *ast.ForStmt) {
	if as, ok := s.Post.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
		if first := c.ifaceTupleTemps(as, cur.Func); first != nil {
			lit := funcLit(as.Pos(), as.End(), nil, first.(ast.Stmt), as)
			s.Post = &ast.ExprStmt{X: called(lit)}
		}
	}
}

// commIfaces writes a select's case receiving a value and ok into
// places one of which is of an interface type the value is not of (case
// v, ok = <-ch with v an any) as one defining temporaries, the case
// assigning them first: yaegi's store panicked in reflect.Set.
//
//	case v, ok = <-ch:  =>  case _grundyV1, _grundyV2 := <-ch: v, ok = _grundyV1, _grundyV2
func (c *Cell) commIfaces(cc *ast.CommClause) {
	as, ok := cc.Comm.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return
	}
	tuple, ok := c.Types.TypeOf(as.Rhs[0]).(*types.Tuple)
	if !ok || tuple.Len() != 2 {
		return
	}
	places := make([]types.Type, 2)
	for i, l := range as.Lhs {
		if !isIdent(l, "_") {
			places[i] = c.Types.TypeOf(l)
		}
	}
	if !boxesInto(tuple, places) {
		return
	}
	pos := as.Pos()
	store := &ast.AssignStmt{Lhs: as.Lhs, TokPos: pos, Tok: token.ASSIGN}
	var defs []ast.Expr
	for i := range 2 {
		def, use := c.sessionTemp(tuple.At(i).Type(), pos)
		defs, store.Rhs = append(defs, def), append(store.Rhs, use)
	}
	as.Lhs, as.Tok = defs, token.DEFINE
	cc.Body = append([]ast.Stmt{store}, cc.Body...)
}

// rangeElems are the types of the key and the value a range over a
// value of type t gives (nil where it gives none, or t ranges over
// nothing the passes know).
func rangeElems(t types.Type) (key, value types.Type) {
	intType := types.Typ[types.Int]
	switch u := rangedType(t).(type) {
	case *types.Basic:
		if u.Info()&types.IsString != 0 {
			return intType, types.Universe.Lookup("rune").Type()
		}
		if u.Info()&types.IsInteger != 0 {
			return t, nil
		}
	case *types.Pointer:
		if a, ok := u.Elem().Underlying().(*types.Array); ok {
			return intType, a.Elem()
		}
	case *types.Array:
		return intType, u.Elem()
	case *types.Slice:
		return intType, u.Elem()
	case *types.Map:
		return u.Key(), u.Elem()
	case *types.Chan:
		return u.Elem(), nil
	}
	if y, ok := yieldSignature(t); ok {
		if y.Params().Len() > 0 {
			key = y.Params().At(0).Type()
		}
		if y.Params().Len() > 1 {
			value = y.Params().At(1).Type()
		}
	}
	return key, value
}

// boxesInto reports whether a value of the tuple that is not of an
// interface type goes to a place of one (places[i] nil: no such place).
func boxesInto(tuple *types.Tuple, places []types.Type) bool {
	for i, t := range places {
		if t != nil && types.IsInterface(t) && !types.IsInterface(tuple.At(i).Type()) {
			return true
		}
	}
	return false
}

// anySpelledApart reports whether st returns a call of several results
// with an empty interface result that the function's result spells the
// other way (any, interface{}): yaegi v0.16.1 takes the two for different
// types there, and return func(k any) (interface{}, bool) {...}(k) in a
// function with results (any, bool) gave its bool false, silently (the
// engine writes interface{} in the literals it makes: m.Load(k) of a
// sync.Map keyed by a cell's type returned false so).
func anySpelledApart(st ast.Node, tuple *types.Tuple, places []types.Type) bool {
	if _, ret := st.(*ast.ReturnStmt); !ret {
		return false
	}
	for i, t := range places {
		r := tuple.At(i).Type()
		if t == nil || !emptyIface(t) || !emptyIface(r) {
			continue
		}
		_, a := t.(*types.Alias)
		_, b := r.(*types.Alias)
		if a != b {
			return true
		}
	}
	return false
}

// ifaceMapPlace reports whether the statement is an assignment to a
// place in a map of an interface type (cache[k], err = get(k) with cache
// a map[int]any), which panicked in reflect.Set even for values of an
// interface type ("value of type interface {} is not assignable to type
// interp.valueInterface").
func (c *Cell) ifaceMapPlace(st ast.Node) bool {
	as, ok := st.(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, l := range as.Lhs {
		if t := c.Types.TypeOf(l); t != nil && types.IsInterface(t) && c.isMapIndex(l) {
			return true
		}
	}
	return false
}

// derefBoxes reports whether the assignment stores several values, one of
// which is not of an interface type, into places one of which is a
// dereference of that interface type (*q, r = w1, w2 with q a *any and
// w1 a Word): yaegi v0.16.1's parallel store panicked in reflect.Set
// ("value of type interp.valueInterface is not assignable to type
// string"); callstores then stores them one by one.
func (c *Cell) derefBoxes(as *ast.AssignStmt) bool {
	if as.Tok != token.ASSIGN || len(as.Lhs) < 2 || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	for i, l := range as.Lhs {
		if _, deref := ast.Unparen(l).(*ast.StarExpr); !deref {
			continue
		}
		if t, v := c.Types.TypeOf(l), c.Types.TypeOf(as.Rhs[i]); t != nil && v != nil && types.IsInterface(t) && !types.IsInterface(v) {
			return true
		}
	}
	return false
}
