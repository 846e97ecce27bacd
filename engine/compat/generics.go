package compat

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"hash/fnv"
	"reflect"
	"strings"
)

// typeArgs: calls of generic functions get the type arguments Go infers,
// written out, from the oracle. yaegi v0.16.1 infers them by position: it
// lists the argument types met at each use of a type parameter in the
// signature and takes the first n (interp/generic.go:211,
// inferTypesFromCall), so Map(xs []T, f func(T) U) got U = T, and it
// cannot infer from values of native types at all.
//
// Two more defects shape what is written. yaegi cannot instantiate a
// generic function with a type of another package (it loses the package:
// "incomplete type solve"), so a cell's generic function called with such
// a type argument is called as a copy with the types written in, declared
// before the cell (Cell.Insts). And a call of the engine's slices or maps
// functions on a value of a library's named slice or map type crashed or
// mistyped the call (slices.Clone(p), p a games.Pos): such an argument
// goes as its underlying type and a result of the same type is converted
// back, so the call means what it says.
//
// It runs last: copies are made of the functions as the other passes left
// them.
var typeArgs = Pass{
	Name:     "typeargs",
	Run:      runTypeArgs,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"generics_func", "generic_library_type_args", "slices_on_library_types", "multivalue_args_generic"},
}

// stdGeneric tells the engine's source packages (generic, interpreted).
var stdGeneric = map[string]bool{"slices": true, "maps": true, "cmp": true, "iter": true}

func runTypeArgs(c *Cell) {
	type copyReq struct {
		call  *ast.CallExpr
		fn    *types.Func
		targs []ast.Expr
	}
	var copies []copyReq
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		id := calleeIdent(call)
		if id == nil {
			return true
		}
		inst, ok := c.Types.Instances[id]
		fn, isFunc := c.Types.ObjectOf(id).(*types.Func)
		if !ok || !isFunc || fn.Pkg() == nil {
			return true
		}
		var targs []ast.Expr
		for i := range inst.TypeArgs.Len() {
			t, ok := c.TypeExpr(inst.TypeArgs.At(i), call.Fun.Pos())
			if !ok {
				return true // the interpreter may still manage
			}
			targs = append(targs, t)
		}
		switch {
		case fn.Pkg().Path() == "main":
			if qualified(targs) {
				copies = append(copies, copyReq{call, fn, targs})
				return true
			}
			setTypeArgs(call, targs)
		case stdGeneric[fn.Pkg().Path()]:
			back := c.underlyingArgs(call, fn)
			setTypeArgs(call, targs)
			if back != nil {
				inner := *call
				call.Fun, call.Args, call.Ellipsis = back, []ast.Expr{&inner}, token.NoPos
			}
		}
		return true
	})
	made := map[string]bool{}
	for _, r := range copies {
		name, decl := c.instance(r.fn.Name(), r.targs, r.call.Fun.Pos())
		if decl == nil {
			continue
		}
		if !made[name] {
			made[name] = true
			c.Insts = append(c.Insts, decl)
		}
		r.call.Fun = ident(name, r.call.Fun.Pos())
	}
}

// calleeIdent is the name a call calls: F, pkg.F, F[T].
func calleeIdent(call *ast.CallExpr) *ast.Ident {
	switch f := unindex(call.Fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	}
	return nil
}

// setTypeArgs writes call's function with the type arguments targs.
func setTypeArgs(call *ast.CallExpr, targs []ast.Expr) {
	fun := unindex(call.Fun)
	if len(targs) == 1 {
		call.Fun = &ast.IndexExpr{X: fun, Lbrack: fun.End(), Index: targs[0], Rbrack: fun.End()}
	} else {
		call.Fun = &ast.IndexListExpr{X: fun, Lbrack: fun.End(), Indices: targs, Rbrack: fun.End()}
	}
}

// qualified reports whether a type mentions another package's type.
func qualified(targs []ast.Expr) bool {
	for _, t := range targs {
		if contains(t, false, func(n ast.Node) bool { _, ok := n.(*ast.SelectorExpr); return ok }) {
			return true
		}
	}
	return false
}

// underlyingArgs converts the arguments of a call of the engine's generic
// fn that are of a library's named slice or map type to their underlying
// types; it returns the named type to convert the result back to, when
// the result has the type of such a parameter, or nil.
func (c *Cell) underlyingArgs(call *ast.CallExpr, fn *types.Func) ast.Expr {
	sig := fn.Type().(*types.Signature)
	var back ast.Expr
	var backParam types.Type
	for i, a := range call.Args {
		p := paramType(sig, i, call.Ellipsis.IsValid())
		if p == nil || sig.Variadic() && i >= sig.Params().Len()-1 && call.Ellipsis.IsValid() {
			continue
		}
		switch sliceOrMap(p).(type) {
		case *types.Slice, *types.Map:
		default:
			continue
		}
		named, ok := types.Unalias(c.Types.TypeOf(a)).(*types.Named)
		if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() == "main" {
			continue
		}
		switch named.Underlying().(type) {
		case *types.Slice, *types.Map:
		default:
			continue
		}
		under, ok1 := c.TypeExpr(named.Underlying(), a.Pos())
		nt, ok2 := c.TypeExpr(named, call.Pos())
		if !ok1 || !ok2 {
			continue
		}
		call.Args[i] = &ast.CallExpr{Fun: &ast.ParenExpr{X: under}, Lparen: a.Pos(), Args: []ast.Expr{a}, Rparen: a.End()}
		if back == nil {
			back, backParam = nt, p
		}
	}
	if back == nil || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), backParam) {
		return nil
	}
	return back
}

// sliceOrMap is the slice or map type a parameter type stands for: itself,
// or a type parameter's constraint ~[]E or ~map[K]V.
func sliceOrMap(t types.Type) types.Type {
	if tp, ok := t.(*types.TypeParam); ok {
		iface, ok := tp.Constraint().Underlying().(*types.Interface)
		if !ok || iface.NumEmbeddeds() != 1 {
			return nil
		}
		if u, ok := iface.EmbeddedType(0).(*types.Union); ok && u.Len() == 1 && u.Term(0).Tilde() {
			return u.Term(0).Type().Underlying()
		}
		return nil
	}
	return t.Underlying()
}

// instance is a copy of the cell generic function name with the type
// arguments written in: its name and declaration (nil when the function's
// declaration is not at hand).
func (c *Cell) instance(name string, targs []ast.Expr, pos token.Pos) (string, *ast.FuncDecl) {
	fd := c.funcDecl(name)
	if fd == nil || fd.Type.TypeParams == nil {
		return "", nil
	}
	var params []string
	for _, f := range fd.Type.TypeParams.List {
		for _, n := range f.Names {
			params = append(params, n.Name)
		}
	}
	if len(params) != len(targs) {
		return "", nil
	}
	src := ExprString(fd)
	key := []string{src}
	subst := map[string]ast.Expr{}
	for i, n := range params {
		subst[n] = targs[i]
		key = append(key, ExprString(targs[i]))
	}
	h := fnv.New32a()
	h.Write([]byte(strings.Join(key, "\x00")))
	inst := fmt.Sprintf("%sInst_%s_%d", tempPrefix, name, h.Sum32()%1e9)
	f, err := parser.ParseFile(token.NewFileSet(), "", "package main\n"+src, parser.SkipObjectResolution)
	if err != nil || len(f.Decls) != 1 {
		return "", nil
	}
	cp := f.Decls[0].(*ast.FuncDecl)
	cp.Name = ident(inst, pos)
	cp.Type.TypeParams = nil
	replaceIdents(cp, subst)
	return inst, AtPos(cp, pos)
}

// funcDecl is the declaration of the function name: this cell's, else an
// earlier cell's.
func (c *Cell) funcDecl(name string) *ast.FuncDecl {
	if c.Decls != nil {
		for _, d := range c.Decls.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
				return fd
			}
		}
	}
	if c.Session != nil {
		return c.Session.Func(name)
	}
	return nil
}

var exprIface = reflect.TypeFor[ast.Expr]()

// replaceIdents replaces, in n, every identifier in an expression or type
// position named in subst (field and selector names are not expressions,
// so they stay).
func replaceIdents(n ast.Node, subst map[string]ast.Expr) {
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
				if f.Type() == exprIface && !f.IsNil() {
					if id, ok := f.Interface().(*ast.Ident); ok {
						if r, ok := subst[id.Name]; ok && f.CanSet() {
							f.Set(reflect.ValueOf(r))
							continue
						}
					}
				}
				switch f.Interface().(type) {
				case *ast.Object, *ast.Scope:
					continue
				}
				switch f.Kind() {
				case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Struct:
					walk(f)
				}
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				e := v.Index(i)
				if e.Type() == exprIface && !e.IsNil() {
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

// paramType is the type of the parameter argument i goes to (the
// element type of a variadic parameter unless spread is set).
func paramType(sig *types.Signature, i int, spread bool) types.Type {
	n := sig.Params().Len()
	if n == 0 {
		return nil
	}
	if sig.Variadic() && i >= n-1 {
		t := sig.Params().At(n - 1).Type()
		if spread {
			return t
		}
		if s, ok := t.Underlying().(*types.Slice); ok {
			return s.Elem()
		}
		return nil
	}
	if i >= n {
		return nil
	}
	return sig.Params().At(i).Type()
}
