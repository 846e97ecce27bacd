package compat

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"grundy/engine/prelude"
)

// earlierReads: a variable of an earlier cell that the cell reads, or
// assigns, before declaring it again at top level, or in the value it
// declares it with (n := n * 2, xs := append(xs, 4), fmt.Println(x); x :=
// "two"). yaegi v0.16.1's global analysis gives each name the cell's
// top-level statements define a new place before any statement is
// compiled (interp/gta.go:99, sc.sym[dest.ident] = &symbol{..., index:
// sc.add(typ)}), so every read of the name in the cell, the earlier ones
// too, read the new variable, still zero: n := n * 2 gave 0 (Go: 20 for
// n := 10 in an earlier cell), xs := append(xs, 4) lost xs's elements,
// silently. (A var declaration the engine moves to package level, for
// the functions that use it, was read as the new one likewise.)
//
// The engine copies the earlier value before anything of the cell is
// compiled (Before: _grundyOld1 := n, where n is still the earlier
// variable; a package-level var declaration of it failed with "variable
// definition loop"), and those reads read the copy:
//
//	fmt.Println(n)            fmt.Println(_grundyOld1)
//	n := n * 2         =>     n := _grundyOld1 * 2
//	                          grundyrt.SetZero(&_grundyOld1)
//
// After the last statement reading it, the copy is cleared, so that a
// large value (a table the cell extends) is not kept alive, unless a
// function literal reads it.
var earlierReads = Pass{
	Name:     "earlierreads",
	Run:      runEarlierReads,
	Kinds:    []ast.Node{(*ast.Ident)(nil)},
	Snippets: []string{"redeclare_reads_earlier_value"},
}

func runEarlierReads(c *Cell) {
	again := c.declaredAgain()
	if len(again) == 0 {
		return
	}
	type read struct {
		ids    []*ast.Ident
		inFunc bool // a function literal reads it
		last   int  // the last top-level statement reading it (-1: none)
	}
	// live: names declared again by a := that assigns them in Go (see
	// assignsInGo). They are one variable, as in Go: the := becomes an
	// assignment where it can (assignInstead), and otherwise the new
	// variable starts with the earlier value (x = _grundyOld1 before the
	// cell's first statement) and every read in the cell, a function
	// literal's too (g, calls := counted(func(n int) int { ... g(n-1)
	// ... })), reads it.
	live := map[string]bool{}
	var liveOrder []string
	if c.Stmts != nil {
		for _, s := range c.Stmts.List {
			as, ok := s.(*ast.AssignStmt)
			if !ok {
				continue
			}
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && again[id.Name] == as.End() && !live[id.Name] && c.assignsInGo(as, id.Name) {
					live[id.Name] = true
					liveOrder = append(liveOrder, id.Name)
				}
			}
		}
	}
	// Where the := is the cell's one declaration of those names, it
	// becomes an assignment, the names it declares anew declared first
	// (var calls func() int; fib, calls = memo(...)): the interpreter then
	// keeps the session's variable, which the functions and closures of
	// earlier cells read too, as they do in Go.
	liveOrder = slices.DeleteFunc(liveOrder, func(name string) bool {
		if !live[name] {
			return true // (assigned by an earlier statement's rewriting)
		}
		for i, st := range c.Stmts.List {
			as, ok := st.(*ast.AssignStmt)
			if !ok || again[name] != as.End() || topLevelDefines(c.Stmts.List, name) != 1 {
				continue
			}
			stmts := c.assignInstead(as, live)
			if stmts == nil {
				return false
			}
			c.Stmts.List = slices.Replace(c.Stmts.List, i, i+1, stmts...)
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && live[id.Name] {
					delete(again, id.Name)
					live[id.Name] = false
				}
			}
			return true
		}
		return false
	})
	for i, name := range liveOrder {
		pos := c.Stmts.Pos()
		old := c.Temp("Old")
		c.Before = append(c.Before, define(pos, []ast.Expr{ident(old, pos)}, ident(name, pos)))
		set := &ast.AssignStmt{Lhs: []ast.Expr{ident(name, pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(old, pos)}}
		zero := &ast.ExprStmt{X: rtCall(prelude.RTSetZero, pos, addrOf(ident(old, pos), pos))}
		c.Stmts.List = slices.Insert(c.Stmts.List, 2*i, ast.Stmt(set), ast.Stmt(zero))
	}
	reads := map[string]*read{}
	var order []string
	visit := func(n ast.Node, stmt int) (found int) {
		var lits []*ast.FuncLit
		ast.Inspect(n, func(x ast.Node) bool {
			if x == nil {
				return false
			}
			switch x := x.(type) {
			case *ast.FuncLit:
				lits = append(lits, x)
			case *ast.Ident:
				end, ok := again[x.Name]
				if !ok || x.Pos() >= end || !c.readsEarlier(x) {
					return true
				}
				if live[x.Name] {
					return true
				}
				r := reads[x.Name]
				if r == nil {
					r = &read{last: -1}
					reads[x.Name] = r
					order = append(order, x.Name)
				}
				r.ids = append(r.ids, x)
				r.last = max(r.last, stmt)
				found++
				for _, l := range lits {
					if l.Pos() <= x.Pos() && x.End() <= l.End() {
						r.inFunc = true
					}
				}
			}
			return true
		})
		return found
	}
	if c.Decls != nil {
		for _, d := range c.Decls.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, sp := range gd.Specs {
				if vs := sp.(*ast.ValueSpec); visit(vs, -1) > 0 && c.ownValue(vs) {
					name := vs.Names[0].Name
					c.Fail(vs.Pos(), "%s declared again from its earlier value in a cell whose functions use it: this interpreter cannot compile that; assign it instead (%s = ...), or give the new variable another name", name, name)
					return
				}
			}
		}
	}
	if c.Stmts != nil {
		for i, s := range c.Stmts.List {
			visit(s, i)
		}
	}
	type clear struct {
		after int    // the last top-level statement reading the copy
		copy  string // its name
	}
	var clears []clear
	for _, name := range order {
		r := reads[name]
		pos := r.ids[0].Pos()
		old := c.Temp("Old")
		c.Before = append(c.Before, define(pos, []ast.Expr{ident(old, pos)}, ident(name, pos)))
		for _, id := range r.ids {
			id.Name = old
		}
		trail := c.Trail != nil && r.last == len(c.Stmts.List)-1 && c.Stmts.List[r.last] == ast.Stmt(c.Trail)
		if !r.inFunc && c.Stmts != nil && !trail {
			clears = append(clears, clear{r.last, old})
		}
	}
	// (From the last statement on, so that the indexes stay right.)
	slices.SortStableFunc(clears, func(a, b clear) int { return b.after - a.after })
	for _, cl := range clears {
		at := cl.after + 1
		pos := c.Stmts.Pos()
		if at > 0 {
			pos = c.Stmts.List[at-1].End()
		}
		zero := &ast.ExprStmt{X: rtCall(prelude.RTSetZero, pos, addrOf(ident(cl.copy, pos), pos))}
		c.Stmts.List = slices.Insert(c.Stmts.List, at, ast.Stmt(zero))
	}
}

// assignsInGo reports whether s, a top-level statement, is a := of
// several names that, declaring an earlier cell's variable name again
// with its type, assigns it in Go, where the cells are one function's
// body (g, calls := counted(...) after var g func(int) int): a function
// literal in its value reads the variable it assigns, as in Go, not the
// earlier value.
func (c *Cell) assignsInGo(s ast.Stmt, name string) bool {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) < 2 {
		return false
	}
	for _, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || id.Name != name {
			continue
		}
		old, _ := c.Types.Earlier(SourceName(name)).(*types.Var)
		v, _ := c.Types.Defs[id].(*types.Var)
		return old != nil && v != nil && types.Identical(old.Type(), v.Type())
	}
	return false
}

// topLevelDefines counts the top-level := and var declarations of name.
func topLevelDefines(list []ast.Stmt, name string) int {
	n := 0
	for _, st := range list {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, l := range st.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == name {
						n++
					}
				}
			}
		case *ast.DeclStmt:
			if gd, ok := st.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, sp := range gd.Specs {
					for _, id := range sp.(*ast.ValueSpec).Names {
						if id.Name == name {
							n++
						}
					}
				}
			}
		}
	}
	return n
}

// assignInstead is as, a := of several names some of which (live) it
// assigns in Go, as an assignment after var declarations of the others;
// nil where a type cannot be written.
func (c *Cell) assignInstead(as *ast.AssignStmt, live map[string]bool) []ast.Stmt {
	var out []ast.Stmt
	for _, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			return nil
		}
		if id.Name == "_" || live[id.Name] {
			continue
		}
		v, _ := c.Types.Defs[id].(*types.Var)
		if v == nil {
			return nil
		}
		t, ok := c.TypeExpr(v.Type(), id.Pos())
		if !ok {
			return nil
		}
		out = append(out, &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: id.Pos(), Tok: token.VAR,
			Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{id}, Type: t}}}})
	}
	as.Tok = token.ASSIGN
	return append(out, as)
}

// declaredAgain lists the variables of earlier cells that the cell
// declares again at top level, each with the end of its first
// declaration: a read before it reads the earlier variable.
func (c *Cell) declaredAgain() map[string]token.Pos {
	out := map[string]token.Pos{}
	note := func(id *ast.Ident, end token.Pos) {
		if _, isVar := c.Types.Earlier(SourceName(id.Name)).(*types.Var); isVar && id.Name != "_" {
			if old, ok := out[id.Name]; !ok || end < old {
				out[id.Name] = end
			}
		}
	}
	specs := func(gd *ast.GenDecl) {
		if gd.Tok != token.VAR {
			return
		}
		for _, sp := range gd.Specs {
			for _, id := range sp.(*ast.ValueSpec).Names {
				note(id, sp.End())
			}
		}
	}
	if c.Decls != nil {
		for _, d := range c.Decls.Decls {
			if gd, ok := d.(*ast.GenDecl); ok {
				specs(gd)
			}
		}
	}
	if c.Stmts != nil {
		for _, s := range c.Stmts.List {
			switch s := s.(type) {
			case *ast.AssignStmt:
				if s.Tok == token.DEFINE {
					for _, l := range s.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							note(id, s.End())
						}
					}
				}
			case *ast.DeclStmt:
				if gd, ok := s.Decl.(*ast.GenDecl); ok {
					specs(gd)
				}
			}
		}
	}
	return out
}

// readsEarlier reports whether id, a name the cell declares again, stands
// for the session's variable there: the earlier cell's, or the cell's own
// at package level (which the interpreter has not given the new value
// yet); not a variable of a nested scope, a field or the declaration
// itself.
func (c *Cell) readsEarlier(id *ast.Ident) bool {
	if c.Types.Defs[id] != nil {
		return false
	}
	obj, ok := c.Types.Uses[id].(*types.Var)
	if !ok || obj.IsField() {
		return false
	}
	return obj == c.Types.Earlier(SourceName(id.Name)) || cellGlobal(obj)
}

// ownValue reports whether vs, a declaration the engine moved to package
// level for the cell's functions, gets its value from a variable it
// declares (var n = n * 2): the oracle gives it no type (an
// initialization cycle at package level), so it cannot be declared there
// and assigned among the statements (see varInits), and an initializer
// there cannot read the copy the statements made.
func (c *Cell) ownValue(vs *ast.ValueSpec) bool {
	for _, id := range vs.Names {
		if v, ok := c.Types.Defs[id].(*types.Var); ok && v.Type() == types.Typ[types.Invalid] {
			return true
		}
	}
	return false
}
