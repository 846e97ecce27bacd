package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// fmtArgs: the values cells hand fmt's and log's printing functions.
// yaegi v0.16.1 builds cell types with reflect (interp/type.go:2058,
// refType), which gives them no names and no methods: fmt printed
// `type ID int` as int for %T, struct { X int; Y int } for main.Point, a
// cell type's String method only where yaegi happened to wrap the value
// (not inside slices, maps, structs or []any, nor for %d, where it printed
// the wrapper), a pointer-receiver String for values, and the
// interpreter's renamed fields (Xname) for %+v. Each argument whose type
// has a cell type in it, or an interface (which may hold one), goes to
// fmt as grundyrt.Typed(x, desc): its type as the oracle knows it (see
// FmtDesc), which the engine's fmt functions print as Go would, calling
// the methods of cell types through closures the session registers for
// each type cells declare (CellMethods) or, for local and generic types,
// closures given with the value. log's functions print through
// grundyrt.Sprint, Sprintf and Sprintln. A cell's trailing value is shown
// as fmt's %v prints it: Typed too, unless the display methods of a cell
// type (or an interface's dynamic value) may show it.
var fmtArgs = Pass{
	Name:  "fmtargs",
	Run:   runFmtArgs,
	Kinds: []ast.Node{(*ast.CallExpr)(nil), (*ast.ExprStmt)(nil)},
	Snippets: []string{"fmt_stringer_on_basic_type", "fmt_boxed_tuples", "fmt_slices_of_stringers", "fmt_maps_of_stringers",
		"fmt_struct_fields_with_methods", "fmt_spread_cell_values", "fmt_fprint_writer_with_stringer", "generic_percent_T_boxed", "display_html_generic_instance"},
}

// fmtArgStart: where the values to format start in fmt's functions.
var fmtArgStart = map[string]int{
	"Print": 0, "Println": 0, "Sprint": 0, "Sprintln": 0,
	"Printf": 1, "Sprintf": 1, "Errorf": 1, "Fprint": 1, "Fprintln": 1,
	"Fprintf": 2, "Appendf": 2, "Append": 1, "Appendln": 1,
}

// logPrinters are log's printing functions (and *log.Logger's methods),
// by the fmt function that formats for them.
var logPrinters = map[string]string{
	"Print": prelude.RTSprint, "Printf": prelude.RTSprintf, "Println": prelude.RTSprintln,
	"Fatal": prelude.RTSprint, "Fatalf": prelude.RTSprintf, "Fatalln": prelude.RTSprintln,
	"Panic": prelude.RTSprint, "Panicf": prelude.RTSprintf, "Panicln": prelude.RTSprintln,
}

func runFmtArgs(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		call, ok := cur.Node().(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := c.callee(call)
		if fn == nil || fn.Pkg() == nil {
			return true
		}
		switch {
		case fn.Pkg().Path() == "fmt":
			if skip, ok := fmtArgStart[fn.Name()]; ok {
				c.typeFmtArgs(call, skip)
				if strings.HasPrefix(fn.Name(), "Fprint") && len(call.Args) > 0 {
					c.fmtWriter(call)
				}
			}
		case isLogFunc(fn):
			skip := 0
			if strings.HasSuffix(fn.Name(), "f") {
				skip = 1 // (the format: l.Printf(f, a...) spreads a)
			}
			if format, ok := logPrinters[fn.Name()]; ok && c.typeFmtArgs(call, skip) {
				// log.Printf(f, a...) is log.Print(fmt.Sprintf(f, a...)).
				name := strings.TrimSuffix(strings.TrimSuffix(fn.Name(), "f"), "ln")
				sel, isSel := call.Fun.(*ast.SelectorExpr)
				if !isSel {
					return true
				}
				pos := call.Lparen
				inner := &ast.CallExpr{Fun: rtSelector(format, pos), Lparen: pos, Args: call.Args, Ellipsis: call.Ellipsis, Rparen: call.Rparen}
				call.Fun = &ast.SelectorExpr{X: sel.X, Sel: ident(name, sel.Sel.Pos())}
				call.Args, call.Ellipsis = []ast.Expr{inner}, token.NoPos
			}
		}
		return true
	})
	if c.Trail != nil && c.Stmts != nil && len(c.Stmts.List) > 0 && c.Stmts.List[len(c.Stmts.List)-1] == ast.Stmt(c.Trail) {
		if r := c.shownArg(c.Trail.X); r != nil {
			c.Trail.X = r
		} else if r := c.shownResults(c.Trail.X); r != nil {
			c.Trail.X, c.TrailCollected = r, true
		}
	}
}

// shownResults is the results of x, a call with several, collected for
// the show helper when one of them needs the printer (see shownArg), each
// such one Typed; nil otherwise. yaegi v0.16.1 takes a result spread into
// a variadic call out of its box ((Row, error) showed [1 2 3] where Go
// prints row3), which a []any keeps, and a []Pos among them was shown
// without Pos's String (type Pos string): its static type is the
// printer's to know.
//
//	func() []any { _grundyTR1, _grundyTR2 := x; return []any{grundyrt.Typed(_grundyTR1, "[]_0..."), _grundyTR2} }()
func (c *Cell) shownResults(x ast.Expr) ast.Expr {
	tuple, ok := c.Types.TypeOf(x).(*types.Tuple)
	if !ok || tuple.Len() < 2 {
		return nil
	}
	typed := false
	r := collectedResults(x, tuple.Len(), func(i int, v ast.Expr) ast.Expr {
		if t := tuple.At(i).Type(); !types.IsInterface(t) && (!displayable(t) || instanceValue(t)) {
			if r := c.typedArgOf(v, t); r != nil {
				typed = true
				return r
			}
		}
		return v
	})
	if !typed {
		return nil
	}
	return r
}

// fmtWriter hands fmt.Fprint, Fprintf or Fprintln the writer as an
// io.Writer made in a function of its own when its type has a method fmt
// looks for (String, Error, Format): yaegi wraps each argument of a
// printing function whose type has one as the interface fmt calls
// (interp/run.go:1453, getMapType, with the engine's list in
// engine/runtime.go), the writer too, and the call then panicked
// "reflect: Call using stdlib._fmt_Stringer as type io.Writer". An
// io.Writer is left alone: it has been converted already.
//
//	fmt.Fprintf(func(_grundyW1 *Log) (_grundyW2 grundyrt.Writer) { _grundyW2 = _grundyW1; return }(w), ...)
func (c *Cell) fmtWriter(call *ast.CallExpr) {
	w := call.Args[0]
	t := c.Types.TypeOf(w)
	if t == nil || types.IsInterface(t) {
		return
	}
	ms := types.NewMethodSet(t)
	if ms.Lookup(nil, "String") == nil && ms.Lookup(nil, "Error") == nil && ms.Lookup(nil, "Format") == nil {
		return
	}
	pos := w.Pos()
	tx, ok := c.TypeExpr(t, pos)
	if !ok {
		return
	}
	in, out := c.Temp("W"), c.Temp("W")
	lit := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos,
			Params:  &ast.FieldList{Opening: pos, List: []*ast.Field{{Names: []*ast.Ident{ident(in, pos)}, Type: tx}}, Closing: pos},
			Results: &ast.FieldList{Opening: pos, List: []*ast.Field{{Names: []*ast.Ident{ident(out, pos)}, Type: rtSelector(prelude.RTWriter, pos)}}, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{
			&ast.AssignStmt{Lhs: []ast.Expr{ident(out, pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(in, pos)}},
			&ast.ReturnStmt{Return: pos},
		}, Rbrace: pos},
	}
	call.Args[0] = &ast.CallExpr{Fun: lit, Lparen: pos, Args: []ast.Expr{w}, Rparen: w.End()}
}

// shownArg is x as Typed when it is shown as text only: its type needs
// the printer and has no display methods (see displayable); nil
// otherwise.
func (c *Cell) shownArg(x ast.Expr) ast.Expr {
	t := c.Types.TypeOf(x)
	if t == nil || types.IsInterface(t) || displayable(t) && !instanceValue(t) {
		return nil
	}
	if _, tuple := t.(*types.Tuple); tuple {
		return nil
	}
	if !instanceValue(t) || !displayable(t) {
		return c.typedArg(x)
	}
	// func(_grundyV Matrix[int]) any { return _grundyShownAs(_grundyV, Typed(_grundyV, ...)) }(x)
	pos := x.Pos()
	tx, ok := c.TypeExpr(t, pos)
	if !ok {
		return nil
	}
	typed := c.typedArgOf(ident("_grundyV", pos), t)
	if typed == nil {
		return nil
	}
	ret := &ast.CallExpr{Fun: ident(prelude.ShownAs, pos), Lparen: pos, Args: []ast.Expr{ident("_grundyV", pos), typed}, Rparen: pos}
	lit := funcLit(pos, x.End(), results(ident("any", pos)), &ast.ReturnStmt{Return: pos, Results: []ast.Expr{ret}})
	lit.Type.Params.List = []*ast.Field{{Names: []*ast.Ident{ident("_grundyV", pos)}, Type: tx}}
	return &ast.CallExpr{Fun: lit, Lparen: pos, Args: []ast.Expr{x}, Rparen: x.End()}
}

// displayable reports whether values of t may have display methods: t is
// (a pointer to) a cell type with methods.
func displayable(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return hasMethods(t)
}

// instanceValue reports whether t is (a pointer to) an instance of a
// generic type. With methods, its value is shown twice over (ShownAs): as
// a value, for the interpreted helpers to find its display methods, and
// Typed, for the printer to write its text by its static type: yaegi
// v0.16.1 gives Matrix[int] on [][]T the reflect type [][]int, and
// Box[Money] did not match interface{ String() string }, so the helpers
// showed both without their String.
func instanceValue(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.TypeArgs().Len() > 0
}

// isLogFunc reports whether fn is a function of package log or a method
// of its Logger (yaegi's table has its own type for it).
func isLogFunc(fn *types.Func) bool {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return fn.Pkg().Path() == "log"
	}
	n, ok := types.Unalias(deref(recv.Type())).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
	case "log.Logger", "github.com/traefik/yaegi/stdlib.logLogger":
		return true
	}
	return false
}

// rtSelector is grundyrt.name at pos.
func rtSelector(name string, pos token.Pos) ast.Expr {
	return &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(name, pos)}
}

// typeFmtArgs hands the values of a printing call from skip on to fmt as
// Typed where they need it; it reports whether any did.
func (c *Cell) typeFmtArgs(call *ast.CallExpr, skip int) bool {
	if len(call.Args) <= skip {
		return false
	}
	if call.Ellipsis.IsValid() {
		// f(xs...): each element.
		if len(call.Args) != skip+1 {
			return false
		}
		xs := call.Args[skip]
		s, ok := typeUnder(c.Types.TypeOf(xs)).(*types.Slice)
		if !ok || !needsPrinter(s.Elem()) {
			return false
		}
		call.Args[skip] = &ast.CallExpr{Fun: rtSelector(prelude.RTFmtSpread, xs.Pos()), Lparen: xs.Pos(), Rparen: xs.End(),
			Args: []ast.Expr{xs, descLit(s.Elem(), xs.Pos())}}
		return true
	}
	if tuple, ok := c.Types.TypeOf(call.Args[0]).(*types.Tuple); ok && skip == 0 && len(call.Args) == 1 {
		// f(g()) with g's several results.
		var descs []string
		need := false
		for i := range tuple.Len() {
			descs = append(descs, FmtDesc(tuple.At(i).Type()))
			need = need || needsPrinter(tuple.At(i).Type())
		}
		if !need {
			return false
		}
		g := call.Args[0]
		tup := &ast.CallExpr{Fun: rtSelector(prelude.RTFmtTuple, g.Pos()), Lparen: g.Pos(), Rparen: g.Pos(),
			Args: []ast.Expr{&ast.BasicLit{ValuePos: g.Pos(), Kind: token.STRING, Value: strconv.Quote(strings.Join(descs, "\x00"))}}}
		arg, spread := c.boxedTuple(tuple, g)
		inner := &ast.CallExpr{Fun: tup, Lparen: g.Pos(), Args: []ast.Expr{arg}, Rparen: g.End()}
		if spread {
			inner.Ellipsis = g.End()
		}
		call.Args[0] = inner
		call.Ellipsis = g.End()
		return true
	}
	typed := false
	for i := skip; i < len(call.Args); i++ {
		if r := c.typedArg(call.Args[i]); r != nil {
			call.Args[i] = r
			typed = true
		}
	}
	return typed
}

// boxedTuple is the arguments for tup, the printer's function for the
// results of a call g in f(g()): g itself, or, when one of those results
// is of an interface type a cell declares or any (which may hold a box,
// see boxed), those results collected by an interpreted function,
//
//	func() []any { _grundyTu1, _grundyTu2 := g(); return []any{_grundyTu1, _grundyTu2} }()...
//
// yaegi v0.16.1 passes the results of a call nested in a native call's
// arguments through valueInterfaceValue (interp/run.go:1477), which takes
// the value out of its box: fmt.Println(f()), f returning (any, error) or
// (Shape, error), printed 4 for *4. A slice of any keeps the boxes. (An
// interpreted function taking g's results as parameters crashed
// yaegi: "reflect: Call using interp.valueInterface as type error".)
func (c *Cell) boxedTuple(tuple *types.Tuple, g ast.Expr) (ast.Expr, bool) {
	boxes := false
	for i := range tuple.Len() {
		t := tuple.At(i).Type()
		boxes = boxes || types.IsInterface(t) && !isError(t) && !c.isNativeIface(t)
	}
	if !boxes {
		return g, false
	}
	def, vars := c.defineTemps("Tu", g, tuple.Len())
	return collected(g, def, vars), true
}

// CollectedResults is the n results of the call x collected in a []any
// by a function literal, for the engine's helpers that show a cell's
// trailing call (see shownResults, which does so where the printer must
// be told a result's type):
//
//	func() []any { _grundyTR1, _grundyTR2 := x; return []any{_grundyTR1, _grundyTR2} }()
func CollectedResults(x ast.Expr, n int) ast.Expr {
	return collectedResults(x, n, func(_ int, v ast.Expr) ast.Expr { return v })
}

// collectedResults is CollectedResults with the variable v of the i-th
// result in the []any as elem(i, v) writes it.
func collectedResults(x ast.Expr, n int, elem func(i int, v ast.Expr) ast.Expr) *ast.CallExpr {
	pos := x.Pos()
	var lhs, vars []ast.Expr
	for i := range n {
		name := tempPrefix + "TR" + itoa(i+1)
		lhs, vars = append(lhs, ident(name, pos)), append(vars, elem(i, ident(name, pos)))
	}
	return collected(x, define(pos, lhs, x), vars)
}

// collected is func() []any { def; return []any{vars...} }(), def
// defining vars as the results of the call g.
func collected(g ast.Expr, def ast.Stmt, vars []ast.Expr) *ast.CallExpr {
	pos := g.Pos()
	anys := func() ast.Expr { return &ast.ArrayType{Lbrack: pos, Elt: ident("any", pos)} }
	lit := &ast.CompositeLit{Type: anys(), Lbrace: pos, Elts: vars, Rbrace: pos}
	f := funcLit(pos, g.End(), results(anys()), def, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{lit}})
	return &ast.CallExpr{Fun: f, Lparen: pos, Rparen: pos}
}

// typedArg is grundyrt.Typed(a, desc, methods...) when a's type needs the
// printer; nil otherwise.
func (c *Cell) typedArg(a ast.Expr) ast.Expr {
	t := c.Types.TypeOf(a)
	if call, ok := a.(*ast.CallExpr); ok && isIdent(call.Fun, prelude.AsError) {
		t = typesError // an argument an earlier pass made an error
	}
	return c.typedArgOf(a, t)
}

// typedArgOf is typedArg for a of type t.
func (c *Cell) typedArgOf(a ast.Expr, t types.Type) ast.Expr {
	if t == nil || !needsPrinter(t) {
		return nil
	}
	if b, ok := t.(*types.Basic); ok && b.Kind() == types.UntypedNil {
		return nil
	}
	if hasTypeParam(t) {
		return c.typedParamArg(a)
	}
	x := a
	if types.IsInterface(t) {
		// As any, the interpreter keeps the dynamic type of a value in an
		// interface of a cell's interface type.
		x = &ast.CallExpr{Fun: ident("any", a.Pos()), Lparen: a.Pos(), Args: []ast.Expr{a}, Rparen: a.End()}
	}
	args := []ast.Expr{x, descLit(t, a.Pos())}
	extra, ok := c.methodArgs(t, a.Pos())
	if !ok {
		return nil
	}
	args = append(args, extra...)
	return &ast.CallExpr{Fun: rtSelector(prelude.RTFmtTyped, a.Pos()), Lparen: a.Pos(), Args: args, Rparen: a.End()}
}

// methodArgs are the arguments giving the printer the fmt methods of the
// local and generic types in t (see inlineMethods), at pos.
func (c *Cell) methodArgs(t types.Type, pos token.Pos) ([]ast.Expr, bool) {
	var out []ast.Expr
	for _, m := range c.inlineMethods(t) {
		e, err := parser.ParseExpr(m)
		if err != nil {
			return nil, false
		}
		out = append(out, AtPos(e, pos))
	}
	return out, true
}

// typedParamArg is grundyrt.TypedParam(a, grundyrt.Wrapped(a)): a's type
// involves a type parameter, which only the interpreter knows when the
// call runs; the wrapper it gives fmt names a's methods. A value of the
// parameter's own type is bound to a parameter first, so that it is
// evaluated once (without the wrapper, xs[0] of a []Heap printed 3 where
// Go calls Heap's String) and so that a compiled generic body shows which
// of its printed values are composites of the parameter's type, for which
// the interpreter's wrapper names no methods of the elements (see
// printsParamComposites):
//
//	func(_grundyTP1 T) any { return grundyrt.TypedParam(_grundyTP1, grundyrt.Wrapped(_grundyTP1)) }(xs[0])
//
// A composite is evaluated twice, so only a variable or a field of one
// gets the wrapper.
func (c *Cell) typedParamArg(a ast.Expr) ast.Expr {
	typed := func(x ast.Expr, hint ast.Expr) *ast.CallExpr {
		return &ast.CallExpr{Fun: rtSelector(prelude.RTFmtParam, x.Pos()), Lparen: x.Pos(), Args: []ast.Expr{x, hint}, Rparen: x.End()}
	}
	wrapped := func(x ast.Expr) ast.Expr {
		return &ast.CallExpr{Fun: rtSelector(prelude.RTFmtWrapped, x.Pos()), Lparen: x.Pos(), Args: []ast.Expr{x}, Rparen: x.End()}
	}
	t := c.Types.TypeOf(a)
	if _, param := types.Unalias(t).(*types.TypeParam); param {
		if tx, ok := c.TypeExpr(t, a.Pos()); ok {
			pos := a.Pos()
			v := c.Temp(paramTemp)
			boxedParam := sliceElem(ident("any", pos), ident(v, pos))
			lit := funcLit(pos, a.End(), results(ident("any", pos)),
				&ast.ReturnStmt{Return: pos, Results: []ast.Expr{typed(boxedParam, wrapped(ident(v, pos)))}})
			lit.Type.Params.List = []*ast.Field{{Names: []*ast.Ident{ident(v, pos)}, Type: tx}}
			return &ast.CallExpr{Fun: lit, Lparen: pos, Args: []ast.Expr{a}, Rparen: a.End()}
		}
	}
	if call := c.paramsArg(a, t); call != nil {
		return call
	}
	if isPlainOperand(a) {
		return typed(a, wrapped(a))
	}
	return typed(a, ident("nil", a.Pos()))
}

// paramsArg is grundyrt.TypedParams(a, desc, samples...) for a of type t,
// a composite of type parameters (xs []T, m map[K]V): the interpreter
// gives fmt such a value with the underlying types of the instance's
// type arguments (a []Heap was a []uint8, and printed [3] where Go calls
// Heap's String), but a value of T itself goes to an interface in the
// box that names its type. So the description has a placeholder for each
// type parameter, and the samples, for each a zero value in that box and
// in fmt's wrapper and a pointer to one (which names an interface type),
//
//	grundyrt.TypedParams(xs, "[]_P0", func() []any { var z0 T; return []any{z0, grundyrt.Wrapped(z0), &z0} }()...)
//
// tell the printer the instance's types. (*new(T) of a T bound to a
// cell's interface type crashed yaegi v0.16.1.) nil when t names an
// instance with a type parameter among its type arguments (see
// FmtDescParams).
func (c *Cell) paramsArg(a ast.Expr, t types.Type) ast.Expr {
	pos := a.Pos()
	if !c.describesParams(t, pos) {
		return nil
	}
	desc, params, _ := FmtDescParams(t)
	var decls []ast.Stmt
	var samples []ast.Expr
	for _, p := range params {
		tx, _ := c.TypeExpr(p, pos)
		z := c.Temp("PZ")
		decls = append(decls, &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR,
			Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{ident(z, pos)}, Type: tx}}}})
		samples = append(samples, ident(z, pos),
			&ast.CallExpr{Fun: rtSelector(prelude.RTFmtWrapped, pos), Lparen: pos, Args: []ast.Expr{ident(z, pos)}, Rparen: pos},
			&ast.UnaryExpr{OpPos: pos, Op: token.AND, X: ident(z, pos)})
	}
	anys := func() ast.Expr { return &ast.ArrayType{Lbrack: pos, Elt: ident("any", pos)} }
	lit := &ast.CompositeLit{Type: anys(), Lbrace: pos, Elts: samples, Rbrace: pos}
	f := funcLit(pos, pos, results(anys()), append(decls, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{lit}})...)
	return &ast.CallExpr{Fun: rtSelector(prelude.RTFmtParams, pos), Lparen: pos,
		Args:     []ast.Expr{a, &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(desc)}, called(f)},
		Ellipsis: pos, Rparen: a.End()}
}

// describesParams reports whether paramsArg describes a value of type t,
// made of type parameters, at pos.
func (c *Cell) describesParams(t types.Type, pos token.Pos) bool {
	_, params, ok := FmtDescParams(t)
	if !ok || len(params) == 0 {
		return false
	}
	for _, p := range params {
		if _, ok := c.TypeExpr(p, pos); !ok {
			return false
		}
	}
	return true
}

// paramTemp is the kind of typedParamArg's parameters.
const paramTemp = "TP"

// printsParamComposites reports whether body prints a value whose type is
// made of a type parameter's (xs []T, map[K]T, *T), by the oracle in the
// cell's own code, by typedParamArg's calls in a body compiled before:
// with described, also one paramsArg describes, else only one it does not.
func (c *Cell) printsParamComposites(body *ast.BlockStmt, described bool) bool {
	return contains(body, false, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		if isRTCall(call, prelude.RTFmtParams) {
			return described
		}
		if isRTCall(call, prelude.RTFmtParam) && len(call.Args) > 0 {
			arg := call.Args[0]
			if ix, ok := arg.(*ast.IndexExpr); ok {
				if lit, ok := ix.X.(*ast.CompositeLit); ok && len(lit.Elts) == 1 {
					arg = lit.Elts[0] // []any{_grundyTP1}[0]
				}
			}
			id, ok := arg.(*ast.Ident)
			return !ok || !strings.HasPrefix(id.Name, tempPrefix+paramTemp)
		}
		skip, ok := fmtArgStart[sel.Sel.Name]
		if !ok || !isIdent(sel.X, "fmt") && !isIdent(sel.X, "log") {
			return false
		}
		for i := skip; i < len(call.Args); i++ {
			t := c.Types.TypeOf(call.Args[i])
			if _, param := types.Unalias(t).(*types.TypeParam); t != nil && !param && hasTypeParam(t) && (described || !c.describesParams(t, call.Args[i].Pos())) {
				return true
			}
		}
		return false
	})
}

// isPlainOperand reports whether evaluating e twice is evaluating it once:
// a variable, a field of one.
func isPlainOperand(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return isPlainOperand(e.X)
	case *ast.ParenExpr:
		return isPlainOperand(e.X)
	}
	return false
}

// HasTypeParam reports whether t has a type parameter in it (for the
// engine, which tells the printer about the instances cells use).
func HasTypeParam(t types.Type) bool { return hasTypeParam(t) }

// hasTypeParam reports whether t has a type parameter in it.
func hasTypeParam(t types.Type) bool {
	return typeIn(t, func(t types.Type) bool {
		_, ok := t.(*types.TypeParam)
		return ok
	}) != nil
}

// typeIn is the first type in t's structure that is is true of: t, and
// the types its elements, keys, fields and type arguments are made of (not
// a named type's underlying type); nil if none.
func typeIn(t types.Type, is func(types.Type) bool) types.Type {
	t = types.Unalias(t)
	if t == nil {
		return nil
	}
	if is(t) {
		return t
	}
	for _, p := range typeParts(t) {
		if found := typeIn(p, is); found != nil {
			return found
		}
	}
	return nil
}

// typeParts are the types t is made of: the element of a pointer, slice,
// array or channel, a map's key and element, a struct's fields' types,
// an instance's type arguments (not a function's signature, nor an
// interface's methods).
func typeParts(t types.Type) []types.Type {
	var parts []types.Type
	switch t := types.Unalias(t).(type) {
	case *types.Pointer:
		parts = []types.Type{t.Elem()}
	case *types.Slice:
		parts = []types.Type{t.Elem()}
	case *types.Array:
		parts = []types.Type{t.Elem()}
	case *types.Chan:
		parts = []types.Type{t.Elem()}
	case *types.Map:
		parts = []types.Type{t.Key(), t.Elem()}
	case *types.Named:
		for i := range t.TypeArgs().Len() {
			parts = append(parts, t.TypeArgs().At(i))
		}
	case *types.Struct:
		for i := range t.NumFields() {
			parts = append(parts, t.Field(i).Type())
		}
	}
	return parts
}

func descLit(t types.Type, pos token.Pos) *ast.BasicLit {
	return &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(FmtDesc(t))}
}

// needsPrinter reports whether fmt needs help with values of type t: it
// has a type a cell or the engine's source packages declared in it, or an
// interface.
func needsPrinter(t types.Type) bool {
	if types.IsInterface(t) {
		return true
	}
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		// The engine's source packages' types (iter.Seq[int]) are built
		// by the interpreter as cell types are.
		// So are the generic types of native packages the engine
		// declares as interpreted helpers (unique.Handle[string]: %T
		// said struct { Xv string; Xmade bool }).
		// A reflect.Value prints what it holds, which may be a cell's
		// (%+v of one holding a struct named its unexported fields Xbal).
		return typecheck.IsCellType(t) || isReflectValue(t) || t.Obj().Pkg() != nil && (stdGeneric[t.Obj().Pkg().Path()] || genericStdType(t)) ||
			typecheck.LibraryIfaceHolder(t)
	case *types.Pointer:
		return needsPrinter(t.Elem())
	case *types.Slice:
		return needsPrinter(t.Elem())
	case *types.Array:
		return needsPrinter(t.Elem())
	case *types.Chan:
		return needsPrinter(t.Elem())
	case *types.Map:
		return needsPrinter(t.Key()) || needsPrinter(t.Elem())
	case *types.Struct:
		// Declared in a cell: the interpreter renames unexported fields.
		return true
	case *types.Signature:
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for i := range tup.Len() {
				if needsPrinter(tup.At(i).Type()) {
					return true
				}
			}
		}
	case *types.TypeParam:
		return true
	}
	return false
}

// inlineMethods are the method closures (see CellMethods) of the named
// types in t's structure the session does not register: types declared in
// a function and instances of generic types.
func (c *Cell) inlineMethods(t types.Type) []string {
	var out []string
	eachNamed(t, func(u *types.Named) {
		if !typecheck.IsCellType(u) {
			return
		}
		if obj := u.Obj(); u.TypeArgs().Len() > 0 || obj.Parent() != obj.Pkg().Scope() {
			if src, ok := c.Types.TypeString(u); ok {
				out = append(out, CellMethods(u, src)...)
			}
		}
	})
	return out
}

// genericStdType reports whether t is an instance of a generic type of a
// native package that the engine declares as an interpreted helper
// (prelude.GenericStd: unique.Handle, atomic.Pointer).
func genericStdType(t *types.Named) bool { return isGenericStd(t.Obj()) }

// isGenericStd reports whether obj is a generic function or type of a
// native package that the engine declares as an interpreted helper.
func isGenericStd(obj types.Object) bool {
	if obj.Pkg() == nil {
		return false
	}
	_, ok := prelude.GenericStd[obj.Pkg().Path()+"."+obj.Name()]
	return ok
}
