package compat

import (
	"go/ast"
	"go/token"
)

// loopVars: Go 1.22 gives each iteration of a loop its own variables.
// yaegi v0.16.1 has the older semantics, one variable for the whole loop,
// so closures and goroutines started in a loop all saw its last value.
// A loop whose body can capture its variables (a function literal, go or
// defer) runs on hidden variables and declares the real ones at the top of
// the body, which yaegi allocates per iteration. (yaegi mishandles the
// idiom "v := v" itself, hence the hidden names.) A three-clause loop
// whose body assigns a loop variable keeps it: a copy would lose the
// assignment.
var loopVars = Pass{
	Name:     "loopvars",
	Run:      runLoopVars,
	Kinds:    []ast.Node{(*ast.RangeStmt)(nil), (*ast.ForStmt)(nil)},
	Snippets: []string{"loopvar_closures_for", "loopvar_closures_range", "loopvar_goroutines"},
}

func runLoopVars(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		switch s := cur.Node().(type) {
		case *ast.RangeStmt:
			c.perIterationRange(s)
		case *ast.ForStmt:
			c.perIterationFor(s)
		}
		return true
	})
}

func (c *Cell) perIterationRange(s *ast.RangeStmt) {
	if s.Tok != token.DEFINE || !capturesIn(s.Body) {
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

func (c *Cell) perIterationFor(s *ast.ForStmt) {
	as, ok := s.Init.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || !capturesIn(s.Body) {
		return
	}
	var names, temps []string
	rename := map[string]string{}
	for i, e := range as.Lhs {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" && !assigns(s.Body, id.Name) {
			t := c.Temp("L")
			names = append(names, id.Name)
			temps = append(temps, t)
			rename[id.Name] = t
			as.Lhs[i] = ident(t, id.Pos())
		}
	}
	if len(names) == 0 {
		return
	}
	for _, n := range []ast.Node{s.Cond, s.Post} {
		if n == nil {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if t, ok := rename[id.Name]; ok {
					id.Name = t
				}
			}
			return true
		})
	}
	prependCopies(s.Body, names, temps)
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

// assigns reports whether n assigns to name (or takes its address).
func assigns(n ast.Node, name string) bool {
	return contains(n, false, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if x.Tok != token.DEFINE {
				for _, l := range x.Lhs {
					if isIdent(l, name) {
						return true
					}
				}
			}
		case *ast.IncDecStmt:
			return isIdent(x.X, name)
		case *ast.UnaryExpr:
			return x.Op == token.AND && isIdent(x.X, name)
		}
		return false
	})
}
