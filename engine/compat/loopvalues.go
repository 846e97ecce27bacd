package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"

	"grundy/engine/prelude"
)

// Loops over the values of an []int (for _, s := range S): their
// variable's bounds are S's least and greatest values, which the runtime
// finds natively, once before the loop around where that loop keeps S
// (hoisted), so that a Grundy table's g[i-s] costs its loop nothing
// where the bounds say it stays in range.

// valueVersionable is the loop's version if s ranges over the elements of
// an []int variable whose elements the loop cannot change (for _, s :=
// range S): the least and the greatest element, which the runtime finds
// before the loop (natively, the cost of one call each), bound the loop's
// variable, so that a subtraction set's g[i-s] or a histogram's hist[v]
// is checked in the copy. The calls go before an outer loop that keeps S
// as it is; with none, only where the loop runs once (among a cell's
// statements, in no other loop).
// (Set through another slice sharing S's array, an element could leave
// those bounds: the loop then runs unchecked, with the interpreter's
// message, as without a copy.)
func (b *boundsPass) valueVersionable(s *ast.RangeStmt) *loopVersion {
	id, ok := s.Value.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := b.c.Types.ObjectOf(id).(*types.Var)
	if !ok || !types.Identical(v.Type(), types.Typ[types.Int]) || !b.pf.unchanged([]types.Object{v}, s.Body) {
		return nil
	}
	x, ok := ast.Unparen(s.X).(*ast.Ident)
	if !ok || !isVar(b.c, x) {
		return nil
	}
	xv := b.c.Types.ObjectOf(x)
	elems, ok := xv.Type().(*types.Slice) // (a named slice type would need a conversion)
	if !ok || !types.Identical(elems.Elem(), types.Typ[types.Int]) || !b.pf.unchanged([]types.Object{xv}, s) || b.pf.callsCellCode(s) {
		return nil
	}
	if b.pf.elementSet(xv, s) {
		return nil
	}
	src := b.c.typedSource(x)
	lv := &loopVersion{loop: s, v: v, seen: map[string]bool{}, safe: map[*ast.IndexExpr]bool{}}
	lo := prelude.Runtime + "." + prelude.RTMinInt + "(" + src + ")"
	hi := prelude.Runtime + "." + prelude.RTMaxInt + "(" + src + ")"
	if outer := b.ver; outer != nil && !within(xv.Pos(), outer.loop) && b.pf.unchanged([]types.Object{xv}, outer.loop) && !b.pf.callsCellCode(outer.loop) && !b.pf.elementSet(xv, outer.loop) {
		// In a loop that keeps S as it is (the table's loop around
		// the subtraction set's), the two calls go before that loop,
		// not before each run of this one.
		lv.hoist = &hoisted{outer: outer, names: []string{b.c.Temp("Least"), b.c.Temp("Greatest")}, values: []string{lo, hi}}
		lo, hi = lv.hoist.names[0], lv.hoist.names[1]
	} else if b.top == nil || b.loops > 1 {
		// In a function, or in another loop, which may run the loop
		// often for a few elements (a move generator's for _, s :=
		// range S), two calls each time cost more than the loop.
		return nil
	}
	lv.lo, lv.hi = bound{lo, 0}, bound{hi, 0}
	if lv.hoist != nil {
		lv.read(lv.hoist)
	}
	return lv
}

// hoisted are values a loop's condition reads, evaluated once before an
// outer loop rather than each time before the loop: names declared
// before, with their values.
type hoisted struct {
	outer    *loopVersion
	names    []string
	values   []string
	declared bool
	failed   bool // where the names cannot be declared (a labelled loop)
}

// lift gives x, i - s with s ranging over S's values (see
// valueVersionable) and i the variable of the loop around, to that loop:
// i's bounds and S's, known before it, tell whether x stays in range, so
// where it does the loop over S runs with no condition of its own.
func (lv *loopVersion) lift(b *boundsPass, h *host, x *ast.IndexExpr, low, high bool) bool {
	be, ok := ast.Unparen(x.Index).(*ast.BinaryExpr)
	if lv.hoist == nil || !ok || be.Op != token.SUB || !b.isVarIdent(be.Y, lv.v) {
		return false
	}
	o := lv.hoist.outer
	t, ok := ast.Unparen(x.X).(*ast.Ident)
	if !ok || !b.isVarIdent(be.X, o.v) || b.guarded != o.guarded || labelOf(b.c, o.loop) != nil {
		return false // (a labelled loop is not copied)
	}
	tv, ok := b.c.Types.ObjectOf(t).(*types.Var)
	if !ok || within(tv.Pos(), o.loop) || !b.pf.unchanged([]types.Object{tv}, o.loop) {
		return false
	}
	n := b.length(x.X)
	if low {
		o.add([]string{lv.hi.minus(o.lo.plus(0)) + " >= 0"})
	}
	if high {
		o.add([]string{lv.lo.minus(o.hi.plus(0)) + " < " + n})
	}
	o.read(lv.hoist)
	o.inRange(x)
	lv.inRange(x)
	o.check(b, h, x, low, high)
	return true
}

// read notes that the loop's condition reads hoisted values.
func (lv *loopVersion) read(h *hoisted) {
	if !slices.Contains(lv.reads, h) {
		lv.reads = append(lv.reads, h)
	}
}

// declareHoisted declares h's names before its outer loop (before the loops
// around this one are copied, so that each copy has them), reporting
// whether it could.
func declareHoisted(c *Cell, h *hoisted) bool {
	list, i := stmtListOf(c.Roots(), h.outer.loop)
	if l := labelOf(c, h.outer.loop); l != nil {
		list, i = stmtListOf(c.Roots(), l)
	}
	if list == nil {
		return false
	}
	pos := h.outer.loop.Pos()
	var decls []ast.Stmt
	for k, name := range h.names {
		v, err := parser.ParseExpr(h.values[k])
		if err != nil {
			panic("loopversions: " + err.Error() + " in " + h.values[k])
		}
		decls = append(decls, &ast.AssignStmt{Lhs: []ast.Expr{ident(name, pos)}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{AtPos(v, pos)}})
	}
	*list = append((*list)[:i], append(decls, (*list)[i:]...)...)
	return true
}

// labelOf is the labelled statement that is loop, if any.
func labelOf(c *Cell, loop ast.Stmt) *ast.LabeledStmt {
	var l *ast.LabeledStmt
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if ls, ok := n.(*ast.LabeledStmt); ok && ls.Stmt == loop {
				l = ls
			}
			return l == nil
		})
	}
	return l
}
