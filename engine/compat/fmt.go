package compat

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"strconv"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// The fmt passes. yaegi v0.16.1 builds cell types with reflect, which
// cannot carry methods (interp/type.go:2058, refType), so native fmt sees
// a cell type's String or Error method only where yaegi passes a value
// with its static type wrapped (the value itself, as an argument). Inside
// a slice, map or struct, in a spread []any, or as a call's result, fmt
// printed the raw value. These passes hand fmt what Go's fmt would print.

// fmtArgStart: where the values to format start in fmt's functions.
var fmtArgStart = map[string]int{
	"Print": 0, "Println": 0, "Sprint": 0, "Sprintln": 0,
	"Printf": 1, "Sprintf": 1, "Errorf": 1, "Fprint": 1, "Fprintln": 1,
	"Fprintf": 2, "Appendf": 2, "Append": 1, "Appendln": 1,
}

// fmtSpread: fmt.Println(xs...) and the other fmt functions with a spread
// []any: native fmt got the interpreter's boxes of cell-typed values and
// printed their insides ({0xc000.. {0xf87d00 ..}}). The slice goes through
// the prelude's _grundyFmtSpread, which formats values with an Error or
// String method through it.
var fmtSpread = Pass{
	Name:     "fmtspread",
	Run:      runFmtSpread,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"fmt_spread_cell_values"},
}

func runFmtSpread(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || !call.Ellipsis.IsValid() {
			return true
		}
		skip, ok := c.fmtCall(call)
		if !ok || len(call.Args) != skip+1 {
			return true
		}
		last := call.Args[skip]
		call.Args[skip] = &ast.CallExpr{Fun: ident(prelude.FmtSpread, last.Pos()), Args: []ast.Expr{last}, Lparen: last.Pos(), Rparen: last.End()}
		return true
	})
}

// fmtCall tells a call of one of fmt's printing functions, and where the
// values to format start.
func (c *Cell) fmtCall(call *ast.CallExpr) (skip int, ok bool) {
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" {
		return 0, false
	}
	skip, ok = fmtArgStart[fn.Name()]
	return skip, ok
}

// fmtValues: the arguments of fmt's functions, and a cell's trailing value,
// whose static type hides methods from fmt:
//
//   - a slice, array or map of a cell type defined on a basic type (type C
//     float64) with a String or Error method: yaegi gives C float64's
//     reflect type, so no run-time hook can tell []C from []float64; the
//     elements' strings (or a map printer) are computed where the type is
//     known;
//   - a slice, array or map of another cell type with such a method: the
//     prelude's _grundyFmtArg (the engine points its hook at the
//     session's Stringer types);
//   - a call's result of a cell type with such a method: yaegi hands fmt a
//     call's result without its methods (fmt.Sprintf("%s", temp()) printed
//     %!s(float64=4));
//   - a cell struct whose fields have such methods: its fields are
//     formatted through them.
//
// A trailing call whose result has methods (which the display may use)
// is put in parentheses, which makes yaegi keep the result's type.
var fmtValues = Pass{
	Name:  "fmtvalues",
	Run:   runFmtValues,
	Kinds: []ast.Node{(*ast.CallExpr)(nil), (*ast.ExprStmt)(nil)},
	Snippets: []string{"fmt_stringer_on_basic_type", "fmt_slices_of_stringers", "fmt_maps_of_stringers",
		"fmt_struct_fields_with_methods", "display_call_result_methods"},
}

func runFmtValues(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || call.Ellipsis.IsValid() {
			return true
		}
		skip, ok := c.fmtCall(call)
		if !ok {
			return true
		}
		for i := skip; i < len(call.Args); i++ {
			a := call.Args[i]
			if r := c.fmtForm(a); r != nil {
				call.Args[i] = r
			} else if c.hookedCollection(c.Types.TypeOf(a)) {
				call.Args[i] = &ast.CallExpr{Fun: ident(prelude.FmtArg, a.Pos()), Args: []ast.Expr{a}, Lparen: a.Pos(), Rparen: a.End()}
			}
		}
		return true
	})
	if c.Trail == nil || c.Stmts == nil || len(c.Stmts.List) == 0 || c.Stmts.List[len(c.Stmts.List)-1] != ast.Stmt(c.Trail) {
		return
	}
	es := c.Trail
	t := c.Types.TypeOf(es.X)
	_, call := es.X.(*ast.CallExpr)
	if !hasMethods(t) {
		if r := c.fmtForm(es.X); r != nil {
			es.X = r
		}
	} else if call && typecheck.IsCellType(t) {
		es.X = &ast.ParenExpr{Lparen: es.X.Pos(), X: es.X, Rparen: es.X.End()}
	}
}

// hasMethods reports whether t is a cell type with methods (which a
// display of its values may use).
func hasMethods(t types.Type) bool {
	return typecheck.IsCellType(t) && types.NewMethodSet(types.NewPointer(t)).Len() > 0
}

// stringMethod is the method fmt calls (Error, else String) on values of
// t, when t has one with a value receiver; "" otherwise.
func stringMethod(t types.Type) string {
	for _, m := range []string{"Error", "String"} {
		obj, _, _ := types.LookupFieldOrMethod(t, false, nil, m)
		fn, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
			continue
		}
		if b, ok := sig.Results().At(0).Type().(*types.Basic); ok && b.Kind() == types.String {
			return m
		}
	}
	return ""
}

// basicStringMethod is stringMethod for cell types defined on a basic
// type (type C float64).
func basicStringMethod(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || !typecheck.IsCellType(n) {
		return ""
	}
	if _, basic := n.Underlying().(*types.Basic); !basic {
		return ""
	}
	return stringMethod(n)
}

// hookedCollection reports whether t is a slice, array or map of a cell
// type (or a pointer to one) with a String or Error method, which the
// session's fmt hook knows.
func (c *Cell) hookedCollection(t types.Type) bool {
	var elems []types.Type
	switch u := typeUnder(t).(type) {
	case *types.Slice:
		elems = []types.Type{u.Elem()}
	case *types.Array:
		elems = []types.Type{u.Elem()}
	case *types.Map:
		elems = []types.Type{u.Key(), u.Elem()}
	default:
		return false
	}
	for _, e := range elems {
		if typecheck.IsCellType(deref(e)) && stringMethod(types.NewPointer(deref(e))) != "" {
			return true
		}
	}
	return false
}

// fmtForm returns, for a value fmt would print wrongly, an expression
// giving what fmt should print; nil when fmt needs no help.
func (c *Cell) fmtForm(arg ast.Expr) ast.Expr {
	t := c.Types.TypeOf(arg)
	if t == nil {
		return nil
	}
	ts, ok := c.Types.TypeString(t)
	if !ok {
		return nil
	}
	var src string
	switch u := t.(type) {
	case *types.Slice, *types.Array:
		var elem types.Type
		if s, ok := u.(*types.Slice); ok {
			elem = s.Elem()
		} else {
			elem = u.(*types.Array).Elem()
		}
		m := basicStringMethod(elem)
		if m == "" {
			return nil
		}
		src = fmt.Sprintf("func(x %s) []string { out := make([]string, len(x)); for i := range x { out[i] = x[i].%s() }; return out }", ts, m)
	case *types.Map:
		km, vm := basicStringMethod(u.Key()), basicStringMethod(u.Elem())
		if km == "" && vm == "" {
			return nil
		}
		ks, vs := "fmt.Sprint(k)", "fmt.Sprint(v)"
		if km != "" {
			ks = "k." + km + "()"
		}
		if vm != "" {
			vs = "v." + vm + "()"
		}
		src = fmt.Sprintf("func(x %s) any { var ks []any; var kss, vss []string; for k, v := range x { kk := k; ks = append(ks, kk); kss = append(kss, %s); vss = append(vss, %s) }; return %s(ks, kss, vss) }", ts, ks, vs, rtFunc(prelude.RTFmtMap))
	case *types.Named:
		if !typecheck.IsCellType(u) {
			return nil
		}
		if _, call := arg.(*ast.CallExpr); call {
			if m := stringMethod(u); m != "" {
				src = fmt.Sprintf("func(x %s) any { return %s(x, x.%s()) }", ts, rtFunc(prelude.RTFmtAs), m)
			}
		}
		if src == "" {
			conv := c.structForm(u, 0)
			if conv == "" {
				return nil
			}
			src = fmt.Sprintf("func(x %s) any { return %s }", ts, conv)
		}
	default:
		return nil
	}
	fn, err := parser.ParseExpr(src)
	if err != nil {
		return nil
	}
	AtPos(fn, arg.Pos())
	return &ast.CallExpr{Fun: fn, Args: []ast.Expr{arg}, Lparen: arg.Pos(), Rparen: arg.End()}
}

// structForm returns, for a cell struct type t without an Error or String
// method of its own, an expression of x that fmt prints as it would print
// a value of t: its fields of types with such methods formatted through
// them. "" when fmt needs no help with t.
func (c *Cell) structForm(t *types.Named, depth int) string {
	if depth > 4 || stringMethod(t) != "" {
		return ""
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return ""
	}
	var names, vals []string
	helped := false
	for i := range st.NumFields() {
		f := st.Field(i)
		n := f.Name()
		v := "x." + n
		if ft, ok := types.Unalias(f.Type()).(*types.Named); ok && typecheck.IsCellType(ft) {
			if m := stringMethod(ft); m != "" {
				v, helped = fmt.Sprintf("%s(x.%s, x.%s.%s())", rtFunc(prelude.RTFmtAs), n, n, m), true
			} else if inner := c.structForm(ft, depth+1); inner != "" {
				fs, ok := c.Types.TypeString(ft)
				if !ok {
					return ""
				}
				v, helped = "func(x "+fs+") any { return "+inner+" }(x."+n+")", true
			}
		}
		names = append(names, strconv.Quote(n))
		vals = append(vals, v)
	}
	if !helped {
		return ""
	}
	return fmt.Sprintf("%s(x, []string{%s}, []any{%s})", rtFunc(prelude.RTFmtStruct), strings.Join(names, ", "), strings.Join(vals, ", "))
}

// rtFunc is a function of package grundyrt as source.
func rtFunc(name string) string { return prelude.Runtime + "." + name }
