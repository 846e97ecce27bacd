package compat

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"hash/fnv"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// The tools passes share for reading and writing syntax.

const tempPrefix = prelude.Temp

// Cursor is astutil's cursor with the function the node is in.
type Cursor struct {
	*astutil.Cursor
	// Func is the type of the innermost function (declaration or
	// literal) around the node, FuncNode the function; both nil for a
	// cell's top-level statements.
	Func     *ast.FuncType
	FuncNode ast.Node
}

// TopLevel reports whether the node is among a cell's top-level
// statements (in no function).
func (cur Cursor) TopLevel() bool { return cur.Func == nil }

// Apply calls post on every node of the cell after its children, as
// astutil.Apply does, with the function the node is in: replacing a node
// with the cursor rewrites the cell.
func (c *Cell) Apply(post func(cur Cursor) bool) {
	for _, root := range c.Roots() {
		applyIn(root, post)
	}
}

func applyIn(root ast.Node, post func(cur Cursor) bool) {
	var funcs []ast.Node
	astutil.Apply(root, func(ac *astutil.Cursor) bool {
		switch n := ac.Node().(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			funcs = append(funcs, n)
		}
		return true
	}, func(ac *astutil.Cursor) bool {
		switch ac.Node().(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			funcs = funcs[:len(funcs)-1]
		}
		cur := Cursor{Cursor: ac}
		if len(funcs) > 0 {
			cur.FuncNode = funcs[len(funcs)-1]
			switch f := cur.FuncNode.(type) {
			case *ast.FuncDecl:
				cur.Func = f.Type
			case *ast.FuncLit:
				cur.Func = f.Type
			}
		}
		return post(cur)
	})
}

// stmtList is the list of statements of a block, a case or a select's
// case, nil for other nodes.
func stmtList(n ast.Node) *[]ast.Stmt {
	switch p := n.(type) {
	case *ast.BlockStmt:
		return &p.List
	case *ast.CaseClause:
		return &p.Body
	case *ast.CommClause:
		return &p.Body
	}
	return nil
}

// funcBody is the body of a function declaration or literal, nil for
// other nodes.
func funcBody(n ast.Node) *ast.BlockStmt {
	switch f := n.(type) {
	case *ast.FuncDecl:
		return f.Body
	case *ast.FuncLit:
		return f.Body
	}
	return nil
}

// resultTypes lists the types of a function type's results, one per
// result, from the oracle (nil entries where unknown).
func (c *Cell) resultTypes(ft *ast.FuncType) []types.Type {
	if ft == nil || ft.Results == nil {
		return nil
	}
	var out []types.Type
	for _, f := range ft.Results.List {
		t := c.Types.TypeOf(f.Type)
		for range max(1, len(f.Names)) {
			out = append(out, t)
		}
	}
	return out
}

// ExprString prints syntax as Go source.
func ExprString(n ast.Node) string {
	var b bytes.Buffer
	printer.Fprint(&b, token.NewFileSet(), n)
	return b.String()
}

var posType = reflect.TypeFor[token.Pos]()

// AtPos sets every position in the syntax tree n to pos: yaegi resolves
// package names per file, by position, so generated code must lie in the
// cell.
func AtPos[N ast.Node](n N, pos token.Pos) N {
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

// ident is a new identifier at pos.
// rangedOver reports whether cur is at the expression a range statement
// ranges over. A function value there is called once, when the loop
// starts: rangeFunc makes the call, and needs the expression as the
// oracle typed it, so passes that would bind or wrap a function value
// leave it.
func rangedOver(cur Cursor) bool {
	_, ok := cur.Parent().(*ast.RangeStmt)
	return ok && cur.Name() == "X"
}

func ident(name string, pos token.Pos) *ast.Ident { return &ast.Ident{Name: name, NamePos: pos} }

// stringLit is the string literal of s, at pos.
func stringLit(s string, pos token.Pos) *ast.BasicLit {
	return &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(s)}
}

// zeroOf is the zero value of typ, written t, at pos: *new(t), or
// make([]t, 1)[0] where new's is not nil (see newZeroNotNil).
func (c *Cell) zeroOf(typ types.Type, t ast.Expr, pos token.Pos) ast.Expr {
	if typ != nil && c.newZeroNotNil(typ) {
		return madeZero(t, pos)
	}
	return zeroValue(t, pos)
}

// declOf is the declaration s declares, when s is a var, const or type
// declaration (not a function's); nil otherwise.
func declOf(s ast.Stmt) *ast.GenDecl {
	if ds, ok := s.(*ast.DeclStmt); ok {
		gd, _ := ds.Decl.(*ast.GenDecl)
		return gd
	}
	return nil
}

// madeZero is make([]t, 1)[0], the zero value of the type t, at pos.
func madeZero(t ast.Expr, pos token.Pos) ast.Expr {
	return &ast.IndexExpr{X: makeOne(t, pos), Lbrack: pos, Index: &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "0"}, Rbrack: pos}
}

// makeOne is make([]t, 1) at pos.
func makeOne(t ast.Expr, pos token.Pos) *ast.CallExpr {
	return &ast.CallExpr{Fun: ident("make", pos), Lparen: pos, Args: []ast.Expr{&ast.ArrayType{Lbrack: pos, Elt: t}, &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "1"}}, Rparen: pos}
}

// newZeroNotNil reports whether yaegi v0.16.1's new(t) points to a value
// that is not nil where Go's is: t an interface type with methods a cell
// declares (or an unnamed one), which the interpreter keeps as a struct
// (valueInterface): *new(Shape) == nil was false, silently, and so was a
// named result of a generic function returned bare with T a Shape. A
// type parameter may be one. An element of a made slice is nil.
func (c *Cell) newZeroNotNil(t types.Type) bool {
	if isTypeParam(t) {
		return true
	}
	return isIfaceType(t) && !emptyIface(t) && !isError(t) && !c.isNativeIface(t)
}

// zeroValue is *new(t), the zero value of the type t, at pos.
func zeroValue(t ast.Expr, pos token.Pos) ast.Expr {
	return &ast.StarExpr{Star: pos, X: &ast.CallExpr{Fun: ident("new", pos), Lparen: pos, Args: []ast.Expr{t}, Rparen: pos}}
}

// define is "lhs := rhs".
func define(pos token.Pos, lhs []ast.Expr, rhs ...ast.Expr) *ast.AssignStmt {
	return &ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs, TokPos: pos}
}

// declareAssign is "var name t; name = value": yaegi v0.16.1 gave a
// variable declared with a type and a value that calls a copy of a generic
// function (var v []int = append(slices.Clone(h), k)) a wrong value (the
// value of the call alone); assigned, it is right.
func declareAssign(pos token.Pos, name string, t, value ast.Expr) []ast.Stmt {
	return []ast.Stmt{varDecl(pos, name, t), &ast.AssignStmt{Lhs: []ast.Expr{ident(name, pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{value}}}
}

// defineTemps is "t1, ..., tn := x" with n new variables (named after
// kind, see Temp), and those variables, for the n values of x.
func (c *Cell) defineTemps(kind string, x ast.Expr, n int) (ast.Stmt, []ast.Expr) {
	pos := x.Pos()
	var lhs, vars []ast.Expr
	for range n {
		name := c.Temp(kind)
		lhs = append(lhs, ident(name, pos))
		vars = append(vars, ident(name, pos))
	}
	return define(pos, lhs, x), vars
}

// isRTCall reports whether e calls the runtime's function name.
func isRTCall(e ast.Expr, name string) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && isIdent(sel.X, prelude.Runtime) && sel.Sel.Name == name
}

// funcLit is func() results { body } at pos.
func funcLit(pos, end token.Pos, results *ast.FieldList, body ...ast.Stmt) *ast.FuncLit {
	return &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}, Results: results},
		Body: &ast.BlockStmt{Lbrace: pos, List: body, Rbrace: end},
	}
}

// sliceElem is []t{e}[0]: e's value, as a value of type t, held by the
// element of a new slice and nothing else (and never a constant).
func sliceElem(t, e ast.Expr) ast.Expr {
	pos, end := e.Pos(), e.End()
	lit := &ast.CompositeLit{Type: &ast.ArrayType{Lbrack: pos, Elt: t}, Lbrace: pos, Elts: []ast.Expr{e}, Rbrace: end}
	return &ast.IndexExpr{X: lit, Lbrack: end, Index: &ast.BasicLit{ValuePos: end, Kind: token.INT, Value: "0"}, Rbrack: end}
}

// called is f() at the end of f.
func called(f ast.Expr) *ast.CallExpr {
	return &ast.CallExpr{Fun: f, Lparen: f.End(), Rparen: f.End()}
}

// results is a result list of the given types.
func results(types ...ast.Expr) *ast.FieldList {
	fl := &ast.FieldList{}
	for _, t := range types {
		fl.List = append(fl.List, &ast.Field{Type: t})
	}
	return fl
}

// isIdent reports whether e is the identifier name.
func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// contains reports whether some node under n satisfies f (function
// literals included unless skipFuncs).
func contains(n ast.Node, skipFuncs bool, f func(ast.Node) bool) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		if found || x == nil {
			return false
		}
		if _, lit := x.(*ast.FuncLit); lit && skipFuncs {
			return false
		}
		if f(x) {
			found = true
		}
		return !found
	})
	return found
}

// builtins are Go's builtin functions (min, max and clear are the
// prelude's, generic functions that cannot be bound to variables either).
var builtins = map[string]bool{"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true, "new": true, "panic": true,
	"print": true, "println": true, "real": true, "recover": true}

// isBuiltin reports whether e names a builtin function: by the oracle, or
// by its name in code a pass wrote.
func (c *Cell) isBuiltin(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok || !builtins[id.Name] {
		return false
	}
	if obj := c.Types.ObjectOf(id); obj != nil {
		_, b := obj.(*types.Builtin)
		return b
	}
	return true
}

// TypeExpr writes the type t as source positioned at pos: packages by the
// names the session knows them by, unexported fields of struct types
// hidden as hiddenFields hides the cell's. ok is false when the cell has
// no way to name t.
func (c *Cell) TypeExpr(t types.Type, pos token.Pos) (ast.Expr, bool) {
	s, ok := c.Types.TypeString(t)
	if !ok {
		return nil, false
	}
	x, err := parser.ParseExpr(s)
	if err != nil {
		return nil, false
	}
	// A struct type written here must be the one the cell's own struct
	// types are (see hiddenFields), or yaegi's reflect types differ.
	ast.Inspect(x, func(n ast.Node) bool {
		if st, ok := n.(*ast.StructType); ok && st.Fields != nil {
			hideUnexported(st)
		}
		return true
	})
	x = AtPos(x, pos)
	c.Types.NoteTypeExpr(x)
	return x, true
}

// evaluated binds what Go evaluates where a go or defer statement stands,
// for the call to be made later: the function value (not a declared
// function, method expression or builtin, which cannot change, nor, with
// keepFun, a function literal), the receiver of a method call (a copy for
// a value receiver, its address for a pointer receiver, as the method
// value x.M would hold) and the arguments (constants stay in place). It
// returns the statements binding them to new variables (none when there
// is nothing to bind) and the call of the bound values.
//
// Each value is bound by one "a, b := x, y": yaegi v0.16.1 gives every
// variable a := declares a new place (interp/run.go, assign), so a
// deferred call keeps the values it was given even when the statement
// runs again in a loop.
func (c *Cell) evaluated(call *ast.CallExpr, pos token.Pos, keepFun bool) (bind []ast.Stmt, later *ast.CallExpr) {
	var lhs, rhs []ast.Expr
	add := func(kind string, e ast.Expr) *ast.Ident {
		t := c.Temp(kind)
		lhs, rhs = append(lhs, ident(t, pos)), append(rhs, e)
		return ident(t, e.Pos()) // where errors in the later call point
	}
	fun := call.Fun
	switch {
	case keepFun, c.isBuiltin(fun), c.fixedFunc(fun):
	default:
		if sel, recv, ok := c.methodReceiver(fun, pos); ok {
			fun = &ast.SelectorExpr{X: add("R", recv), Sel: ident(sel.Sel.Name, sel.Sel.Pos())}
		} else {
			fun = add("F", fun)
		}
	}
	// spread binds g's several results by their own statement, then
	// copies them to new places like the others (a call writes its
	// results into places that exist).
	spread := func(g ast.Expr, n int) []ast.Expr {
		var results, out []ast.Expr
		for range n {
			results = append(results, ident(c.Temp("T"), pos))
		}
		bind = append(bind, define(pos, results, g))
		for _, r := range results {
			out = append(out, add("A", ident(r.(*ast.Ident).Name, pos)))
		}
		return out
	}
	var args []ast.Expr
	if tuple, ok := c.Types.TypeOf(singleArg(call)).(*types.Tuple); ok {
		args = spread(call.Args[0], tuple.Len()) // f(g()) with g returning several values
	} else {
		var arg func(a ast.Expr, spreads bool) ast.Expr
		arg = func(a ast.Expr, spreads bool) ast.Expr {
			tv, typed := c.Types.Types[a]
			if h, ok := a.(*ast.CallExpr); ok && !typed {
				if _, lit := h.Fun.(*ast.FuncLit); lit {
					return add("A", a) // (a pass's literal collecting g()'s results: made now)
				}
				// A helper an earlier pass wrapped a value in (fmt's,
				// the errors'): made now, as the value it wraps is, and
				// bound (left in the call, its result was read from the
				// place the helper's call writes, which a loop's next
				// defer wrote again: every deferred fmt.Print(g) of a
				// loop printed the last g). With g()'s several results
				// (grundyrt.Tuple(...)(g()) of fmt.Println(g())), it
				// converts at the call and the results are bound each.
				// So does a spread slice, f(xs...), and a helper
				// spreading one (log's grundyrt.Sprintln(...xs...) of
				// log.Println(xs...)): Go hands the callee xs's array,
				// which may change after (see spreadsLater).
				if !spreads && !h.Ellipsis.IsValid() && !slices.ContainsFunc(h.Args, func(x ast.Expr) bool { _, tuple := c.Types.TypeOf(x).(*types.Tuple); return tuple }) {
					return add("A", a)
				}
				cp := *h
				cp.Args = nil
				for i, x := range h.Args {
					if tuple, ok := c.Types.TypeOf(x).(*types.Tuple); ok && len(h.Args) == 1 {
						cp.Args = spread(x, tuple.Len())
						continue
					}
					cp.Args = append(cp.Args, arg(x, h.Ellipsis.IsValid() && i == len(h.Args)-1))
				}
				return &cp
			}
			if tv.Value != nil || tv.IsNil() {
				return a // a constant cannot change
			}
			return add("A", a)
		}
		for i, a := range call.Args {
			args = append(args, arg(a, call.Ellipsis.IsValid() && i == len(call.Args)-1))
		}
	}
	later = &ast.CallExpr{Fun: fun, Args: args, Ellipsis: call.Ellipsis, Lparen: call.Lparen, Rparen: call.Rparen}
	if len(lhs) > 0 {
		bind = append(bind, define(pos, lhs, rhs...))
	}
	return bind, later
}

// spreadsLater reports whether a call evaluated made hands a slice on
// spread (f(xs...), or a helper's grundyrt.Spread(xs)... in its
// arguments): that converts when the call is made, so a deferred one is
// made by a closure.
func spreadsLater(later *ast.CallExpr) bool {
	return later.Ellipsis.IsValid() || slices.ContainsFunc(later.Args, func(a ast.Expr) bool {
		return contains(a, true, func(n ast.Node) bool {
			h, ok := n.(*ast.CallExpr)
			return ok && h.Ellipsis.IsValid()
		})
	})
}

func singleArg(call *ast.CallExpr) ast.Expr {
	if len(call.Args) != 1 || call.Ellipsis.IsValid() {
		return nil
	}
	return call.Args[0]
}

// fixedFunc reports whether e names a declared function or a method
// expression: a value that cannot change between a go or defer statement
// and the call.
func (c *Cell) fixedFunc(e ast.Expr) bool {
	switch x := unindex(e).(type) {
	case *ast.Ident:
		_, ok := c.Types.ObjectOf(x).(*types.Func)
		return ok
	case *ast.SelectorExpr:
		if s := c.Types.Selections[x]; s != nil {
			return s.Kind() == types.MethodExpr
		}
		_, ok := c.Types.ObjectOf(x.Sel).(*types.Func)
		return ok // a package's function
	}
	return false
}

// methodReceiver tells a method call's selector x.M and the receiver Go
// binds to the method value x.M: the embedded field the method is
// promoted from, copied for a value receiver (*x for a pointer x), its
// address for a pointer receiver.
func (c *Cell) methodReceiver(fun ast.Expr, pos token.Pos) (sel *ast.SelectorExpr, recv ast.Expr, ok bool) {
	sel, ok = fun.(*ast.SelectorExpr)
	if !ok {
		return nil, nil, false
	}
	s := c.Types.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return nil, nil, false
	}
	recv, t := sel.X, s.Recv()
	var funcField *types.Named // the field's function type, with methods yaegi does not give it
	if path := s.Index(); len(path) > 1 {
		if r, rt, ok := fieldPath(sel.X, t, path[:len(path)-1], pos); ok {
			recv, t = r, rt
			if n, ok := types.Unalias(rt).(*types.Named); ok && typecheck.IsCellType(n) && !selfFunc(n) {
				if _, fn := n.Underlying().(*types.Signature); fn {
					funcField = n
				}
			}
		} else {
			return sel, sel.X, true // the promotion happens at the call
		}
	}
	msig, _ := s.Obj().Type().(*types.Signature)
	ptrRecv := false
	if msig != nil && msig.Recv() != nil {
		_, ptrRecv = msig.Recv().Type().(*types.Pointer)
	}
	_, isPtr := t.Underlying().(*types.Pointer)
	switch {
	case ptrRecv && !isPtr:
		recv = &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: recv}
	case !ptrRecv && isPtr && !types.IsInterface(t):
		recv = &ast.StarExpr{Star: pos, X: recv}
	}
	if funcField != nil {
		// A field of a function type with methods (an embedded F): yaegi
		// types it by its reflect type, without them (see funcRecvs), so
		// it is converted: F(p.F), or (*F)(&p.F) for a pointer receiver.
		var to types.Type = funcField
		if ptrRecv {
			to = types.NewPointer(funcField)
		}
		if tx, ok := c.TypeExpr(to, pos); ok {
			if ptrRecv {
				tx = &ast.ParenExpr{Lparen: pos, X: tx, Rparen: pos}
			}
			recv = &ast.CallExpr{Fun: tx, Lparen: pos, Args: []ast.Expr{recv}, Rparen: pos}
		}
	}
	return sel, recv, true
}

// fieldPath writes the embedded fields at path from x (of type t), with
// the type it ends at; ok is false when a field's name cannot be written
// in a cell (unexported, of another package).
func fieldPath(x ast.Expr, t types.Type, path []int, pos token.Pos) (ast.Expr, types.Type, bool) {
	for _, i := range path {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return nil, nil, false
		}
		f := st.Field(i)
		if !f.Exported() && (f.Pkg() == nil || f.Pkg().Path() != "main") {
			return nil, nil, false
		}
		x = &ast.SelectorExpr{X: x, Sel: ident(f.Name(), pos)}
		t = f.Type()
	}
	return x, t, true
}

// FuncKey is how the session names a declared function: "f", or "T.m"
// for a method of T.
func FuncKey(fd *ast.FuncDecl) string {
	if fd.Recv != nil && len(fd.Recv.List) > 0 {
		return recvName(fd.Recv.List[0].Type) + "." + fd.Name.Name
	}
	return fd.Name.Name
}

// recvName is the name of a receiver's type: T in *T, T[K], *T[K, V].
func recvName(e ast.Expr) string {
	e = ast.Unparen(e)
	if s, ok := e.(*ast.StarExpr); ok {
		e = ast.Unparen(s.X)
	}
	if id, ok := unindex(e).(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// topLevel is what name stands for at a cell's top level: this cell's
// declaration or an earlier cell's, or nil.
func (c *Cell) topLevel(name string) types.Object {
	if obj := c.Types.Pkg.Scope().Lookup(name); obj != nil {
		return obj
	}
	return c.Types.Earlier(name)
}

// funcDecl is the function or method key names (see FuncKey): this
// cell's declaration, or as an earlier cell compiled it; nil if none.
func (c *Cell) funcDecl(key string) *ast.FuncDecl {
	if c.Decls != nil {
		for _, d := range c.Decls.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && FuncKey(fd) == key {
				return fd
			}
		}
	}
	if c.Session != nil {
		return c.Session.Func(key)
	}
	return nil
}

// hashedName is the name of a declaration the passes add to a cell, made
// of what it stands for (parts), so that cells needing the same one
// declare it under the same name: _grundyKind_123.
func hashedName(kind string, parts ...string) string {
	h := fnv.New32a()
	h.Write([]byte(strings.Join(parts, "\x00")))
	return fmt.Sprintf("%s%s_%d", tempPrefix, kind, h.Sum32()%1e9)
}

// noteDeclared records that the passes added a declaration of name to
// the cell's Insts.
func (c *Cell) noteDeclared(name string) {
	if c.declared == nil {
		c.declared = map[string]bool{}
	}
	c.declared[name] = true
}

// builtinCall is n if it calls one of the builtins names with one
// argument (len(x), new(v)), else nil.
func (c *Cell) builtinCall(n ast.Node, names ...string) *ast.CallExpr {
	call, ok := n.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	fn, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	if b, ok := c.Types.Uses[fn].(*types.Builtin); !ok || !slices.Contains(names, b.Name()) {
		return nil
	}
	return call
}

// inspectStack is ast.Inspect from root with the nodes above n (root
// first) handed to f with it; f's false leaves n's children out.
func inspectStack(root ast.Node, f func(n ast.Node, stack []ast.Node) bool) {
	var stack []ast.Node
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if !f(n, stack) {
			return false
		}
		stack = append(stack, n)
		return true
	})
}
