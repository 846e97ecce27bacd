package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"

	"grundy/engine/prelude"
)

// The checks the bounds pass writes: for an index, a slice expression and
// a shift count, the condition under which Go panics and the prelude
// helper that panics with Go's message.

// index checks x[i]. In a loop, or in a recursive function, a check
// costs as much as the indexing (an if, a comparison and a len for each
// index: a loop summing a slice ran 1.75 times as long, a Grundy table's
// loops up to twice, a memoized recursion 1.1 times), a price no loop
// pays for a message: there an index the loop's range bounds goes to the
// loop's checked copy (loopversions.go), and the rest are left to the
// interpreter, whose panic says "index out of range" without "[i] with
// length n".
func (b *boundsPass) index(h *host, fx *facts, x *ast.IndexExpr) {
	t := indexable(b.c.Types.TypeOf(x.X))
	// Vec[int] is an instance, not an index.
	// (An index of a type parameter's type, func At[I ~int](xs []string,
	// i I), too: the interpreter's own message lacks the index.)
	if t == nil || b.c.Types.IsType(x) || !b.c.Types.IsInteger(x.Index) && !integerOrParam(b.c.Types.TypeOf(x.Index)) {
		return
	}
	_, array := t.(*types.Array)
	if _, ok := b.pf.constInt(x.Index); ok && array {
		b.ver.inRange(x)
		return // the compiler checks it
	}
	if b.loops > 0 && b.ver == nil {
		return
	}
	low := b.pf.exprLower(x.Index, fx) < 0
	high := !b.pf.below(x.Index, x.X, fx, b.top)
	if !low && !high {
		b.ver.inRange(x)
		return
	}
	if b.loops > 0 {
		b.ver.index(b, h, x, low, high)
		return
	}
	switch {
	case h.before(x) && b.pureExpr(x.X) && b.pureExpr(x.Index):
		cond, check := b.indexCheck(x, low, high)
		h.add(check, cond)
		h.facts = append(h.facts, b.pf.checked(x.Index, x.X)...)
	case h.here(x) && b.pureExpr(x.X):
		x.Index = b.parse(x.Index.Pos(), prelude.Index+"(int("+b.operand(x.Index)+"), "+b.length(x.X)+")")
	case (isCall(ast.Unparen(x.X)) || isAssert(x.X)) && b.pureExpr(x.Index):
		b.resultIndex(x, low, high)
	}
}

// isAssert reports whether e is a type assertion (x.(Row)[0]).
func isAssert(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.TypeAssertExpr)
	return ok
}

// resultIndex checks x[i] where x is a call (options(2)[k]) or a type
// assertion (x.(Row)[0]), whose value the
// check cannot read again: x is handed to a function literal that checks
// i against it and gives it back,
//
//	func(_grundyBS []int) []int { if k < 0 || k >= len(_grundyBS) { _grundyOutOfRange(k, len(_grundyBS)) }; return _grundyBS }(options(2))[k]
//
// an index expression still (f()[k] = v stays an assignment). It costs a
// closure each time, so not in a loop (see index).
func (b *boundsPass) resultIndex(x *ast.IndexExpr, low, high bool) {
	pos := x.X.Pos()
	tx, ok1 := b.c.TypeExpr(b.c.Types.TypeOf(x.X), pos)
	rx, ok2 := b.c.TypeExpr(b.c.Types.TypeOf(x.X), pos)
	if !ok1 || !ok2 {
		return
	}
	const s = tempPrefix + "BS"
	i, n := b.operand(x.Index), "len("+s+")"
	cond := indexCond(i, n, b.c.Types.TypeOf(x.Index), low, high)
	lit := b.parse(pos, "func("+s+" _T) _T { if "+cond+" { "+prelude.OutOfRange+"("+i+", "+n+") }; return "+s+" }").(*ast.FuncLit)
	lit.Type.Params.List[0].Type, lit.Type.Results.List[0].Type = tx, rx
	x.X = &ast.CallExpr{Fun: lit, Lparen: pos, Args: []ast.Expr{x.X}, Rparen: x.X.End()}
}

// indexCheck is the check of x[i] to go before its statement: of i < 0
// where low, of i >= len(x) where high.
func (b *boundsPass) indexCheck(x *ast.IndexExpr, low, high bool) (string, ast.Stmt) {
	i, n := b.operand(x.Index), b.length(x.X)
	cond := indexCond(i, n, b.c.Types.TypeOf(x.Index), low, high)
	return cond, b.check(x.Pos(), cond, prelude.OutOfRange+"("+i+", "+n+")")
}

// indexCond is the condition that the index i, of type it, is out of a
// length n: below 0 where low, n or above where high.
func indexCond(i, n string, it types.Type, low, high bool) string {
	cond := i + " >= " + n
	if isUnsigned(it) {
		cond = "uint64(" + i + ") >= uint64(" + n + ")"
	} else if !isInt(it) {
		cond = "int(" + i + ") >= " + n
	}
	switch {
	case low && high:
		cond = i + " < 0 || " + cond
	case low:
		cond = i + " < 0"
	}
	return cond
}

// length is Go source for the length of x: its array type's, or len(x).
func (b *boundsPass) length(x ast.Expr) string {
	for _, l := range b.pf.lengths(x, nil) {
		if l.base == nil {
			return itoa(int(l.k))
		}
	}
	return "len(" + b.c.typedSource(x) + ")"
}

// slice checks x[lo:hi] and x[lo:hi:max], whose bounds are integers,
// before its statement; bounds of other integer types than int (uint8, a
// cell's type Pos int) are compared as ints, and passed as they are for
// the message.
func (b *boundsPass) slice(h *host, fx *facts, x *ast.SliceExpr) {
	t := indexable(b.c.Types.TypeOf(x.X))
	if t == nil || b.loops > 0 || !h.before(x) || !b.pureExpr(x.X) {
		return
	}
	for _, e := range []ast.Expr{x.Low, x.High, x.Max} {
		if e != nil && (!isInteger(b.c.Types.TypeOf(e)) && !integerOrParam(b.c.Types.TypeOf(e)) || !b.pureExpr(e)) {
			return
		}
	}
	limit, capacity := b.length(x.X), "false"
	if _, ok := t.(*types.Slice); ok {
		limit, capacity = "cap("+b.c.typedSource(x.X)+")", "true"
	}
	src := func(e ast.Expr, def string) string {
		if e == nil {
			return def
		}
		return b.operand(e)
	}
	lo, hi, mx := src(x.Low, "0"), src(x.High, b.length(x.X)), src(x.Max, "nil")
	asInt := func(e ast.Expr, s string) string {
		if e == nil || isInt(b.c.Types.TypeOf(e)) {
			return s
		}
		return "int(" + s + ")"
	}
	ilo, ihi, imx := asInt(x.Low, lo), asInt(x.High, hi), asInt(x.Max, mx)
	var parts []string
	neg := func(e ast.Expr, s string) {
		if e != nil && b.pf.exprLower(e, fx) < 0 {
			parts = append(parts, s+" < 0")
		}
	}
	if x.Slice3 {
		neg(x.Max, mx)
		parts = append(parts, imx+" > "+limit)
		neg(x.High, hi)
		parts = append(parts, ihi+" > "+imx)
	} else if x.High != nil {
		neg(x.High, hi)
		parts = append(parts, ihi+" > "+limit)
	}
	if x.Low != nil {
		neg(x.Low, lo)
		parts = append(parts, ilo+" > "+ihi)
	}
	if len(parts) == 0 {
		return
	}
	cond := parts[0]
	for _, p := range parts[1:] {
		cond += " || " + p
	}
	h.add(b.check(x.Pos(), cond, prelude.SliceBounds+"("+lo+", "+hi+", "+mx+", "+limit+", "+capacity+")"), cond+" "+limit)
}

// shift checks the count of a shift (the operand at count).
func (b *boundsPass) shift(h *host, fx *facts, at ast.Node, count *ast.Expr) {
	if b.pf.exprLower(*count, fx) >= 0 {
		return
	}
	k := b.operand(*count)
	switch {
	case h.before(at) && b.pureExpr(*count) && (h.loop == nil || b.invariant(*count, h.loop)):
		if _, simple := ast.Unparen(*count).(*ast.Ident); !simple && !b.gotos {
			// (Not where a goto could jump over the variable.)
			// Evaluated once, into a variable.
			tmp := b.c.Temp("K")
			pos := (*count).Pos()
			h.checks = append(h.checks, &ast.AssignStmt{Lhs: []ast.Expr{ident(tmp, pos)}, Tok: token.DEFINE, TokPos: pos, Rhs: []ast.Expr{*count}})
			*count, k = ident(tmp, pos), tmp
		}
		h.checks = append(h.checks, b.check(at.Pos(), k+" < 0", prelude.NegShift+"()"))
	case h.here(at):
		*count = b.parse((*count).Pos(), prelude.ShiftCount+"(int64("+k+"))")
	}
}

// invariant reports whether e, of variables, constants and arithmetic
// that cannot panic, has the same value all through loop.
func (b *boundsPass) invariant(e ast.Expr, loop ast.Node) bool {
	var vars []types.Object
	safe := !contains(e, false, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			if v, ok := b.c.Types.ObjectOf(x).(*types.Var); ok {
				vars = append(vars, v)
			}
			return false
		case *ast.BinaryExpr:
			return x.Op == token.QUO || x.Op == token.REM
		case *ast.ParenExpr, *ast.BasicLit, *ast.UnaryExpr:
			return false
		}
		return true
	})
	return safe && b.pf.unchanged(vars, loop)
}

func isCall(n ast.Node) bool {
	_, ok := n.(*ast.CallExpr)
	return ok
}

// operand is Go source for e as an operand: in parentheses unless it is
// one already. (Not "(i) < 0 || ...": yaegi v0.16.1 fails on a
// parenthesized identifier in the left operand of || and &&, with a nil
// dereference.)
func (b *boundsPass) operand(e ast.Expr) string {
	switch ast.Unparen(e).(type) {
	case *ast.Ident, *ast.BasicLit, *ast.SelectorExpr, *ast.IndexExpr, *ast.CallExpr:
		return b.c.typedSource(ast.Unparen(e))
	}
	return "(" + b.c.typedSource(e) + ")"
}

// check is "if cond { fail }" at pos.
func (b *boundsPass) check(pos token.Pos, cond, fail string) ast.Stmt {
	lit := b.parse(pos, "func() { if "+cond+" { "+fail+" } }").(*ast.FuncLit)
	return lit.Body.List[0]
}

func (b *boundsPass) parse(pos token.Pos, src string) ast.Expr {
	e, err := parser.ParseExpr(src)
	if err != nil {
		panic("bounds: " + err.Error() + " in " + src)
	}
	return AtPos(e, pos)
}

// isUnsigned reports whether t is an unsigned integer type.
func isUnsigned(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsUnsigned != 0
}

// isInteger reports whether t's underlying type is an integer type.
func isInteger(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// isInt reports whether t is int or an untyped constant's type.
func isInt(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && (b.Kind() == types.Int || b.Info()&types.IsUntyped != 0 && b.Info()&types.IsInteger != 0)
}
