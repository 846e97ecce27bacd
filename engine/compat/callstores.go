package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// callStores: an assignment whose right-hand side calls, receives,
// divides by a variable, asserts or follows a pointer, to a place that
// may panic (t[n] = f(), ps[n].x += g(), y, t[n] = val(5), 6, vals[i], err
// = pair(), t[n] = 10/z). Go evaluates the right-hand side first, then
// stores (the spec's two phases; gc reads a place's variables after the
// calls): a panicking call's panic is the one recovered, its output is
// printed, an earlier place of the statement is stored. yaegi v0.16.1
// takes the place first (a call writes its result straight into it), and
// the bounds pass checks an index before the statement, so the index's
// panic came first: a recovered "index out of range" where Go gives the
// call's, the call's output missing, y left 0, silently. The values go
// to temporaries first, of the places' types:
//
//	t[n] = f()  =>  { var _grundyV1 T = f(); t[n] = _grundyV1 }
//
// Several values stored into places one of which is a dereference of an
// interface type the value is not of (*q, r = w1, w2 with q a *any) are
// written so too: yaegi's parallel store panicked in reflect.Set (see
// derefBoxes).
//
// Left as it is: a place whose operands call or receive (their calls come
// first in Go), one whose operands an earlier store of the statement
// changes (Go reads them first), a blank place, an untyped value of an
// operator assignment; a constant goes to its place as it is.
var callStores = Pass{
	Name:     "callstores",
	Run:      runCallStores,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"call_store_panics_first"},
}

func runCallStores(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		as, ok := cur.Node().(*ast.AssignStmt)
		if !ok || as.Tok == token.DEFINE || cur.Index() < 0 {
			return true
		}
		if list := c.storedAfterValues(as); list != nil {
			cur.Replace(&ast.BlockStmt{Lbrace: as.Pos(), List: list, Rbrace: as.End()})
		}
		return true
	})
}

// storedAfterValues is the assignment as temporaries holding its values, then
// its stores; nil where it need not or cannot be so written.
func (c *Cell) storedAfterValues(as *ast.AssignStmt) []ast.Stmt {
	var first []ast.Stmt
	if len(as.Lhs) == 1 && len(as.Rhs) == 1 {
		_, recv := ast.Unparen(as.Rhs[0]).(*ast.UnaryExpr)
		if x, ok := ast.Unparen(as.Lhs[0]).(*ast.IndexExpr); ok && !recv && !c.storeSafe(x.Index) && c.storeSafe(x.X) && indexable(c.Types.TypeOf(x.X)) != nil {
			// t[next()] = v: the index, which calls, first, into a
			// temporary the bounds pass checks (Go's message).
			t := c.Types.TypeOf(x.Index)
			if b, ok := t.(*types.Basic); t == nil || ok && b.Info()&types.IsUntyped != 0 {
				return nil
			}
			def, use := c.storeTemp(t, x.Index.Pos())
			first = append(first, define(x.Index.Pos(), []ast.Expr{def}, x.Index))
			x.Index = use
		}
	}
	list := c.valuesAfter(as)
	if list == nil && first != nil {
		list = []ast.Stmt{as}
	}
	return append(first, list...)
}

// storeTemp is a temporary of type t: its definition and a use.
func (c *Cell) storeTemp(t types.Type, pos token.Pos) (*ast.Ident, *ast.Ident) {
	return c.namedTemp(c.Temp("V"), t, pos)
}

// sessionTemp is storeTemp's temporary named apart from every other
// cell's, for a definition among a cell's statements, where the
// interpreter keeps it as a global (a later cell's temporary of the same
// name and another type would be its variable).
func (c *Cell) sessionTemp(t types.Type, pos token.Pos) (*ast.Ident, *ast.Ident) {
	return c.namedTemp(c.sessionTempName(pos), t, pos)
}

// sessionTempName is the name of a new sessionTemp at pos.
func (c *Cell) sessionTempName(pos token.Pos) string {
	return c.Temp("V" + itoa(int(pos)) + "_")
}

// namedTemp is a temporary of type t named name: its definition and a
// use.
func (c *Cell) namedTemp(name string, t types.Type, pos token.Pos) (*ast.Ident, *ast.Ident) {
	def, use := ident(name, pos), ident(name, pos)
	v := types.NewVar(pos, nil, name, t)
	c.Types.Defs[def], c.Types.Uses[use] = v, v
	return def, use
}

// typedTemps are typed temporaries for tuple's values, each named by
// name: their definitions and uses.
func (c *Cell) typedTemps(tuple *types.Tuple, pos token.Pos, name func() string) (defs []*ast.Ident, uses []ast.Expr) {
	for i := range tuple.Len() {
		def, use := c.namedTemp(name(), tuple.At(i).Type(), pos)
		defs, uses = append(defs, def), append(uses, use)
	}
	return defs, uses
}

// valuesAfter is storedAfterValues' temporaries of the values, then the
// stores.
func (c *Cell) valuesAfter(as *ast.AssignStmt) []ast.Stmt {
	// (Of several values, gc makes the calls first, then stores each
	// place in turn, reading a value without calls as it comes to it:
	// tupleStores' order; one value is made before its store.)
	single := len(as.Lhs) == 1
	first := func(r ast.Expr) bool { return !c.storeSafe(r) || single && c.mayPanicValue(r) }
	effects, places := false, false
	for _, r := range as.Rhs {
		effects = effects || first(r)
	}
	for _, l := range as.Lhs {
		if isIdent(l, "_") || !c.storeSafe(l) {
			return nil
		}
		places = places || c.mayPanic(l)
	}
	if (!effects || !places) && !c.derefBoxes(as) {
		return nil
	}
	// A later place's operands that an earlier store changes: Go reads
	// them before it stores.
	// (A variable stored by name changes that name's reads; a place in
	// memory, reads of memory other than a variable's by name, and a
	// place a pointer leads to, those too: the variable may be there.)
	prior := &priorStores{c: c, named: map[types.Object]bool{}}
	for _, l := range as.Lhs {
		if !c.savePlace(l, func(e *ast.Expr) bool { return !prior.affect(*e) }) {
			return nil
		}
		prior.add(l)
	}
	pos := as.Pos()
	var early, stores []ast.Stmt
	temp := func(t types.Type) (*ast.Ident, *ast.Ident) { return c.storeTemp(t, pos) }
	if len(as.Rhs) == 1 && len(as.Lhs) > 1 {
		// A tuple: l1, l2 = f().
		tuple, ok := c.Types.TypeOf(as.Rhs[0]).(*types.Tuple)
		if !ok || tuple.Len() != len(as.Lhs) {
			return nil
		}
		var defs []ast.Expr
		for i, l := range as.Lhs {
			def, use := temp(tuple.At(i).Type())
			defs = append(defs, def)
			stores = append(stores, &ast.AssignStmt{Lhs: []ast.Expr{l}, TokPos: as.TokPos, Tok: token.ASSIGN, Rhs: []ast.Expr{use}})
		}
		return append([]ast.Stmt{define(pos, defs, as.Rhs[0])}, stores...)
	}
	if len(as.Rhs) != len(as.Lhs) {
		return nil
	}
	prior = &priorStores{c: c, named: map[types.Object]bool{}}
	for i, l := range as.Lhs {
		r := as.Rhs[i]
		if !first(r) && !prior.affect(r) {
			// (A value an earlier store changes is read first, as
			// gc reads it: t[0], t[1] = f(), t[0].)
			stores = append(stores, &ast.AssignStmt{Lhs: []ast.Expr{l}, TokPos: as.TokPos, Tok: as.Tok, Rhs: []ast.Expr{r}})
			prior.add(l)
			continue
		}
		prior.add(l)
		t := c.Types.TypeOf(l)
		if as.Tok != token.ASSIGN {
			// (x op= v: v has its own type, which a shift's count
			// need not share.)
			t = c.Types.TypeOf(r)
			if b, ok := t.(*types.Basic); t == nil || ok && b.Info()&types.IsUntyped != 0 {
				return nil
			}
		}
		def, use := temp(t)
		if rt := c.Types.TypeOf(r); rt != nil && types.Identical(rt, t) {
			// (Of the place's type already: no type written, which
			// in a generic method would name an instance.)
			early = append(early, define(pos, []ast.Expr{def}, r))
		} else if tx, ok := c.TypeExpr(t, pos); ok {
			decl := varDecl(pos, def.Name, tx, r)
			c.Types.Defs[decl.(*ast.DeclStmt).Decl.(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Names[0]] = c.Types.Defs[def]
			early = append(early, decl)
		} else {
			return nil
		}
		stores = append(stores, &ast.AssignStmt{Lhs: []ast.Expr{l}, TokPos: as.TokPos, Tok: as.Tok, Rhs: []ast.Expr{use}})
	}
	return append(early, stores...)
}

// mayPanicValue reports whether evaluating e may panic otherwise than by
// indexing or slicing (whose checks the bounds pass orders): an integer
// division by a variable, a type assertion, a pointer followed.
func (c *Cell) mayPanicValue(e ast.Expr) bool {
	return contains(e, false, func(n ast.Node) bool {
		if s, ok := n.(*ast.StarExpr); ok {
			return !c.Types.IsType(s)
		}
		return c.valuePanics(n)
	})
}

// valuePanics reports whether the node n may panic as it makes its value,
// other than by indexing, slicing or following a pointer: a type
// assertion, an integer division by a variable (shared by mayPanic).
func (c *Cell) valuePanics(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.TypeAssertExpr:
		return true
	case *ast.BinaryExpr:
		return (n.Op == token.QUO || n.Op == token.REM) && c.Types.Types[n.Y].Value == nil && isTypedInteger(c.Types.TypeOf(n.Y))
	}
	return false
}

// priorStores are the places an assignment stored so far (see
// valuesAfter): a variable stored by name changes that name's reads; a
// place in memory, reads of memory other than a variable's by name; a
// place a pointer leads to, those too (the variable may be there).
type priorStores struct {
	c               *Cell
	named           map[types.Object]bool
	memory, pointer bool
}

func (p *priorStores) affect(e ast.Expr) bool {
	return contains(e, false, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			return p.named[p.c.Types.ObjectOf(id)] || p.pointer && p.c.readsMemory(n)
		}
		return p.memory && p.c.readsMemory(n)
	})
}

func (p *priorStores) add(l ast.Expr) {
	if v := p.c.storedVar(l); v != nil {
		p.named[v] = true // (s.x or a[i] stores into s or a)
	}
	switch x := ast.Unparen(l).(type) {
	case *ast.Ident:
	case *ast.StarExpr:
		p.memory, p.pointer = true, true
	case *ast.SelectorExpr:
		sel := p.c.Types.Selections[x]
		p.memory, p.pointer = true, p.pointer || sel == nil || sel.Indirect()
	default:
		p.memory = true
	}
}
