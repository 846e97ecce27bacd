package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// bounds: indexes, slice bounds and shift counts the runtime checks.
// yaegi v0.16.1 indexes and slices through reflect (interp/run.go,
// getIndexArray, slice), whose panics carry neither the index nor the
// length ("index out of range" where Go says "index out of range [5]
// with length 2"), and converts a signed shift count to unsigned
// (interp/op.go, shl), so 1 << k with k = -1 was 0 where Go panics with
// "negative shift amount": a wrong result, silently. Where the pass cannot
// prove the value in range, it checks it first, with the runtime's
// message:
//
//	t += s[j]   =>  if j < 0 || j >= len(s) { _grundyOutOfRange(j, len(s)) }
//	                t += s[j]
//	v << k      =>  if k < 0 { _grundyNegShift() }; ... v << k
//
// A check goes before the statement when nothing the statement does
// before it (a call, a receive) could tell; in a loop's condition or
// post statement, or on the right of && and ||, the value goes through
// a checking helper instead (s[_grundyIndex(i, len(s))]); a slice
// expression there, or an index whose operand has effects, is left to
// the interpreter's words. The proofs (boundproofs.go) spare the loops
// people write over slices any check: for i := 0; i < len(s); i++,
// for i := range s, a slice made with make(T, n) and a loop to n.
var bounds = Pass{
	Name:     "bounds",
	Run:      runBounds,
	Kinds:    []ast.Node{(*ast.IndexExpr)(nil), (*ast.SliceExpr)(nil), (*ast.BinaryExpr)(nil), (*ast.AssignStmt)(nil)},
	Snippets: []string{"bounds_index_message", "bounds_negative_shift", "bounds_swap_order", "bounds_type_param_slices"},
}

// writtenNames are the predeclared names the checks (and other passes:
// a string's range, the bounds of its loops) write, which builtinShadows
// renames a function's variables away from.
var writtenNames = map[string]bool{"len": true, "cap": true, "int": true, "int64": true}

// shadowedRegions are the extents of the scopes in which the cell
// declares, or uses a declaration of an earlier cell, named like a
// predeclared name the checks write (len, cap, int, int64: a function's
// len := 0); all is set when one is the session's (a function, a type or
// a variable of the cells). There the pass writes no checks, which would
// call the variable (the cell failed to compile, "too many arguments"),
// and the interpreter's words stand. A field or a method so named hides
// nothing (p.len is a selector).
func shadowedRegions(c *Cell) (regions [][2]token.Pos, all bool) {
	for _, m := range []map[*ast.Ident]types.Object{c.Types.Defs, c.Types.Uses} {
		for id, obj := range m {
			if !writtenNames[id.Name] || obj == nil || obj.Parent() == types.Universe {
				continue
			}
			if v, ok := obj.(*types.Var); ok && v.IsField() {
				continue
			}
			if f, ok := obj.(*types.Func); ok && f.Type().(*types.Signature).Recv() != nil {
				continue
			}
			sc := obj.Parent()
			if sc == nil || sc.Parent() == types.Universe || !sc.Pos().IsValid() {
				return nil, true // (the package's, or a label's: anywhere)
			}
			regions = append(regions, [2]token.Pos{sc.Pos(), sc.End()})
		}
	}
	return regions, false
}

// shadowed reports whether n overlaps one of regions.
func shadowed(n ast.Node, regions [][2]token.Pos) bool {
	for _, r := range regions {
		if n.Pos() < r[1] && r[0] < n.End() {
			return true
		}
	}
	return false
}

type boundsPass struct {
	c     *Cell
	pf    *proofs
	top   ast.Stmt     // the top-level statement the pass is in, outside function literals
	loops int          // the loops of its function the pass is in (see index)
	gotos bool         // the cell has a goto
	ver   *loopVersion // the loop whose checked copy takes the checks of its indexes (see index)
	// guarded counts the if, case and select bodies the pass is in: an
	// index in one of a loop's may be guarded by its condition, which
	// the loop's bounds do not tell (see loopVersion.index).
	guarded int
}

func runBounds(c *Cell) {
	need := false
	for _, root := range c.Roots() {
		need = need || contains(root, false, func(n ast.Node) bool { return needsCheck(c, n) })
	}
	regions, all := shadowedRegions(c)
	if !need || all {
		return
	}
	b := &boundsPass{c: c, pf: newProofs(c)}
	for _, root := range c.Roots() {
		b.gotos = b.gotos || contains(root, false, func(n ast.Node) bool {
			br, ok := n.(*ast.BranchStmt)
			return ok && br.Tok == token.GOTO
		})
	}
	if c.Decls != nil {
		for _, d := range c.Decls.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body != nil && !shadowed(d, regions) {
					b.loops, b.ver = 0, nil
					if b.recursive(d.Body, c.Types.ObjectOf(d.Name)) {
						b.loops = 1
					}
					b.block(&d.Body.List, nil)
				}
			case *ast.GenDecl:
				if shadowed(d, regions) {
					continue
				}
				ast.Inspect(d, func(n ast.Node) bool {
					if e, ok := n.(ast.Expr); ok {
						b.inPlace(e, nil)
						return false
					}
					return true
				})
			}
		}
	}
	for _, blk := range c.TopLevel() {
		b.topBlock(blk, regions)
	}
}

// topBlock checks the cell's top-level statements.
func (b *boundsPass) topBlock(blk *ast.BlockStmt, regions [][2]token.Pos) {
	var out []ast.Stmt
	for _, s := range blk.List {
		if shadowed(s, regions) {
			out = append(out, s)
			continue
		}
		b.top = s
		out = append(out, b.stmtIn(s, nil, &host{at: s})...)
		out = append(out, s)
	}
	b.top = nil
	blk.List = out
}

// recursive reports whether a function's body calls the function (f):
// its statements repeat as a loop's do (see index).
func (b *boundsPass) recursive(body *ast.BlockStmt, f types.Object) bool {
	return f != nil && contains(body, false, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := call.Fun.(*ast.Ident)
		return ok && b.c.Types.ObjectOf(id) == f
	})
}

// needsCheck reports whether n is an index, slice or shift the pass may
// check.
func needsCheck(c *Cell, n ast.Node) bool {
	switch n := n.(type) {
	case *ast.IndexExpr:
		return !c.Types.IsType(n) && indexable(c.Types.TypeOf(n.X)) != nil
	case *ast.SliceExpr:
		return indexable(c.Types.TypeOf(n.X)) != nil
	case *ast.BinaryExpr:
		return (n.Op == token.SHL || n.Op == token.SHR) && signedCount(c, n.Y)
	case *ast.AssignStmt:
		return (n.Tok == token.SHL_ASSIGN || n.Tok == token.SHR_ASSIGN) && len(n.Rhs) == 1 && signedCount(c, n.Rhs[0])
	}
	return false
}

// indexable is the type whose values an index or slice of a value of
// type t checks (a slice, a string, an array or a pointer to one; a type
// parameter's core type, S ~[]E); nil for maps, other type parameters and
// the rest.
func indexable(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	if tp, ok := t.(*types.TypeParam); ok {
		t = coreType(tp)
		if t == nil {
			return nil
		}
	}
	u := t.Underlying()
	if p, ok := u.(*types.Pointer); ok {
		u = p.Elem().Underlying()
		if _, arr := u.(*types.Array); !arr {
			return nil
		}
	}
	switch x := u.(type) {
	case *types.Slice, *types.Array:
		return u
	case *types.Basic:
		if x.Info()&types.IsString != 0 {
			return u
		}
	}
	return nil
}

func signedCount(c *Cell, e ast.Expr) bool {
	tv, ok := c.Types.Types[e]
	if !ok || tv.Value != nil || !integerOrParam(tv.Type) {
		return false
	}
	return !unsignedOrParam(tv.Type)
}

// host is a statement the checks of its expressions go before.
type host struct {
	calls   []ast.Node // the calls and receives among its expressions
	checks  []ast.Stmt
	conds   map[string]bool // the conditions checked, once each (h[i], h[j] = h[j], h[i] checks i and j once)
	facts   []fact          // what the checks establish once passed
	inPlace bool            // there is no statement to check before: check in place
	loop    *ast.ForStmt    // the host is a loop's condition: checks of what stays the same go before the loop
	at      ast.Stmt        // the statement its checks go before, if one of a statement list
}

// add adds a check of cond, unless cond is checked already.
func (h *host) add(check ast.Stmt, cond string) {
	if h.conds[cond] {
		return
	}
	if h.conds == nil {
		h.conds = map[string]bool{}
	}
	h.conds[cond] = true
	h.checks = append(h.checks, check)
}

// block checks the statements of a list, inserting checks before them.
func (b *boundsPass) block(list *[]ast.Stmt, fx *facts) {
	var out []ast.Stmt
	for i, s := range *list {
		h := &host{at: s}
		out = append(out, b.stmtIn(s, fx, h)...)
		out = append(out, s)
		if i+1 == len(*list) {
			break
		}
		rest := &ast.BlockStmt{Lbrace: (*list)[i+1].Pos(), List: (*list)[i+1:], Rbrace: (*list)[len(*list)-1].End()}
		more := h.facts // what its checks established
		// After "if i >= len(s) { return }", i < len(s).
		if is, ok := s.(*ast.IfStmt); ok && is.Else == nil && is.Init == nil && exits(is.Body) {
			more = append(more, b.pf.conds(is.Cond, true)...)
		}
		fx = fx.with(b.pf.stable(more, rest))
	}
	*list = out
}

// exits reports whether a block always leaves (return, break, continue,
// goto, panic) at its end.
func exits(body *ast.BlockStmt) bool {
	if len(body.List) == 0 {
		return false
	}
	switch s := body.List[len(body.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		return ok && isIdent(call.Fun, "panic")
	}
	return false
}

// stmt checks a statement's expressions, returning the checks to insert
// before it, and the statements nested in it.
func (b *boundsPass) stmt(s ast.Stmt, fx *facts) []ast.Stmt { return b.stmtIn(s, fx, &host{}) }

// stmtIn is stmt with the host to collect the statement's checks in.
func (b *boundsPass) stmtIn(s ast.Stmt, fx *facts, h *host) []ast.Stmt {
	switch s := s.(type) {
	case *ast.ExprStmt:
		b.hosted(h, fx, s.X)
	case *ast.AssignStmt:
		// The right side is evaluated first; the left's indexing is
		// checked as the values are stored.
		exprs := append(append([]ast.Expr{}, s.Rhs...), s.Lhs...)
		switch {
		case s.Tok != token.ASSIGN && s.Tok != token.DEFINE:
			exprs = append(append([]ast.Expr{}, s.Lhs...), s.Rhs...)
		case s.Tok == token.ASSIGN && len(s.Lhs) > 1 && len(s.Lhs) == len(s.Rhs):
			exprs = b.c.tupleOrder(s)
		}
		b.hosted(h, fx, exprs...)
		if s.Tok == token.SHL_ASSIGN || s.Tok == token.SHR_ASSIGN {
			if len(s.Rhs) == 1 && signedCount(b.c, s.Rhs[0]) {
				b.shift(h, fx, s, &s.Rhs[0])
			}
		}
	case *ast.IncDecStmt:
		b.hosted(h, fx, s.X)
	case *ast.SendStmt:
		b.hosted(h, fx, s.Chan, s.Value)
	case *ast.ReturnStmt:
		b.hosted(h, fx, s.Results...)
	case *ast.GoStmt:
		b.hosted(h, fx, s.Call)
	case *ast.DeferStmt:
		b.hosted(h, fx, s.Call)
	case *ast.DeclStmt:
		b.c.specVars(s.Decl, func(_ *ast.Ident, v ast.Expr) {
			if v != nil {
				b.hosted(h, fx, v)
			}
		})
	case *ast.LabeledStmt:
		return b.stmtIn(s.Stmt, fx, h)
	case *ast.BlockStmt:
		b.block(&s.List, fx)
	case *ast.IfStmt:
		var pre []ast.Stmt
		if s.Init != nil {
			// The init's checks go before the if, where a loop's
			// checked copy puts them too (if x := h[i-s]; x == m).
			pre = b.stmtIn(s.Init, fx, &host{at: h.at})
			b.inPlace(s.Cond, fx)
		} else {
			b.hosted(h, fx, s.Cond)
		}
		b.guarded++
		b.block(&s.Body.List, fx.with(b.pf.stable(append(b.pf.conds(s.Cond, false), h.facts...), s.Body)))
		if s.Else != nil {
			if blk, ok := s.Else.(*ast.BlockStmt); ok {
				b.block(&blk.List, fx)
			} else {
				// else if: its checks go in a block of their own.
				if pre := b.stmt(s.Else, fx); len(pre) > 0 {
					s.Else = &ast.BlockStmt{Lbrace: s.Else.Pos(), List: append(pre, s.Else), Rbrace: s.Else.End()}
				}
			}
		}
		b.guarded--
		return append(pre, h.checks...)
	case *ast.ForStmt:
		var pre []ast.Stmt
		if s.Init != nil {
			pre = b.stmt(s.Init, fx)
		}
		loops := b.loops
		b.enterLoop(s.Body)
		if s.Cond != nil {
			// A shift count that stays the same in the loop is checked
			// before it (Go checks it first right after the init).
			lh := &host{calls: b.callsIn(s.Cond), loop: s, inPlace: s.Init != nil && contains(s.Init, false, isCall)}
			b.expr(s.Cond, fx, lh)
			pre = append(pre, lh.checks...)
		}
		if s.Post != nil {
			b.loose(s.Post, fx)
		}
		var loop []fact
		if s.Cond != nil {
			loop = b.pf.stable(b.pf.conds(s.Cond, false), s.Body)
		}
		b.versioned(b.versionable(s), func() { b.block(&s.Body.List, fx.with(loop)) })
		b.loops = loops
		return pre
	case *ast.RangeStmt:
		b.hosted(h, fx, s.X)
		loops := b.loops
		b.enterLoop(s.Body)
		b.versioned(b.rangeVersionable(s), func() { b.block(&s.Body.List, fx.with(b.rangeFacts(s))) })
		b.loops = loops
	case *ast.SwitchStmt:
		var pre []ast.Stmt
		if s.Init != nil {
			pre = b.stmtIn(s.Init, fx, &host{at: h.at})
			if s.Tag != nil {
				b.inPlace(s.Tag, fx)
			}
		} else if s.Tag != nil {
			b.hosted(h, fx, s.Tag)
		}
		for _, cc := range s.Body.List {
			cc := cc.(*ast.CaseClause)
			for _, e := range cc.List {
				b.inPlace(e, fx)
			}
			b.guarded++
			b.block(&cc.Body, fx)
			b.guarded--
		}
		return append(pre, h.checks...)
	case *ast.TypeSwitchStmt:
		var pre []ast.Stmt
		if s.Init != nil {
			pre = b.stmt(s.Init, fx)
			b.loose(s.Assign, fx)
		} else {
			pre = b.stmt(s.Assign, fx)
		}
		for _, cc := range s.Body.List {
			b.guarded++
			b.block(&cc.(*ast.CaseClause).Body, fx)
			b.guarded--
		}
		return pre
	case *ast.SelectStmt:
		for _, cc := range s.Body.List {
			cc := cc.(*ast.CommClause)
			if cc.Comm != nil {
				b.loose(cc.Comm, fx)
			}
			b.guarded++
			b.block(&cc.Body, fx)
			b.guarded--
		}
	}
	return h.checks
}

// versioned checks a loop's body (body), with lv, the loop's version if
// it may have one, taking the checks of its indexes.
func (b *boundsPass) versioned(lv *loopVersion, body func()) {
	outer := b.ver
	if lv != nil && b.loops > 0 && (outer == nil || outer.depth < maxVersionDepth) {
		if outer != nil {
			lv.depth = outer.depth + 1
		}
		lv.guarded = b.guarded
		b.ver = lv
	}
	body()
	if b.ver != outer {
		b.ver.done(b)
	}
	b.ver = outer
}

// enterLoop counts a loop the pass enters, unless its body prints each
// time round (a statement of it calls fmt's or log's Print, Printf,
// Println or their F forms): printing costs many times what a check
// does, so such a loop, and what it holds, is checked as a function's
// body (for _, q := range query { fmt.Println(q, table[q]) }).
func (b *boundsPass) enterLoop(body *ast.BlockStmt) {
	for _, s := range body.List {
		es, ok := s.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := es.X.(*ast.CallExpr)
		if !ok {
			continue
		}
		if fn := b.c.callee(call); fn != nil && fn.Pkg() != nil && (fn.Pkg().Path() == "fmt" || fn.Pkg().Path() == "log") &&
			fn.Type().(*types.Signature).Recv() == nil && strings.Contains(fn.Name(), "Print") && !strings.HasPrefix(fn.Name(), "S") {
			b.loops = 0
			return
		}
	}
	b.loops++
}

// loose checks a statement that has no place before it for checks (a
// loop's post statement, a select's case).
func (b *boundsPass) loose(s ast.Stmt, fx *facts) {
	ast.Inspect(s, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok {
			b.inPlace(e, fx)
			return false
		}
		return true
	})
	if as, ok := s.(*ast.AssignStmt); ok && (as.Tok == token.SHL_ASSIGN || as.Tok == token.SHR_ASSIGN) && len(as.Rhs) == 1 && signedCount(b.c, as.Rhs[0]) {
		b.shift(&host{calls: b.callsIn(as.Rhs...), inPlace: true}, fx, as, &as.Rhs[0])
	}
}

// rangeFacts: in for i := range x, i < len(x) (i < x ranging over an
// integer) while the body changes neither.
func (b *boundsPass) rangeFacts(s *ast.RangeStmt) []fact {
	id, ok := s.Key.(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	v, ok := b.c.Types.ObjectOf(id).(*types.Var)
	if !ok {
		return nil
	}
	t := b.c.Types.TypeOf(s.X)
	if t == nil {
		return nil
	}
	var bound affine
	if b.c.Types.IsInteger(s.X) {
		bound = b.pf.affineOf(s.X)
	} else if indexable(t) != nil {
		bound = affine{lenCall(s.X), 0}
		if x, ok := ast.Unparen(s.X).(*ast.Ident); !ok || !isVar(b.c, x) {
			return nil
		}
	} else {
		return nil
	}
	return b.pf.stable([]fact{{v: v, upper: true, bound: bound}, {v: v, low: 0}}, s.Body)
}

func isVar(c *Cell, id *ast.Ident) bool {
	_, ok := c.Types.ObjectOf(id).(*types.Var)
	return ok
}

// hosted checks expressions whose checks can go before their statement.
func (b *boundsPass) hosted(h *host, fx *facts, exprs ...ast.Expr) {
	h.calls = append(h.calls, b.callsIn(exprs...)...)
	for _, e := range exprs {
		b.expr(e, fx, h)
	}
}

// inPlace checks an expression that has no statement to check before (a
// loop's condition, a case's value).
func (b *boundsPass) inPlace(e ast.Expr, fx *facts) {
	b.expr(e, fx, &host{calls: b.callsIn(e), inPlace: true})
}

// callsIn lists the calls and receives of expressions (not those of the
// function literals in them), but for pure ones.
func (b *boundsPass) callsIn(exprs ...ast.Expr) []ast.Node {
	var out []ast.Node
	for _, e := range exprs {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if !b.pure(n) {
					out = append(out, n)
				}
			case *ast.UnaryExpr:
				if n.Op == token.ARROW {
					out = append(out, n)
				}
			}
			return true
		})
	}
	return out
}

// pure reports whether a call has no effect a check could come before:
// a conversion or len, cap, min, max, real, imag, complex, or a function
// of math, math/bits, unicode or unicode/utf8 that neither panics nor
// writes (g[n] = bits.TrailingZeros(^uint(m)) in a Grundy table's loop).
func (b *boundsPass) pure(call *ast.CallExpr) bool {
	if b.c.Types.IsType(call.Fun) {
		return true
	}
	if id, ok := call.Fun.(*ast.Ident); ok && b.c.isBuiltin(id) {
		switch id.Name {
		case "len", "cap", "min", "max", "real", "imag", "complex":
			return true
		}
	}
	fn := b.c.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "math", "unicode":
		return true
	case "math/bits":
		// (Div and Rem panic on a zero divisor.)
		return !strings.HasPrefix(fn.Name(), "Div") && !strings.HasPrefix(fn.Name(), "Rem")
	case "unicode/utf8":
		// (EncodeRune and AppendRune write into their argument.)
		return fn.Name() != "EncodeRune" && fn.Name() != "AppendRune"
	}
	return false
}

// pureExpr reports whether evaluating e twice is evaluating it once. A
// type assertion is not: the check's copy of it would be asserted first,
// as the interpreter's (the passes after rewrite only the cell's own
// x.(Row), whose failure names Go's types).
func (b *boundsPass) pureExpr(e ast.Expr) bool {
	return e == nil || len(b.callsIn(e)) == 0 && !contains(e, false, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit, *ast.TypeAssertExpr:
			return true
		}
		return false
	})
}

// before reports whether a check of n can go before h's statement: the
// statement calls nothing before n's value is needed (every call in it
// has n among its operands).
func (h *host) before(n ast.Node) bool {
	if h == nil || h.inPlace {
		return false
	}
	for _, c := range h.calls {
		if !(c.Pos() <= n.Pos() && n.End() <= c.End()) {
			return false
		}
	}
	return true
}

// here reports whether a helper call checking n in place is called in
// Go's order: no call the statement makes after it comes first.
func (h *host) here(n ast.Node) bool {
	if h == nil {
		return false
	}
	for _, c := range h.calls {
		if !(c.Pos() <= n.Pos() && n.End() <= c.End()) && c.End() > n.Pos() {
			return false
		}
	}
	return true
}

// funcLit checks the body of a function literal as a function's: a
// call of it costs more than a check (a literal written in a loop, run
// in place, by go or by a cell's helper: safe(func() { _ = xs[i] })),
// unless it calls itself or is handed to a function of a native package
// (callback), which calls it in a loop of its own: sort.Slice's less
// function is called n log n times, and two checks there doubled a
// sort's time. Those are checked as in a loop.
func (b *boundsPass) funcLit(x *ast.FuncLit, callback bool) {
	top, loops, ver := b.top, b.loops, b.ver
	b.top, b.loops, b.ver = nil, 0, nil
	if f, ok := b.pf.lits[x]; callback || ok && b.recursive(x.Body, f) {
		b.loops = 1
	}
	b.block(&x.Body.List, nil)
	b.top, b.loops, b.ver = top, loops, ver
}

// nativeFunc reports whether call calls a function (not a method) of a
// native package: sort.Slice, slices.SortFunc, strings.Map.
func (b *boundsPass) nativeFunc(call *ast.CallExpr) bool {
	fn := b.c.callee(call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() != "main" && fn.Type().(*types.Signature).Recv() == nil
}

// expr checks the indexes, slices and shifts of an expression, inner
// ones first: before h's statement where it may, else in place.
func (b *boundsPass) expr(e ast.Expr, fx *facts, h *host) {
	switch x := e.(type) {
	case nil:
		return
	case *ast.FuncLit:
		b.funcLit(x, false)
		return
	case *ast.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			b.expr(x.X, fx, h)
			b.expr(x.Y, fx.with(b.pf.conds(x.X, x.Op == token.LOR)), &host{calls: b.callsIn(x.Y), inPlace: true})
			return
		}
	}
	call, _ := e.(*ast.CallExpr)
	if call != nil && !b.nativeFunc(call) {
		call = nil
	}
	ast.Inspect(e, func(n ast.Node) bool {
		if n == e {
			return true
		}
		if lit, ok := n.(*ast.FuncLit); ok && call != nil && slices.Contains(call.Args, ast.Expr(lit)) {
			b.funcLit(lit, true)
			return false
		}
		if sub, ok := n.(ast.Expr); ok {
			b.expr(sub, fx, h)
			return false
		}
		return n != nil // (a composite literal's key-value pairs)
	})
	switch x := e.(type) {
	case *ast.IndexExpr:
		b.index(h, fx, x)
	case *ast.SliceExpr:
		b.slice(h, fx, x)
	case *ast.BinaryExpr:
		if (x.Op == token.SHL || x.Op == token.SHR) && signedCount(b.c, x.Y) {
			b.shift(h, fx, x, &x.Y)
		}
	}
}
