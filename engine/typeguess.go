package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
)

// The old rewriter's type readers, left until its passes move to package
// compat and ask the type oracle instead.

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
