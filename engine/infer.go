package engine

import (
	"fmt"
	"go/ast"
	"reflect"
)

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
