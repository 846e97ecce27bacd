package tooling

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// inferType finds the type of the operand before a selector dot without
// running anything: from the live session (sc.TypeOf), from a declaration
// earlier in the cell (x := games.CircularNim(6, 2) gives x the result type
// of games.CircularNim), and from the compiled library's symbol tables.
func inferType(sc Session, expr string, local cellScope, before int) reflect.Type {
	if len(expr) > maxOperand {
		return nil // nobody types this; it only costs time
	}
	e, err := parser.ParseExpr(expr)
	if err != nil {
		return nil
	}
	ty := &typer{sc: sc, local: local, pkgs: sc.Packages(), before: before}
	t, isType := ty.expr(e)
	if isType {
		return nil // a type name: members would be method expressions
	}
	return t
}

// maxOperand bounds the source of an operand whose type is inferred:
// typing a chain is quadratic in its length.
const maxOperand = 2000

type typer struct {
	sc     Session
	local  cellScope
	pkgs   map[string]PackageSymbols
	before int // only cell declarations before this offset are visible
	depth  int // guards against x := x.y chains that refer to themselves
}

var basicTypes = map[string]reflect.Type{
	"bool": reflect.TypeFor[bool](), "string": reflect.TypeFor[string](),
	"int": reflect.TypeFor[int](), "int8": reflect.TypeFor[int8](),
	"int16": reflect.TypeFor[int16](), "int32": reflect.TypeFor[int32](),
	"int64": reflect.TypeFor[int64](), "uint": reflect.TypeFor[uint](),
	"uint8": reflect.TypeFor[uint8](), "uint16": reflect.TypeFor[uint16](),
	"uint32": reflect.TypeFor[uint32](), "uint64": reflect.TypeFor[uint64](),
	"uintptr": reflect.TypeFor[uintptr](), "byte": reflect.TypeFor[byte](),
	"rune": reflect.TypeFor[rune](), "float32": reflect.TypeFor[float32](),
	"float64": reflect.TypeFor[float64](), "complex64": reflect.TypeFor[complex64](),
	"complex128": reflect.TypeFor[complex128](), "error": reflect.TypeFor[error](),
	"any": reflect.TypeFor[any](),
}

// expr returns the type of e, and whether e names a type rather than a value.
func (ty *typer) expr(e ast.Expr) (reflect.Type, bool) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return ty.expr(e.X)
	case *ast.Ident:
		return ty.ident(e.Name)
	case *ast.BasicLit:
		switch e.Kind {
		case token.INT:
			return reflect.TypeFor[int](), false
		case token.FLOAT:
			return reflect.TypeFor[float64](), false
		case token.IMAG:
			return reflect.TypeFor[complex128](), false
		case token.CHAR:
			return reflect.TypeFor[rune](), false
		case token.STRING:
			return reflect.TypeFor[string](), false
		}
	case *ast.SelectorExpr:
		return ty.selector(e)
	case *ast.CallExpr:
		return ty.call(e)
	case *ast.IndexExpr:
		t, isType := ty.expr(e.X)
		if t == nil || isType {
			return nil, false
		}
		return elemType(t), false
	case *ast.SliceExpr:
		t, _ := ty.expr(e.X)
		if t != nil && t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Array {
			return reflect.SliceOf(t.Elem().Elem()), false
		}
		if t != nil && t.Kind() == reflect.Array {
			return reflect.SliceOf(t.Elem()), false
		}
		return t, false
	case *ast.StarExpr:
		t, isType := ty.expr(e.X)
		if t == nil {
			return nil, false
		}
		if isType {
			return reflect.PointerTo(t), true
		}
		if t.Kind() == reflect.Pointer {
			return t.Elem(), false
		}
	case *ast.UnaryExpr:
		t, _ := ty.expr(e.X)
		if t == nil {
			return nil, false
		}
		switch e.Op {
		case token.AND:
			return reflect.PointerTo(t), false
		case token.ARROW:
			if t.Kind() == reflect.Chan {
				return t.Elem(), false
			}
			return nil, false
		case token.NOT:
			return reflect.TypeFor[bool](), false
		}
		return t, false
	case *ast.BinaryExpr:
		switch e.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
			return reflect.TypeFor[bool](), false
		}
		t, _ := ty.expr(e.X)
		return t, false
	case *ast.CompositeLit:
		return ty.typeExpr(e.Type), false
	case *ast.TypeAssertExpr:
		if e.Type == nil {
			return nil, false
		}
		return ty.typeExpr(e.Type), false
	case *ast.ArrayType, *ast.MapType, *ast.ChanType:
		return ty.typeExpr(e), true
	}
	return nil, false
}

func (ty *typer) ident(name string) (reflect.Type, bool) {
	if d, ok := ty.local.lookup(name, ty.before); ok && d.src != "" && ty.depth < 8 {
		if e, err := parser.ParseExpr(d.src); err == nil {
			sub := *ty
			sub.depth++
			sub.before = d.off
			if d.kind == "class" {
				if t := sub.typeExpr(e); t != nil {
					return t, true
				}
			} else if d.isType {
				if t := sub.typeExpr(e); t != nil {
					return t, false
				}
			} else if d.result > 0 {
				if t := sub.result(e, d.result); t != nil {
					return t, false
				}
			} else if t, isType := sub.expr(e); t != nil && !isType {
				return t, false
			}
		}
	}
	if t, ok := basicTypes[name]; ok {
		return t, true
	}
	if t, ok := ty.sc.TypeOf(name); ok && t != nil {
		return t, false
	}
	return nil, false
}

func (ty *typer) selector(e *ast.SelectorExpr) (reflect.Type, bool) {
	if id, ok := e.X.(*ast.Ident); ok {
		if p, ok := ty.pkgs[id.Name]; ok && !ty.local.shadows(id.Name) {
			kind, t := classifySymbol(p.Symbols[e.Sel.Name])
			return t, kind == "type"
		}
	}
	if chain := selectorChain(e); chain != "" {
		if t, ok := ty.sc.TypeOf(chain); ok && t != nil {
			if _, local := ty.local.lookup(rootIdent(e), ty.before); !local {
				return t, false
			}
		}
	}
	xt, isType := ty.expr(e.X)
	if xt == nil || isType {
		return nil, false
	}
	if mt := memberType(xt, e.Sel.Name); mt != nil {
		return mt, false
	}
	// A method declared in a cell, which reflect cannot see.
	for _, m := range cellMethods(ty.sc, ty.local, xt) {
		if m.name == e.Sel.Name {
			if fe, err := parser.ParseExpr(m.signature); err == nil {
				if ft, ok := fe.(*ast.FuncType); ok && ft.Results != nil && len(ft.Results.List) > 0 {
					if rt := ty.typeExpr(ft.Results.List[0].Type); rt != nil {
						return reflect.FuncOf(nil, []reflect.Type{rt}, false), false
					}
				}
			}
		}
	}
	return nil, false
}

// cellTypeNames names the cell-declared types t (through one pointer) may
// be. yaegi gives cell types no reflect name, so they are matched by shape:
// a struct by its field names, any other type by the type it defines.
func cellTypeNames(sc Session, local cellScope, t reflect.Type) []string {
	if t == nil {
		return nil
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Name() != "" {
		return nil
	}
	srcs := map[string]string{}
	for _, g := range sc.Globals() {
		if g.Kind == "type" && g.Type != "" {
			srcs[g.Name] = g.Type
		}
	}
	for _, d := range local.decls {
		if d.kind == "class" && d.src != "" {
			srcs[d.name] = d.src
		}
	}
	ty := &typer{sc: sc, local: local, pkgs: sc.Packages(), before: -1}
	var names []string
	for name, src := range srcs {
		e, err := parser.ParseExpr(src)
		if err != nil {
			continue
		}
		if st, ok := e.(*ast.StructType); ok {
			if sameFields(st, t) {
				names = append(names, name)
			}
		} else if rt := ty.typeExpr(e); rt != nil && rt == t {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

func sameFields(st *ast.StructType, t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	var names []string
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 { // embedded: the field is named after its type
			typ := f.Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			switch x := typ.(type) {
			case *ast.Ident:
				names = append(names, x.Name)
			case *ast.SelectorExpr:
				names = append(names, x.Sel.Name)
			default:
				return false
			}
		}
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
	}
	if len(names) != t.NumField() {
		return false
	}
	for i, n := range names {
		if fieldName(t, t.Field(i).Name) != n && t.Field(i).Name != n {
			return false
		}
	}
	return true
}

// cellMethods lists the methods cells declared on the cell types t may be:
// from the session (Globals of kind "method") and from the cell being
// edited, which wins for a method it redeclares.
func cellMethods(sc Session, local cellScope, t reflect.Type) []candidate {
	names := cellTypeNames(sc, local, t)
	if len(names) == 0 {
		return nil
	}
	byName := map[string]candidate{}
	add := func(full, sig string) {
		recv, m, ok := strings.Cut(full, ".")
		if ok && slices.Contains(names, recv) {
			byName[m] = candidate{m, "function", sig}
		}
	}
	for _, g := range sc.Globals() {
		if g.Kind == "method" {
			add(g.Name, g.Type)
		}
	}
	for _, d := range local.decls {
		if d.kind == "method" {
			add(d.name, d.src)
		}
	}
	out := make([]candidate, 0, len(byName))
	for _, c := range byName {
		out = append(out, c)
	}
	return out
}

// memberType is the type of x.name for x of type t: a method value's func
// type (receiver bound) or a field's type.
func memberType(t reflect.Type, name string) reflect.Type {
	mt := t
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		mt = reflect.PointerTo(t)
	}
	if m, ok := mt.MethodByName(name); ok {
		if mt.Kind() == reflect.Interface {
			return m.Type
		}
		ft := m.Type
		in := make([]reflect.Type, 0, ft.NumIn())
		for i := 1; i < ft.NumIn(); i++ {
			in = append(in, ft.In(i))
		}
		out := make([]reflect.Type, ft.NumOut())
		for i := range out {
			out[i] = ft.Out(i)
		}
		return reflect.FuncOf(in, out, ft.IsVariadic())
	}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	if st.Kind() != reflect.Struct {
		return nil
	}
	if f, ok := st.FieldByName(name); ok {
		return f.Type
	}
	if st.Name() == "" { // a cell-defined struct: yaegi stores field x as Xx
		if f, ok := st.FieldByName("X" + name); ok {
			return f.Type
		}
	}
	return nil
}

func (ty *typer) call(e *ast.CallExpr) (reflect.Type, bool) {
	if id, ok := e.Fun.(*ast.Ident); ok {
		if _, isLocal := ty.local.lookup(id.Name, ty.before); !isLocal {
			switch id.Name {
			case "len", "cap", "copy":
				return reflect.TypeFor[int](), false
			case "min", "max", "append":
				if len(e.Args) > 0 {
					t, _ := ty.expr(e.Args[0])
					return t, false
				}
				return nil, false
			case "new":
				if len(e.Args) == 1 {
					if t := ty.typeExpr(e.Args[0]); t != nil {
						return reflect.PointerTo(t), false
					}
				}
				return nil, false
			case "make":
				if len(e.Args) > 0 {
					return ty.typeExpr(e.Args[0]), false
				}
				return nil, false
			}
		}
	}
	ft, isType := ty.expr(e.Fun)
	if ft == nil {
		return nil, false
	}
	if isType {
		return ft, false // a conversion
	}
	if ft.Kind() == reflect.Func && ft.NumOut() > 0 {
		return ft.Out(0), false
	}
	return nil, false
}

// result is the type of the i-th result of the call e.
func (ty *typer) result(e ast.Expr, i int) reflect.Type {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return nil
	}
	ft, isType := ty.expr(call.Fun)
	if ft == nil || isType || ft.Kind() != reflect.Func || i >= ft.NumOut() {
		return nil
	}
	return ft.Out(i)
}

// typeExpr resolves a type written in source: builtin names, pkg.T, and
// pointers, slices, arrays and maps of those.
func (ty *typer) typeExpr(e ast.Expr) reflect.Type {
	switch e := e.(type) {
	case *ast.Ident:
		return basicTypes[e.Name]
	case *ast.ParenExpr:
		return ty.typeExpr(e.X)
	case *ast.SelectorExpr:
		if t, isType := ty.selector(e); isType {
			return t
		}
	case *ast.StarExpr:
		if t := ty.typeExpr(e.X); t != nil {
			return reflect.PointerTo(t)
		}
	case *ast.ArrayType:
		elem := ty.typeExpr(e.Elt)
		if elem == nil {
			return nil
		}
		if e.Len == nil {
			return reflect.SliceOf(elem)
		}
		if lit, ok := e.Len.(*ast.BasicLit); ok && lit.Kind == token.INT {
			if n, err := strconv.Atoi(lit.Value); err == nil {
				return reflect.ArrayOf(n, elem)
			}
		}
	case *ast.MapType:
		k, v := ty.typeExpr(e.Key), ty.typeExpr(e.Value)
		if k != nil && v != nil {
			return reflect.MapOf(k, v)
		}
	case *ast.ChanType:
		if t := ty.typeExpr(e.Value); t != nil {
			return reflect.ChanOf(reflect.BothDir, t)
		}
	}
	return nil
}

func elemType(t reflect.Type) reflect.Type {
	switch t.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		return t.Elem()
	case reflect.String:
		return reflect.TypeFor[byte]()
	case reflect.Pointer:
		if t.Elem().Kind() == reflect.Array {
			return t.Elem().Elem()
		}
	}
	return nil
}

// selectorChain returns "a.b.c" when e is a plain chain of identifiers,
// which the session can evaluate without side effects; "" otherwise.
func selectorChain(e ast.Expr) string {
	var names []string
	for {
		switch x := e.(type) {
		case *ast.Ident:
			names = append(names, x.Name)
			slices.Reverse(names)
			return strings.Join(names, ".")
		case *ast.SelectorExpr:
			names = append(names, x.Sel.Name)
			e = x.X
		default:
			return ""
		}
	}
}

func rootIdent(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x.Name
		case *ast.SelectorExpr:
			e = x.X
		default:
			return ""
		}
	}
}
