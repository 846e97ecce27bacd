package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// ifaceKeys: a key of a map keyed by an interface type a cell declares
// (map[Game]int, the memo of a Grundy function over a Game interface) is
// made the first key equal to it by the runtime's InternKey:
//
//	memo[func(_grundyIK1 Game) Game { grundyrt.InternKey(&_grundyIK1); return _grundyIK1 }(g)]
//
// yaegi v0.16.1 keeps such a key as a wrapper with the node that made it
// (valueInterface, interp/value.go), which the map hashes and compares
// whole: a lookup with an equal value made elsewhere missed (the memo
// never hit, and the search grew exponentially) and a composite-literal
// key panicked in reflect. Index expressions, delete and the keys of map
// literals are rewritten. A map keyed by a struct or array holding such
// interfaces (map[Sum]int, Sum{A, B Game}) would miss the same way: its
// keys are interned too, each interface inside them made the first equal
// one (one holding a native interface a cell's type would be wrapped in
// is refused, as below). A key of a map keyed by any whose static type
// is an interface goes through the runtime's AnyKey, which takes the
// value out of yaegi's wrappers: a cell's value held in a fmt.Stringer
// or an error is in a wrapper of function fields, which the map could
// not hash ("hash of unhashable type: stdlib._fmt_Stringer"). A map
// keyed by such a native interface (map[error]int), whose keys must keep
// their methods, is refused when a cell's type implements it. A map
// literal's key of a cell struct type with methods, in a map keyed by
// any, goes through AnyKey too (see structAnyKey). All of this in every
// cell, whether or not the session has declared a type the interpreter
// boxes yet: a function of an earlier cell is handed the values of the
// types later cells declare (a map[Key]int keyed by a struct of two any
// fields that count(a, b) filled missed a later lookup of Heap(1), and a
// sync.Map a store(k, v) filled lost Heap(2) for 2).
var ifaceKeys = Pass{
	Name:     "ifacekeys",
	Run:      runIfaceKeys,
	Kinds:    []ast.Node{(*ast.IndexExpr)(nil), (*ast.CompositeLit)(nil), (*ast.CallExpr)(nil), (*ast.MapType)(nil)},
	Snippets: []string{"map_interface_keys", "map_interface_struct_keys", "map_interface_literal_keys", "map_struct_keys_of_interfaces", "map_struct_keys_of_wrapped_refused", "map_any_keys_from_stringers", "map_error_keys_refused", "map_any_keys_basic_types", "native_keys_keep_types", "native_containers_keep_cell_iface", "map_any_literal_struct_keys", "map_any_keys_struct_of_ifaces", "native_keys_call_results"},
}

func runIfaceKeys(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			mt, ok := n.(*ast.MapType)
			if !ok {
				return true
			}
			m, ok := typeUnder(c.Types.TypeOf(mt)).(*types.Map)
			if !ok {
				return true
			}
			if it, n := c.wrappedInside(m.Key()); n != nil {
				k, _ := c.Types.TypeString(m.Key())
				c.Fail(mt.Pos(), "a map keyed by %s cannot hold %s in its %s as a key in this interpreter (it keeps one in %s as a wrapper it cannot hash); key the map by a string of the key (fmt.Sprint(k))", k, an(n.Obj().Name()), types.TypeString(it, shortQualifier), an(types.TypeString(it, shortQualifier)))
			} else if n := c.wrappedKey(m.Key()); n != nil {
				k, _ := c.Types.TypeString(m.Key())
				c.Fail(mt.Pos(), "a map keyed by %s cannot hold %s as a key in this interpreter (it keeps one in %s as a wrapper it cannot hash); key the map by any (map[any]...), or by a string of the key", k, an(n.Obj().Name()), an(k))
			}
			return true
		})
	}
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.IndexExpr:
			if kt := c.ifaceKey(n.X); kt != nil {
				n.Index = c.internKey(n.Index, kt)
			} else if c.anyKeyed(n.X) {
				n.Index = c.anyKey(n.Index)
			}
		case *ast.CallExpr:
			if c.nativeKeyCall(n) || c.stdMapKeys(n) {
				return true
			}
			if isIdent(n.Fun, "delete") && c.isBuiltin(n.Fun) && len(n.Args) == 2 {
				if kt := c.ifaceKey(n.Args[0]); kt != nil {
					n.Args[1] = c.internKey(n.Args[1], kt)
				} else if c.anyKeyed(n.Args[0]) {
					n.Args[1] = c.anyKey(n.Args[1])
				}
			}
		case *ast.CompositeLit:
			kt, anyKeyed := c.ifaceKey(n), c.anyKeyed(n)
			for _, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if kt != nil {
						kv.Key = c.internKey(kv.Key, kt)
					} else if anyKeyed && (methodStruct(c.Types.TypeOf(kv.Key)) || methodStruct(deref(c.Types.TypeOf(kv.Key)))) {
						kv.Key = c.structAnyKey(kv.Key)
					} else if anyKeyed {
						kv.Key = c.anyKey(kv.Key)
					}
				}
			}
		}
		return true
	})
}

// nativeKeys are the native functions and methods that compare what they
// are handed as Go's map compares a key of type any, or keep it and give
// it back, by their full name: the indexes of the parameters compared (a
// context's keys, a sync.Map's, and the old values CompareAnd* compare)
// and of the values kept. (nativeBoxes hands the others that keep values
// theirs.)
var nativeKeys = map[string]nativeKey{
	"context.WithValue":                   {keys: []int{1}, kept: []int{2}},
	"(context.Context).Value":             {keys: []int{0}},
	"(*sync.Map).Load":                    {keys: []int{0}},
	"(*sync.Map).Store":                   {keys: []int{0}, kept: []int{1}},
	"(*sync.Map).LoadOrStore":             {keys: []int{0}, kept: []int{1}},
	"(*sync.Map).LoadAndDelete":           {keys: []int{0}},
	"(*sync.Map).Delete":                  {keys: []int{0}},
	"(*sync.Map).Swap":                    {keys: []int{0}, kept: []int{1}},
	"(*sync.Map).CompareAndSwap":          {keys: []int{0, 1}, kept: []int{2}},
	"(*sync.Map).CompareAndDelete":        {keys: []int{0, 1}},
	"(*sync/atomic.Value).Store":          {kept: []int{0}, atomic: "store"},
	"(*sync/atomic.Value).Swap":           {kept: []int{0}, atomic: "swap"},
	"(*sync/atomic.Value).CompareAndSwap": {keys: []int{0}, kept: []int{1}, atomic: "compare and swap"},
	"(*sync.Pool).Put":                    {kept: []int{0}},
}

// nativeKey is an entry of nativeKeys; atomic names the operation of an
// atomic.Value that must refuse a value of another type than the one it
// holds (grundyrt.AtomicStore).
type nativeKey struct {
	keys, kept []int
	atomic     string
}

// nativeKeysOf is the entry of nativeKeys for call, with the callee's
// signature; !ok if it has none.
func (c *Cell) nativeKeysOf(call *ast.CallExpr) (nk nativeKey, sig *types.Signature, ok bool) {
	fn := c.callee(call)
	if fn == nil || call.Ellipsis.IsValid() {
		return nk, nil, false
	}
	sig, _ = fn.Type().(*types.Signature)
	name := fn.FullName()
	if sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr); isSel && sig != nil && sig.Recv() != nil && types.IsInterface(sig.Recv().Type()) {
		// The oracle's native interfaces come from reflect: a method's
		// receiver is the bare interface, "(interface).Value".
		name = "(" + types.TypeString(c.Types.TypeOf(sel.X), nil) + ")." + fn.Name()
	}
	nk, ok = nativeKeys[name]
	if !ok || sig == nil || sig.Variadic() || sig.Params().Len() != len(call.Args) {
		return nk, nil, false
	}
	return nk, sig, true
}

// nativeKeyCall writes a call of a native function that compares keys or
// keeps values (nativeKeys) handed one that may be of a cell type on a
// basic type as a call of an interpreted literal taking the receiver and
// the arguments, which hands the native its parameters with each such
// value made the first equal box (as a key of a map keyed by any, see
// anyKey):
//
//	m.Load(Heap(3))  =>  func(_grundyNK1 *sync.Map, _grundyNK2 any) (any, bool) {
//		grundyrt.InternKey(&_grundyNK2); return _grundyNK1.Load(_grundyNK2) }(&m, Heap(3))
//
// yaegi v0.16.1 hands a native function a value of such a type bare (it
// converts the argument by reflect, interp/run.go, callBin), and the box
// an interpreted call returns too, but a variable's box as it is: so
// gameKey(0) and depthKey(0) were one context key, k("user") and "user"
// one sync.Map key, a key Range gave back took case int of a type
// switch, not case Heap, and atomic.Value's and sync.Pool's values came
// back as ints. The receiver and the arguments are evaluated
// in Go's order, as the literal's arguments. It reports whether call was
// such a call.
func (c *Cell) nativeKeyCall(call *ast.CallExpr) bool {
	nk, sig, ok := c.nativeKeysOf(call)
	if !ok {
		return false
	}
	// A value of a cell's interface goes through the literal's parameter
	// of type any, which keeps its box (see boxLosingIface).
	// So does a type parameter's, which may be a type the interpreter
	// boxes (Put[Heap] storing its v).
	cellIface := func(i int) bool {
		t := c.Types.TypeOf(call.Args[i])
		return boxLosingIface(t) || isTypeParam(t) && c.boxesBasic()
	}
	boxable := func(i int) bool {
		t := c.Types.TypeOf(call.Args[i])
		// (a native interface's too: a cell's value in a fmt.Stringer
		// is yaegi's wrapper, which a sync.Map could not hash)
		return boxedType(t) != nil || (t != nil && isIfaceType(t)) || cellIface(i)
	}
	basic := func(i int) bool { return boxedType(c.Types.TypeOf(call.Args[i])) != nil || cellIface(i) }
	// (An atomic.Value's value in a native interface too: the wrappers of
	// an A and a B in an error are one native type, so the Value could not
	// tell them apart.)
	nativeIfaceKept := func(i int) bool {
		t := c.Types.TypeOf(call.Args[i])
		return nk.atomic != "" && t != nil && isIfaceType(t)
	}
	if !slices.ContainsFunc(nk.keys, boxable) && !slices.ContainsFunc(nk.kept, basic) && !slices.ContainsFunc(nk.kept, nativeIfaceKept) {
		return false
	}
	pos := call.Pos()
	var params []*ast.Field
	var args, pass []ast.Expr
	param := func(t types.Type, arg ast.Expr) bool {
		tx, ok := c.TypeExpr(t, pos)
		if !ok {
			return false
		}
		if at := c.Types.TypeOf(arg); emptyIface(t) && boxedType(at) != nil && !addressable(arg) && c.Types.Types[arg].Value == nil {
			// A call's or an assertion's result (compute(n), a.(Phase),
			// Action(f) of a function type): converted implicitly from
			// a copy, it keeps its box, as a variable's or a constant's
			// does; as the literal's argument it went in bare (%T said
			// int for a Score a sync.Map kept).
			if ax, ok := c.TypeExpr(at, pos); ok {
				arg = boxedAny(ax, arg)
			}
		}
		name := c.Temp("NK")
		params = append(params, &ast.Field{Names: []*ast.Ident{ident(name, pos)}, Type: tx})
		args = append(args, arg)
		pass = append(pass, ident(name, pos))
		return true
	}
	fun := call.Fun
	if recv := sig.Recv(); recv != nil {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		x, xt := sel.X, c.Types.TypeOf(sel.X)
		if xt == nil {
			return false
		}
		if _, ptr := recv.Type().(*types.Pointer); ptr && !isPointerType(xt) {
			x, xt = &ast.UnaryExpr{OpPos: x.Pos(), Op: token.AND, X: x}, types.NewPointer(xt)
		}
		if !param(xt, x) {
			return false
		}
		fun = &ast.SelectorExpr{X: pass[0], Sel: ident(sel.Sel.Name, pos)}
		pass = nil
	}
	var body []ast.Stmt
	for i, a := range call.Args {
		if !param(sig.Params().At(i).Type(), a) {
			return false
		}
		// A kept value of such a type is interned too: CompareAndSwap
		// compares the one kept with the one it is handed.
		if !(slices.Contains(nk.keys, i) && boxable(i) || slices.Contains(nk.kept, i) && basic(i)) {
			continue
		}
		if t := c.Types.TypeOf(a); !slices.Contains(nk.keys, i) && t != nil && !types.Comparable(t) {
			continue // kept, never compared: a Row (type Row []Nimber) cannot be hashed
		}
		k := pass[len(pass)-1].(*ast.Ident).Name
		if isIfaceType(c.Types.TypeOf(a)) {
			// Out of yaegi's wrappers, as a map keyed by any holds it.
			body = append(body, anyKeyStmt(k, pos))
		}
		body = append(body, internStmt(k, pos))
	}
	if nk.atomic != "" && len(params) >= 2 {
		// Of the type it holds (a Row's box and a []Nimber's are one
		// native type): grundyrt.AtomicStore(av, v); CompareAndSwap's
		// old and new first of one type, grundyrt.AtomicCompare(old, v).
		v := ident(params[len(params)-1].Names[0].Name, pos)
		if len(params) == 3 {
			body = append(body, &ast.ExprStmt{X: &ast.CallExpr{Fun: rtSelector(prelude.RTAtomicCompare, pos), Lparen: pos, Rparen: pos,
				Args: []ast.Expr{ident(params[1].Names[0].Name, pos), v}}})
			v = ident(v.Name, pos)
		}
		body = append(body, &ast.ExprStmt{X: &ast.CallExpr{Fun: rtSelector(prelude.RTAtomicStore, pos), Lparen: pos, Rparen: pos,
			Args: []ast.Expr{ident(params[0].Names[0].Name, pos), v,
				&ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(nk.atomic)}}}})
	}
	inner := &ast.CallExpr{Fun: fun, Lparen: pos, Args: pass, Rparen: pos}
	var res []ast.Expr
	for r := range sig.Results().Variables() {
		tx, ok := c.TypeExpr(r.Type(), pos)
		if !ok {
			return false
		}
		res = append(res, tx)
	}
	if len(res) == 0 {
		body = append(body, &ast.ExprStmt{X: inner})
	} else {
		body = append(body, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{inner}})
	}
	f := funcLit(pos, call.End(), results(res...), body...)
	f.Type.Params.List = params
	// In place: later passes see the call's type (basedAsserts asks
	// what ctx.Value(k).(int) asserts), and an interpreted call.
	call.Fun, call.Args = f, args
	return true
}

func isPointerType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// wrappedKey is a type the cells declare whose values a map keyed by k,
// a native interface type with methods (error, fmt.Stringer), would hold
// in yaegi's wrapper of that interface, a struct of function fields the
// map cannot hash; nil when none implements k.
func (c *Cell) wrappedKey(k types.Type) *types.Named {
	if !isIfaceType(k) || emptyIface(k) || typecheck.IsCellType(k) {
		return nil
	}
	if _, named := types.Unalias(k).(*types.Named); !named {
		return nil
	}
	it := k.Underlying().(*types.Interface)
	for _, tn := range c.Types.CellTypes() {
		n, ok := tn.Type().(*types.Named)
		if !ok || n.TypeParams().Len() > 0 || types.IsInterface(n) {
			continue
		}
		if types.Implements(n, it) || types.Implements(types.NewPointer(n), it) {
			return n
		}
	}
	return nil
}

// wrappedInside is the first native interface type with methods inside t,
// a struct or array, that a cell's type would be wrapped in (see
// wrappedKey), with that type; nil when none.
func (c *Cell) wrappedInside(t types.Type) (types.Type, *types.Named) {
	if !holdsIfaces(t, false) {
		return nil, nil
	}
	var it types.Type
	var n *types.Named
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if n != nil || seen[t] {
			return
		}
		seen[t] = true
		switch u := t.Underlying().(type) {
		case *types.Interface:
			if w := c.wrappedKey(t); w != nil {
				it, n = t, w
			}
		case *types.Array:
			walk(u.Elem())
		case *types.Struct:
			for i := range u.NumFields() {
				walk(u.Field(i).Type())
			}
		}
	}
	walk(t)
	return it, n
}

// ifaceKey is the key type of m's map type when it is an interface type a
// cell declares (or an interface literal with methods), or a struct or
// array holding interfaces with methods, else nil.
func (c *Cell) ifaceKey(m ast.Expr) types.Type {
	mt, ok := typeUnder(c.Types.TypeOf(m)).(*types.Map)
	if !ok {
		return nil
	}
	k := mt.Key()
	if holdsIfaces(k, true) {
		return k
	}
	if _, param := k.(*types.TypeParam); param || !types.IsInterface(k) || k.Underlying().(*types.Interface).Empty() {
		return nil
	}
	if _, named := types.Unalias(k).(*types.Named); named && !typecheck.IsCellType(k) {
		return nil // error, fmt.Stringer: native values compare as they are
	}
	return k
}

// anyKeyed reports whether m is a map keyed by an empty interface.
func (c *Cell) anyKeyed(m ast.Expr) bool {
	mt, ok := typeUnder(c.Types.TypeOf(m)).(*types.Map)
	return ok && isIfaceType(mt.Key()) && emptyIface(mt.Key())
}

// anyKey writes e, a key of a map keyed by any, through AnyKey when its
// static type is an interface (its value may be in one of yaegi's
// wrappers, or in a box of a type on a basic type), or such a type
// (yaegi boxes it anew for the map); another concrete value is put in the
// key's interface as Go puts it.
func (c *Cell) anyKey(e ast.Expr) ast.Expr {
	t := c.Types.TypeOf(e)
	_, param := types.Unalias(t).(*types.TypeParam)
	if n := boxedType(t); n != nil || param {
		// Boxed from a variable of its type, by interpreted code (a
		// native call would take the bare value), and interned. (So is
		// a type parameter's, in a box when its type argument is a
		// boxed type: m[x] in a generic function.)
		pos := e.Pos()
		kt := t
		if n != nil {
			kt = n
		}
		tx, ok := c.TypeExpr(kt, pos)
		if !ok {
			return e
		}
		k, a := c.Temp("IK"), c.Temp("IK")
		pre := []ast.Stmt{varDecl(pos, a, ident("any", pos), ident(k, pos))}
		if param {
			// (out of a native interface's wrapper, which the map could
			// not hash, for a type argument error: key[error](m, e))
			pre = append(pre, anyKeyStmt(a, pos))
		}
		return c.internCall(e, tx, ident("any", pos), k, a, pre...)
	}
	if t != nil && !isIfaceType(t) && holdsIfaces(t, true) {
		// A struct or array holding interfaces (Box{Inner Game}): its
		// interfaces made the first equal ones, as for a map keyed by
		// its type (two equal Boxes were two keys).
		return c.internKey(e, t)
	}
	if t == nil || !isIfaceType(t) {
		return e
	}
	if !emptyIface(t) && !typecheck.IsCellType(t) {
		// In a native interface's wrapper the value has lost its box.
		named, _ := c.boxedImplementers(nil, nil, t, e.Pos())
		if len(named) > 0 {
			n := named[0].Obj().Name()
			c.Fail(e.Pos(), "%s, %s that may hold %s, as a key of a map keyed by any: the interpreter keeps such a value there without its type; use the value itself as the key (%s.(%s)), or a string of it",
				ExprString(e), an(types.TypeString(t, shortQualifier)), an(n), ExprString(e), n)
			return e
		}
	}
	// The value may be in a box (or a wrapper around one): out of the
	// wrapper, interned, and handed back by interpreted code (a box a
	// native call returns is boxed again, and a bare value it returns
	// as a key passes through an interpreted parameter boxed too).
	return internAnyCall(e)
}

// internAnyCall is _grundyInternAny(e).
func internAnyCall(e ast.Expr) ast.Expr {
	return &ast.CallExpr{Fun: ident(prelude.InternAny, e.Pos()), Lparen: e.Pos(), Args: []ast.Expr{e}, Rparen: e.End()}
}

// structAnyKey is the key e of a map literal keyed by any, e of a cell
// struct type with methods (see methodStruct), as an index expression's
// key is: yaegi v0.16.1 keeps such a value that a map literal's key
// converts to any in a wrapper with the node that made it
// (valueInterface), which an index's key P{1} never equalled:
// map[any]int{P{1}: 1}[P{1}] was 0. It goes through the runtime's AnyKey
// (interned where values may be boxed), as a key of an interface type
// does.
func (c *Cell) structAnyKey(e ast.Expr) ast.Expr {
	return internAnyCall(e)
}

// methodStruct reports whether t is a cell struct type (not a pointer)
// with methods, on its value or its pointer.
func methodStruct(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || !typecheck.IsCellType(n) {
		return false
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return false
	}
	return types.NewMethodSet(types.NewPointer(n)).Len() > 0
}

// anyKeyStmt is k = grundyrt.AnyKey(k): the value of the variable k, of
// type any, out of yaegi's wrappers, as a map keyed by any holds it.
func anyKeyStmt(k string, pos token.Pos) ast.Stmt {
	return &ast.AssignStmt{Lhs: []ast.Expr{ident(k, pos)}, TokPos: pos, Tok: token.ASSIGN,
		Rhs: []ast.Expr{&ast.CallExpr{Fun: rtSelector(prelude.RTAnyKey, pos), Lparen: pos, Args: []ast.Expr{ident(k, pos)}, Rparen: pos}}}
}

// internStmt is grundyrt.InternKey(&v).
func internStmt(v string, pos token.Pos) ast.Stmt {
	return &ast.ExprStmt{X: &ast.CallExpr{Fun: rtSelector(prelude.RTInternKey, pos), Lparen: pos,
		Args: []ast.Expr{&ast.UnaryExpr{OpPos: pos, Op: token.AND, X: ident(v, pos)}}, Rparen: pos}}
}

// internKey writes e, a key of type t, through InternKey.
func (c *Cell) internKey(e ast.Expr, t types.Type) ast.Expr {
	pos := e.Pos()
	pt, ok := c.TypeExpr(t, pos)
	if !ok {
		return e
	}
	rt, _ := c.TypeExpr(t, pos)
	if lit, ok := e.(*ast.CompositeLit); ok && lit.Type == nil {
		// A map literal's key with its type elided ({a, b}: true) is an
		// argument now: it needs its type written.
		lit.Type, _ = c.TypeExpr(t, pos)
	}
	k := c.Temp("IK")
	return c.internCall(e, pt, rt, k, k)
}

// internCall writes e as the argument of an interpreted literal, taking
// it as its parameter k of type param, that runs pre, interns the variable
// v (InternKey) and returns it, of type result:
//
//	func(k param) result { pre; grundyrt.InternKey(&v); return v }(e)
func (c *Cell) internCall(e, param, result ast.Expr, k, v string, pre ...ast.Stmt) ast.Expr {
	pos := e.Pos()
	body := append(pre, internStmt(v, pos), &ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident(v, pos)}})
	f := funcLit(pos, pos, results(result), body...)
	f.Type.Params.List = []*ast.Field{{Names: []*ast.Ident{ident(k, pos)}, Type: param}}
	return &ast.CallExpr{Fun: f, Lparen: pos, Args: []ast.Expr{e}, Rparen: e.End()}
}

// stdMapStores are the functions of package maps that store keys, each
// written as a function literal that makes each key the first equal one
// (INTERN) before storing it, called with the call's arguments: _K_ is
// the map's key type, _V_ its value type. (The iterators are called, not
// ranged over: the passes that write a range over a function ran.)
var stdMapStores = map[string]string{
	"Copy":    "func(dst, src map[_K_]_V_) { for k, v := range src { INTERN(&k); dst[k] = v } }",
	"Insert":  "func(m map[_K_]_V_, seq func(yield func(_K_, _V_) bool)) { seq(func(k _K_, v _V_) bool { INTERN(&k); m[k] = v; return true }) }",
	"Collect": "func(seq func(yield func(_K_, _V_) bool)) map[_K_]_V_ { m := map[_K_]_V_{}; seq(func(k _K_, v _V_) bool { INTERN(&k); m[k] = v; return true }); return m }",
}

// stdMapKeys writes maps.Copy, maps.Insert and maps.Collect of a map
// keyed by a cell's interface (or a struct holding one, or any) as a
// function literal storing each key as the cell's own m[k] = v does
// (InternKey, InternAnyKey): the engine's package maps stores the keys
// as yaegi made them, and maps.Collect of Sq{1} twice made two keys,
// silently. It reports whether it rewrote the call.
func (c *Cell) stdMapKeys(call *ast.CallExpr) bool {
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "maps" || call.Ellipsis.IsValid() || len(call.Args) == 0 {
		return false
	}
	tmpl, ok := stdMapStores[fn.Name()]
	if !ok {
		return false
	}
	mapOf := call.Args[0]
	if fn.Name() == "Collect" {
		mapOf = call
	}
	m, ok := typeUnder(c.Types.TypeOf(mapOf)).(*types.Map)
	if !ok {
		return false
	}
	intern := prelude.RTInternKey
	switch {
	case isIfaceType(m.Key()) && emptyIface(m.Key()):
		intern = "InternAnyKey"
	case c.ifaceKey(mapOf) == nil:
		return false
	}
	ks, ok1 := c.Types.TypeString(m.Key())
	vs, ok2 := c.Types.TypeString(m.Elem())
	if !ok1 || !ok2 {
		return false
	}
	lit, err := parser.ParseExpr(strings.NewReplacer("_K_", ks, "_V_", vs, "INTERN", prelude.Runtime+"."+intern).Replace(tmpl))
	if err != nil {
		return false
	}
	call.Fun = AtPos(lit, call.Pos())
	return true
}
