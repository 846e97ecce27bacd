package compat

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// templateMethods: t.Execute(w, data) and t.ExecuteTemplate(w, name, data)
// of text/template and html/template, with data of a type that has cell
// types with exported methods in it. yaegi v0.16.1 builds cell types with
// reflect (interp/type.go, refType), which gives them no methods, and
// templates find methods by reflect: {{.Greeting}} failed with "can't
// evaluate field Greeting" once the template had written what came
// before it. The template goes through grundyrt's TextTemplate (or
// HTMLTemplate) with those methods' names, which stops the cell before the
// template runs when the template names one, saying what to write
// instead. For the same reason a template printed a value of a cell type
// with a String, Error or Format method as its underlying value ("1"
// where Go prints "N"), and saw nothing in the values of a cell's
// interface type (the interpreter's boxes): the checks also name the
// fields (and dot) that may print such a value, and the interfaces, and
// the template is stopped when it prints one or looks into the data. The
// error Execute returns goes through TemplateError, which names the cell
// types its message names as Go does (not as the interpreter's structs).
var templateMethods = Pass{
	Name:     "templatemethods",
	Run:      runTemplateMethods,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"template_cell_methods", "template_cell_stringer_refused", "template_cell_interface_refused", "template_error_names_cell_types", "template_map_cell_keys_refused", "template_printf_cell_types", "template_printf_plain_fields"},
}

func runTemplateMethods(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok || call.Ellipsis.IsValid() {
			return true
		}
		fn := c.callee(call)
		sel, isSel := call.Fun.(*ast.SelectorExpr)
		if b := templateBuiltins(fn); b != "" && isSel && isPkgName(c.Types.ObjectOf(rootName(sel.X))) {
			// template.New(name): print, printf and println of its own.
			x := &ast.CallExpr{Fun: rtSelector(b, call.Pos()), Lparen: call.Pos(), Args: []ast.Expr{call}, Rparen: call.End()}
			c.Types.Types[x] = c.Types.Types[call]
			cur.Replace(x)
			return true
		}
		if fn == nil || !isSel || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() == nil {
			return true
		}
		var check string
		switch fn.Pkg().Path() {
		case "text/template":
			check = prelude.RTTextTemplate
		case "html/template":
			check = prelude.RTHTMLTemplate
		default:
			return true
		}
		data := -1
		switch {
		case fn.Name() == "Execute" && len(call.Args) == 2:
			data = 1
		case fn.Name() == "ExecuteTemplate" && len(call.Args) == 3:
			data = 2
		default:
			return true
		}
		// (An error of any data goes through TemplateError: an earlier
		// Execute may have written method calls into the template.)
		dt := c.Types.TypeOf(call.Args[data])
		var calls []ast.Expr
		var checks []string
		if hasCellType(dt, map[types.Type]bool{}) {
			var covered map[string]bool
			calls, covered = c.templateCalls(c.dataTypes(dt), sel.X.Pos())
			checks = slices.DeleteFunc(templateChecks(dt), func(l string) bool { return covered[l] })
		} else if holdsInterface(dt) {
			calls, _ = c.templateCalls(c.dataTypes(dt), sel.X.Pos())
		}
		if len(checks) > 0 || len(calls) > 0 {
			lit := &ast.BasicLit{ValuePos: sel.X.Pos(), Kind: token.STRING, Value: strconv.Quote(strings.Join(checks, "\n"))}
			args := append([]ast.Expr{sel.X, lit}, calls...)
			sel.X = &ast.CallExpr{Fun: rtSelector(check, sel.X.Pos()), Lparen: sel.X.Pos(), Args: args, Rparen: sel.X.End()}
		}
		if holdsEmptyIface(dt) && c.boxesCellValues() {
			// (Values of the cell's types in an any: see TemplateData.)
			d := call.Args[data]
			call.Args[data] = &ast.CallExpr{Fun: rtSelector(prelude.RTTemplateData, d.Pos()), Lparen: d.Pos(), Args: []ast.Expr{d}, Rparen: d.End()}
		}
		inner := &ast.CallExpr{Fun: call.Fun, Lparen: call.Lparen, Args: call.Args, Rparen: call.Rparen}
		call.Fun, call.Args = rtSelector(prelude.RTTemplateError, call.Fun.Pos()), []ast.Expr{inner}
		return true
	})
}

// templateChecks are what grundyrt's TextTemplate checks a template
// against, one per line: the methods of the cell types in t
// (cellMethodNames); "print F main.T" for a struct field F in t whose
// values hold a main.T, a cell type fmt calls a method of, "print [map]
// main.T" when a map's values may hold one, "print [key] main.T" when its
// keys may, and "print . main.T" when any value in t may be one; "box
// main.I" for an interface main.I with methods a cell declared; "keys
// map[main.K]V" when t is a map keyed by a cell type; "value main.T int"
// for a cell type on a basic type, a slice... in t, with its reflect kind,
// and then "plain F" for each field or method name F whose values cannot
// be one (plainNames).
func templateChecks(t types.Type) []string {
	out := cellMethodNames(t)
	eachType(t, func(t types.Type) {
		switch u := t.(type) {
		case *types.Named:
			if typecheck.IsCellType(u) && types.IsInterface(u) && u.Underlying().(*types.Interface).NumMethods() > 0 {
				out = append(out, "box "+reflectName(u, false))
			}
		case *types.Map:
			if p := printedCellType(u.Elem()); p != "" {
				out = append(out, "print [map] "+p) // {{.key}} on the map
			}
			if p := printedCellType(u.Key()); p != "" {
				out = append(out, "print [key] "+p) // {{range $k, $v := .}}{{$k}}
			}
		case *types.Struct:
			for i := range u.NumFields() {
				if f := u.Field(i); f.Exported() {
					if p := printedCellType(f.Type()); p != "" {
						out = append(out, "print "+f.Name()+" "+p)
					}
				}
			}
		}
	})
	if p := printedCellType(t); p != "" {
		out = append(out, "print . "+p)
	}
	values := false
	eachNamed(t, func(u *types.Named) {
		if typecheck.IsCellType(u) && isBased(u) {
			values = true
			out = append(out, "value "+reflectName(u, false)+" "+reflectKind(u.Underlying()))
		}
	})
	if values {
		for _, name := range plainNames(t) {
			out = append(out, "plain "+name)
		}
	}
	if m, ok := types.Unalias(deref(t)).Underlying().(*types.Map); ok && typecheck.IsCellType(m.Key()) {
		// Go's templates look a key up by name ({{.P}}) only in a map
		// keyed by string; the interpreter's map of a type on string is
		// keyed by string.
		out = append(out, "keys "+types.TypeString(deref(t), func(p *types.Package) string { return p.Name() }))
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// plainNames are the names of the fields and methods of the struct types
// in t whose values hold no value of a based cell type (W float64 beside
// Lvl Level), where every field or method of that name in t is so: an
// argument {{printf "%.1f" .W}} cannot hand a template's function such a
// value (see grundyrt's checkFuncArgs).
func plainNames(t types.Type) []string {
	plain := map[string]bool{}
	note := func(name string, ts ...types.Type) {
		ok := true
		for _, x := range ts {
			eachNamed(x, func(u *types.Named) { ok = ok && !(typecheck.IsCellType(u) && isBased(u)) && !types.IsInterface(u) })
			if types.IsInterface(x) {
				ok = false
			}
		}
		if was, seen := plain[name]; seen {
			ok = ok && was
		}
		plain[name] = ok
	}
	eachType(t, func(t types.Type) {
		switch u := t.(type) {
		case *types.Struct:
			for i := range u.NumFields() {
				if f := u.Field(i); f.Exported() {
					note(f.Name(), f.Type())
				}
			}
		case *types.Named:
			ms := types.NewMethodSet(types.NewPointer(u))
			for i := range ms.Len() {
				if m := ms.At(i).Obj(); m.Exported() {
					note(m.Name(), tupleTypes(m.Type().(*types.Signature).Results())...)
				}
			}
		}
	})
	var out []string
	for name, ok := range plain {
		if ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// printedCellType is a cell type in t (through pointers, elements and
// fields) whose String, Error or Format method fmt would call, by name;
// "" if none.
func printedCellType(t types.Type) string {
	found := ""
	eachNamed(t, func(u *types.Named) {
		if found != "" || !typecheck.IsCellType(u) || types.IsInterface(u) {
			return
		}
		ms := types.NewMethodSet(types.NewPointer(u))
		for _, m := range []string{"String", "Error", "Format"} {
			if ms.Lookup(nil, m) != nil {
				found = reflectName(u, false)
				return
			}
		}
	})
	return found
}

// cellMethodNames are the exported methods ("Name main.T") of the cell
// types in t (through pointers, elements and fields).
func cellMethodNames(t types.Type) []string {
	var out []string
	eachNamed(t, func(u *types.Named) {
		if !typecheck.IsCellType(u) || types.IsInterface(u) {
			return
		}
		ms := types.NewMethodSet(types.NewPointer(u))
		for i := range ms.Len() {
			if m := ms.At(i).Obj(); m.Exported() {
				out = append(out, m.Name()+" "+reflectName(u, false))
			}
		}
	})
	sort.Strings(out)
	return out
}

// templateCalls are the arguments giving the runtime closures that call
// the methods of the struct types a cell declares in t, or read the fields
// their embedded structs promote (a name, then a closure taking the
// receiver first), and the check lines (cellMethodNames') those methods no
// longer need.
func (c *Cell) templateCalls(named []*types.Named, pos token.Pos) ([]ast.Expr, map[string]bool) {
	var out []ast.Expr
	covered := map[string]bool{}
	for _, u := range named {
		ms := types.NewMethodSet(types.NewPointer(u))
		for i := range ms.Len() {
			m := ms.At(i).Obj().(*types.Func)
			if !m.Exported() {
				continue
			}
			var recv types.Type = u // a promoted method's receiver is u too
			if _, ptr := m.Type().(*types.Signature).Recv().Type().(*types.Pointer); ptr {
				recv = types.NewPointer(u)
			}
			if fn, ok := c.templateClosure(m, recv, pos); ok {
				out = append(out, &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(m.Name())}, fn)
				covered[m.Name()+" "+reflectName(u, false)] = true
			}
		}
		// The fields u's embedded structs promote: the interpreter's
		// struct has the embedded struct as a plain field, so reflect
		// (and the template) finds none of them in u.
		for _, name := range promotedFields(u.Underlying().(*types.Struct), map[*types.Struct]bool{}) {
			obj, index, _ := types.LookupFieldOrMethod(u, false, u.Obj().Pkg(), name)
			if f, ok := obj.(*types.Var); ok && len(index) > 1 {
				recv, ok1 := c.Types.TypeString(u)
				ft, ok2 := c.Types.TypeString(f.Type())
				if x, err := parser.ParseExpr(fmt.Sprintf("func(%sV %s) %s { return %sV.%s }", prelude.Temp, recv, ft, prelude.Temp, name)); ok1 && ok2 && err == nil {
					out = append(out, &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(name)}, AtPos(x, pos))
				}
			}
		}
	}
	return out, covered
}

// dataTypes are the struct types a cell declared (not generic) that a
// template's data of type t may hold: those in t, and when t holds an
// interface (map[string]any), every one the session has.
func (c *Cell) dataTypes(t types.Type) []*types.Named {
	var out []*types.Named
	add := func(u *types.Named) {
		if _, ok := u.Underlying().(*types.Struct); ok && typecheck.IsCellType(u) && u.TypeParams().Len() == 0 && u.TypeArgs().Len() == 0 && !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	eachNamed(t, add)
	if holdsInterface(t) {
		for _, tn := range c.Types.CellTypes() {
			if u, ok := tn.Type().(*types.Named); ok {
				add(u)
			}
		}
	}
	return out
}

// holdsEmptyIface reports whether t is or holds an empty interface type
// (through pointers, elements and fields).
func holdsEmptyIface(t types.Type) bool {
	found := false
	eachType(t, func(t types.Type) { found = found || emptyIface(t) })
	return found
}

// boxesCellValues reports whether the session declares a type whose
// values the interpreter keeps in an empty interface in its box: one with
// methods (a type on a basic type, an array, a slice or a map gets one
// from boxBasic).
func (c *Cell) boxesCellValues() bool {
	for _, tn := range c.Types.CellTypes() {
		if n, ok := tn.Type().(*types.Named); ok && !types.IsInterface(n) && (hasMethodsAt(n) || isBased(n) && boxable(n)) {
			return true
		}
	}
	return false
}

// holdsInterface reports whether a value of t may hold an interface value.
func holdsInterface(t types.Type) bool {
	found := false
	eachType(t, func(t types.Type) { found = found || types.IsInterface(t) })
	return found
}

// promotedFields are the exported fields of the structs st embeds (at any
// depth).
func promotedFields(st *types.Struct, seen map[*types.Struct]bool) []string {
	if seen[st] {
		return nil
	}
	seen[st] = true
	var out []string
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Embedded() {
			continue
		}
		if inner, ok := deref(f.Type()).Underlying().(*types.Struct); ok {
			for j := range inner.NumFields() {
				if g := inner.Field(j); g.Exported() {
					out = append(out, g.Name())
				}
			}
			out = append(out, promotedFields(inner, seen)...)
		}
	}
	return out
}

// templateClosure is func(_grundyV T, _grundyA0 P0, ...) R { return
// _grundyV.M(_grundyA0, ...) }, T being recv, when a template could call m
// (one result, or a result and an error) and the cell can name its types
// (a variadic m's closure is variadic).
func (c *Cell) templateClosure(m *types.Func, recvType types.Type, pos token.Pos) (ast.Expr, bool) {
	sig := m.Type().(*types.Signature)
	res := sig.Results()
	if res.Len() == 0 || res.Len() > 2 || res.Len() == 2 && !types.Identical(res.At(1).Type(), types.Universe.Lookup("error").Type()) {
		return nil, false
	}
	named := true
	write := func(t types.Type) string {
		s, ok := c.Types.TypeString(t)
		named = named && ok
		return s
	}
	recv := write(recvType)
	params := []string{prelude.Temp + "V " + recv}
	var args, results []string
	for i := range sig.Params().Len() {
		a := fmt.Sprintf("%sA%d", prelude.Temp, i)
		pt := sig.Params().At(i).Type()
		if sig.Variadic() && i == sig.Params().Len()-1 {
			params = append(params, a+" ..."+write(pt.(*types.Slice).Elem()))
			a += "..."
		} else {
			params = append(params, a+" "+write(pt))
		}
		args = append(args, a)
	}
	for i := range res.Len() {
		results = append(results, write(res.At(i).Type()))
	}
	if !named {
		return nil, false
	}
	src := fmt.Sprintf("func(%s) (%s) { return %sV.%s(%s) }", strings.Join(params, ", "), strings.Join(results, ", "), prelude.Temp, m.Name(), strings.Join(args, ", "))
	x, err := parser.ParseExpr(src)
	if err != nil {
		return nil, false
	}
	return AtPos(x, pos), true
}

// reflectKind is what reflect's Kind.String says of a value of type t,
// an underlying type ("int", "slice").
func reflectKind(t types.Type) string {
	switch t := t.(type) {
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			return "unsafe.Pointer"
		}
		return types.Typ[t.Kind()].Name()
	case *types.Slice:
		return "slice"
	case *types.Array:
		return "array"
	case *types.Map:
		return "map"
	case *types.Chan:
		return "chan"
	case *types.Signature:
		return "func"
	case *types.Pointer:
		return "ptr"
	}
	return ""
}

// templateBuiltins is the runtime's function giving a template made by fn
// (template.New of text/template or html/template) print, printf and
// println that name the cells' types as Go does; "" for another fn.
func templateBuiltins(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil || fn.Name() != "New" || fn.Type().(*types.Signature).Recv() != nil {
		return ""
	}
	switch fn.Pkg().Path() {
	case "text/template":
		return prelude.RTTextBuiltins
	case "html/template":
		return prelude.RTHTMLBuiltins
	}
	return ""
}
