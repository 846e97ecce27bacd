package engine

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
)

// Range over function iterators (Go 1.23): yaegi v0.16.1 ranges only over
// collections, channels and (with the rewriter's help) integers. A loop
//
//	for k, v := range seq { body }
//
// whose range expression is known to be a function iterator becomes
//
//	seq(func(k K, v V) bool { body'; return true })
//
// where body' says "return true" for continue and "return false" for break.
// Jumps out of the loop (break/continue to an outer label, return from the
// enclosing function) set a hidden variable, stop the iterator and are
// taken after the call. The element types K, V are read from the
// iterator's type: the declaration of a cell function, or the live
// session's type for native code and earlier cells' variables.

// iterElems returns the element types of a function iterator e (nil, true
// for func(yield func() bool)); ok is false when e is not known to be one.
// why, when not empty, says why a known iterator cannot be rewritten.
func (rw *rewriter) iterElems(e ast.Expr) (elems []ast.Expr, ok bool, why string) {
	if c, isCall := e.(*ast.CallExpr); isCall && isSelector(unindex(c.Fun), "slices", "Backward") && len(c.Args) == 1 && rw.it.pkgs["slices"] == "slices" {
		if et := rw.elemTypeOf(c.Args[0]); et != nil {
			return []ast.Expr{ast.NewIdent("int"), et}, true, ""
		}
		return nil, false, ""
	}
	if t := rw.astTypeOf(e); t != nil {
		if elems, ok := rw.iterShapeAST(t); ok {
			return elems, true, ""
		}
	}
	t := rw.typeOf(e)
	if t == nil || t.Kind() != reflect.Func {
		return nil, false, ""
	}
	y, ok := yieldType(t)
	if !ok {
		return nil, false, ""
	}
	for i := 0; i < y.NumIn(); i++ {
		s, ok := rw.it.goType(y.In(i), reflect.Value{})
		if !ok {
			return nil, true, fmt.Sprintf("cannot name the element type %s of this function iterator here; call it with a yield function instead: seq(func(x T) bool { ...; return true })", y.In(i))
		}
		x, err := parser.ParseExpr(s)
		if err != nil {
			return nil, false, ""
		}
		elems = append(elems, atPos(x, e.Pos()))
	}
	return elems, true, ""
}

// yieldType: t is func(yield func(...) bool) with at most two elements.
func yieldType(t reflect.Type) (reflect.Type, bool) {
	if t.NumIn() != 1 || t.NumOut() != 0 || t.IsVariadic() {
		return nil, false
	}
	y := t.In(0)
	if y.Kind() != reflect.Func || y.NumOut() != 1 || y.Out(0).Kind() != reflect.Bool || y.NumIn() > 2 || y.IsVariadic() {
		return nil, false
	}
	return y, true
}

// iterShapeAST: the element types of an iterator type written as source:
// func(yield func(K, V) bool), iter.Seq[V], iter.Seq2[K, V], or a cell
// type defined as one of these.
func (rw *rewriter) iterShapeAST(t ast.Expr) ([]ast.Expr, bool) {
	switch x := t.(type) {
	case *ast.ParenExpr:
		return rw.iterShapeAST(x.X)
	case *ast.FuncType:
		if x.Results != nil && len(x.Results.List) > 0 {
			return nil, false
		}
		ps := flatFields(x.Params)
		if len(ps) != 1 {
			return nil, false
		}
		y, ok := ps[0].(*ast.FuncType)
		if !ok {
			return nil, false
		}
		rs := flatFields(y.Results)
		if len(rs) != 1 || !isIdent(rs[0], "bool") {
			return nil, false
		}
		elems := flatFields(y.Params)
		if len(elems) > 2 {
			return nil, false
		}
		for _, e := range elems {
			if _, variadic := e.(*ast.Ellipsis); variadic {
				return nil, false
			}
		}
		return elems, true
	case *ast.IndexExpr:
		if isSelector(x.X, "iter", "Seq") {
			return []ast.Expr{x.Index}, true
		}
	case *ast.IndexListExpr:
		if isSelector(x.X, "iter", "Seq2") && len(x.Indices) == 2 {
			return x.Indices, true
		}
	case *ast.Ident:
		if u := rw.underlyingAST(x); u != ast.Expr(x) {
			return rw.iterShapeAST(u)
		}
	}
	return nil, false
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func isSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && isIdent(sel.X, pkg) && sel.Sel.Name == name
}

// cellFunc is the declaration of a function the cells declared (this cell
// or an earlier one).
func (rw *rewriter) cellFunc(name string) *ast.FuncDecl {
	if _, shadowed := rw.locals[name]; shadowed {
		return nil
	}
	if d, ok := rw.cellFuncs[name]; ok {
		return d
	}
	if rw.it != nil {
		if fd, ok := rw.it.funcs[name]; ok && fd.decl.Recv == nil {
			return fd.decl
		}
	}
	return nil
}

// astTypeOf is e's type as source when the cell's declarations say it.
func (rw *rewriter) astTypeOf(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return rw.astTypeOf(x.X)
	case *ast.FuncLit:
		return x.Type
	case *ast.CompositeLit:
		return x.Type
	case *ast.TypeAssertExpr:
		return x.Type
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			if t := rw.astTypeOf(x.X); t != nil {
				return &ast.StarExpr{X: t}
			}
		}
	case *ast.IndexExpr:
		switch t := rw.underlyingAST(rw.astTypeOf(x.X)).(type) {
		case *ast.MapType:
			return t.Value
		case *ast.ArrayType:
			return t.Elt
		}
	case *ast.SelectorExpr:
		t := rw.astTypeOf(x.X)
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		if id, ok := t.(*ast.Ident); ok {
			if fd := rw.method(id.Name + "." + x.Sel.Name); fd != nil && fd.Type.TypeParams == nil {
				return fd.Type // a method value
			}
		}
		if st, ok := rw.underlyingAST(t).(*ast.StructType); ok {
			for _, f := range st.Fields.List {
				for _, n := range f.Names {
					if n.Name == x.Sel.Name {
						return f.Type
					}
				}
			}
		}
	case *ast.Ident:
		if t, ok := rw.localAST[x.Name]; ok {
			return t
		}
		if _, shadowed := rw.locals[x.Name]; shadowed {
			return nil
		}
		if d := rw.cellFunc(x.Name); d != nil && d.Type.TypeParams == nil {
			return d.Type
		}
		if t, ok := rw.it.varAST[x.Name]; ok {
			return t
		}
	case *ast.CallExpr:
		var ft *ast.FuncType
		subst := map[string]ast.Expr{}
		if t := rw.conversionType(x.Fun); t != nil {
			return t // (*Node)(nil), Celsius(3)
		}
		if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "make" && len(x.Args) > 0 && !rw.isVar("make") && rw.cellFunc("make") == nil {
			return x.Args[0]
		}
		switch f := x.Fun.(type) {
		case *ast.FuncLit:
			ft = f.Type
		case *ast.SelectorExpr:
			// A method of a cell type.
			ft, _ = rw.astTypeOf(f).(*ast.FuncType)
		case *ast.Ident:
			if d := rw.cellFunc(f.Name); d != nil && d.Type.TypeParams == nil {
				ft = d.Type
			}
		case *ast.IndexExpr, *ast.IndexListExpr:
			// An instantiated generic cell function (the rewriter adds the
			// type arguments where it can).
			var fun ast.Expr
			var targs []ast.Expr
			if ix, ok := f.(*ast.IndexExpr); ok {
				fun, targs = ix.X, []ast.Expr{ix.Index}
			} else {
				il := f.(*ast.IndexListExpr)
				fun, targs = il.X, il.Indices
			}
			id, ok := fun.(*ast.Ident)
			if !ok {
				return nil
			}
			d := rw.cellFunc(id.Name)
			if d == nil || d.Type.TypeParams == nil {
				return nil
			}
			names := typeParamNames(d.Type)
			if len(names) != len(targs) {
				return nil
			}
			for i, n := range names {
				subst[n] = targs[i]
			}
			ft = d.Type
		}
		if ft == nil {
			return nil
		}
		rs := flatFields(ft.Results)
		if len(rs) != 1 {
			return nil
		}
		return substitute(rs[0], subst)
	}
	return nil
}

// conversionType: fun, called, is a cell type (a conversion), possibly a
// pointer to one in parentheses; that type, or nil.
func (rw *rewriter) conversionType(fun ast.Expr) ast.Expr {
	t := fun
	if p, ok := t.(*ast.ParenExpr); ok {
		t = p.X
	}
	id, ok := t.(*ast.Ident)
	if st, isStar := t.(*ast.StarExpr); isStar {
		id, ok = st.X.(*ast.Ident)
	}
	if !ok {
		return nil
	}
	if _, local := rw.localAST[id.Name]; local {
		return nil
	}
	if _, cell := rw.it.types[id.Name]; !cell {
		if _, cell = rw.cellTypes[id.Name]; !cell {
			return nil
		}
	}
	return t
}

// underlyingAST follows the names of non-generic cell types to their
// definitions.
func (rw *rewriter) underlyingAST(t ast.Expr) ast.Expr {
	for i := 0; i < 10; i++ {
		id, ok := t.(*ast.Ident)
		if !ok {
			return t
		}
		ts, ok := rw.it.types[id.Name]
		if !ok {
			ts, ok = rw.cellTypes[id.Name]
		}
		if !ok || ts.TypeParams != nil {
			return t
		}
		t = ts.Type
	}
	return t
}

// substitute returns a copy of t with the type parameters replaced.
func substitute(t ast.Expr, subst map[string]ast.Expr) ast.Expr {
	if len(subst) == 0 {
		return t
	}
	c, err := parser.ParseExpr(exprString(t))
	if err != nil {
		return t
	}
	var repl func(e ast.Expr) ast.Expr
	repl = func(e ast.Expr) ast.Expr {
		if id, ok := e.(*ast.Ident); ok {
			if r, ok := subst[id.Name]; ok {
				return r
			}
		}
		return e
	}
	ast.Inspect(c, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Field:
			x.Type = repl(x.Type)
		case *ast.ArrayType:
			x.Elt = repl(x.Elt)
		case *ast.MapType:
			x.Key, x.Value = repl(x.Key), repl(x.Value)
		case *ast.StarExpr:
			x.X = repl(x.X)
		case *ast.ChanType:
			x.Value = repl(x.Value)
		case *ast.IndexExpr:
			x.Index = repl(x.Index)
		case *ast.IndexListExpr:
			for i := range x.Indices {
				x.Indices[i] = repl(x.Indices[i])
			}
		case *ast.Ellipsis:
			x.Elt = repl(x.Elt)
		}
		return true
	})
	return repl(atPos(c, t.Pos()))
}

// typeOf is e's type in the live session, for expressions built from
// variables (earlier cells', or this cell's declared from native calls),
// package members, fields and method calls of native types.
func (rw *rewriter) typeOf(e ast.Expr) reflect.Type {
	if rw.it == nil {
		return nil
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return rw.typeOf(x.X)
	case *ast.Ident:
		if t, ok := rw.locals[x.Name]; ok {
			return t
		}
		if v, ok := rw.globalValues()[x.Name]; ok && v.IsValid() {
			return v.Type()
		}
	case *ast.SelectorExpr:
		if pkg, ok := x.X.(*ast.Ident); ok && !rw.isVar(pkg.Name) {
			path, ok := rw.it.pkgs[pkg.Name]
			if !ok {
				return nil
			}
			key, ok := symbolsHave(path)
			if !ok {
				return nil
			}
			v, ok := lookupSymbol(key, x.Sel.Name)
			if !ok || !v.IsValid() {
				return nil
			}
			switch {
			case v.Kind() == reflect.Func:
				return v.Type()
			case v.Kind() == reflect.Pointer && !v.IsNil():
				return v.Type().Elem() // a variable
			}
			return nil
		}
		t := rw.typeOf(x.X)
		if t == nil {
			return nil
		}
		return valueMemberType(t, x.Sel.Name)
	case *ast.CallExpr:
		if t := rw.typeOf(x.Fun); t != nil && t.Kind() == reflect.Func && t.NumOut() >= 1 {
			return t.Out(0)
		}
	case *ast.StarExpr:
		if t := rw.typeOf(x.X); t != nil && t.Kind() == reflect.Pointer {
			return t.Elem()
		}
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			if t := rw.typeOf(x.X); t != nil {
				return reflect.PointerTo(t)
			}
		}
	case *ast.IndexExpr:
		if t := rw.typeOf(x.X); t != nil {
			switch t.Kind() {
			case reflect.Slice, reflect.Array, reflect.Map:
				return t.Elem()
			}
		}
	}
	return nil
}

// results lists the types a call returns, when typeOf knows its function.
func (rw *rewriter) results(c *ast.CallExpr) []reflect.Type {
	t := rw.typeOf(c.Fun)
	if t == nil || t.Kind() != reflect.Func {
		return nil
	}
	out := make([]reflect.Type, t.NumOut())
	for i := range out {
		out[i] = t.Out(i)
	}
	return out
}

// valueMemberType is the type of t's method (as a method value) or field name.
func valueMemberType(t reflect.Type, name string) reflect.Type {
	if m, ok := t.MethodByName(name); ok {
		if t.Kind() == reflect.Interface {
			return m.Type
		}
		return methodValueType(m.Type)
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		if m, ok := reflect.PointerTo(t).MethodByName(name); ok {
			return methodValueType(m.Type)
		}
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		if f, ok := t.FieldByName(name); ok {
			return f.Type
		}
		// yaegi's structs for cell types export every field as X+name.
		if f, ok := t.FieldByName("X" + name); ok && t.PkgPath() == "" {
			return f.Type
		}
	}
	return nil
}

// methodValueType drops the receiver from a method's function type.
func methodValueType(m reflect.Type) reflect.Type {
	in := make([]reflect.Type, 0, m.NumIn())
	for i := 1; i < m.NumIn(); i++ {
		in = append(in, m.In(i))
	}
	out := make([]reflect.Type, m.NumOut())
	for i := range out {
		out[i] = m.Out(i)
	}
	return reflect.FuncOf(in, out, m.IsVariadic())
}

func (rw *rewriter) globalValues() map[string]reflect.Value {
	if rw.globalsCache == nil {
		rw.globalsCache = rw.it.globalValues()
	}
	return rw.globalsCache
}

// isVar: name is a variable (of the cell or the session), so name.X is not
// a package member.
func (rw *rewriter) isVar(name string) bool {
	if _, ok := rw.locals[name]; ok {
		return true
	}
	if _, ok := rw.localAST[name]; ok {
		return true
	}
	_, ok := rw.globalValues()[name]
	return ok
}

// noteDefine records the types of variables a statement declares, for
// typeOf and astTypeOf (unknown types are recorded as nil so they hide
// globals of the same name).
func (rw *rewriter) noteDefine(s ast.Stmt) {
	if rw.it == nil {
		return
	}
	set := func(id ast.Expr, t reflect.Type, at ast.Expr) {
		n, ok := id.(*ast.Ident)
		if !ok || n.Name == "_" {
			return
		}
		delete(rw.localAST, n.Name)
		rw.locals[n.Name] = t
		if at != nil {
			rw.localAST[n.Name] = at
		}
	}
	switch x := s.(type) {
	case *ast.AssignStmt:
		if x.Tok != token.DEFINE {
			return
		}
		if len(x.Rhs) == 1 && len(x.Lhs) > 1 {
			var outs []reflect.Type
			if c, ok := x.Rhs[0].(*ast.CallExpr); ok {
				outs = rw.results(c)
			}
			for i, l := range x.Lhs {
				var t reflect.Type
				if len(outs) == len(x.Lhs) {
					t = outs[i]
				}
				set(l, t, nil)
			}
			return
		}
		for i, l := range x.Lhs {
			if i < len(x.Rhs) {
				set(l, rw.typeOf(x.Rhs[i]), rw.astTypeOf(x.Rhs[i]))
			}
		}
	case *ast.DeclStmt:
		gd, ok := x.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return
		}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			for i, n := range vs.Names {
				switch {
				case vs.Type != nil:
					set(n, nil, vs.Type)
				case len(vs.Values) == len(vs.Names):
					set(n, rw.typeOf(vs.Values[i]), rw.astTypeOf(vs.Values[i]))
				default:
					set(n, nil, nil)
				}
			}
		}
	}
}

// noteParams records a function's parameters and named results.
func (rw *rewriter) noteParams(ft *ast.FuncType) {
	for _, fl := range []*ast.FieldList{ft.Params, ft.Results} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				if n.Name != "_" {
					rw.locals[n.Name] = nil
					rw.localAST[n.Name] = f.Type
				}
			}
		}
	}
}

// rangeFunc rewrites a range over a function iterator with the given
// element types; label is the loop's label, if any.
func (rw *rewriter) rangeFunc(s *ast.RangeStmt, label string, elems []ast.Expr) ast.Stmt {
	pos := s.For
	if s.Key != nil && len(elems) == 0 || s.Value != nil && len(elems) < 2 {
		permits := "no iteration variables"
		if len(elems) == 1 {
			permits = "only one iteration variable"
		}
		rw.fail(pos, fmt.Sprintf("range over %s permits %s", exprString(s.X), permits))
		return s
	}
	rw.tmp++
	n := itoa(rw.tmp)
	c := &rfConv{rw: rw, label: label, jump: "_grundyJ" + n, pos: pos}
	if len(rw.fnStack) > 0 {
		c.fn = rw.fnStack[len(rw.fnStack)-1]
	}
	// The yield function's parameters: the loop variables, or hidden ones
	// copied into them ("for k = range seq").
	var params []*ast.Field
	var copies []ast.Stmt
	vars := []ast.Expr{s.Key, s.Value}
	for i, t := range elems {
		name := "_"
		if v := vars[i]; v != nil {
			if id, ok := v.(*ast.Ident); ok && (s.Tok == token.DEFINE || id.Name == "_") {
				name = id.Name
			} else {
				name = "_grundyV" + n + "_" + itoa(i)
				copies = append(copies, &ast.AssignStmt{Lhs: []ast.Expr{v}, Tok: token.ASSIGN, Rhs: []ast.Expr{ast.NewIdent(name)}, TokPos: pos})
			}
		}
		params = append(params, &ast.Field{Names: []*ast.Ident{{Name: name, NamePos: pos}}, Type: t})
	}
	body := s.Body
	body.List = c.list(body.List, 0, 0)
	if c.failed {
		return s
	}
	body.List = append(copies, body.List...)
	body.List = append(body.List, &ast.ReturnStmt{Return: body.Rbrace, Results: []ast.Expr{ast.NewIdent("true")}})
	yield := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, List: params, Closing: pos},
			Results: &ast.FieldList{List: []*ast.Field{{Type: ast.NewIdent("bool")}}}},
		Body: body,
	}
	call := &ast.ExprStmt{X: &ast.CallExpr{Fun: s.X, Args: []ast.Expr{yield}, Lparen: pos, Rparen: s.End()}}
	if len(c.after) == 0 {
		return call
	}
	var list []ast.Stmt
	list = append(list, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{{Name: c.jump, NamePos: pos}}, Type: ast.NewIdent("int")}}}})
	for i, t := range c.retTypes {
		list = append(list, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
			&ast.ValueSpec{Names: []*ast.Ident{{Name: c.retName(i), NamePos: pos}}, Type: t}}}})
	}
	list = append(list, call)
	for i, a := range c.after {
		list = append(list, &ast.IfStmt{If: pos,
			Cond: &ast.BinaryExpr{X: ast.NewIdent(c.jump), Op: token.EQL, Y: &ast.BasicLit{Kind: token.INT, Value: itoa(i + 1), ValuePos: pos}, OpPos: pos},
			Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{a}, Rbrace: pos}})
	}
	return &ast.BlockStmt{Lbrace: pos, List: list, Rbrace: s.End() - 1}
}

// rfConv rewrites the jumps in the body of one range-over-function loop.
type rfConv struct {
	rw       *rewriter
	label    string
	jump     string        // the hidden variable saying which jump to take after the call
	fn       *ast.FuncType // the enclosing function, for return
	pos      token.Pos
	after    []ast.Stmt // the jump taken after the call, by number-1
	retTypes []ast.Expr // result types, once a return needs them
	inner    map[string]bool
	failed   bool
}

func (c *rfConv) retName(i int) string { return c.jump + "_r" + itoa(i) }

// stop: set the jump variable to the jump's number and stop the iterator.
func (c *rfConv) stop(pos token.Pos, assign []ast.Stmt, then ast.Stmt) ast.Stmt {
	c.after = append(c.after, then)
	list := append(assign,
		&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(c.jump)}, Tok: token.ASSIGN, Rhs: []ast.Expr{&ast.BasicLit{Kind: token.INT, Value: itoa(len(c.after)), ValuePos: pos}}, TokPos: pos},
		&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ast.NewIdent("false")}})
	return &ast.BlockStmt{Lbrace: pos, List: list, Rbrace: pos}
}

// list rewrites statements; loops counts the loops and breaks the
// switch/select statements between them and the range loop.
func (c *rfConv) list(list []ast.Stmt, loops, breaks int) []ast.Stmt {
	for i, s := range list {
		list[i] = c.stmt(s, loops, breaks)
	}
	return list
}

func (c *rfConv) stmt(s ast.Stmt, loops, breaks int) ast.Stmt {
	if c.failed {
		return s
	}
	switch x := s.(type) {
	case *ast.BlockStmt:
		x.List = c.list(x.List, loops, breaks)
	case *ast.IfStmt:
		x.Body.List = c.list(x.Body.List, loops, breaks)
		if x.Else != nil {
			x.Else = c.stmt(x.Else, loops, breaks)
		}
	case *ast.ForStmt:
		x.Body.List = c.list(x.Body.List, loops+1, breaks)
	case *ast.RangeStmt:
		x.Body.List = c.list(x.Body.List, loops+1, breaks)
	case *ast.SwitchStmt:
		x.Body.List = c.list(x.Body.List, loops, breaks+1)
	case *ast.TypeSwitchStmt:
		x.Body.List = c.list(x.Body.List, loops, breaks+1)
	case *ast.SelectStmt:
		x.Body.List = c.list(x.Body.List, loops, breaks+1)
	case *ast.CaseClause:
		x.Body = c.list(x.Body, loops, breaks)
	case *ast.CommClause:
		x.Body = c.list(x.Body, loops, breaks)
	case *ast.LabeledStmt:
		if c.inner == nil {
			c.inner = map[string]bool{}
		}
		c.inner[x.Label.Name] = true
		x.Stmt = c.stmt(x.Stmt, loops, breaks)
	case *ast.DeferStmt:
		c.rw.fail(x.Pos(), "defer in the body of a loop over a function iterator is not supported: move the body into a function and defer there")
		c.failed = true
	case *ast.BranchStmt:
		return c.branch(x, loops, breaks)
	case *ast.ReturnStmt:
		return c.ret(x)
	}
	return s
}

func (c *rfConv) branch(x *ast.BranchStmt, loops, breaks int) ast.Stmt {
	pos := x.Pos()
	label := ""
	if x.Label != nil {
		label = x.Label.Name
	}
	if label != "" && c.inner[label] {
		return x
	}
	own := label == "" && loops == 0 || label != "" && label == c.label
	switch x.Tok {
	case token.CONTINUE:
		if own {
			return &ast.ReturnStmt{Return: pos, Results: []ast.Expr{ast.NewIdent("true")}}
		}
	case token.BREAK:
		if label == "" && breaks > 0 && loops == 0 {
			return x // leaves a switch or select
		}
		if own {
			return &ast.ReturnStmt{Return: pos, Results: []ast.Expr{ast.NewIdent("false")}}
		}
	case token.GOTO:
		c.rw.fail(pos, "goto out of a loop over a function iterator is not supported: use a labeled break or continue")
		c.failed = true
		return x
	default:
		return x
	}
	if label == "" {
		return x // targets a loop inside the body
	}
	// To a loop around this one: taken after the iterator stops.
	return c.stop(pos, nil, &ast.BranchStmt{TokPos: pos, Tok: x.Tok, Label: ast.NewIdent(label)})
}

func (c *rfConv) ret(x *ast.ReturnStmt) ast.Stmt {
	pos := x.Pos()
	if c.fn == nil {
		return x // at top level: reported as such by checkStatements
	}
	if len(x.Results) == 0 {
		return c.stop(pos, nil, &ast.ReturnStmt{Return: pos})
	}
	results := flatFields(c.fn.Results)
	if c.retTypes == nil {
		c.retTypes = results
	}
	var lhs, vals []ast.Expr
	for i := range results {
		lhs = append(lhs, ast.NewIdent(c.retName(i)))
		vals = append(vals, ast.NewIdent(c.retName(i)))
	}
	assign := &ast.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, Rhs: x.Results, TokPos: pos}
	return c.stop(pos, []ast.Stmt{assign}, &ast.ReturnStmt{Return: pos, Results: vals})
}

var posType = reflect.TypeOf(token.NoPos)

// atPos sets every position in the syntax tree n to pos: yaegi resolves
// package names per file, by position, so generated type expressions must
// lie in the cell.
func atPos[N ast.Node](n N, pos token.Pos) N {
	ast.Inspect(n, func(x ast.Node) bool {
		if x == nil {
			return false
		}
		v := reflect.ValueOf(x)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			return true
		}
		v = v.Elem()
		for i := 0; i < v.NumField(); i++ {
			// Only set positions: an unset one can mean something (no
			// "..." in a call, for one).
			if f := v.Field(i); f.Type() == posType && f.CanSet() && token.Pos(f.Int()).IsValid() {
				f.Set(reflect.ValueOf(pos))
			}
		}
		return true
	})
	return n
}

// elemTypeOf is the element type of a slice expression, as source.
func (rw *rewriter) elemTypeOf(e ast.Expr) ast.Expr {
	if at, ok := rw.underlyingAST(rw.astTypeOf(e)).(*ast.ArrayType); ok {
		return at.Elt
	}
	if t := rw.typeOf(e); t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		if s, ok := rw.it.goType(t.Elem(), reflect.Value{}); ok {
			if x, err := parser.ParseExpr(s); err == nil {
				return atPos(x, e.Pos())
			}
		}
	}
	return nil
}

// iterAdapter rewrites slices.Collect, slices.Sorted and maps.Collect of
// a function iterator (the engine's slices and maps take slices and maps)
// into a function literal that collects through a yield function.
func (rw *rewriter) iterAdapter(c *ast.CallExpr) bool {
	if rw.it == nil || rw.locals == nil || len(c.Args) != 1 {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok || !aliasPackages[rw.it.pkgs[pkg.Name]] {
		return false
	}
	name := rw.it.pkgs[pkg.Name] + "." + sel.Sel.Name
	if name != "slices.Collect" && name != "slices.Sorted" && name != "maps.Collect" {
		return false
	}
	elems, ok, why := rw.iterElems(c.Args[0])
	if !ok || why != "" || name == "maps.Collect" && len(elems) != 2 || name != "maps.Collect" && len(elems) != 1 {
		return false
	}
	pos := c.Pos()
	id := func(n string) *ast.Ident { return &ast.Ident{Name: n, NamePos: pos} }
	var outType ast.Expr
	var params []*ast.Field
	var add ast.Stmt
	if name == "maps.Collect" {
		outType = &ast.MapType{Map: pos, Key: elems[0], Value: elems[1]}
		params = []*ast.Field{{Names: []*ast.Ident{id("_grundyK")}, Type: elems[0]}, {Names: []*ast.Ident{id("_grundyV")}, Type: elems[1]}}
		add = &ast.AssignStmt{Lhs: []ast.Expr{&ast.IndexExpr{X: id("_grundyOut"), Index: id("_grundyK")}}, Tok: token.ASSIGN, Rhs: []ast.Expr{id("_grundyV")}, TokPos: pos}
	} else {
		outType = &ast.ArrayType{Lbrack: pos, Elt: elems[0]}
		params = []*ast.Field{{Names: []*ast.Ident{id("_grundyV")}, Type: elems[0]}}
		add = &ast.AssignStmt{Lhs: []ast.Expr{id("_grundyOut")}, Tok: token.ASSIGN, TokPos: pos,
			Rhs: []ast.Expr{&ast.CallExpr{Fun: id("append"), Args: []ast.Expr{id("_grundyOut"), id("_grundyV")}}}}
	}
	var init ast.Stmt = &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{id("_grundyOut")}, Type: outType}}}}
	if name == "maps.Collect" {
		init = &ast.AssignStmt{Lhs: []ast.Expr{id("_grundyOut")}, Tok: token.DEFINE, TokPos: pos,
			Rhs: []ast.Expr{&ast.CallExpr{Fun: id("make"), Args: []ast.Expr{outType}}}}
	}
	yield := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{List: params}, Results: &ast.FieldList{List: []*ast.Field{{Type: id("bool")}}}},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{add, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{id("true")}}}, Rbrace: pos},
	}
	body := []ast.Stmt{init, &ast.ExprStmt{X: &ast.CallExpr{Fun: c.Args[0], Args: []ast.Expr{yield}, Lparen: pos, Rparen: pos}}}
	if name == "slices.Sorted" {
		body = append(body, &ast.ExprStmt{X: &ast.CallExpr{Fun: &ast.SelectorExpr{X: id(pkg.Name), Sel: id("Sort")}, Args: []ast.Expr{id("_grundyOut")}}})
	}
	body = append(body, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{id("_grundyOut")}})
	c.Fun = &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}, Results: &ast.FieldList{List: []*ast.Field{{Type: outType}}}},
		Body: &ast.BlockStmt{Lbrace: pos, List: body, Rbrace: pos},
	}
	c.Args = nil
	return true
}

// unindex drops explicit type arguments: f[T] -> f.
func unindex(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.IndexExpr:
		return x.X
	case *ast.IndexListExpr:
		return x.X
	}
	return e
}
