package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// genericVars: variables whose values call generic functions. yaegi
// v0.16.1 instantiates a generic function where it compiles the first
// call, and generates the instance's code by walking the tree below that
// call (interp/cfg.go:1284, genAST and genRun); a var declaration stops
// that walk (interp/cfg.go:2381, "case constDecl, varDecl: return
// false"), so an instance first met in "var y = Id(3)" has no code and
// returns zero values: y is 0, silently. In the global scope, "x :=
// Id(3)" crashes its compiler instead ("nil reflect type"). So:
//
//   - inside functions and nested blocks, a var declaration's values are
//     computed first, into temporaries defined with :=, which the
//     declaration then takes;
//   - among a cell's top-level statements, "x := Id(3)" and "var x =
//     Id(3)" become "var x T" and "x = Id(3)", T from the oracle; the
//     declaration goes to package level when the cell's functions use x
//     (they are compiled before the statements run).
//
// A top-level definition of several variables by one call of a function
// value (n, err := s.size(), size a field of a function type, or a
// variable holding one) is declared then assigned the same way: yaegi's
// global scope defined them all as zero values (0 <nil>, silently), where
// an assignment, and any definition inside a function, is right.
//
// The engine's own generic conversion of a *G[T] to a native interface
// (genericNilConv), in a composite literal or among a call's arguments,
// is computed first too (see convsFirst).
var genericVars = Pass{
	Name:     "genericvars",
	Run:      runGenericVars,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil), (*ast.IndexExpr)(nil), (*ast.IndexListExpr)(nil)},
	Snippets: []string{"generics_var_decl_in_func", "generics_define_top_level", "tuple_from_func_field", "generic_pointer_into_native_iface_literal"},
}

func runGenericVars(c *Cell) {
	topLevel := map[ast.Stmt]bool{}
	for _, b := range c.TopLevel() {
		for _, s := range b.List {
			topLevel[s] = true
		}
	}
	c.Apply(func(cur Cursor) bool {
		ds, ok := cur.Node().(*ast.DeclStmt)
		if !ok || topLevel[ds] {
			return true
		}
		if cur.Index() < 0 {
			return true // (a declaration is always in a list of statements)
		}
		for _, s := range c.valuesFirst(ds) {
			cur.InsertBefore(s)
		}
		return true
	})
	c.Apply(func(cur Cursor) bool {
		s, ok := cur.Node().(ast.Stmt)
		if !ok || topLevel[s] || cur.Index() < 0 {
			return true
		}
		for _, b := range c.convsFirst(s) {
			cur.InsertBefore(b)
		}
		return true
	})
	if c.err != nil {
		return
	}
	var usedByDecls map[string]bool
	for _, b := range c.TopLevel() {
		var out []ast.Stmt
		for _, s := range c.splitVarSpecs(b.List) {
			names, values, typ, ok := definition(s)
			if !ok || !c.callsGeneric(values...) && !c.tupleOfFuncValue(names, values) {
				out = append(out, s)
				continue
			}
			if usedByDecls == nil {
				usedByDecls = c.namesInDecls()
			}
			out = append(out, c.declareThenAssign(s, names, values, typ, b == c.Stmts, usedByDecls)...)
			if c.err != nil {
				return
			}
		}
		b.List = out
		for _, s := range b.List {
			c.genericHeader(s)
		}
	}
}

// genericHeader writes the values of the definition heading s, a top-level
// if, switch or for statement (for t := slices.Min(xs); t <= 3; t++),
// that call generic functions as calls of function literals returning
// them: yaegi's global analysis met the definition without the generic
// call's type and failed with "constant definition loop".
//
//	for t := slices.Min(xs); ...  =>  for t := func() int { return slices.Min(xs) }(); ...
func (c *Cell) genericHeader(s ast.Stmt) {
	var init ast.Stmt
	switch s := s.(type) {
	case *ast.IfStmt:
		init = s.Init
	case *ast.SwitchStmt:
		init = s.Init
	case *ast.TypeSwitchStmt:
		init = s.Init
	case *ast.ForStmt:
		init = s.Init
	}
	as, ok := init.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE {
		return
	}
	for i, v := range as.Rhs {
		if !c.callsGeneric(v) {
			continue
		}
		t := c.Types.TypeOf(v)
		ts := []types.Type{t}
		if tuple, ok := t.(*types.Tuple); ok {
			ts = ts[:0]
			for j := range tuple.Len() {
				ts = append(ts, tuple.At(j).Type())
			}
		}
		xs, ok := c.typeExprs(ts, v.Pos())
		if !ok {
			continue
		}
		lit := funcLit(v.Pos(), v.End(), results(xs...), &ast.ReturnStmt{Return: v.Pos(), Results: []ast.Expr{v}})
		as.Rhs[i] = &ast.CallExpr{Fun: lit, Lparen: v.End(), Rparen: v.End()}
	}
}

// tupleOfFuncValue reports whether names are defined by one call, of a
// function value (not a declared function or method), that returns them.
func (c *Cell) tupleOfFuncValue(names []*ast.Ident, values []ast.Expr) bool {
	if len(names) < 2 || len(values) != 1 {
		return false
	}
	call, ok := ast.Unparen(values[0]).(*ast.CallExpr)
	if !ok || c.callee(call) != nil || c.Types.IsType(call.Fun) {
		return false
	}
	_, tuple := c.Types.TypeOf(call).(*types.Tuple)
	return tuple
}

// definition is what "a, b := v..." or "var a, b [T] = v..." declares.
func definition(s ast.Stmt) (names []*ast.Ident, values []ast.Expr, typ ast.Expr, ok bool) {
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE {
			return nil, nil, nil, false
		}
		for _, l := range s.Lhs {
			id, isID := l.(*ast.Ident)
			if !isID {
				return nil, nil, nil, false
			}
			names = append(names, id)
		}
		return names, s.Rhs, nil, true
	case *ast.DeclStmt:
		gd, isGen := s.Decl.(*ast.GenDecl)
		if !isGen || gd.Tok != token.VAR || len(gd.Specs) != 1 {
			return nil, nil, nil, false
		}
		vs := gd.Specs[0].(*ast.ValueSpec)
		if len(vs.Values) == 0 {
			return nil, nil, nil, false
		}
		return vs.Names, vs.Values, vs.Type, true
	}
	return nil, nil, nil, false
}

// callsGeneric reports whether one of es calls or instantiates a generic
// function (min and max are the prelude's), outside function literals,
// whose code yaegi generates on their own.
func (c *Cell) callsGeneric(es ...ast.Expr) bool {
	for _, e := range es {
		if contains(e, true, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return false
			}
			if _, inst := c.Types.Instances[id]; inst {
				_, fn := c.Types.ObjectOf(id).(*types.Func)
				return fn
			}
			if strings.HasPrefix(id.Name, NilConvGeneric) {
				return true // (a pass's generic conversion: genericNilConv; var w io.Writer = t of a *Tee[T] returned nil)
			}
			return (id.Name == "min" || id.Name == "max") && c.isBuiltin(id)
		}) {
			return true
		}
	}
	return false
}

// convsFirst computes first, into temporaries, the calls of
// genericNilConv's functions (a *Tee[T] converted to io.Writer in generic
// code) that s, a simple statement in a function, has in a composite
// literal or among a call's arguments ([]io.Writer{t}, holder{t},
// io.MultiWriter(t, sb)), and returns the definitions to put before s:
// yaegi v0.16.1 compiled such a call there without its instance ("not a
// generic type: func(*Tee) io.Writer", or an index out of range). A
// call whose argument calls nothing moves (its value cannot change
// between the two places), and one whose argument calls (mk(v)) when no
// other call of s comes before it; none under && or || or in a function
// literal.
func (c *Cell) convsFirst(s ast.Stmt) []ast.Stmt {
	var root ast.Node = s
	switch x := s.(type) {
	case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt, *ast.ReturnStmt, *ast.SendStmt:
	case *ast.RangeStmt:
		root = x.X // (evaluated once, before the loop)
	default:
		return nil
	}
	var out []ast.Stmt
	// The calls of s, outside function literals: a conversion whose
	// argument calls (mk(v), w.Self(), a.(*W[T])) moves only when none
	// of them comes before it, as Go makes the calls left to right.
	var calls []*ast.CallExpr
	ast.Inspect(root, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			calls = append(calls, x)
		}
		return true
	})
	var moved []ast.Expr // (the conversions moved so far, in order)
	first := func(e ast.Expr) bool {
		for _, x := range calls {
			if x.End() <= e.Pos() && !slices.ContainsFunc(moved, func(m ast.Expr) bool { return m.Pos() <= x.Pos() && x.End() <= m.End() }) {
				return false
			}
		}
		return true
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				ast.Inspect(x.X, visit)
				return false
			}
		case *ast.CompositeLit:
			for i, e := range x.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					kv.Value = c.convFirst(kv.Value, first, &moved, &out)
					continue
				}
				x.Elts[i] = c.convFirst(e, first, &moved, &out)
			}
		case *ast.CallExpr:
			for i, a := range x.Args {
				x.Args[i] = c.convFirst(a, first, &moved, &out)
			}
		}
		return true
	}
	ast.Inspect(root, visit)
	return out
}

// convFirst is e, or a temporary defined by a statement convsFirst adds
// to out when e is a call of genericNilConv's function of an argument
// that calls nothing, or whose calls come first in the statement but for
// the conversions moved before it (first); moved gets e.
func (c *Cell) convFirst(e ast.Expr, first func(ast.Expr) bool, moved *[]ast.Expr, out *[]ast.Stmt) ast.Expr {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || c.callsAnything(call.Args) && !first(e) {
		return e
	}
	var fn ast.Expr = call.Fun
	switch f := fn.(type) {
	case *ast.IndexExpr:
		fn = f.X
	case *ast.IndexListExpr:
		fn = f.X
	}
	if id, ok := fn.(*ast.Ident); !ok || !strings.HasPrefix(id.Name, NilConvGeneric) {
		return e
	}
	t := ident(c.Temp("V"), e.Pos())
	*moved = append(*moved, e)
	*out = append(*out, define(e.Pos(), []ast.Expr{t}, e))
	v := ident(t.Name, e.Pos())
	if tv, ok := c.Types.Types[e]; ok {
		c.Types.Types[v] = tv
	}
	return v
}

// valuesFirst rewrites "var a, b [T] = v1, v2" whose values call generic
// functions to "var a, b [T] = t1, t2" and returns the statements to put
// before it, "t1, t2 := v1, v2" (constants stay where they are).
func (c *Cell) valuesFirst(ds *ast.DeclStmt) []ast.Stmt {
	gd, ok := ds.Decl.(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR {
		return nil
	}
	var out []ast.Stmt
	for _, sp := range gd.Specs {
		vs := sp.(*ast.ValueSpec)
		if !c.callsGeneric(vs.Values...) {
			continue
		}
		pos := vs.Pos()
		var lhs, rhs []ast.Expr
		if len(vs.Values) == 1 && len(vs.Names) > 1 {
			// var a, b = f(): as many temporaries as results.
			vals := make([]ast.Expr, len(vs.Names))
			for i := range vs.Names {
				t := ident(c.Temp("V"), pos)
				lhs, vals[i] = append(lhs, t), ident(t.Name, pos)
			}
			rhs = vs.Values
			vs.Values = vals
		} else {
			for i, v := range vs.Values {
				if tv, ok := c.Types.Types[v]; ok && tv.Value != nil {
					continue // a constant: no call, and no type of its own to lose
				}
				t := ident(c.Temp("V"), pos)
				lhs, rhs = append(lhs, t), append(rhs, v)
				vs.Values[i] = ident(t.Name, v.Pos())
			}
		}
		out = append(out, define(pos, lhs, rhs...))
	}
	return out
}

// declareThenAssign rewrites a top-level definition whose values call
// generic functions as declarations of the new variables with their types
// and an assignment. A variable of an earlier cell redefined with the same
// type is assigned (yaegi's global analysis would declare the new one
// before the cell's first statement, so x := Double(x) would read it).
func (c *Cell) declareThenAssign(s ast.Stmt, names []*ast.Ident, values []ast.Expr, typ ast.Expr, inStmts bool, usedByDecls map[string]bool) []ast.Stmt {
	pos := s.Pos()
	var out []ast.Stmt
	lhs := make([]ast.Expr, len(names))
	for i, id := range names {
		lhs[i] = id
		obj, isNew := c.Types.Defs[id].(*types.Var)
		if tmp := c.tempVar(id, values, i); tmp != nil {
			obj, isNew = tmp, true
		}
		if id.Name == "_" || !isNew {
			continue // assigned, not declared
		}
		if old, ok := c.Types.Pkg.Scope().Lookup(SourceName(id.Name)).(*types.Var); ok && obj.Type() != nil && types.Identical(old.Type(), obj.Type()) {
			continue // (its values read a copy of the earlier one: see earlierReads)
		}
		tx := typ
		if tx == nil {
			var ok bool
			if tx, ok = c.aliasedTypeExpr(obj.Type(), id.Pos()); !ok {
				if len(c.Types.Errors) == 0 {
					c.Fail(id.Pos(), "cannot tell the type of %s (a result defined at top level by a generic call or a function value); declare it first, then assign: var %s T; %s = ...", id.Name, id.Name, id.Name)
				}
				return []ast.Stmt{s}
			}
		}
		decl := &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{ident(id.Name, id.Pos())}, Type: tx}}}
		if inStmts && usedByDecls[id.Name] && c.Decls != nil {
			// The cell's functions use it: they are compiled first.
			c.Decls.Decls = append([]ast.Decl{decl}, c.Decls.Decls...)
			continue
		}
		out = append(out, &ast.DeclStmt{Decl: decl})
	}
	if len(lhs) > 1 && len(values) == len(lhs) {
		// (one at a time: a generic call's interface result assigned
		// beside other values panicked in reflect.Set, see
		// sequentialValues)
		return append(out, c.sequentialValues(lhs, values, pos))
	}
	return append(out, &ast.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, TokPos: pos, Rhs: values})
}

// tempVar is the variable a pass's temporary (a bounds check's shift
// count, K := min(k, 4); reusedDefines' n, _grundyreused1 := s.size())
// defines, typed as its value, which is the cell's, or as its place in
// the one call's results: the oracle never saw the temporary, and taking
// it for an assignment left it undeclared.
func (c *Cell) tempVar(id *ast.Ident, values []ast.Expr, i int) *types.Var {
	if c.Types.Defs[id] != nil || !strings.HasPrefix(id.Name, tempPrefix) || len(values) == 0 {
		return nil
	}
	var t types.Type
	if tup, ok := c.Types.TypeOf(values[0]).(*types.Tuple); ok && len(values) == 1 {
		if i < tup.Len() {
			t = tup.At(i).Type()
		}
	} else if i < len(values) {
		t = c.Types.TypeOf(values[i])
	}
	if t == nil {
		return nil
	}
	return types.NewVar(id.Pos(), nil, id.Name, types.Default(t))
}

// splitVarSpecs writes "var ( a = x; b = Id(y) )" as one declaration per
// line, which means the same.
func (c *Cell) splitVarSpecs(list []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	for _, s := range list {
		gd := declOf(s)
		if gd == nil || gd.Tok != token.VAR || len(gd.Specs) < 2 || !c.specsCallGeneric(gd) {
			out = append(out, s)
			continue
		}
		for _, sp := range gd.Specs {
			out = append(out, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: sp.Pos(), Specs: []ast.Spec{sp}}})
		}
	}
	return out
}

func (c *Cell) specsCallGeneric(gd *ast.GenDecl) bool {
	for _, sp := range gd.Specs {
		if vs, ok := sp.(*ast.ValueSpec); ok && c.callsGeneric(vs.Values...) {
			return true
		}
	}
	return false
}

// refersTo reports whether one of es mentions one of names.
func refersTo(es []ast.Expr, names map[string]bool) bool {
	for _, e := range es {
		if contains(e, false, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			return ok && names[id.Name]
		}) {
			return true
		}
	}
	return false
}

// namesInDecls is every identifier the cell's declarations mention.
func (c *Cell) namesInDecls() map[string]bool {
	names := map[string]bool{}
	if c.Decls != nil {
		ast.Inspect(c.Decls, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				names[id.Name] = true
			}
			return true
		})
	}
	return names
}
