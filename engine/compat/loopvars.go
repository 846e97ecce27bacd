package compat

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// loopVars: Go 1.22 gives each iteration of a loop its own variables.
// yaegi v0.16.1 has the older semantics, one variable for the whole loop,
// so closures and goroutines started in a loop, and pointers taken to its
// variables, all saw its last value. A ":=" in a loop body does make a new
// variable each iteration (interp/run.go, reset), and a function literal
// keeps the variables of the iteration it was made in (it copies its
// frame), so:
//
//   - a loop whose body can capture its variables (a function literal, go
//     or defer) or takes their address runs on hidden variables and
//     declares the real ones at the top of the body; (yaegi mishandles the
//     idiom "v := v" itself, hence the hidden names);
//
//   - a range over a slice or an array whose body changes its key
//     (k++, k = ..., &k) runs on hidden variables too: yaegi counts the
//     iterations in the key's own slot (interp/run.go:2836, _range), so
//     the change skipped elements or looped forever;
//
//   - "for k, v = range x" always runs on hidden variables, assigned to k
//     and v at the top of the body: yaegi's range assigned variables of
//     the loop's own, so after the loop (a break, a goto, the end) k and
//     v still held what they held before it;
//
//   - a three-clause loop whose body also changes a variable or a field
//     or element of one (or may, through its address), or whose condition or post statement makes a
//     function literal (which captures the iteration's variable), carries
//     each iteration's variable over to the next through a pointer, as Go
//     copies it before the post statement:
//
//     { _grundyL1 := init; _grundyP2 := &_grundyL1
//     for _grundyF3 := true; ; _grundyF3 = false {
//     i := *_grundyP2; _grundyP2 = &i
//     if !_grundyF3 { post }; if !(cond) { break }
//     { body } } }
//
//   - in a loop, a function literal handed straight to native code (an
//     argument of a function or method of a package) is wrapped as
//     func() T { return lit }(): yaegi converts a literal it passes to
//     native code with the frame of the moment it is called
//     (interp/run.go:974, genFunctionWrapper), not the one it was made in,
//     so every callback of the loop saw the last iteration.
//
//   - in a loop whose body can capture its variables or takes their
//     address, a variable the body declares with a slice, array or map
//     literal (xs := []int{i}, var m = map[int]int{0: i}) gets the
//     literal in parentheses: yaegi writes such a literal straight into
//     the variable's slot, skipping the define that makes the variable
//     anew (interp/cfg.go:746), so every closure, deferred call,
//     goroutine and pointer of the loop saw the last iteration's value
//     (c154); parenthesized, the define runs.
var loopVars = Pass{
	Name:  "loopvars",
	Run:   runLoopVars,
	Kinds: []ast.Node{(*ast.RangeStmt)(nil), (*ast.ForStmt)(nil)},
	Snippets: []string{"range_assigning_blanks", "loopvar_closures_for", "loopvar_closures_range", "loopvar_goroutines",
		"loopvar_address_and_change", "loopvar_native_callback", "range_key_changed_in_body", "range_assign_after_loop"},
}

func runLoopVars(c *Cell) {
	for _, root := range c.Roots() {
		c.nativeCallbacks(root, false)
	}
	c.Apply(func(cur Cursor) bool {
		switch s := cur.Node().(type) {
		case *ast.RangeStmt:
			c.freshLiterals(s.Body)
			c.perIterationRange(s)
		case *ast.ForStmt:
			c.freshLiterals(s.Body)
			if _, labeled := cur.Parent().(*ast.LabeledStmt); labeled {
				return true // rewritten with its label
			}
			if st := c.perIterationFor(s, nil); st != nil {
				cur.Replace(st)
			}
		case *ast.LabeledStmt:
			if f, ok := s.Stmt.(*ast.ForStmt); ok {
				if st := c.perIterationFor(f, s); st != nil {
					cur.Replace(st)
				}
			}
		}
		return true
	})
}

// freshLiterals puts in parentheses the slice, array and map literals
// that body's own statements (not those of a loop or a function literal
// in it) declare a variable with, where body can capture the variable or
// takes its address (see loopVars).
func (c *Cell) freshLiterals(body *ast.BlockStmt) {
	captures := capturesIn(body)
	fresh := func(name *ast.Ident, e *ast.Expr) {
		lit, ok := (*e).(*ast.CompositeLit)
		if !ok || name.Name == "_" {
			return
		}
		switch typeUnder(c.Types.TypeOf(lit)).(type) {
		case *types.Slice, *types.Array, *types.Map:
		default:
			return
		}
		if captures || c.addressed(body, name.Name) {
			*e = &ast.ParenExpr{Lparen: lit.Pos(), X: lit, Rparen: lit.End()}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE && len(x.Lhs) == len(x.Rhs) {
				for i, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						fresh(id, &x.Rhs[i])
					}
				}
			}
		case *ast.ValueSpec:
			if len(x.Names) == len(x.Values) {
				for i, id := range x.Names {
					fresh(id, &x.Values[i])
				}
			}
		}
		return true
	})
}

func (c *Cell) perIterationRange(s *ast.RangeStmt) {
	if s.Tok == token.ASSIGN {
		c.assignedRange(s)
		return
	}
	if s.Tok != token.DEFINE {
		return
	}
	key, _ := s.Key.(*ast.Ident)
	keyChanged := key != nil && key.Name != "_" && assigns(s.Body, key.Name, false)
	var keys []*ast.Ident
	for _, e := range []ast.Expr{s.Key, s.Value} {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			keys = append(keys, id)
		}
	}
	if !keyChanged && !capturesIn(s.Body) && !c.addressesAny(s.Body, keys) {
		return
	}
	var names, temps []string
	for _, e := range []*ast.Expr{&s.Key, &s.Value} {
		if id, ok := (*e).(*ast.Ident); ok && id.Name != "_" {
			t := c.Temp("L")
			names = append(names, id.Name)
			temps = append(temps, t)
			*e = ident(t, id.Pos())
		}
	}
	prependCopies(s.Body, names, temps)
}

// assignedRange rewrites "for k, v = range x { body }" (see loopVars) to
// range on hidden variables and assign k and v from them at the top of
// the body, as Go assigns them each iteration.
func (c *Cell) assignedRange(s *ast.RangeStmt) {
	var lhs, rhs []ast.Expr
	for _, e := range []*ast.Expr{&s.Key, &s.Value} {
		if *e == nil || isIdent(*e, "_") {
			continue
		}
		t := c.Temp("L")
		lhs, rhs = append(lhs, *e), append(rhs, ident(t, (*e).Pos()))
		*e = ident(t, (*e).Pos())
	}
	s.Tok = token.DEFINE
	if len(lhs) == 0 {
		return // for _, _ = range m: nothing to assign
	}
	set := &ast.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, Rhs: rhs, TokPos: s.Body.Lbrace}
	s.Body.List = append([]ast.Stmt{set}, s.Body.List...)
}

// perIterationFor rewrites a three-clause loop (with its label, when not
// nil) in place, or returns the statement that replaces it.
func (c *Cell) perIterationFor(s *ast.ForStmt, label *ast.LabeledStmt) ast.Stmt {
	as, ok := s.Init.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE {
		return nil
	}
	var vars []*ast.Ident
	for _, e := range as.Lhs {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" && !strings.HasPrefix(id.Name, tempPrefix) {
			vars = append(vars, id)
		}
	}
	if len(vars) == 0 {
		return nil
	}
	// A function literal in the condition or the post statement captures
	// the iteration's variables too (posts, i = append(posts, func() int
	// { return i }), i+1): they run on each iteration's variable there.
	var header []ast.Node
	for _, n := range []ast.Node{s.Cond, s.Post} {
		if n != nil {
			header = append(header, n)
		}
	}
	if slices.ContainsFunc(header, capturesIn) {
		return c.carriedOver(s, as, label)
	}
	if !capturesIn(s.Body) && !c.addressesAny(s.Body, vars) {
		return nil
	}
	for _, v := range vars {
		// (A field or element changed too: of a struct or array
		// variable, a change the next iteration's copy must see; a body
		// that copied the hidden variable lost it, {0 1} {1 1} {2 1}.)
		if assigns(s.Body, v.Name, true) || c.addressed(s.Body, v.Name) {
			return c.carriedOver(s, as, label)
		}
	}
	var names, temps []string
	rename := map[string]string{}
	objs := map[string]types.Object{}
	for i, e := range as.Lhs {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			t := c.Temp("L")
			names = append(names, id.Name)
			temps = append(temps, t)
			rename[id.Name] = t
			objs[id.Name] = c.Types.ObjectOf(id)
			as.Lhs[i] = ident(t, id.Pos())
		}
	}
	// The variables' uses in the condition and post statement, not a
	// field or method of that name (n < g.n, St{i: i}).
	for _, n := range []ast.Node{s.Cond, s.Post} {
		if n == nil {
			continue
		}
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				ast.Inspect(x.X, visit)
				return false
			case *ast.Ident:
				t, ok := rename[x.Name]
				if !ok {
					break
				}
				if obj := c.Types.ObjectOf(x); obj != nil && objs[x.Name] != nil && obj != objs[x.Name] {
					break // a field's key in a literal, a selector's name
				}
				x.Name = t
			}
			return true
		}
		ast.Inspect(n, visit)
	}
	prependCopies(s.Body, names, temps)
	return nil
}

// carriedOver is a three-clause loop whose body changes its variables, with
// one variable per iteration, each starting with the value the previous
// iteration's had at its end (see loopVars); a label stays on the loop.
func (c *Cell) carriedOver(s *ast.ForStmt, init *ast.AssignStmt, label *ast.LabeledStmt) ast.Stmt {
	pos := s.For
	var outer, body []ast.Stmt
	var ptrs, fresh []ast.Expr
	var names, derefs, addrs []ast.Expr
	for i, e := range init.Lhs {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		l, p := c.Temp("L"), c.Temp("P")
		init.Lhs[i] = ident(l, id.Pos())
		ptrs = append(ptrs, ident(p, pos))
		fresh = append(fresh, &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: ident(l, pos)})
		names = append(names, ident(id.Name, id.Pos()))
		derefs = append(derefs, &ast.StarExpr{Star: pos, X: ident(p, pos)})
		addrs = append(addrs, &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: ident(id.Name, pos)})
	}
	outer = append(outer, init, define(pos, ptrs, fresh...))
	body = append(body, define(pos, names, derefs...),
		&ast.AssignStmt{Lhs: ptrs, Tok: token.ASSIGN, TokPos: pos, Rhs: addrs})
	first := c.Temp("F")
	if s.Post != nil {
		body = append(body, &ast.IfStmt{If: pos, Cond: &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: ident(first, pos)},
			Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{s.Post}, Rbrace: pos}})
	}
	if s.Cond != nil {
		body = append(body, &ast.IfStmt{If: pos, Cond: &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: &ast.ParenExpr{Lparen: pos, X: s.Cond, Rparen: pos}},
			Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.BranchStmt{TokPos: pos, Tok: token.BREAK}}, Rbrace: pos}})
	}
	// The body stays a block of its own: it may declare the same names.
	body = append(body, s.Body)
	loop := &ast.ForStmt{
		For:  pos,
		Init: define(pos, []ast.Expr{ident(first, pos)}, ident("true", pos)),
		Post: &ast.AssignStmt{Lhs: []ast.Expr{ident(first, pos)}, Tok: token.ASSIGN, TokPos: pos, Rhs: []ast.Expr{ident("false", pos)}},
		Body: &ast.BlockStmt{Lbrace: s.Body.Lbrace, List: body, Rbrace: s.Body.Rbrace},
	}
	var st ast.Stmt = loop
	if label != nil {
		label.Stmt = loop
		st = label
	}
	return &ast.BlockStmt{Lbrace: pos, List: append(outer, st), Rbrace: s.End()}
}

func prependCopies(body *ast.BlockStmt, names, temps []string) {
	if len(names) == 0 {
		return
	}
	var lhs, rhs []ast.Expr
	for i, n := range names {
		lhs = append(lhs, ident(n, body.Lbrace))
		rhs = append(rhs, ident(temps[i], body.Lbrace))
	}
	// (No "_ = v" to mark them used: yaegi does not require it, and
	// mishandles it for struct values in the global scope.)
	body.List = append([]ast.Stmt{define(body.Lbrace, lhs, rhs...)}, body.List...)
}

// capturesIn reports whether a loop body could capture its variables.
func capturesIn(n ast.Node) bool {
	return contains(n, false, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return true
		}
		return false
	})
}

// assigns reports whether n assigns to name (or takes its address), or
// with parts to a field or an element of it too (p.Y++, a[1] += 10,
// st.xs = append(st.xs, x)).
func assigns(n ast.Node, name string, parts bool) bool {
	is := func(e ast.Expr) bool { return isIdent(e, name) || parts && rootIs(e, name) }
	return contains(n, false, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			return x.Tok != token.DEFINE && slices.ContainsFunc(x.Lhs, is)
		case *ast.IncDecStmt:
			return is(x.X)
		case *ast.UnaryExpr:
			return x.Op == token.AND && is(x.X)
		}
		return false
	})
}

func (c *Cell) addressesAny(n ast.Node, vars []*ast.Ident) bool {
	for _, v := range vars {
		if c.addressed(n, v.Name) {
			return true
		}
	}
	return false
}

// addressed reports whether n takes the address of the variable name or of
// a part of it: &v, &v.f, &v[i], v[:] of an array, a method with a pointer
// receiver called on v.
func (c *Cell) addressed(n ast.Node, name string) bool {
	return contains(n, false, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.UnaryExpr:
			return x.Op == token.AND && rootIs(x.X, name)
		case *ast.SliceExpr:
			if !rootIs(x.X, name) {
				return false
			}
			t := c.Types.TypeOf(x.X)
			if t == nil {
				return true
			}
			_, array := t.Underlying().(*types.Array)
			return array
		case *ast.SelectorExpr:
			return c.takesAddress(x) && rootIs(x.X, name)
		}
		return false
	})
}

// rootIs reports whether e is the variable name, or a field or element of
// it.
func rootIs(e ast.Expr, name string) bool {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x.Name == name
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		default:
			return false
		}
	}
}

// nativeCallbacks wraps the function literals that loops in n hand
// straight to native code (see loopVars).
func (c *Cell) nativeCallbacks(n ast.Node, inLoop bool) {
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			if x != n {
				c.nativeCallbacks(x.Body, false)
				return false
			}
		case *ast.ForStmt:
			if !inLoop {
				for _, h := range []ast.Node{x.Init, x.Cond, x.Post} {
					if h != nil {
						c.nativeCallbacks(h, false)
					}
				}
				c.nativeCallbacks(x.Body, true)
				return false
			}
		case *ast.RangeStmt:
			if !inLoop {
				c.nativeCallbacks(x.X, false)
				c.nativeCallbacks(x.Body, true)
				return false
			}
		case *ast.CallExpr:
			if inLoop && c.toPackage(x) {
				for i, a := range x.Args {
					if lit, ok := a.(*ast.FuncLit); ok {
						x.Args[i] = madeHere(lit)
					}
				}
			}
		}
		return true
	})
}

// toPackage reports whether call calls a function or method of a package
// (not one the cells declared).
func (c *Cell) toPackage(call *ast.CallExpr) bool {
	fn := c.callee(call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() != "main"
}

// madeHere is func() T { return lit }(), lit of type T.
func madeHere(lit *ast.FuncLit) ast.Expr {
	t, err := parser.ParseExpr(ExprString(lit.Type))
	if err != nil {
		return lit
	}
	pos := lit.Pos()
	return called(funcLit(pos, lit.End(), results(AtPos(t, pos)), &ast.ReturnStmt{Return: pos, Results: []ast.Expr{lit}}))
}
