package engine

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"sync"

	"github.com/traefik/yaegi/stdlib"

	"grundy/engine/prelude"
	"grundy/engine/symbols"
)

// yaegi v0.16.1 infers type arguments by position: it lists the argument
// types met at each use of a type parameter in the signature and takes the
// first n, so Map(xs []T, f func(T) U) gets U = T. Before that can happen,
// calls to generic functions that cells declared are given explicit type
// arguments when the arguments' types can be read from the source (function
// literals, composite literals, conversions, constants) or from the live
// session (variables of native types).

// instantiate rewrites c to F[...](args) when every type parameter of the
// generic function fd is determined by the arguments.
func (rw *rewriter) instantiate(c *ast.CallExpr, fd *ast.FuncDecl) {
	rw.instantiateOpt(c, fd, false)
}

// typeParamNames lists a generic function's type parameters in order.
func typeParamNames(ft *ast.FuncType) []string {
	var names []string
	for _, f := range ft.TypeParams.List {
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
	}
	return names
}

// instantiateOpt: pkg is set for the engine's slices, maps and cmp, whose
// calls yaegi infers fine except from variables of native types (results
// of library calls): only type arguments the arguments fix for certain are
// written, and the function is never copied.
func (rw *rewriter) instantiateOpt(c *ast.CallExpr, fd *ast.FuncDecl, pkg bool) {
	order := typeParamNames(fd.Type)
	tparams := map[string]bool{}
	for _, n := range order {
		tparams[n] = true
	}
	strong := map[string]string{}
	weak := map[string]string{}
	conflict := false
	var unify func(param ast.Expr, arg ast.Expr, isWeak bool)
	unify = func(param ast.Expr, arg ast.Expr, isWeak bool) {
		if conflict || arg == nil {
			return
		}
		switch p := param.(type) {
		case *ast.Ident:
			if !tparams[p.Name] {
				return
			}
			s := exprString(arg)
			m := strong
			if isWeak {
				m = weak
			}
			if old, ok := m[p.Name]; ok && old != s {
				if isWeak {
					return
				}
				conflict = true
				return
			}
			m[p.Name] = s
		case *ast.ArrayType:
			if a, ok := arg.(*ast.ArrayType); ok && (p.Len == nil) == (a.Len == nil) {
				unify(p.Elt, a.Elt, isWeak)
			}
		case *ast.MapType:
			if a, ok := arg.(*ast.MapType); ok {
				unify(p.Key, a.Key, isWeak)
				unify(p.Value, a.Value, isWeak)
			}
		case *ast.StarExpr:
			if a, ok := arg.(*ast.StarExpr); ok {
				unify(p.X, a.X, isWeak)
			}
		case *ast.ChanType:
			if a, ok := arg.(*ast.ChanType); ok {
				unify(p.Value, a.Value, isWeak)
			}
		case *ast.FuncType:
			a, ok := arg.(*ast.FuncType)
			if !ok {
				return
			}
			pl, al := flatFields(p.Params), flatFields(a.Params)
			if len(pl) == len(al) {
				for i := range pl {
					unify(pl[i], al[i], isWeak)
				}
			}
			pr, ar := flatFields(p.Results), flatFields(a.Results)
			if len(pr) == len(ar) {
				for i := range pr {
					unify(pr[i], ar[i], isWeak)
				}
			}
		}
	}
	params := flatFields(fd.Type.Params)
	if len(params) == 0 {
		return
	}
	if spread := rw.spreadResults(c); spread != nil {
		// f(g()) with g returning several values: bind them in order.
		for i, t := range spread {
			pt := params[min(i, len(params)-1)]
			if e, ok := pt.(*ast.Ellipsis); ok {
				pt = e.Elt
			} else if i >= len(params) {
				return
			}
			unify(pt, t, false)
		}
	}
	for i, arg := range c.Args {
		if len(c.Args) == 1 && rw.spreadResults(c) != nil {
			break
		}
		var pt ast.Expr
		switch {
		case i < len(params)-1:
			pt = params[i]
		default:
			pt = params[len(params)-1]
			if e, ok := pt.(*ast.Ellipsis); ok {
				if c.Ellipsis.IsValid() {
					pt = &ast.ArrayType{Elt: e.Elt}
				} else {
					pt = e.Elt
				}
			} else if i >= len(params) {
				return
			}
		}
		t, isWeak := rw.argType(arg)
		unify(pt, t, isWeak)
	}
	if conflict {
		return
	}
	var targs []ast.Expr
	for _, name := range order {
		s, ok := strong[name]
		if !ok {
			if pkg {
				return
			}
			s, ok = weak[name]
		}
		if !ok {
			return
		}
		e, err := parser.ParseExpr(s)
		if err != nil {
			return
		}
		targs = append(targs, atPos(e, c.Fun.Pos()))
	}
	if !pkg && rw.monomorphize(c, fd, targs) {
		return
	}
	if len(targs) == 1 {
		c.Fun = &ast.IndexExpr{X: c.Fun, Lbrack: c.Fun.End(), Index: targs[0], Rbrack: c.Fun.End()}
	} else {
		c.Fun = &ast.IndexListExpr{X: c.Fun, Lbrack: c.Fun.End(), Indices: targs, Rbrack: c.Fun.End()}
	}
}

// monomorphize: yaegi v0.16.1 cannot instantiate a generic function with
// a type of another package (it loses the package name: "incomplete type
// solve"). For such type arguments the call goes to a copy of the function
// with the types written in, declared in the cell's file (see
// rewriter.insts). Reports whether c was redirected.
func (rw *rewriter) monomorphize(c *ast.CallExpr, fd *ast.FuncDecl, targs []ast.Expr) bool {
	if rw.it == nil || rw.insts == nil {
		return false
	}
	qualified := false
	for _, t := range targs {
		ast.Inspect(t, func(n ast.Node) bool {
			if _, ok := n.(*ast.SelectorExpr); ok {
				qualified = true
			}
			return !qualified
		})
	}
	if !qualified {
		return false
	}
	names := typeParamNames(fd.Type)
	if len(names) != len(targs) {
		return false
	}
	key := fd.Name.Name
	subst := map[string]ast.Expr{}
	for i, n := range names {
		subst[n] = targs[i]
		key += "," + exprString(targs[i])
	}
	name := "_grundyInst_" + fd.Name.Name + "_" + itoa(int(hashString(key+"\x00"+exprString(fd))%1e9))
	pos := c.Fun.Pos()
	if _, done := rw.insts[name]; !done {
		src := "package main\n" + exprString(fd)
		f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
		if err != nil || len(f.Decls) != 1 {
			return false
		}
		cp := f.Decls[0].(*ast.FuncDecl)
		cp.Name = ast.NewIdent(name)
		cp.Type.TypeParams = nil
		replaceIdents(cp, subst)
		rw.insts[name] = atPos(cp, pos)
	}
	c.Fun = &ast.Ident{Name: name, NamePos: pos}
	return true
}

func hashString(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}

// replaceIdents replaces, in n, every identifier in an expression or type
// position named in subst (field and selector names are not expressions,
// so they stay).
func replaceIdents(n ast.Node, subst map[string]ast.Expr) {
	exprType := reflect.TypeOf((*ast.Expr)(nil)).Elem()
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				f := v.Field(i)
				if f.Type() == exprType && !f.IsNil() {
					if id, ok := f.Interface().(*ast.Ident); ok {
						if r, ok := subst[id.Name]; ok && f.CanSet() {
							f.Set(reflect.ValueOf(r))
							continue
						}
					}
				}
				if f.Kind() == reflect.Pointer || f.Kind() == reflect.Interface || f.Kind() == reflect.Slice || f.Kind() == reflect.Struct {
					if _, isObj := f.Interface().(*ast.Object); isObj {
						continue
					}
					if _, isScope := f.Interface().(*ast.Scope); isScope {
						continue
					}
					walk(f)
				}
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				e := v.Index(i)
				if e.Type() == exprType && !e.IsNil() {
					if id, ok := e.Interface().(*ast.Ident); ok {
						if r, ok := subst[id.Name]; ok {
							e.Set(reflect.ValueOf(r))
							continue
						}
					}
				}
				walk(e)
			}
		}
	}
	walk(reflect.ValueOf(n))
}

func flatFields(fl *ast.FieldList) []ast.Expr {
	if fl == nil {
		return nil
	}
	var out []ast.Expr
	for _, f := range fl.List {
		n := len(f.Names)
		if n == 0 {
			n = 1
		}
		for range n {
			out = append(out, f.Type)
		}
	}
	return out
}

var intTypes = map[string]bool{"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true, "byte": true, "rune": true}

// argType is an argument's type as source, when it can be read; weak for
// untyped constants (their default type, used only when nothing else binds).
func (rw *rewriter) argType(e ast.Expr) (ast.Expr, bool) {
	switch x := e.(type) {
	case *ast.FuncLit:
		return x.Type, false
	case *ast.CompositeLit:
		return x.Type, false
	case *ast.BasicLit:
		switch x.Kind {
		case token.INT:
			return ast.NewIdent("int"), true
		case token.FLOAT:
			return ast.NewIdent("float64"), true
		case token.STRING:
			return ast.NewIdent("string"), true
		case token.CHAR:
			return ast.NewIdent("rune"), true
		}
	case *ast.ParenExpr:
		return rw.argType(x.X)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			if t, weak := rw.argType(x.X); t != nil && !weak {
				return &ast.StarExpr{X: t}, false
			}
		}
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok && len(x.Args) == 1 && (intTypes[id.Name] || id.Name == "float64" || id.Name == "float32" || id.Name == "string") {
			return ast.NewIdent(id.Name), false
		}
	case *ast.Ident:
		if rw.it == nil {
			return nil, false
		}
		if t, ok := rw.locals[x.Name]; ok {
			if t == nil || t.Kind() == reflect.Interface {
				return nil, false
			}
			if s, ok := rw.it.goType(t, reflect.Value{}); ok {
				if e, err := parser.ParseExpr(s); err == nil {
					return atPos(e, x.Pos()), false
				}
			}
			return nil, false
		}
		v, ok := rw.it.globalValues()[x.Name]
		if !ok || !v.IsValid() || v.Kind() == reflect.Interface {
			return nil, false
		}
		if s, ok := rw.it.goType(v.Type(), v); ok {
			if t, err := parser.ParseExpr(s); err == nil {
				return t, false
			}
		}
	case *ast.SelectorExpr, *ast.IndexExpr:
		// A library call's result, a field: native types the rewriter
		// can read (t.List(0, 3) is a []games.Pos).
		if rw.it == nil {
			return nil, false
		}
		if t := rw.typeOf(e); t != nil && t.Kind() != reflect.Interface {
			if s, ok := rw.it.goType(t, reflect.Value{}); ok {
				if te, err := parser.ParseExpr(s); err == nil {
					return atPos(te, e.Pos()), false
				}
			}
		}
	}
	if c, ok := e.(*ast.CallExpr); ok && rw.it != nil {
		if t := rw.typeOf(c); t != nil && t.Kind() != reflect.Interface {
			if s, ok := rw.it.goType(t, reflect.Value{}); ok {
				if te, err := parser.ParseExpr(s); err == nil {
					return atPos(te, e.Pos()), false
				}
			}
		}
	}
	return nil, false
}

// spreadResults: when c's only argument is a call returning several
// values, their types as source (nil otherwise or when unknown).
func (rw *rewriter) spreadResults(c *ast.CallExpr) []ast.Expr {
	if len(c.Args) != 1 || rw.it == nil || rw.locals == nil {
		return nil
	}
	g, ok := c.Args[0].(*ast.CallExpr)
	if !ok {
		return nil
	}
	if id, ok := g.Fun.(*ast.Ident); ok {
		if d := rw.cellFunc(id.Name); d != nil {
			if rs := flatFields(d.Type.Results); len(rs) > 1 && d.Type.TypeParams == nil {
				return rs
			}
			return nil
		}
	}
	outs := rw.results(g)
	if len(outs) < 2 {
		return nil
	}
	var types []ast.Expr
	for _, t := range outs {
		s, ok := rw.it.goType(t, reflect.Value{})
		if !ok {
			return nil
		}
		x, err := parser.ParseExpr(s)
		if err != nil {
			return nil
		}
		types = append(types, atPos(x, g.Pos()))
	}
	return types
}

// checkSpread reports, in Go's words, f(g()) where g's results do not fit
// f's parameters, f and g both native (yaegi's own message names neither).
func (rw *rewriter) checkSpread(c *ast.CallExpr) {
	if len(c.Args) != 1 || rw.it == nil || rw.locals == nil {
		return
	}
	g, ok := c.Args[0].(*ast.CallExpr)
	if !ok {
		return
	}
	outs := rw.results(g)
	if len(outs) < 2 {
		return
	}
	ft := rw.typeOf(c.Fun)
	if ft == nil || ft.Kind() != reflect.Func {
		return
	}
	n := ft.NumIn()
	if len(outs) < n-1 || len(outs) < n && !ft.IsVariadic() || len(outs) > n && !ft.IsVariadic() {
		rw.fail(g.Pos(), fmt.Sprintf("wrong number of arguments in call to %s: %s returns %d values, %s takes %d", exprString(c.Fun), exprString(g.Fun), len(outs), exprString(c.Fun), n))
		return
	}
	for i, t := range outs {
		var p reflect.Type
		if ft.IsVariadic() && i >= n-1 {
			p = ft.In(n - 1).Elem()
		} else {
			p = ft.In(i)
		}
		if !t.AssignableTo(p) {
			rw.fail(g.Pos(), fmt.Sprintf("cannot use %s (value of type %s) as %s value in argument to %s (assign its results to variables first)", exprString(g), t, p, exprString(c.Fun)))
			return
		}
	}
}

var (
	pkgDeclsOnce sync.Once
	pkgDecls     map[string]*ast.FuncDecl // "slices.SortFunc" -> its generic declaration
)

// pkgGeneric is the declaration of a generic function of the engine's
// slices, maps and cmp packages.
func pkgGeneric(path, name string) *ast.FuncDecl {
	pkgDeclsOnce.Do(func() {
		pkgDecls = map[string]*ast.FuncDecl{}
		for _, p := range prelude.Packages() {
			for _, src := range p.Files {
				f, err := parser.ParseFile(token.NewFileSet(), "", src.Src, parser.SkipObjectResolution)
				if err != nil {
					continue
				}
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Type.TypeParams != nil {
						pkgDecls[p.Path+"."+fd.Name.Name] = fd
					}
				}
			}
		}
	})
	return pkgDecls[path+"."+name]
}

// nativeNamedArgs works around yaegi v0.16.1 crashing (or mistyping) a
// call of the engine's generic slices/maps functions on a value of a
// library's named slice or map type (slices.Clone(p) with p a games.Pos):
// such arguments are converted to their underlying type, and a result of
// the same type parameter converted back, so the call means what it says.
// It returns the conversion back to apply (see wrapCall) once the call is
// otherwise rewritten, or nil.
func (rw *rewriter) nativeNamedArgs(c *ast.CallExpr, fd *ast.FuncDecl) ast.Expr {
	if fd.Type.TypeParams == nil || fd.Type.Params == nil || rw.it == nil {
		return nil
	}
	// Parameters of a slice or map type: []E, map[K]V, or a type
	// parameter constrained to ~[]E or ~map[K]V.
	shaped := map[string]bool{}
	for _, f := range fd.Type.TypeParams.List {
		if u, ok := f.Type.(*ast.UnaryExpr); ok && u.Op == token.TILDE {
			switch u.X.(type) {
			case *ast.ArrayType, *ast.MapType:
				for _, n := range f.Names {
					shaped[n.Name] = true
				}
			}
		}
	}
	var params []ast.Expr
	for _, f := range fd.Type.Params.List {
		n := max(len(f.Names), 1)
		for range n {
			params = append(params, f.Type)
		}
	}
	if len(params) == 0 {
		return nil
	}
	var back ast.Expr // the named type a result converts back to
	backParam := ""
	for i, a := range c.Args {
		p := params[min(i, len(params)-1)]
		if el, ok := p.(*ast.Ellipsis); ok {
			if c.Ellipsis.IsValid() {
				continue
			}
			p = el.Elt
		}
		switch x := p.(type) {
		case *ast.Ident:
			if !shaped[x.Name] {
				continue
			}
		case *ast.ArrayType:
			if x.Len != nil {
				continue
			}
		case *ast.MapType:
		default:
			continue
		}
		t := rw.exprNativeType(a)
		if t == nil || t.Name() == "" || t.PkgPath() == "" || (t.Kind() != reflect.Slice && t.Kind() != reflect.Map) {
			continue
		}
		var under reflect.Type
		if t.Kind() == reflect.Slice {
			under = reflect.SliceOf(t.Elem())
		} else {
			under = reflect.MapOf(t.Key(), t.Elem())
		}
		us, ok1 := rw.it.goType(under, reflect.Value{})
		ns, ok2 := rw.it.goType(t, reflect.Value{})
		ue, err1 := parser.ParseExpr(us)
		ne, err2 := parser.ParseExpr(ns)
		if !ok1 || !ok2 || err1 != nil || err2 != nil {
			continue
		}
		c.Args[i] = &ast.CallExpr{Fun: &ast.ParenExpr{X: atPos(ue, a.Pos())}, Lparen: a.Pos(), Args: []ast.Expr{a}, Rparen: a.End()}
		if back == nil {
			back, backParam = atPos(ne, c.Pos()), exprString(p)
		}
	}
	if back == nil || fd.Type.Results == nil || len(fd.Type.Results.List) != 1 || len(fd.Type.Results.List[0].Names) > 1 {
		return nil
	}
	if exprString(fd.Type.Results.List[0].Type) == backParam {
		return back
	}
	return nil
}

// wrapCall turns c, in place, into the conversion to(c).
func wrapCall(c *ast.CallExpr, to ast.Expr) {
	inner := *c
	c.Fun = to
	c.Args = []ast.Expr{&inner}
	c.Ellipsis = token.NoPos
}

// exprNativeType is the type of a variable when the rewriter can know it:
// from its declaration in the code, or from the session's globals.
func (rw *rewriter) exprNativeType(e ast.Expr) reflect.Type {
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil
	}
	if t, ok := rw.locals[id.Name]; ok && t != nil {
		return t
	}
	if te, ok := rw.localAST[id.Name]; ok {
		sel, ok := te.(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			return nil
		}
		path := rw.it.pkgs[pkg.Name]
		key, ok := symbolsHave(path)
		if !ok {
			return nil
		}
		v, ok := symbols.Symbols[key][sel.Sel.Name]
		if !ok {
			v, ok = stdlib.Symbols[key][sel.Sel.Name]
		}
		if !ok || !v.IsValid() || v.Kind() != reflect.Pointer || !v.IsNil() {
			return nil
		}
		return v.Type().Elem()
	}
	if _, ok := rw.locals[id.Name]; ok {
		return nil
	}
	v, ok := rw.globalValues()[id.Name]
	if !ok || !v.IsValid() {
		return nil
	}
	return v.Type()
}
