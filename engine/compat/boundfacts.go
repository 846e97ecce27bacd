package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The facts of the bounds pass's proofs: what a loop's condition, a range,
// an if, an early exit or a passed check establishes of a variable
// ("i < len(s)", "i >= 1"), over the part of the cell where nothing
// changes it; and what the length of a slice is known to be.

// affine is base + k, base nil for a constant k.
type affine struct {
	base ast.Expr
	k    int64
}

func (p *proofs) affineOf(e ast.Expr) affine {
	e = ast.Unparen(e)
	if c, ok := p.constInt(e); ok {
		return affine{nil, c}
	}
	if b, ok := e.(*ast.BinaryExpr); ok && (b.Op == token.ADD || b.Op == token.SUB) {
		if c, ok := p.constInt(b.Y); ok {
			a := p.affineOf(b.X)
			if b.Op == token.SUB {
				c = -c
			}
			return affine{a.base, a.k + c}
		}
		if c, ok := p.constInt(b.X); ok && b.Op == token.ADD {
			a := p.affineOf(b.Y)
			return affine{a.base, a.k + c}
		}
	}
	return affine{e, 0}
}

// same reports whether two expressions the cell wrote denote the same
// value by their syntax (same variables, same operations).
func (p *proofs) same(a, b ast.Expr) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	a, b = ast.Unparen(a), ast.Unparen(b)
	switch x := a.(type) {
	case *ast.Ident:
		y, ok := b.(*ast.Ident)
		if !ok {
			return false
		}
		ox, oy := p.c.Types.ObjectOf(x), p.c.Types.ObjectOf(y)
		if ox == nil || oy == nil {
			// The pass's own "len" is the builtin.
			_, bx := ox.(*types.Builtin)
			_, by := oy.(*types.Builtin)
			return x.Name == y.Name && (ox == nil || bx) && (oy == nil || by)
		}
		return ox == oy
	case *ast.CallExpr:
		y, ok := b.(*ast.CallExpr)
		if !ok || !p.c.isBuiltin(x.Fun) || !p.same(x.Fun, y.Fun) || len(x.Args) != len(y.Args) {
			return false
		}
		for i := range x.Args {
			if !p.same(x.Args[i], y.Args[i]) {
				return false
			}
		}
		return true
	case *ast.SelectorExpr:
		y, ok := b.(*ast.SelectorExpr)
		return ok && x.Sel.Name == y.Sel.Name && p.same(x.X, y.X)
	}
	return false
}

// fact is "v < bound" (upper) or "v >= low" (not upper), holding over
// a part of the cell.
type fact struct {
	v     types.Object
	upper bool
	bound affine
	low   int64
}

// facts are those holding where the pass is.
type facts struct{ list []fact }

func (fx *facts) with(more []fact) *facts {
	if len(more) == 0 {
		return fx
	}
	out := &facts{}
	if fx != nil {
		out.list = append(out.list, fx.list...)
	}
	out.list = append(out.list, more...)
	return out
}

func (fx *facts) lowerOf(v types.Object) int64 {
	lo := int64(noLower)
	if fx != nil {
		for _, f := range fx.list {
			if f.v == v && !f.upper {
				lo = max(lo, f.low)
			}
		}
	}
	return lo
}

// conds are the facts a condition establishes when it is true (negated:
// false).
func (p *proofs) conds(e ast.Expr, negated bool) []fact {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.NOT {
			return p.conds(u.X, !negated)
		}
		return nil
	}
	switch {
	case b.Op == token.LAND && !negated, b.Op == token.LOR && negated:
		return append(p.conds(b.X, negated), p.conds(b.Y, negated)...)
	}
	op, x, y := b.Op, b.X, b.Y
	if negated {
		op = map[token.Token]token.Token{token.LSS: token.GEQ, token.LEQ: token.GTR, token.GTR: token.LEQ, token.GEQ: token.LSS}[op]
	}
	// Written with the variable on the left.
	if _, ok := ast.Unparen(x).(*ast.Ident); !ok {
		x, y = y, x
		op = map[token.Token]token.Token{token.LSS: token.GTR, token.LEQ: token.GEQ, token.GTR: token.LSS, token.GEQ: token.LEQ}[op]
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := p.c.Types.ObjectOf(id).(*types.Var)
	if !ok || !isTypedInteger(v.Type()) {
		return nil
	}
	bound := p.affineOf(y)
	switch op {
	case token.LSS:
		return []fact{{v: v, upper: true, bound: bound}}
	case token.LEQ:
		return []fact{{v: v, upper: true, bound: affine{bound.base, bound.k + 1}}}
	case token.GEQ, token.GTR:
		if bound.base == nil {
			low := bound.k
			if op == token.GTR {
				low++
			}
			return []fact{{v: v, low: low}}
		}
	}
	return nil
}

// stable keeps the facts that hold all over region: nothing in it sets
// their variables (nor, for a variable that code elsewhere may set,
// calls code of the cell's).
func (p *proofs) stable(fs []fact, region ast.Node) []fact {
	var out []fact
	for _, f := range fs {
		vars := []types.Object{f.v}
		if f.upper && f.bound.base != nil {
			ok := true
			ast.Inspect(f.bound.base, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					switch obj := p.c.Types.ObjectOf(n).(type) {
					case *types.Var:
						vars = append(vars, obj)
					case *types.Const, *types.Builtin, *types.TypeName, nil: // (nil: the pass's own "len")
					default:
						ok = false
					}
				case *ast.CallExpr:
					if !p.c.isBuiltin(n.Fun) || !isIdent(n.Fun, "len") && !isIdent(n.Fun, "cap") {
						ok = false
					}
				case *ast.BinaryExpr, *ast.ParenExpr, *ast.BasicLit:
				default:
					if n != nil {
						ok = false
					}
				}
				return ok
			})
			if !ok {
				continue
			}
		}
		if p.unchanged(vars, region) {
			out = append(out, f)
		}
	}
	return out
}

func (p *proofs) unchanged(vars []types.Object, region ast.Node) bool {
	for _, v := range vars {
		elsewhere := p.top[v] // other cells' code may set it
		for _, w := range p.writes[v] {
			switch {
			case w.depth > 0:
				// An element or field: a length stays.
			case w.addr:
				return false
			case w.param:
				// A call's argument: another frame's.
			case within(w.node.Pos(), region):
				return false
			case w.lit != nil && !within(v.Pos(), w.lit):
				elsewhere = true // a function literal may run anywhere
			}
		}
		if elsewhere && p.callsCellCode(region) {
			return false
		}
	}
	return true
}

// elementSet reports whether region sets an element (or a field) of v.
func (p *proofs) elementSet(v types.Object, region ast.Node) bool {
	for _, w := range p.writes[v] {
		if w.depth > 0 && within(w.node.Pos(), region) {
			return true
		}
	}
	return false
}

// callsCellCode reports whether region may run code of the cells (a call
// other than of a builtin, a conversion or a package's function).
func (p *proofs) callsCellCode(region ast.Node) bool {
	return contains(region, false, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || p.c.isBuiltin(call.Fun) || p.c.Types.IsType(call.Fun) {
			return false
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				if _, pkg := p.c.Types.ObjectOf(id).(*types.PkgName); pkg {
					return false
				}
			}
		}
		return true
	})
}

// lengths are what the length of x is known to be: len(x) itself, a
// constant for an array, and n for a variable made once with make(T, n)
// from values nothing changes.
//
// A variable of the cell's top level is made once if this cell makes it
// once, and the length holds in the top-level statement top (nil in a
// function) if that statement comes after and calls no code of the cells'.
func (p *proofs) lengths(x ast.Expr, top ast.Stmt) []affine {
	out := []affine{{lenCall(x), 0}}
	t := p.c.Types.TypeOf(x)
	if t == nil {
		return nil
	}
	if ptr, ok := t.Underlying().(*types.Pointer); ok {
		t = ptr.Elem()
	}
	if a, ok := t.Underlying().(*types.Array); ok {
		return append(out, affine{nil, a.Len()})
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return out
	}
	obj := p.c.Types.ObjectOf(id)
	ws := p.own(obj)
	if len(ws) != 1 || ws[0].rhs == nil || ws[0].lit != nil && !within(obj.Pos(), ws[0].lit) {
		return out
	}
	if p.top[obj] && (top == nil || ws[0].node.Pos() >= top.Pos() || p.callsCellCode(top)) {
		return out
	}
	mk, ok := ast.Unparen(ws[0].rhs).(*ast.CallExpr)
	if !ok || !isIdent(mk.Fun, "make") || !p.c.isBuiltin(mk.Fun) || len(mk.Args) < 2 {
		return out
	}
	n := p.affineOf(mk.Args[1])
	if n.base != nil && !p.fixed(n.base) {
		return out
	}
	return append(out, n)
}

// own are the writes that set v itself (not an element or field).
func (p *proofs) own(v types.Object) []write {
	var out []write
	for _, w := range p.writes[v] {
		if w.depth == 0 {
			out = append(out, w)
		}
	}
	return out
}

// changes are the writes that set v itself but for its parameter values.
func (p *proofs) changes(v types.Object) []write {
	var out []write
	for _, w := range p.own(v) {
		if !w.param {
			out = append(out, w)
		}
	}
	return out
}

func within(pos token.Pos, n ast.Node) bool { return n.Pos() <= pos && pos < n.End() }

// fixed reports whether an expression's variables are set once, where
// declared (parameters never assigned, variables defined and never set).
func (p *proofs) fixed(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			switch obj := p.c.Types.ObjectOf(n).(type) {
			case *types.Var:
				if ws := p.changes(obj); p.top[obj] || len(ws) > 1 || len(ws) == 1 && ws[0].lit != nil && !within(obj.Pos(), ws[0].lit) {
					ok = false
				}
			case *types.Const, *types.Builtin:
			default:
				ok = false
			}
		case *ast.BinaryExpr, *ast.ParenExpr, *ast.BasicLit, nil:
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// lenCall is len(x), as the facts write it (its len has no object: same
// takes it for the builtin).
func lenCall(x ast.Expr) ast.Expr {
	return &ast.CallExpr{Fun: ast.NewIdent("len"), Args: []ast.Expr{x}}
}

// checked is what a check of index against len(x) establishes once
// passed: v + d < len(x) and v + d >= 0, for an index v + d.
func (p *proofs) checked(index, x ast.Expr) []fact {
	i := p.affineOf(index)
	id, ok := i.base.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := p.c.Types.ObjectOf(id).(*types.Var)
	if !ok {
		return nil
	}
	return []fact{{v: v, upper: true, bound: affine{lenCall(x), -i.k}}, {v: v, low: -i.k}}
}

// below reports whether index < len(x) where facts fx hold (in the
// top-level statement top, nil in a function).
func (p *proofs) below(index, x ast.Expr, fx *facts, top ast.Stmt) bool {
	i := p.affineOf(index)
	lens := p.lengths(x, top)
	if i.base == nil {
		for _, l := range lens {
			if l.base == nil && i.k < l.k {
				return true
			}
		}
		return false
	}
	for _, l := range lens {
		if l.base != nil && p.same(i.base, l.base) && i.k < l.k {
			return true // len(x) - 1
		}
	}
	id, ok := i.base.(*ast.Ident)
	if !ok || fx == nil || wraps(p.c.Types.TypeOf(index)) {
		return false
	}
	v := p.c.Types.ObjectOf(id)
	for _, f := range fx.list {
		if f.v != v || !f.upper {
			continue
		}
		for _, l := range lens {
			if p.same(f.bound.base, l.base) && f.bound.k+i.k <= l.k {
				return true
			}
		}
	}
	return false
}
