package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// tupleStores: an assignment of several places that panics part way
// (row[1], row[3] = 40, 50 on a slice of length 3; heaps[i], p.X = v, 1
// with p a nil pointer; a[0], b = 1, c[9]). Go stores the places in turn
// and checks each index, follows each pointer and reads each value not
// read before as it comes to it (the gc compiler's ascompatee,
// cmd/compile/internal/walk/assign.go): a recovered panic finds row[1]
// assigned. The bounds pass checked every index before the statement,
// and yaegi v0.16.1 follows every pointer on the left first, so none was;
// silently. Where an operand after the first place may panic, the
// assignment is written as gc runs it: what an earlier store may change
// (the operands of a place, a value) is read first, into a temporary,
// then the places are assigned one by one:
//
//	s[i], s[j] = s[j], s[i]  =>  { _grundyV1 := s[i]; s[i] = s[j]; s[j] = _grundyV1 }
//
// An assignment with a call, a receive or a function literal in it is
// left as it is (Go calls them all before it stores), and so is one
// whose early value is untyped (a comparison, a shift) or a place whose
// operands could not be read first as written.
var tupleStores = Pass{
	Name:     "tuplestores",
	Run:      runTupleStores,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"tuple_store_partial_panic"},
}

func runTupleStores(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		as, ok := cur.Node().(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) < 2 || len(as.Lhs) != len(as.Rhs) || cur.Index() < 0 {
			return true
		}
		if list := c.storesInTurn(as); list != nil {
			cur.Replace(&ast.BlockStmt{Lbrace: as.Pos(), List: list, Rbrace: as.End()})
		}
		return true
	})
}

// storesInTurn is the assignment as statements that store one place
// each, after those that read what must be read first; nil where it need
// not or cannot be so written.
func (c *Cell) storesInTurn(as *ast.AssignStmt) []ast.Stmt {
	mayPanic := false
	for i := range as.Lhs {
		for _, e := range []ast.Expr{as.Lhs[i], as.Rhs[i]} {
			if !c.storeSafe(e) {
				return nil
			}
			mayPanic = mayPanic || i > 0 && c.mayPanic(e)
		}
	}
	if !mayPanic {
		return nil
	}
	var early []ast.Stmt
	done := false
	fx := &storeEffects{c: c, assigned: map[types.Object]bool{}}
	type saved struct {
		at   *ast.Expr
		orig ast.Expr
	}
	var undo []saved // (given back where the assignment stays as it is)
	defer func() {
		if !done {
			for _, u := range undo {
				*u.at = u.orig
			}
		}
	}()
	save := func(e *ast.Expr) bool {
		// gc reads a type assertion's value first (its order phase
		// copies it), and what a store may change.
		if !fx.affected(*e) && !contains(*e, false, func(n ast.Node) bool { _, ok := n.(*ast.TypeAssertExpr); return ok }) {
			return true
		}
		t := c.Types.TypeOf(*e)
		if b, ok := t.(*types.Basic); t == nil || ok && b.Info()&types.IsUntyped != 0 {
			return false
		}
		def, use := c.storeTemp(t, (*e).Pos())
		early = append(early, define((*e).Pos(), []ast.Expr{def}, *e))
		undo = append(undo, saved{e, *e})
		*e = use
		return true
	}
	var stores []ast.Stmt
	for i, l := range as.Lhs {
		if !c.savePlace(l, save) || !save(&as.Rhs[i]) {
			return nil
		}
		stores = append(stores, &ast.AssignStmt{Lhs: []ast.Expr{l}, TokPos: as.TokPos, Tok: token.ASSIGN, Rhs: []ast.Expr{as.Rhs[i]}})
		fx.stored(l)
	}
	done = true
	return append(early, stores...)
}

// savePlace saves (see storesInTurn) the operands of a place that its
// store reads: the index of an array's element, through the array's
// fields and elements; the slice or map and the index of an element; the
// pointer followed. False if one that must be saved cannot be.
func (c *Cell) savePlace(l ast.Expr, save func(*ast.Expr) bool) bool {
	for {
		switch x := l.(type) {
		case *ast.ParenExpr:
			l = x.X
			continue
		case *ast.IndexExpr:
			if _, ok := typeUnder(c.Types.TypeOf(x.X)).(*types.Array); ok {
				if !save(&x.Index) {
					return false
				}
				l = x.X
				continue
			}
			return save(&x.X) && save(&x.Index)
		case *ast.SelectorExpr:
			sel := c.Types.Selections[x]
			if sel == nil || sel.Kind() != types.FieldVal {
				return false
			}
			if !sel.Indirect() {
				l = x.X
				continue
			}
			if _, ptr := typeUnder(c.Types.TypeOf(x.X)).(*types.Pointer); !ptr || len(sel.Index()) > 1 {
				// A pointer among embedded fields: saving x.X would not save it.
				return !(&storeEffects{c: c}).reads(x.X)
			}
			return save(&x.X)
		case *ast.StarExpr:
			return save(&x.X)
		case *ast.Ident:
			return true
		}
		return false
	}
}

// storeSafe reports whether the assignment can be written in turn with e
// among its operands: e calls nothing but conversions and len, cap, min
// and max, receives nothing, and has no function literal.
func (c *Cell) storeSafe(e ast.Expr) bool {
	return !contains(e, false, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if c.Types.IsType(n.Fun) {
				return false
			}
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && c.isBuiltin(id) {
				switch id.Name {
				case "len", "cap", "min", "max":
					return false
				}
			}
			return true
		case *ast.UnaryExpr:
			return n.Op == token.ARROW
		case *ast.FuncLit:
			return true
		}
		return false
	})
}

// mayPanic reports whether evaluating or storing e may panic: an index
// the compiler does not check, a slice expression, a pointer followed, a
// type assertion, an integer division by a variable.
func (c *Cell) mayPanic(e ast.Expr) bool {
	return contains(e, false, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IndexExpr:
			if c.Types.IsType(n) || indexable(c.Types.TypeOf(n.X)) == nil {
				return false
			}
			_, arr := typeUnder(c.Types.TypeOf(n.X)).(*types.Array)
			return !arr || c.Types.Types[n.Index].Value == nil
		case *ast.SliceExpr, *ast.StarExpr:
			return true
		case *ast.SelectorExpr:
			sel := c.Types.Selections[n]
			return sel != nil && sel.Kind() == types.FieldVal && sel.Indirect()
		}
		return c.valuePanics(n)
	})
}

// storeEffects is what the stores of a tuple assignment so far may have
// changed: variables of the function's own, and memory (see readsMemory).
type storeEffects struct {
	c        *Cell
	assigned map[types.Object]bool
	memWrite bool // a store went somewhere any read of memory may see
}

// affected reports whether the stores so far may change e's value.
func (fx *storeEffects) affected(e ast.Expr) bool {
	return contains(e, false, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && fx.assigned[fx.c.Types.ObjectOf(id)] {
			return true
		}
		return fx.memWrite && fx.c.readsMemory(n)
	})
}

// reads reports whether e reads a variable or memory at all.
func (fx *storeEffects) reads(e ast.Expr) bool {
	return contains(e, false, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if _, isVar := fx.c.Types.ObjectOf(id).(*types.Var); isVar {
				return true
			}
		}
		return fx.c.readsMemory(n)
	})
}

// stored notes a store to the place l.
func (fx *storeEffects) stored(l ast.Expr) {
	if v := fx.c.storedVar(l); v != nil && !fx.c.inMemory(v) {
		fx.assigned[v] = true
	} else if !isIdent(l, "_") {
		fx.memWrite = true
	}
}
