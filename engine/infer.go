package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
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
	tparams := map[string]bool{}
	var order []string
	for _, f := range fd.Type.TypeParams.List {
		for _, n := range f.Names {
			tparams[n.Name] = true
			order = append(order, n.Name)
		}
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
	for i, arg := range c.Args {
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
			s, ok = weak[name]
		}
		if !ok {
			return
		}
		e, err := parser.ParseExpr(s)
		if err != nil {
			return
		}
		targs = append(targs, e)
	}
	if len(targs) == 1 {
		c.Fun = &ast.IndexExpr{X: c.Fun, Lbrack: c.Fun.End(), Index: targs[0], Rbrack: c.Fun.End()}
	} else {
		c.Fun = &ast.IndexListExpr{X: c.Fun, Lbrack: c.Fun.End(), Indices: targs, Rbrack: c.Fun.End()}
	}
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
		v, ok := rw.it.globalValues()[x.Name]
		if !ok || !v.IsValid() || v.Kind() == reflect.Interface {
			return nil, false
		}
		if s, ok := rw.it.goType(v.Type(), v); ok {
			if t, err := parser.ParseExpr(s); err == nil {
				return t, false
			}
		}
	}
	return nil, false
}
