package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"

	"grundy/engine/prelude"
)

// ifaceCompare: x == y and x != y, with x or y of an interface type and
// neither nil, a switch on a value of an interface type, and slices.Index,
// Contains, Equal and Compact on slices of one, compare the values inside
// yaegi's wrappers (and maps.Equal on maps of them, and all of these on
// structs or arrays holding them). yaegi v0.16.1
// holds a cell type's value in an interface as a wrapper with the node
// that made it (valueInterface, interp/value.go), and compares wrappers:
// two equal values of a cell type with methods in a non-empty interface
// were unequal; comparing errors panicked (their wrappers hold a func:
// "comparing uncomparable type interp._error"), and each conversion makes
// a new one. (The keys of a value of a type on a basic type with methods,
// type Nim int, carry its name, which the value inside the wrapper lacks:
// any(Nim(3)) is not any(3).) Structs and arrays holding such interfaces
// are compared by the same rules in place (grundyrt.Equal, which builds
// no keys).
var ifaceCompare = Pass{
	Name:     "ifacecompare",
	Run:      runIfaceCompare,
	Kinds:    []ast.Node{(*ast.BinaryExpr)(nil), (*ast.SwitchStmt)(nil), (*ast.CallExpr)(nil)},
	Snippets: []string{"errors_compare_sentinels", "iface_compare_cell_values", "iface_compare_struct_fields", "iface_compare_any_fields", "iface_compare_boxed_in_cell_iface", "native_containers_keep_cell_iface"},
}

// sliceEquals are the functions of packages slices and maps that compare
// elements with ==, each written as a function literal comparing them by
// the cells' rules instead, called with the call's arguments: _E_ is the
// element type, _K_ a map's key type, EQ(x, y) the comparison.
var sliceEquals = map[string]string{
	"slices.Index":    "func(s []_E_, v _E_) int { for i, e := range s { if EQ(e, v) { return i } }; return -1 }",
	"slices.Contains": "func(s []_E_, v _E_) bool { for _, e := range s { if EQ(e, v) { return true } }; return false }",
	"slices.Equal":    "func(a, b []_E_) bool { if len(a) != len(b) { return false }; for i := range a { if !EQ(a[i], b[i]) { return false } }; return true }",
	"slices.Compact":  "func(s []_E_) []_E_ { if len(s) < 2 { return s }; k := 1; for i := 1; i < len(s); i++ { if !EQ(s[i], s[k-1]) { s[k] = s[i]; k++ } }; var z _E_; for i := k; i < len(s); i++ { s[i] = z }; return s[:k] }",
	"maps.Equal":      "func(a, b map[_K_]_E_) bool { if len(a) != len(b) { return false }; for k, v := range a { if w, ok := b[k]; !ok || !EQ(v, w) { return false } }; return true }",
}

func runIfaceCompare(c *Cell) {
	isIface := func(t types.Type) bool {
		_, param := t.(*types.TypeParam)
		return t != nil && !param && types.IsInterface(t)
	}
	key := func(e ast.Expr) ast.Expr {
		v := e
		if conv, ok := e.(*ast.CallExpr); ok && len(conv.Args) == 1 && c.Types.IsType(conv.Fun) && types.IsInterface(c.Types.TypeOf(conv.Fun)) {
			// any(Nim(3)): the interpreter hands native code the bare
			// value of a conversion.
			v = conv.Args[0]
		}
		if _, param := types.Unalias(c.Types.TypeOf(v)).(*types.TypeParam); param {
			// t == i in a generic function: the interpreter hands native
			// code the bare value of a type parameter's, and converts it
			// bare explicitly (any(t)), but implicitly into the box of a
			// based type argument's, which names it (Nim(3) is not 3).
			return &ast.CallExpr{Fun: rtSelector(prelude.RTCompareKey, e.Pos()), Args: []ast.Expr{sliceElem(ident("any", v.Pos()), v)}, Lparen: e.Pos(), Rparen: e.End()}
		}
		if n := boxedType(c.Types.TypeOf(v)); n != nil {
			// Keyed with its name, as the value in the other operand's
			// box is.
			name := &ast.BasicLit{ValuePos: v.Pos(), Kind: token.STRING, Value: strconv.Quote(reflectString(n, false))}
			return &ast.CallExpr{Fun: rtSelector(prelude.RTCompareKeyAs, v.Pos()), Args: []ast.Expr{v, name}, Lparen: v.Pos(), Rparen: v.End()}
		}
		if c.boxesBasic() && (boxLosingIface(c.Types.TypeOf(e)) || c.givesIface(e)) {
			e = anyOf(e, e.Pos())
		}
		return &ast.CallExpr{Fun: &ast.SelectorExpr{X: ident(prelude.Runtime, e.Pos()), Sel: ident(prelude.RTCompareKey, e.Pos())}, Args: []ast.Expr{e}, Lparen: e.Pos(), Rparen: e.End()}
	}
	c.Apply(func(cur Cursor) bool {
		switch n := cur.Node().(type) {
		case *ast.BinaryExpr:
			if n.Op != token.EQL && n.Op != token.NEQ || isIdent(n.X, "nil") || isIdent(n.Y, "nil") {
				break
			}
			if isReflectType(c.Types.TypeOf(n.X)) && isReflectType(c.Types.TypeOf(n.Y)) {
				break // (reflectNames': grundyrt.SameType)
			}
			if isIface(c.Types.TypeOf(n.X)) || isIface(c.Types.TypeOf(n.Y)) {
				n.X, n.Y = key(n.X), key(n.Y)
			} else if holdsIfaces(c.Types.TypeOf(n.X), c.boxesBasic()) {
				// Compared in place, without building keys.
				var eq ast.Expr = &ast.CallExpr{Fun: rtSelector(prelude.RTEqual, n.Pos()), Lparen: n.Pos(), Args: []ast.Expr{n.X, n.Y}, Rparen: n.End()}
				if n.Op == token.NEQ {
					eq = &ast.UnaryExpr{OpPos: n.Pos(), Op: token.NOT, X: eq}
				}
				cur.Replace(eq)
			}
		case *ast.SwitchStmt, *ast.LabeledStmt:
			// switch g { case P{1, 2}: }, g an interface: the keys are
			// compared with ==, in a switch without a tag (yaegi's tagged
			// switch took no case whose value was a native call's).
			sw := c.switchAt(cur)
			if sw == nil || sw.Tag == nil || !isIface(c.Types.TypeOf(sw.Tag)) {
				break
			}
			tagKey := key
			if c.boxesBasic() && boxLosingIface(c.Types.TypeOf(sw.Tag)) {
				// untag reads the tag through names the oracle has not seen.
				tagKey = func(e ast.Expr) ast.Expr { return key(anyOf(e, e.Pos())) }
			}
			c.untag(cur, sw, tagKey, func(e ast.Expr) ast.Expr {
				if isIdent(e, "nil") {
					return e
				}
				return key(e)
			})
		case *ast.CallExpr:
			c.sliceEquals(n)
		}
		return true
	})
}

// sliceEquals writes slices.Index(s, v) on a slice of an interface type,
// or of structs or arrays holding one (see holdsIfaces), as a function
// literal comparing them as the cells' == does (and Contains, Equal,
// Compact and maps.Equal likewise): the engine's packages slices and maps
// compare with ==, which compares yaegi's wrappers (maps.Equal of two
// map[string]Shape with equal values said false, slices.Index of an
// []Item with a Shape field -1, silently).
func (c *Cell) sliceEquals(call *ast.CallExpr) {
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil || len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return
	}
	tmpl, ok := sliceEquals[fn.Pkg().Path()+"."+fn.Name()]
	if !ok {
		return
	}
	for _, a := range call.Args {
		if _, unnamed := types.Unalias(c.Types.TypeOf(a)).(*types.Slice); !unnamed && fn.Name() != "Index" && fn.Name() != "Contains" && fn.Pkg().Path() == "slices" {
			return // a named slice type: Go's result has it
		}
	}
	var elem, key types.Type
	switch t := typeUnder(c.Types.TypeOf(call.Args[0])).(type) {
	case *types.Slice:
		elem = t.Elem()
	case *types.Map:
		elem, key = t.Elem(), t.Key()
	default:
		return
	}
	if _, param := elem.(*types.TypeParam); param {
		return
	}
	byKeys := types.IsInterface(elem)
	if !byKeys && !holdsIfaces(elem, c.boxesBasic()) {
		return
	}
	es, ok := c.Types.TypeString(elem)
	if !ok {
		return
	}
	src := strings.ReplaceAll(tmpl, "_E_", es)
	if key != nil {
		ks, ok := c.Types.TypeString(key)
		if !ok {
			return
		}
		src = strings.ReplaceAll(src, "_K_", ks)
	}
	lit, err := parser.ParseExpr(src)
	if err != nil {
		return
	}
	keyOf := func(x ast.Expr) ast.Expr {
		if c.boxesBasic() && boxLosingIface(elem) {
			x = anyOf(x, token.NoPos) // (see boxLosingIface)
		}
		return rtCall(prelude.RTCompareKey, token.NoPos, x)
	}
	lit = astutil.Apply(lit, nil, func(cur *astutil.Cursor) bool {
		eq, ok := cur.Node().(*ast.CallExpr)
		if !ok || !isIdent(eq.Fun, "EQ") {
			return true
		}
		if byKeys {
			cur.Replace(&ast.BinaryExpr{X: keyOf(eq.Args[0]), Op: token.EQL, Y: keyOf(eq.Args[1])})
		} else {
			cur.Replace(rtCall(prelude.RTEqual, token.NoPos, eq.Args...))
		}
		return true
	}).(ast.Expr)
	call.Fun = AtPos(lit, call.Pos())
}

// holdsIfaces reports whether t is a struct or array type with fields or
// elements of an interface type with methods, which == compares inside
// yaegi's wrappers too (Sum{A, B Game} == Sum{...}), or, when boxes (the
// session boxes types on basic types, see boxed), of any interface type:
// the boxes of two equal values were unequal (Entry{ID(1), 2} ==
// Entry{ID(1), 2} was false, Entry{Key any; N int}).
func holdsIfaces(t types.Type, boxes bool) bool {
	seen := map[types.Type]bool{}
	var holds func(t types.Type) bool
	holds = func(t types.Type) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		switch u := t.Underlying().(type) {
		case *types.Interface:
			return boxes || !u.Empty()
		case *types.Array:
			return holds(u.Elem())
		case *types.Struct:
			for i := range u.NumFields() {
				if holds(u.Field(i).Type()) {
					return true
				}
			}
		}
		return false
	}
	if _, param := t.(*types.TypeParam); param {
		return false
	}
	switch typeUnder(t).(type) {
	case *types.Struct, *types.Array:
		return holds(t)
	}
	return false
}

// boxLosingIface reports whether t is a non-empty interface type a cell
// declares: yaegi v0.16.1 hands a value of one to a native function's
// any parameter as the bare value inside its box (s == Sq(1), s a Shape
// holding Sq(1), type Sq int, compared 1 with the name-keyed Sq(1):
// false), where interface{}(s), converted by the interpreter first, keeps
// the box (see anyOf).
func boxLosingIface(t types.Type) bool {
	if _, param := t.(*types.TypeParam); param || t == nil {
		return false
	}
	return types.IsInterface(t) && cellTypeOrIfaceLit(t) && !emptyIface(t)
}

// givesIface reports whether e is a call giving an interface value
// (av.Load(), ctx.Value(k), f() of a func() any): handed on to grundyrt
// as it is, the box of a cell type's value it gave back lost its type's
// name (av.Load() == Nim(1) was false); converted to any first, it keeps
// it.
func (c *Cell) givesIface(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || c.Types.IsType(call.Fun) || c.isBuiltin(call.Fun) {
		return false
	}
	t := c.Types.TypeOf(e)
	if _, tuple := t.(*types.Tuple); tuple || t == nil {
		return false
	}
	return types.IsInterface(t)
}
