package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"grundy/engine/prelude"
	"grundy/engine/typecheck"
)

// Hidden composite types. yaegi v0.16.1 keeps a composite of cell types
// on basic types, arrays, slices or maps ([]Celsius, map[Pos]Heap, [3]Row)
// in an empty interface as the underlying composite's value ([]float64):
// fmt, json, reflect, assertions and type switches could not see the
// cell's types there, and the engine refused such a store (basedTypes). A
// named type on the composite is kept in a box with its name (boxBasic),
// so before the cell is checked the engine declares one, hidden, for each
// such composite the cell puts in an empty interface or asserts to
// (type _grundyComposite1 []Celsius), converts the values stored
// (var v any = _grundyComposite1(xs)), and asserts and switches to it
// (v.(_grundyComposite1), case _grundyComposite1) (see the engine's
// hideComposites, which names them and checks the cell again). Everything
// that names a type names the hidden one as its composite: fmt's
// descriptions, reflectString (%T, assertion messages, the runtime's
// checks of a box's name), and the printer, which the engine tells what
// each hidden type stands for (grundyrt's DeclareComposite). So for a
// composite of a cell's named interface type ([]Value, map[string]Shape),
// which yaegi keeps as the composite of interface{} (ifaceComposite).

// IsHiddenComposite reports whether n is a hidden composite type.
func IsHiddenComposite(n *types.Named) bool {
	return strings.HasPrefix(n.Obj().Name(), prelude.HiddenComposite) && typecheck.IsCellType(n)
}

// hiddenAt is x, the name of a hidden type hide gave, at pos: where the
// expression it stands for was, as the passes that place statements by
// their positions ask (varInits' assignInPlace put a variable's value
// after a statement asserting to a hidden type, at position 0).
func hiddenAt(x ast.Expr, pos token.Pos) ast.Expr {
	if id, ok := x.(*ast.Ident); ok {
		id.NamePos = pos
	}
	return x
}

// hiddenComposite is n's composite when n is a hidden composite type.
func hiddenComposite(t types.Type) (types.Type, bool) {
	if n, ok := types.Unalias(t).(*types.Named); ok && IsHiddenComposite(n) {
		return n.Underlying(), true
	}
	return nil, false
}

// Hideable reports whether the engine hides t, a type a cell's value
// put in an empty interface has, behind a hidden composite type: a slice,
// array or map made of cell types on basic types, arrays, slices or maps,
// all declared at a cell's top level and none generic.
func Hideable(t types.Type) bool {
	if t == nil || isIfaceType(t) || hasTypeParam(t) {
		return false
	}
	if !losesType(t) {
		return ifaceComposite(t)
	}
	_, ok := basedCheck{}.compositeDecl(t)
	return ok
}

// ifaceComposite reports whether t is a slice, array, map, channel or
// function type made of a named interface type declared at a cell's top
// level ([]Value with type Value interface{}, map[string]Shape, chan
// Shape, func(Shape) float64): yaegi v0.16.1 gives it the
// reflect type of the composite of interface{}, so in an empty interface
// it was a []any: an assertion to []any was true, a type switch took
// case []any, and %T said []interface {}, silently.
func ifaceComposite(t types.Type) bool {
	switch t := types.Unalias(t).(type) {
	case *types.Slice, *types.Array, *types.Map, *types.Chan:
	case *types.Signature:
		// (any(f).(func(Namer) float64) was true, %T said
		// func(interface {}) float64.)
		return t.Recv() == nil && t.TypeParams().Len() == 0 && cellIfaceIn(t)
	default:
		return false
	}
	return cellIfaceIn(t)
}

// cellIfaceIn reports whether t, through slices, arrays, maps, pointers,
// channels and functions' parameters and results, is made of a named
// interface type declared at a cell's top level.
func cellIfaceIn(t types.Type) bool {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		o := t.Obj()
		_, iface := t.Underlying().(*types.Interface)
		return iface && typecheck.IsCellType(t) && t.TypeArgs().Len() == 0 && o.Pkg() != nil && o.Parent() == o.Pkg().Scope()
	case *types.Map:
		return cellIfaceIn(t.Key()) || cellIfaceIn(t.Elem())
	case interface{ Elem() types.Type }:
		return cellIfaceIn(t.Elem())
	case *types.Signature:
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for i := range tup.Len() {
				if cellIfaceIn(tup.At(i).Type()) {
					return true
				}
			}
		}
	}
	return false
}

// HideComposites rewrites the cell, checked, for the hidden composite
// types hide names (see above): each value of a Hideable type put in an
// empty interface is converted to its hidden type, and each assertion and
// type switch case to a Hideable type asserts to the hidden one. hide
// returns nil for a type it does not hide. It returns how to undo what it
// did, nil if it did nothing.
func HideComposites(c *Cell, hide func(types.Type) ast.Expr) (undo func()) {
	if len(c.basedCellTypes()) == 0 && !c.hasCellIfaces() {
		return nil
	}
	var undos []func()
	replace := func(at *ast.Expr, with ast.Expr) {
		old := *at
		*at = with
		undos = append(undos, func() { *at = old })
	}
	wrap := func(e ast.Expr) ast.Expr {
		if !c.Types.IsValue(e) {
			return nil
		}
		if x := hide(c.Types.TypeOf(e)); x != nil {
			return &ast.CallExpr{Fun: hiddenAt(x, e.Pos()), Lparen: e.Pos(), Args: []ast.Expr{e}, Rparen: e.End()}
		}
		return nil
	}
	retype := func(at *ast.Expr) {
		if x := hide(c.Types.TypeOf(*at)); x != nil {
			replace(at, hiddenAt(x, (*at).Pos()))
		}
	}
	convert := func(at *ast.Expr) {
		if w := wrap(*at); w != nil {
			replace(at, w)
		}
	}
	mapKey := func(m types.Type, at *ast.Expr) {
		if mt, ok := typeUnder(m).(*types.Map); ok && emptyIface(mt.Key()) {
			convert(at)
		}
	}
	interpreted := c.interpreted
	c.Apply(func(cur Cursor) bool {
		// Values of several results and comma-oks (see hiddenTuple).
		if at, places := c.tuplePlaces(cur.Node(), cur.Func); at != nil {
			if ret, ok := cur.Node().(*ast.ReturnStmt); ok {
				if list := stmtList(cur.Parent()); list != nil && cur.Index() >= 0 {
					if blk := c.hiddenReturn(ret, places, hide); blk != nil {
						i := cur.Index()
						(*list)[i] = blk
						undos = append(undos, func() { (*list)[i] = ret })
					}
				}
			} else if x := c.hiddenTuple(*at, places, hide); x != nil {
				replace(at, x)
			}
		}
		if call, ok := cur.Node().(*ast.CallExpr); ok {
			if places := c.argPlaces(call); places != nil {
				if x := c.hiddenTuple(call.Args[0], places, hide); x != nil {
					replace(&call.Args[0], x)
				}
			}
		}
		if rs, ok := cur.Node().(*ast.RangeStmt); ok {
			if u := c.hiddenRange(rs, hide); u != nil {
				undos = append(undos, u)
			}
		}
		for _, v := range c.assignedValues(cur, interpreted) {
			if emptyIface(v.target) {
				if w := wrap(v.value); w != nil {
					old, set := v.value, v.set
					set(w)
					undos = append(undos, func() { set(old) })
				}
			}
		}
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			if len(n.Args) == 1 && c.Types.IsType(n.Fun) && emptyIface(c.Types.TypeOf(n.Fun)) {
				convert(&n.Args[0]) // any(xs)
			} else if len(n.Args) == 2 && isIdent(n.Fun, "delete") && c.isBuiltin(n.Fun) {
				mapKey(c.Types.TypeOf(n.Args[0]), &n.Args[1])
			} else {
				// A key or value a native store or container keeps
				// (sm.Store(k, xs), l.PushBack(xs), heap.Push(h, xs)),
				// which nativeKeys and nativeBoxes hand it in its box:
				// it kept the bare []int, and sm.Range gave a [2]Nim key
				// back as a [2]int.
				for _, i := range c.nativeKept(n) {
					convert(&n.Args[i])
				}
			}
		case *ast.IndexExpr:
			mapKey(c.Types.TypeOf(n.X), &n.Index) // m[k]
		case *ast.CompositeLit:
			for _, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					mapKey(c.Types.TypeOf(n), &kv.Key)
				}
			}
		case *ast.SwitchStmt:
			if n.Tag != nil && emptyIface(c.Types.TypeOf(n.Tag)) {
				for _, st := range n.Body.List {
					cc := st.(*ast.CaseClause)
					for i := range cc.List {
						convert(&cc.List[i])
					}
				}
			}
		case *ast.BinaryExpr:
			// x == k, x an any: k is converted to x's type.
			if n.Op == token.EQL || n.Op == token.NEQ {
				if emptyIface(c.Types.TypeOf(n.X)) {
					convert(&n.Y)
				} else if emptyIface(c.Types.TypeOf(n.Y)) {
					convert(&n.X)
				}
			}
		case *ast.TypeAssertExpr:
			if n.Type != nil && emptyIface(c.Types.TypeOf(n.X)) {
				retype(&n.Type)
			}
		case *ast.TypeSwitchStmt:
			if x, _ := typeSwitchSubject(n); x != nil && emptyIface(c.Types.TypeOf(x)) {
				for _, st := range n.Body.List {
					cc := st.(*ast.CaseClause)
					for i := range cc.List {
						retype(&cc.List[i])
					}
				}
			}
		}
		return true
	})
	if len(undos) == 0 {
		return nil
	}
	return func() {
		for i := len(undos) - 1; i >= 0; i-- {
			undos[i]()
		}
	}
}

// hasCellIfaces reports whether the session has a named interface type
// declared at a cell's top level (see ifaceComposite).
func (c *Cell) hasCellIfaces() bool {
	for _, tn := range c.Types.CellTypes() {
		if n, ok := tn.Type().(*types.Named); ok && !tn.IsAlias() && cellIfaceIn(n) {
			return true
		}
	}
	for _, obj := range c.Types.Defs {
		if tn, ok := obj.(*types.TypeName); ok && !tn.IsAlias() && cellIfaceIn(tn.Type()) {
			return true
		}
	}
	return false
}
