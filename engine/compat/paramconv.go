package compat

import (
	"go/ast"
	"go/constant"
	"go/types"

	"grundy/engine/prelude"
)

// paramConv: in the methods of the cell's generic types, and the cell's
// generic functions they call, a conversion T(x) to a type parameter of
// numbers or strings is written so that it compiles in an instance.
// yaegi v0.16.1 compiles an instance of a generic function or method with
// T replaced by a node named by its type argument's id ("main.Nimber",
// interp/generic.go:43), and a call of that node is a conversion only if
// the name is a type in scope (interp/cfg.go:2544, isType), which only a
// predeclared type's is: T(i) in a method of Vec[Nimber] failed with "too
// many arguments". A generic function called from a cell goes as a copy
// with its types written in (see copyNeeds), and keeps Go's conversion;
// a method cannot, nor a generic function a method calls. So:
//
//	T(0), T(1.5), T("s")  →  []T{0}[0] ...   an untyped constant of T's kind
//	T(x)                  →  grundyrt.Converted([]X{x}, new(T)).(T)
//	P(x), x of P's core type, not named (P ~*T: P(new(T)))  →  []P{x}[0]
//
// A constant is converted where yaegi compiles the literal, as it is
// assigned (eight times cheaper than the converter, and not a constant,
// as T(0) is not in Go). Anything else goes through reflect's Convert, by
// Go's rules, to a type of another package too (time.Duration), which a
// conversion of one-element arrays ([1]T([1]int64{...})) could not: x in
// a slice of its type X, not in an interface, where a value of a type
// with methods would be boxed. A constant that its default type cannot
// hold exactly (T(0.1)) is left alone: converted twice it could round
// differently. The converter costs about what the rest of a small generic
// call does, and only the methods' instances pay it: elsewhere, a call of
// a function so rewritten goes to a copy in which the conversions are
// Go's again (see converts).
var paramConv = Pass{
	Name:     "paramconv",
	Run:      runParamConv,
	Kinds:    []ast.Node{(*ast.CallExpr)(nil)},
	Snippets: []string{"generics_method_conversion_named_type", "generics_method_pointer_conversion"},
}

func runParamConv(c *Cell) {
	changed := c.changedVars()
	for _, fd := range c.methodReach() {
		h := c.newHoist(fd, changed)
		applyIn(fd, func(cur Cursor) bool {
			if r := c.paramConversion(cur); r != nil {
				cur.Replace(h.once(cur.Node().(*ast.CallExpr), r))
			}
			return true
		})
		fd.Body.List = append(h.defs, fd.Body.List...)
	}
}

// hoist converts a parameter that keeps its value (see changedVars) once
// per call, at the top of the function, where a loop of the function
// converts it: s += x * T(k) in a loop over xs cost a native call for
// each x, as much as the rest of the iteration (a method calling Scale
// on three elements took 4.7 to 5.6 times as long as a plain call, 3.2
// to 3.4 with the hoist: BenchmarkGenericConversions). A conversion
// cannot panic, so one a loop never reaches costs only its time.
type hoist struct {
	c      *Cell
	inLoop map[*ast.CallExpr]bool
	params map[types.Object]bool
	temps  map[string]string // by parameter and type parameter
	defs   []ast.Stmt
}

func (c *Cell) newHoist(fd *ast.FuncDecl, changed map[types.Object]bool) *hoist {
	h := &hoist{c: c, inLoop: map[*ast.CallExpr]bool{}, params: map[types.Object]bool{}, temps: map[string]string{}}
	for _, f := range fd.Type.Params.List {
		for _, id := range f.Names {
			if o := c.Types.Defs[id]; o != nil && !changed[o] {
				h.params[o] = true
			}
		}
	}
	var loops int
	var walk func(n ast.Node) bool
	walk = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			loops++
			for _, child := range loopParts(n) {
				ast.Inspect(child, walk)
			}
			loops--
			return false
		case *ast.CallExpr:
			if loops > 0 {
				h.inLoop[n] = true
			}
		}
		return true
	}
	ast.Inspect(fd.Body, walk)
	return h
}

// loopParts are the parts of a loop that run each time round.
func loopParts(n ast.Node) []ast.Node {
	var out []ast.Node
	add := func(ns ...ast.Node) {
		for _, x := range ns {
			if x != nil {
				out = append(out, x)
			}
		}
	}
	switch n := n.(type) {
	case *ast.ForStmt:
		add(n.Cond, n.Post, n.Body)
	case *ast.RangeStmt:
		add(n.Body)
	}
	return out
}

// once is the conversion r written for call, a variable defined at the
// top of the function when call converts a parameter that keeps its
// value, in a loop.
func (h *hoist) once(call *ast.CallExpr, r ast.Expr) ast.Expr {
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok || !h.inLoop[call] || !h.params[h.c.Types.ObjectOf(id)] {
		return r
	}
	if _, converter := r.(*ast.TypeAssertExpr); !converter {
		return r // a constant's slice literal
	}
	key := id.Name + " " + ExprString(call.Fun)
	name, done := h.temps[key]
	if !done {
		name = h.c.Temp("PC")
		h.temps[key] = name
		h.defs = append(h.defs, define(call.Pos(), []ast.Expr{ident(name, call.Pos())}, r))
	}
	return ident(name, call.Pos())
}

// methodReach are the methods of the cell's generic types and the cell's
// generic functions they call, themselves or through each other: the
// functions yaegi instantiates with a type argument's node (a generic
// function called from a cell goes as a copy, whose conversions are
// Go's).
func (c *Cell) methodReach() []*ast.FuncDecl {
	if c.Decls == nil {
		return nil
	}
	funcs := map[string]*ast.FuncDecl{}
	var out []*ast.FuncDecl
	for _, d := range c.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		switch {
		case !ok || fd.Body == nil:
		case fd.Recv == nil && fd.Type.TypeParams != nil:
			funcs[fd.Name.Name] = fd
		case fd.Recv != nil && len(fd.Recv.List) > 0 && isInstantiation(fd.Recv.List[0].Type):
			out = append(out, fd)
		}
	}
	for i := 0; i < len(out); i++ {
		ast.Inspect(out[i].Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := unindex(call.Fun).(*ast.Ident); ok && funcs[id.Name] != nil {
					out = append(out, funcs[id.Name])
					delete(funcs, id.Name)
				}
			}
			return true
		})
	}
	return out
}

// paramConversion is what a conversion T(x) to a type parameter of
// numbers or strings becomes, nil for other nodes.
func (c *Cell) paramConversion(cur Cursor) ast.Expr {
	call, ok := cur.Node().(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return nil
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	tn, ok := c.Types.ObjectOf(id).(*types.TypeName)
	if !ok {
		return nil
	}
	tp, ok := tn.Type().(*types.TypeParam)
	if !ok {
		return nil
	}
	if c.assignsToParam(call.Args[0], tp) {
		// P(new(T)) with P constrained to *T: the operand is assignable
		// to every type argument, as it is in the instance.
		return sliceElem(ident(id.Name, id.Pos()), call.Args[0])
	}
	if !basicTerms(tp.Constraint()) {
		return nil
	}
	pos, end := call.Pos(), call.End()
	xt := c.Types.TypeOf(call.Args[0])
	if xt == nil || !exactAsDefault(c.Types.Types[call.Args[0]]) {
		return nil
	}
	if c.assignableConst(call.Args[0], tp) {
		// []T{c}[0]: yaegi converts the constant where it compiles the
		// literal, eight times cheaper than the converter.
		return sliceElem(ident(id.Name, id.Pos()), call.Args[0])
	}
	x, ok := c.TypeExpr(types.Default(xt), call.Args[0].Pos())
	if !ok {
		return nil
	}
	x = c.instanceAliases([]ast.Expr{x})[0]
	xs := &ast.CompositeLit{Type: &ast.ArrayType{Lbrack: pos, Elt: x}, Lbrace: pos, Elts: call.Args, Rbrace: end}
	to := &ast.CallExpr{Fun: ident("new", pos), Lparen: pos, Args: []ast.Expr{ident(id.Name, id.Pos())}, Rparen: end}
	converted := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(prelude.RTConverted, pos)}, Lparen: call.Lparen, Args: []ast.Expr{xs, to}, Rparen: call.Rparen}
	return &ast.TypeAssertExpr{X: converted, Lparen: end, Type: ident(id.Name, id.Pos()), Rparen: end}
}

// assignsToParam reports whether the operand e of a conversion to the
// type parameter tp has a type that is not named (*T, []E, map[K]V) and
// is tp's core type: every type argument has it as its underlying type,
// so e is assignable to each, and []P{e}[0] converts it in an instance
// as P(e) does. Not where an unnamed struct type is part of it: the
// cell's struct types carry tags in the interpreter (see structNames),
// so struct{ X, Y int } is not Pt's underlying type there.
func (c *Cell) assignsToParam(e ast.Expr, tp *types.TypeParam) bool {
	xt := c.Types.TypeOf(e)
	var plain func(t types.Type) bool
	plain = func(t types.Type) bool {
		switch t := types.Unalias(t).(type) {
		case *types.Named, *types.TypeParam, *types.Basic:
			return true
		case *types.Pointer:
			return plain(t.Elem())
		case *types.Slice:
			return plain(t.Elem())
		case *types.Array:
			return plain(t.Elem())
		case *types.Chan:
			return plain(t.Elem())
		case *types.Map:
			return plain(t.Key()) && plain(t.Elem())
		}
		return false
	}
	switch types.Unalias(xt).(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Array, *types.Chan:
	default:
		return false
	}
	core := coreType(tp)
	return core != nil && plain(xt) && types.Identical(core, xt)
}

// assignableConst reports whether the constant operand e of a
// conversion to the type parameter tp is untyped, and converts as it is
// assigned: a number to numbers, a string to strings (T(65) with T a
// string type is "A", not assignable).
func (c *Cell) assignableConst(e ast.Expr, tp *types.TypeParam) bool {
	v := c.Types.Types[e].Value
	if v == nil || !c.untypedConst(e) {
		return false
	}
	want := types.IsNumeric
	switch v.Kind() {
	case constant.String:
		want = types.IsString
	case constant.Bool, constant.Unknown:
		return false
	}
	return typeSetAll(tp.Constraint(), func(t *types.Basic) bool { return t.Info()&want != 0 })
}

// exactAsDefault reports whether a constant operand keeps its value in
// its default type, so that converting that to T rounds as Go's constant
// conversion does: T(0.1) with T a float32 would be rounded twice.
func exactAsDefault(tv types.TypeAndValue) bool {
	if tv.Value == nil || tv.Value.Kind() != constant.Float {
		return true
	}
	_, exact := constant.Float64Val(tv.Value)
	return exact
}

// basicTerms reports whether a constraint's type set is made of basic
// types only (~int | ~float64, cmp.Ordered): the numbers and strings
// paramConv converts. Others (P(&x) with P constrained to *T) go on to
// copies (see copyNeeds).
func basicTerms(constraint types.Type) bool {
	return typeSetAll(constraint, func(*types.Basic) bool { return true })
}

// typeSetAll reports whether a constraint's type set is made of basic
// types only, each satisfying f.
func typeSetAll(constraint types.Type, f func(*types.Basic) bool) bool {
	return typeSetEach(constraint, func(u types.Type) bool {
		b, ok := u.(*types.Basic)
		return ok && f(b)
	})
}

// typeSetEach reports whether a constraint's type set is a list of types
// (its embedded unions and types, through embedded constraints) whose
// underlying types all satisfy f.
func typeSetEach(constraint types.Type, f func(types.Type) bool) bool {
	iface, ok := constraint.Underlying().(*types.Interface)
	if !ok || iface.NumEmbeddeds() == 0 {
		return false
	}
	term := func(t types.Type) bool {
		if _, ok := t.Underlying().(*types.Interface); ok {
			return typeSetEach(t, f)
		}
		return f(t.Underlying())
	}
	for i := range iface.NumEmbeddeds() {
		e := iface.EmbeddedType(i)
		u, ok := e.(*types.Union)
		if !ok {
			if !term(e) {
				return false
			}
			continue
		}
		for j := range u.Len() {
			if !term(u.Term(j).Type()) {
				return false
			}
		}
	}
	return true
}

// converts reports whether the cell's generic function name, or a
// generic function it calls, converts through paramConv's converter: its
// calls other than from methods go to copies with the types written in
// (see needsCopy), where unconvert makes the conversions Go's again
// (about ten times cheaper than the converter).
func (c *Cell) converts(name string) bool {
	return c.genericReaches(name, map[string]bool{}, func(n ast.Node, _ map[string]bool) bool {
		_, _, ok := paramConverted(n)
		return ok
	})
}

// paramConverted is the type and the operand of a conversion paramConv
// wrote, grundyrt.Converted([]X{x}, new(T)).(T).
func paramConverted(n ast.Node) (t, x ast.Expr, ok bool) {
	a, isAssert := n.(*ast.TypeAssertExpr)
	if !isAssert {
		return nil, nil, false
	}
	call, isCall := a.X.(*ast.CallExpr)
	if !isCall || len(call.Args) != 2 {
		return nil, nil, false
	}
	sel, isSel := call.Fun.(*ast.SelectorExpr)
	if !isSel || !isIdent(sel.X, prelude.Runtime) || sel.Sel.Name != prelude.RTConverted {
		return nil, nil, false
	}
	xs, isLit := call.Args[0].(*ast.CompositeLit)
	if !isLit || len(xs.Elts) != 1 {
		return nil, nil, false
	}
	return a.Type, xs.Elts[0], true
}

// unconvert writes the conversions paramConv wrote in a copy of a generic
// function, whose type parameters are written in, as Go's conversions
// again.
func unconvert(n ast.Node) {
	applyIn(n, func(cur Cursor) bool {
		if t, x, ok := paramConverted(cur.Node()); ok {
			cur.Replace(&ast.CallExpr{Fun: asOperand(t), Lparen: x.Pos(), Args: []ast.Expr{x}, Rparen: x.End()})
		}
		return true
	})
}
