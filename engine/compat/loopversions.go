package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"strings"
)

// loopVersions: the checks of a loop's indexes, in a copy of the loop that
// runs only where an index may be out of range. In a loop the bounds pass
// leaves an index it cannot prove in range to the interpreter, whose panic
// says "index out of range" without Go's "[3] with length 3" (a check
// there costs as much as the indexing, see index). But where the loop
// counts (for i := A; i < B; i++, or down, i--, by a constant step or a
// positive one that stays the same; for i := range n; for i := range s)
// and an index is i plus a constant or an expression that stays the same
// through the loop (t[i-1], dp[j-w[k]]), or itself stays the same, of a
// variable, or a row of a slice of slices, whose length the loop cannot
// change, the loop's range says before it runs whether the index can
// leave its bounds; so the loop runs as written where it cannot, and as a
// copy with the checks where it may:
//
//	for i := 0; i <= len(s); i++ { t += s[i] }
//	=>
//	if len(s) < len(s) {
//		for i := 0; i <= len(s); i++ { t += s[i] }
//	} else {
//		for i := 0; i <= len(s); i++ { if i >= len(s) { _grundyOutOfRange(i, len(s)) }; t += s[i] }
//	}
//
// (A loop known to leave the bounds is only the copy. An index in an if's
// or a case's body is left out: its condition may keep it in range, which
// the loop's bounds do not tell, and every run would take the copy.)
// Where the condition reads an element (w[k]) or measures a row
// (len(b[0])), it first asks whether their indexes are in range, so that
// it cannot panic where the loop would not. The bounds pass
// works out the condition and the checks (versionable, index); this pass,
// the last, makes the copy, once the other passes have rewritten the loop:
// a loop they replaced, or gave a label, keeps no checks. Loops nest two
// deep at most (maxVersionDepth: an inner loop's copies are copied with
// the outer loop's).
var loopVersions = Pass{
	Name:     "loopversions",
	Run:      runLoopVersions,
	Kinds:    []ast.Node{(*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)},
	Snippets: []string{"bounds_loop_message"},
	After:    []string{"bounds"},
}

const maxVersionDepth = 2

// loopVersion is a counting loop whose indexes the bounds pass checks in a
// copy.
type loopVersion struct {
	loop    ast.Stmt     // a *ast.ForStmt or *ast.RangeStmt
	v       types.Object // the loop's variable
	lo, hi  bound        // its least and greatest values
	depth   int          // versioned loops around it
	guarded int          // the if, case and select bodies around it (see boundsPass.guarded)
	conds   []string     // the condition under which no index leaves its bounds
	seen    map[string]bool
	safe    map[*ast.IndexExpr]bool // its indexes that stay in range or are checked
	never   bool                    // an index surely leaves its bounds: only the copy
	checks  []versionCheck
	pre     ast.Expr
	hoist   *hoisted   // the bounds of its variable, computed before an outer loop
	reads   []*hoisted // hoisted values its condition reads
	direct  ast.Expr   // the condition with those values computed in place
}

// bound is src + off (src "" for the constant off).
type bound struct {
	src string
	off int64
}

func (x bound) plus(k int64) string {
	switch n := x.off + k; {
	case x.src == "":
		return itoa(int(n))
	case n > 0:
		return x.src + " + " + itoa(int(n))
	case n < 0:
		return x.src + " - " + itoa(int(-n))
	}
	return x.src
}

// minus is k - x, with x's parts subtracted one by one: a bound in
// parentheses would keep an identifier or a literal there, which yaegi
// v0.16.1 cannot compare (see parens).
func (x bound) minus(k string) string {
	s := k
	switch {
	case x.src == "":
	case strings.Contains(x.src, " "):
		s += " - (" + x.src + ")"
	default:
		s += " - " + x.src
	}
	switch {
	case x.off > 0:
		s += " - " + itoa(int(x.off))
	case x.off < 0:
		s += " + " + itoa(int(-x.off))
	}
	return s
}

type versionCheck struct {
	at    ast.Stmt // the statement the check goes before
	check ast.Stmt
}

// versionable is the loop's version if s counts through an int variable
// between bounds it cannot change.
func (b *boundsPass) versionable(s *ast.ForStmt) *loopVersion {
	if b.gotos || s.Init == nil || s.Cond == nil || s.Post == nil || hasLabel(s.Body) {
		return nil
	}
	init, ok := s.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return nil
	}
	id, ok := init.Lhs[0].(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := b.c.Types.ObjectOf(id).(*types.Var)
	if !ok || !types.Identical(v.Type(), types.Typ[types.Int]) || !b.pf.unchanged([]types.Object{v}, s.Body) {
		return nil
	}
	cond, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	op, limit := cond.Op, cond.Y
	if !b.isVarIdent(cond.X, v) {
		if !b.isVarIdent(cond.Y, v) {
			return nil
		}
		limit = cond.X
		switch op { // n > i is i < n
		case token.LSS, token.LEQ, token.GTR, token.GEQ:
			op = map[token.Token]token.Token{token.LSS: token.GTR, token.LEQ: token.GEQ, token.GTR: token.LSS, token.GEQ: token.LEQ}[op]
		}
	}
	step := b.step(s.Post, v, s)
	g1, ok1 := b.invariantGuarded(init.Rhs[0], s)
	g2, ok2 := b.invariantGuarded(limit, s)
	if !ok1 || !ok2 || step == 0 {
		return nil
	}
	lv := &loopVersion{loop: s, v: v, seen: map[string]bool{}, safe: map[*ast.IndexExpr]bool{}}
	lv.add(append(g1, g2...)) // (for c := 0; c < len(b[0]); c++: b[0] measured before the loop)
	start, end := b.boundOf(init.Rhs[0]), b.boundOf(limit)
	switch {
	case op == token.LSS && step > 0:
		lv.lo, lv.hi = start, bound{end.src, end.off - 1}
	case op == token.LEQ && step > 0:
		lv.lo, lv.hi = start, end
	case op == token.GTR && step < 0:
		lv.lo, lv.hi = bound{end.src, end.off + 1}, start
	case op == token.GEQ && step < 0:
		lv.lo, lv.hi = end, start
	default:
		return nil
	}
	return lv
}

// rangeVersionable is the loop's version if s ranges over an integer, or
// over a slice, an array or a string variable, with an int key it cannot
// change: for i := range n + 1, for i := range t.
func (b *boundsPass) rangeVersionable(s *ast.RangeStmt) *loopVersion {
	if b.gotos || s.Tok != token.DEFINE || hasLabel(s.Body) {
		return nil
	}
	id, ok := s.Key.(*ast.Ident)
	if !ok {
		return nil
	}
	if id.Name == "_" {
		return b.valueVersionable(s)
	}
	v, ok := b.c.Types.ObjectOf(id).(*types.Var)
	if !ok || !types.Identical(v.Type(), types.Typ[types.Int]) || !b.pf.unchanged([]types.Object{v}, s.Body) {
		return nil
	}
	lv := &loopVersion{loop: s, v: v, seen: map[string]bool{}, safe: map[*ast.IndexExpr]bool{}, lo: bound{"", 0}}
	switch t := b.c.Types.TypeOf(s.X); {
	case b.c.Types.IsInteger(s.X):
		if !b.invariantBound(s.X, s) {
			return nil
		}
		end := b.boundOf(s.X)
		lv.hi = bound{end.src, end.off - 1}
	case indexable(t) != nil:
		x, ok := ast.Unparen(s.X).(*ast.Ident)
		if !ok || !isVar(b.c, x) || !b.pf.unchanged([]types.Object{b.c.Types.ObjectOf(x)}, s) {
			return nil
		}
		n := b.length(x)
		if k, err := strconv.ParseInt(n, 10, 64); err == nil {
			lv.hi = bound{"", k - 1}
		} else {
			lv.hi = bound{n, -1}
		}
	default:
		return nil
	}
	return lv
}

// loopReplaced tells the loop versions that a pass wrote the loop old as
// the loop new, with the same body (rangeInt's counting loop).
func (c *Cell) loopReplaced(old ast.Stmt, new *ast.ForStmt) {
	for _, lv := range c.loopVersions {
		if lv.loop == old {
			lv.loop = new
		}
	}
}

// hasLabel reports whether a loop's body declares a label (a copy of the
// loop would declare it twice).
func hasLabel(body ast.Node) bool {
	return contains(body, false, func(n ast.Node) bool {
		_, l := n.(*ast.LabeledStmt)
		return l
	})
}

func (b *boundsPass) isVarIdent(e ast.Expr, v types.Object) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && b.c.Types.ObjectOf(id) == v
}

// step is what a loop's post statement adds to v: i++, i -= 2, or the
// sign of a positive variable it adds (j += i); 0 for any other.
func (b *boundsPass) step(post ast.Stmt, v types.Object, loop ast.Node) int64 {
	switch s := post.(type) {
	case *ast.IncDecStmt:
		if b.isVarIdent(s.X, v) {
			if s.Tok == token.INC {
				return 1
			}
			return -1
		}
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 || !b.isVarIdent(s.Lhs[0], v) {
			return 0
		}
		k, ok := b.pf.constInt(s.Rhs[0])
		if !ok && b.invariantBound(s.Rhs[0], loop) && b.pf.exprLower(s.Rhs[0], nil) >= 1 {
			k, ok = 1, true // j += i, i >= 1 all through the loop
		}
		switch {
		case !ok || k <= 0:
		case s.Tok == token.ADD_ASSIGN:
			return k
		case s.Tok == token.SUB_ASSIGN:
			return -k
		}
	}
	return 0
}

func (b *boundsPass) boundOf(e ast.Expr) bound {
	a := b.pf.affineOf(e)
	if a.base == nil {
		return bound{"", a.k}
	}
	return bound{b.operand(a.base), a.k}
}

// invariantBound reports whether e has one value all through loop and
// before it: of constants and variables declared outside it that it
// cannot change, with +, - and *, and len of such a variable.
func (b *boundsPass) invariantBound(e ast.Expr, loop ast.Node) bool {
	guards, ok := b.invariantGuarded(e, loop)
	return ok && len(guards) == 0
}

// invariantGuarded is invariantBound allowing elements of slices or
// arrays the loop cannot change (w[i] in dp[j-w[i]], the loop calling no
// cell code), with the conditions under which e can be evaluated before
// the loop: their indexes in range.
func (b *boundsPass) invariantGuarded(e ast.Expr, loop ast.Node) ([]string, bool) {
	var guards []string
	var vars []types.Object
	variable := func(x ast.Expr) (*types.Var, bool) {
		id, isId := ast.Unparen(x).(*ast.Ident)
		if !isId {
			return nil, false
		}
		v, isVar := b.c.Types.ObjectOf(id).(*types.Var)
		if !isVar || within(v.Pos(), loop) {
			return nil, false
		}
		vars = append(vars, v)
		return v, true
	}
	var walk func(e ast.Expr) bool
	walk = func(e ast.Expr) bool {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			if _, c := b.c.Types.ObjectOf(x).(*types.Const); c {
				return true
			}
			_, ok := variable(x)
			return ok
		case *ast.BasicLit:
			return true
		case *ast.UnaryExpr:
			return (x.Op == token.SUB || x.Op == token.ADD) && walk(x.X)
		case *ast.BinaryExpr:
			return (x.Op == token.ADD || x.Op == token.SUB || x.Op == token.MUL) && walk(x.X) && walk(x.Y)
		case *ast.CallExpr:
			if !isIdent(x.Fun, "len") || !b.c.isBuiltin(x.Fun) || len(x.Args) != 1 {
				return false
			}
			if row, ok := ast.Unparen(x.Args[0]).(*ast.IndexExpr); ok {
				return walk(row) // len(b[0])
			}
			_, ok := variable(x.Args[0])
			return ok
		case *ast.IndexExpr:
			v, ok := variable(x.X)
			if !ok || indexable(v.Type()) == nil || !isInt(b.c.Types.TypeOf(x.Index)) || b.pf.callsCellCode(loop) || !walk(x.Index) || b.pf.elementSet(v, loop) {
				return false
			}
			i := b.operand(x.Index)
			if b.pf.exprLower(x.Index, nil) < 0 {
				guards = append(guards, i+" >= 0")
			}
			guards = append(guards, i+" < "+b.length(x.X))
			return true
		}
		return false
	}
	ok := walk(e) && b.pf.unchanged(vars, loop)
	return guards, ok
}

// index takes x[i] (low: i may be negative; high: i may reach len(x))
// into the loop's checked copy if the loop's bounds tell beforehand
// whether it stays in range.
func (lv *loopVersion) index(b *boundsPass, h *host, x *ast.IndexExpr, low, high bool) {
	if h.at == nil || !h.before(x) || !b.pureExpr(x.Index) || !isInt(b.c.Types.TypeOf(x.Index)) {
		return
	}
	if b.guarded != lv.guarded {
		// In an if's or a case's body, where its condition may keep
		// the index in range (if j >= w { dp[j-w] }): the loop's bounds
		// would send every run to the checked copy.
		return
	}
	_, array := b.c.Types.TypeOf(x.X).Underlying().(*types.Array)
	switch e := ast.Unparen(x.X).(type) {
	case *ast.Ident:
		xv, ok := b.c.Types.ObjectOf(e).(*types.Var)
		if !ok || within(xv.Pos(), lv.loop) || !array && !b.pf.unchanged([]types.Object{xv}, lv.loop) {
			return
		}
	case *ast.IndexExpr:
		// A row of an array of arrays (grid[r][c]), whose own index
		// stays in range or is checked first; or the row of a slice of
		// slices the loop cannot change, at an index that stays the
		// same: its length is measured before the loop, once its index
		// is known in range there.
		if !lv.safe[e] || !b.pureExpr(e) {
			return
		}
		if !array {
			guards, ok := lv.fixedRow(b, e)
			if !ok {
				return
			}
			lv.add(guards)
		}
	default:
		return
	}
	n := b.length(x.X)
	var conds []string
	i := b.pf.affineOf(x.Index)
	inv, sign := lv.plusInvariant(b, x.Index)
	switch {
	case i.base != nil && b.isVarIdent(i.base, lv.v):
		if low {
			conds = append(conds, lv.cond(lv.lo, i.k, ">= 0"))
		}
		if high {
			conds = append(conds, lv.cond(lv.hi, i.k, "< "+n))
		}
	case inv != "" && sign != "k-":
		// i + k, i - k, k + i: k stays the same through the loop.
		if low {
			conds = append(conds, lv.lo.plus(0)+" "+sign+" "+inv+" >= 0")
		}
		if high {
			conds = append(conds, lv.hi.plus(0)+" "+sign+" "+inv+" < "+n)
		}
	case inv != "" && lv.lift(b, h, x, low, high):
		return
	case inv != "":
		// k - i (n - j, take j from a heap of n; i - s, s from a
		// subtraction set): least where i is greatest.
		if low {
			conds = append(conds, lv.hi.minus(inv)+" >= 0")
		}
		if high {
			conds = append(conds, lv.lo.minus(inv)+" < "+n)
		}
	case b.invariantBound(x.Index, lv.loop):
		e := b.boundOf(x.Index)
		if low {
			conds = append(conds, lv.cond(e, 0, ">= 0"))
		}
		if high {
			conds = append(conds, lv.cond(e, 0, "< "+n))
		}
	default:
		return
	}
	lv.add(conds)
	lv.inRange(x)
	lv.check(b, h, x, low, high)
}

// check puts x's check before h's statement in the loop's checked copy.
func (lv *loopVersion) check(b *boundsPass, h *host, x *ast.IndexExpr, low, high bool) {
	cond, check := b.indexCheck(x, low, high)
	if key := cond + "\x00" + itoa(int(h.at.Pos())); !lv.seen[key] {
		lv.seen[key] = true
		lv.checks = append(lv.checks, versionCheck{h.at, check})
	}
}

// add adds conditions to the loop's.
func (lv *loopVersion) add(conds []string) {
	for _, c := range conds {
		switch {
		case c == "false":
			lv.never = true
		case c != "true" && !lv.seen[c]:
			lv.seen[c] = true
			lv.conds = append(lv.conds, c)
		}
	}
}

// plusInvariant is k and its sign where index is i + k, i - k or k + i
// ("+" or "-"), or k - i ("k-"), k an expression that stays the same
// through the loop ("" if not), adding to the loop's conditions those
// under which k can be evaluated before the loop.
func (lv *loopVersion) plusInvariant(b *boundsPass, index ast.Expr) (string, string) {
	be, ok := ast.Unparen(index).(*ast.BinaryExpr)
	if !ok || be.Op != token.ADD && be.Op != token.SUB {
		return "", ""
	}
	sign := "+"
	if be.Op == token.SUB {
		sign = "-"
	}
	switch {
	case b.isVarIdent(be.X, lv.v):
		if guards, ok := b.invariantGuarded(be.Y, lv.loop); ok {
			lv.add(guards)
			return b.operand(be.Y), sign
		}
	case b.isVarIdent(be.Y, lv.v):
		if guards, ok := b.invariantGuarded(be.X, lv.loop); ok {
			lv.add(guards)
			if be.Op == token.SUB {
				sign = "k-"
			}
			return b.operand(be.X), sign
		}
	}
	return "", ""
}

// fixedRow reports whether row, t[e] with t a slice of slices, keeps its
// length through the loop (t a variable the loop neither sets nor sets an
// element or row of, calling no cell code that could, e the same all
// through), with the conditions that e is in range, to test before
// measuring it.
func (lv *loopVersion) fixedRow(b *boundsPass, row *ast.IndexExpr) ([]string, bool) {
	t, ok := ast.Unparen(row.X).(*ast.Ident)
	if !ok || !isInt(b.c.Types.TypeOf(row.Index)) || !b.invariantBound(row.Index, lv.loop) {
		return nil, false
	}
	tv, ok := b.c.Types.ObjectOf(t).(*types.Var)
	if !ok || within(tv.Pos(), lv.loop) || !b.pf.unchanged([]types.Object{tv}, lv.loop) || b.pf.callsCellCode(lv.loop) || b.pf.elementSet(tv, lv.loop) {
		return nil, false
	}
	e := b.boundOf(row.Index)
	guards := []string{lv.cond(e, 0, "< "+b.length(row.X))}
	if b.pf.exprLower(row.Index, nil) < 0 {
		guards = append([]string{lv.cond(e, 0, ">= 0")}, guards...)
	}
	return guards, true
}

// inRange notes an index of the loop that stays in range or is checked.
func (lv *loopVersion) inRange(x *ast.IndexExpr) {
	if lv != nil {
		lv.safe[x] = true
	}
}

// cond is "x + k rel": "true" or "false" where both sides are constants.
func (lv *loopVersion) cond(x bound, k int64, rel string) string {
	op, rhs, _ := strings.Cut(rel, " ")
	if r, err := strconv.ParseInt(rhs, 10, 64); err == nil && x.src == "" {
		l := x.off + k
		if op == ">=" && l >= r || op == "<" && l < r {
			return "true"
		}
		return "false"
	}
	if x.src != "" && x.src == rhs && op == "<" { // len(s) - 1 < len(s)
		return strconv.FormatBool(x.off+k < 0)
	}
	return x.plus(k) + " " + rel
}

// done records the loop's version once its body is checked.
func (lv *loopVersion) done(b *boundsPass) {
	if len(lv.checks) == 0 {
		return
	}
	if !lv.never {
		if len(lv.conds) == 0 {
			return // every index stays in range
		}
		cond := strings.Join(lv.conds, " && ")
		lv.pre = b.parse(lv.loop.Pos(), cond)
		var reads []*hoisted
		for _, h := range lv.reads {
			if strings.Contains(cond, h.names[0]) || strings.Contains(cond, h.names[1]) {
				reads = append(reads, h)
				for i, name := range h.names {
					cond = strings.ReplaceAll(cond, name, h.values[i])
				}
			}
		}
		lv.reads = reads
		lv.direct = b.parse(lv.loop.Pos(), cond)
	}
	b.c.loopVersions = append(b.c.loopVersions, lv)
}

func runLoopVersions(c *Cell) {
	twins := map[ast.Node][]ast.Node{}  // the copies of each node the bounds pass saw
	origin := map[ast.Node]ast.Node{}   // the node each copy copies, as the bounds pass saw it
	for _, lv := range c.loopVersions { // inner loops first
		list, i := stmtListOf(c.Roots(), lv.loop)
		if list == nil || hasLabel(lv.loop) { // (a label the passes wrote)
			continue
		}
		made := map[ast.Node]ast.Node{}
		checked := cloneNode(lv.loop, made)
		inserted := false
		for _, vc := range lv.checks {
			for _, at := range append([]ast.Node{vc.at}, twins[vc.at]...) {
				if cp, ok := made[at].(ast.Stmt); ok {
					inserted = insertBefore(checked, cp, cloneNode(vc.check, map[ast.Node]ast.Node{}).(ast.Stmt)) || inserted
				}
			}
		}
		if !inserted {
			continue
		}
		for n, cp := range made {
			o, ok := origin[n]
			if !ok {
				o = n
			}
			twins[o] = append(twins[o], cp)
			origin[cp] = o
		}
		if lv.never {
			(*list)[i] = checked.(ast.Stmt)
			continue
		}
		for _, h := range lv.reads {
			if !h.declared && !h.failed {
				h.declared = declareHoisted(c, h)
				h.failed = !h.declared
			}
			if h.failed {
				lv.pre = lv.direct
			}
		}
		list, i = stmtListOf(c.Roots(), lv.loop) // (the names may go in its list)
		pos := lv.loop.Pos()
		(*list)[i] = &ast.IfStmt{If: pos, Cond: lv.pre,
			Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{lv.loop}, Rbrace: lv.loop.End()},
			Else: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{checked.(ast.Stmt)}, Rbrace: lv.loop.End()}}
	}
}

// stmtListOf is the statement list holding s among roots, and its index
// there; nil if s is in none.
func stmtListOf(roots []ast.Node, s ast.Stmt) (*[]ast.Stmt, int) {
	var list *[]ast.Stmt
	at := -1
	for _, root := range roots {
		ast.Inspect(root, func(n ast.Node) bool {
			if list != nil {
				return false
			}
			var l *[]ast.Stmt
			switch n := n.(type) {
			case *ast.BlockStmt:
				l = &n.List
			case *ast.CaseClause:
				l = &n.Body
			case *ast.CommClause:
				l = &n.Body
			default:
				return true
			}
			for i, x := range *l {
				if x == s {
					list, at = l, i
					return false
				}
			}
			return true
		})
	}
	return list, at
}

// insertBefore puts check before the statement at in root's lists.
func insertBefore(root ast.Node, at, check ast.Stmt) bool {
	list, i := stmtListOf([]ast.Node{root}, at)
	if list == nil {
		return false
	}
	*list = append((*list)[:i], append([]ast.Stmt{check}, (*list)[i:]...)...)
	return true
}

// cloneNode copies the syntax tree n, recording each node's copy in made
// (positions, objects and comments stay shared).
func cloneNode(n ast.Node, made map[ast.Node]ast.Node) ast.Node {
	return cloneValue(reflect.ValueOf(n), made).Interface().(ast.Node)
}

func cloneValue(v reflect.Value, made map[ast.Node]ast.Node) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return v
		}
		switch v.Interface().(type) {
		case *ast.Object, *ast.Scope, *ast.CommentGroup:
			return v
		}
		node, isNode := v.Interface().(ast.Node)
		if cp, ok := made[node]; isNode && ok {
			return reflect.ValueOf(cp)
		}
		cp := reflect.New(v.Elem().Type())
		if isNode {
			made[node] = cp.Interface().(ast.Node)
		}
		for i := range v.Elem().NumField() {
			cp.Elem().Field(i).Set(cloneValue(v.Elem().Field(i), made))
		}
		return cp
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		cp := reflect.New(v.Type()).Elem()
		cp.Set(cloneValue(v.Elem(), made))
		return cp
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		cp := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			cp.Index(i).Set(cloneValue(v.Index(i), made))
		}
		return cp
	}
	return v
}
