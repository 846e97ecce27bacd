package compat

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
)

// What the bounds pass proves, so that the loops people write over
// slices run without checks: the least value an integer variable of a
// function can hold (from every assignment to it in the cell), and the
// facts a loop, an if or an early exit establishes ("i < len(s)" over a
// loop body that changes neither i nor s). Overflow is ignored: a value
// wrapped negative makes the check it saved panic in the interpreter's
// words, not a wrong result.

// noLower is an unknown least value.
const noLower = math.MinInt64

type proofs struct {
	c      *Cell
	writes map[types.Object][]write
	top    map[types.Object]bool // variables of the cell's top level (any cell's code may set them)
	lower  map[any]int64         // by variable, or elems{variable} for a slice's elements
	escape map[types.Object]bool // slices used otherwise than indexed, measured, ranged or returned
	calls  map[types.Object][]*ast.CallExpr
	lits   map[*ast.FuncLit]types.Object // function literals assigned to variables
}

// elems keys the least value of the elements of a slice or array
// variable.
type elems struct{ v types.Object }

func newProofs(c *Cell) *proofs {
	p := &proofs{c: c, writes: map[types.Object][]write{}, top: map[types.Object]bool{}, lower: map[any]int64{}, escape: map[types.Object]bool{},
		calls: map[types.Object][]*ast.CallExpr{}, lits: map[*ast.FuncLit]types.Object{}}
	for _, b := range c.TopLevel() {
		for _, s := range b.List {
			p.topDecls(s)
		}
	}
	for _, root := range c.Roots() {
		p.collect(root)
	}
	p.closureParams()
	p.solve()
	return p
}

// topDecls records the variables a top-level statement declares.
func (p *proofs) topDecls(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE {
			for _, l := range s.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					p.top[p.c.Types.ObjectOf(id)] = true
				}
			}
		}
	case *ast.DeclStmt:
		p.c.specVars(s.Decl, func(id *ast.Ident, _ ast.Expr) { p.top[p.c.Types.ObjectOf(id)] = true })
	}
}

// collect records every write of the cell, the calls of its function
// variables, the function literals they hold, and the slices that escape.
func (p *proofs) collect(root ast.Node) {
	p.c.walkWrites(root, func(obj types.Object, w write) { p.writes[obj] = append(p.writes[obj], w) },
		func(n ast.Node, stack []ast.Node, _ *ast.FuncLit) {
			switch n := n.(type) {
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok {
					if obj, ok := p.c.Types.ObjectOf(id).(*types.Var); ok {
						p.calls[obj] = append(p.calls[obj], n)
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if len(n.Lhs) != len(n.Rhs) {
						break
					}
					if lit, ok := n.Rhs[i].(*ast.FuncLit); ok {
						if id, ok := l.(*ast.Ident); ok && p.c.Types.ObjectOf(id) != nil {
							p.lits[lit] = p.c.Types.ObjectOf(id)
						}
					}
				}
			case *ast.Ident:
				if len(stack) > 1 && p.escapes(n, stack[len(stack)-2]) {
					if obj, ok := p.c.Types.ObjectOf(n).(*types.Var); ok {
						p.escape[obj] = true
					}
				}
			case *ast.GenDecl:
				if len(stack) == 2 { // package level
					p.c.specVars(n, func(id *ast.Ident, _ ast.Expr) { p.top[p.c.Types.ObjectOf(id)] = true })
				}
			}
		})
}

// closureParams: the parameters of a function literal held in a variable
// of a function that only calls it take the values of its calls' arguments
// (place(r+1) and place(0): r is at least 0).
func (p *proofs) closureParams() {
	for lit, f := range p.lits {
		if p.top[f] || p.escape[f] || lit.Type.Params == nil {
			continue
		}
		only := true
		for _, w := range p.own(f) {
			if _, ok := w.rhs.(*ast.FuncLit); !ok && !(w.tok == token.VAR && w.rhs == nil) {
				only = false
			}
		}
		if !only {
			continue
		}
		var params []types.Object
		for _, fl := range lit.Type.Params.List {
			if _, dots := fl.Type.(*ast.Ellipsis); dots {
				params = nil
				break
			}
			for _, id := range fl.Names {
				params = append(params, p.c.Types.ObjectOf(id))
			}
		}
		for i, v := range params {
			var ws []write
			for _, w := range p.writes[v] {
				if w.node != lit.Type {
					ws = append(ws, w)
				}
			}
			for _, call := range p.calls[f] {
				var arg ast.Expr
				if len(call.Args) == len(params) {
					arg = call.Args[i]
				}
				ws = append(ws, write{tok: token.ASSIGN, rhs: arg, node: call, lit: lit, param: true})
			}
			p.writes[v] = ws
		}
	}
}

// escapes reports whether a use of a variable lets code the proofs do not
// see set its elements: any but indexing it, len or cap of it, ranging
// over it, returning it, assigning it or appending to it.
func (p *proofs) escapes(id *ast.Ident, parent ast.Node) bool {
	switch x := parent.(type) {
	case *ast.IndexExpr:
		return x.X != id
	case *ast.CallExpr:
		if p.c.isBuiltin(x.Fun) {
			switch x.Fun.(*ast.Ident).Name {
			case "len", "cap":
				return false
			case "append":
				return x.Args[0] != id
			}
		}
		return x.Fun != id
	case *ast.ReturnStmt, *ast.ValueSpec:
		return false
	case *ast.RangeStmt:
		return x.X != id && x.Key != id && x.Value != id
	case *ast.AssignStmt:
		for _, l := range x.Lhs {
			if l == id {
				return false
			}
		}
	case *ast.SelectorExpr, *ast.FuncDecl, *ast.Field, *ast.IncDecStmt, *ast.TypeSpec:
		return false
	}
	return true
}

// solve finds the least value of each variable of a function: start from
// none known and lower each estimate to what its assignments allow until
// nothing changes; a variable still falling after a few rounds (i--) has
// none.
func (p *proofs) solve() {
	var keys []any
	for obj, ws := range p.writes {
		if p.top[obj] {
			continue
		}
		own, elem := true, false
		for _, w := range ws {
			switch {
			case w.depth == 0 && w.tok == token.ILLEGAL, w.depth > 0 && !w.elem:
				own = false
			case w.depth > 0:
				elem = true
			}
		}
		switch {
		case !own:
		case isTypedInteger(obj.Type()) && !elem:
			keys = append(keys, obj)
		case elemType(obj.Type()) != nil && isTypedInteger(elemType(obj.Type())) && !p.escape[obj]:
			keys = append(keys, elems{obj})
		}
	}
	for _, k := range keys {
		p.lower[k] = math.MaxInt64
	}
	for round := 0; round < 8; round++ {
		changed := false
		for _, k := range keys {
			if lo := p.keyLower(k); lo != p.lower[k] {
				p.lower[k], changed = lo, true
			}
		}
		if !changed {
			return
		}
	}
	for _, k := range keys {
		if p.keyLower(k) != p.lower[k] {
			p.lower[k] = noLower
		}
	}
}

// elemType is the element type of a slice or array type, nil for others.
func elemType(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	}
	return nil
}

// keyLower is the least value the writes of a variable (or of its
// elements) give it, by the current estimates.
func (p *proofs) keyLower(k any) int64 {
	lo := int64(math.MaxInt64)
	if e, ok := k.(elems); ok {
		for _, w := range p.writes[e.v] {
			if w.depth == 0 {
				lo = min(lo, p.madeLower(e, w))
			} else {
				lo = min(lo, p.writeLower(k, w))
			}
		}
		return lo
	}
	for _, w := range p.writes[k.(types.Object)] {
		lo = min(lo, p.writeLower(k, w))
	}
	return lo
}

// madeLower is the least element a slice or array gets where it is
// made: none for make or a var's zero value, those of a composite
// literal, those appended.
func (p *proofs) madeLower(e elems, w write) int64 {
	if w.tok == token.VAR && w.rhs == nil {
		return math.MaxInt64
	}
	if w.tok != token.VAR && w.tok != token.DEFINE && w.tok != token.ASSIGN || w.rhs == nil {
		return noLower
	}
	lo := int64(math.MaxInt64)
	switch x := ast.Unparen(w.rhs).(type) {
	case *ast.CallExpr:
		if !p.c.isBuiltin(x.Fun) {
			return noLower
		}
		switch x.Fun.(*ast.Ident).Name {
		case "make":
			return lo
		case "append":
			if id, ok := x.Args[0].(*ast.Ident); !ok || p.c.Types.ObjectOf(id) != e.v || x.Ellipsis.IsValid() {
				return noLower
			}
			for _, a := range x.Args[1:] {
				lo = min(lo, p.exprLower(a, nil))
			}
			return lo
		}
	case *ast.CompositeLit:
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			lo = min(lo, p.exprLower(el, nil))
		}
		return lo
	}
	return noLower
}

// writeLower is the least value a write gives the variable or elements
// k.
func (p *proofs) writeLower(k any, w write) int64 {
	cur := p.lower[k]
	switch w.tok {
	case token.VAR:
		if w.rhs == nil {
			return 0
		}
		return p.exprLower(w.rhs, nil)
	case token.DEFINE, token.ASSIGN:
		if w.rhs == nil {
			return noLower
		}
		return p.exprLower(w.rhs, nil)
	case token.INC:
		return cur
	case token.ADD_ASSIGN:
		return addLower(cur, p.exprLower(w.rhs, nil))
	case token.MUL_ASSIGN, token.QUO_ASSIGN, token.REM_ASSIGN, token.SHR_ASSIGN, token.OR_ASSIGN, token.XOR_ASSIGN:
		if cur >= 0 && p.exprLower(w.rhs, nil) >= 0 {
			return 0
		}
	case token.AND_ASSIGN:
		if cur >= 0 || p.exprLower(w.rhs, nil) >= 0 {
			return 0
		}
	case token.AND_NOT_ASSIGN:
		if cur >= 0 {
			return 0
		}
	case token.RANGE:
		if t := p.c.Types.TypeOf(w.x); t != nil {
			switch u := t.Underlying().(type) {
			case *types.Slice, *types.Array, *types.Pointer:
				return 0
			case *types.Basic:
				if u.Info()&(types.IsInteger|types.IsString) != 0 {
					return 0
				}
			}
		}
	}
	return noLower
}

func addLower(a, b int64) int64 {
	if a == noLower || b == noLower {
		return noLower
	}
	if a == math.MaxInt64 || b == math.MaxInt64 {
		return math.MaxInt64 // not known yet
	}
	return a + b
}

// exprLower is the least value of an integer expression (noLower when
// unknown), with the facts that hold where it is.
func (p *proofs) exprLower(e ast.Expr, fx *facts) int64 {
	tv, ok := p.c.Types.Types[e]
	if !ok {
		return noLower
	}
	if tv.Value != nil {
		if i, ok := constant.Int64Val(constant.ToInt(tv.Value)); ok {
			return i
		}
		return noLower
	}
	if isUnsigned(tv.Type) {
		return 0
	}
	if wraps(tv.Type) {
		return noLower
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return p.exprLower(x.X, fx)
	case *ast.Ident:
		obj := p.c.Types.ObjectOf(x)
		lo, ok := p.lower[obj]
		if !ok {
			lo = noLower
		}
		return max(lo, fx.lowerOf(obj))
	case *ast.IndexExpr:
		if id, ok := ast.Unparen(x.X).(*ast.Ident); ok {
			if lo, ok := p.lower[elems{p.c.Types.ObjectOf(id)}]; ok {
				return lo
			}
		}
	case *ast.CallExpr:
		if p.c.isBuiltin(x.Fun) {
			switch x.Fun.(*ast.Ident).Name {
			case "len", "cap":
				return 0
			case "min", "max":
				lo := int64(math.MaxInt64)
				hi := int64(noLower)
				for _, a := range x.Args {
					l := p.exprLower(a, fx)
					lo, hi = min(lo, l), max(hi, l)
				}
				if x.Fun.(*ast.Ident).Name == "max" {
					return hi
				}
				return lo
			}
			return noLower
		}
		if p.c.Types.IsType(x.Fun) && len(x.Args) == 1 && widens(p.c.Types.TypeOf(x.Args[0]), tv.Type) {
			return p.exprLower(x.Args[0], fx)
		}
	case *ast.UnaryExpr:
		if x.Op == token.ADD {
			return p.exprLower(x.X, fx)
		}
	case *ast.BinaryExpr:
		if x.Op == token.ADD || x.Op == token.SUB {
			return p.sumLower(x, fx)
		}
		a, b := p.exprLower(x.X, fx), p.exprLower(x.Y, fx)
		switch x.Op {
		case token.MUL:
			if a >= 0 && b >= 0 {
				return a * b
			}
		case token.QUO, token.REM, token.SHR:
			if a >= 0 && b >= 0 {
				return 0
			}
		case token.AND:
			if a >= 0 || b >= 0 {
				return 0
			}
		case token.OR, token.XOR:
			if a >= 0 && b >= 0 {
				return 0
			}
		case token.AND_NOT:
			if a >= 0 {
				return 0
			}
		}
	}
	return noLower
}

// term is one operand of a sum, added or subtracted.
type term struct {
	e   ast.Expr
	neg bool
}

func (p *proofs) terms(e ast.Expr, neg bool, out []term) []term {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && (b.Op == token.ADD || b.Op == token.SUB) {
		out = p.terms(b.X, neg, out)
		return p.terms(b.Y, neg != (b.Op == token.SUB), out)
	}
	return append(out, term{e, neg})
}

// sumLower is the least value of a sum: each subtracted variable y is
// paired with an added x where y < x + k holds (x - y >= 1 - k); the
// rest add their least values.
func (p *proofs) sumLower(e ast.Expr, fx *facts) int64 {
	ts := p.terms(e, false, nil)
	used := make([]bool, len(ts))
	lo := int64(0)
	for i, t := range ts {
		if !t.neg {
			continue
		}
		if c, ok := p.constInt(t.e); ok {
			lo, used[i] = addLower(lo, -c), true
			continue
		}
		y, ok := ast.Unparen(t.e).(*ast.Ident)
		if !ok || fx == nil {
			return noLower
		}
		best, pair := int64(noLower), -1
		for j, u := range ts {
			if u.neg || used[j] {
				continue
			}
			for _, f := range fx.list {
				if f.upper && f.bound.base != nil && f.v == p.c.Types.ObjectOf(y) && p.same(f.bound.base, u.e) && 1-f.bound.k > best {
					best, pair = 1-f.bound.k, j
				}
			}
		}
		if pair < 0 {
			return noLower
		}
		used[i], used[pair] = true, true
		lo = addLower(lo, best)
	}
	for i, t := range ts {
		if !used[i] {
			lo = addLower(lo, p.exprLower(t.e, fx))
		}
	}
	return lo
}

// wraps reports whether t is a signed integer type of 8 or 16 bits,
// whose arithmetic a loop's steps wrap round (for i := int8(0); i < 127;
// i += 2 reaches -128): no fact about its values is taken to hold
// after it is written. (int32's wraps after two thousand million steps.)
func wraps(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && (b.Kind() == types.Int8 || b.Kind() == types.Int16)
}

// widens reports whether converting from to to keeps every value of from.
func widens(from, to types.Type) bool {
	f, ok1 := from.Underlying().(*types.Basic)
	t, ok2 := to.Underlying().(*types.Basic)
	if !ok1 || !ok2 || f.Info()&types.IsInteger == 0 || t.Info()&types.IsInteger == 0 {
		return false
	}
	if f.Info()&types.IsUntyped != 0 {
		return true
	}
	size := map[types.BasicKind]int{types.Int8: 1, types.Uint8: 1, types.Int16: 2, types.Uint16: 2, types.Int32: 4, types.Uint32: 4}
	fs, ts := size[f.Kind()], size[t.Kind()]
	if fs == 0 {
		fs = 8
	}
	if ts == 0 {
		ts = 8
	}
	if t.Info()&types.IsUnsigned != 0 {
		return f.Info()&types.IsUnsigned != 0 && fs <= ts
	}
	if f.Info()&types.IsUnsigned != 0 {
		return fs < ts
	}
	return fs <= ts
}

func (p *proofs) constInt(e ast.Expr) (int64, bool) {
	tv, ok := p.c.Types.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	return constant.Int64Val(constant.ToInt(tv.Value))
}
