package compat

import (
	"go/ast"
	"go/token"
)

// loopTuples: in a loop whose body can capture its variables (a function
// literal, go or defer) or takes an address, the variables the body's own
// statements declare from a comma-ok form get a new variable each
// iteration, and so does the variable a type switch binds (see
// freshTuples). It runs after commaOkZero, whose zeroing of a missing
// key's value it keeps.
var loopTuples = Pass{
	Name:     "looptuples",
	Run:      runLoopTuples,
	Kinds:    []ast.Node{(*ast.RangeStmt)(nil), (*ast.ForStmt)(nil)},
	Snippets: []string{"loopvar_commaok_closures"},
}

func runLoopTuples(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		switch s := cur.Node().(type) {
		case *ast.RangeStmt:
			c.freshTuples(s.Body)
		case *ast.ForStmt:
			c.freshTuples(s.Body)
		}
		return true
	})
}

// freshTuples gives the variables that body's own statements declare
// from a comma-ok form (v, ok := m[k]; var v, ok = x.(T); v, ok := <-ch;
// as an if's or a switch's too) and the variable a type switch binds
// (switch x := v.(type)) a new variable each iteration, where body can
// capture them or takes an address: yaegi v0.16.1 writes those into the
// slots the variables had in the last iteration (interp/cfg.go:743, the
// define of a comma-ok form is no reset), so every closure and pointer of
// the loop saw the last iteration's value (a:B b:B for a registry of
// hooks, 0 0 0 for jobs a worker received). Defined from temporaries, as
// a plain define, they are new:
//
//	h, ok := reg[n]  =>  _grundyT1, _grundyT2 := reg[n]; h, ok := _grundyT1, _grundyT2
//	switch x := v.(type) { case int: ... }  =>  switch _grundyT3 := v.(type) { case int: x := _grundyT3; _ = x; ... }
func (c *Cell) freshTuples(body *ast.BlockStmt) {
	if !capturesIn(body) && !contains(body, false, func(n ast.Node) bool {
		u, ok := n.(*ast.UnaryExpr)
		return ok && u.Op == token.AND
	}) {
		return
	}
	// split is the define of temporaries for s, a two-value define from a
	// comma-ok form, which then defines its variables from them; nil when
	// s is none.
	split := func(s ast.Stmt) ast.Stmt {
		var values *[]ast.Expr
		switch x := s.(type) {
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE && len(x.Lhs) == 2 && len(x.Rhs) == 1 && commaOkForm(x.Rhs[0]) {
				values = &x.Rhs
			}
		case *ast.DeclStmt:
			if gd, ok := x.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR && len(gd.Specs) == 1 {
				if vs := gd.Specs[0].(*ast.ValueSpec); len(vs.Names) == 2 && len(vs.Values) == 1 && commaOkForm(vs.Values[0]) {
					values = &vs.Values
				}
			}
		}
		if values == nil {
			return nil
		}
		pos := s.Pos()
		temps := []ast.Expr{ident(c.Temp("T"), pos), ident(c.Temp("T"), pos)}
		first := define(pos, temps, (*values)[0])
		*values = []ast.Expr{ident(temps[0].(*ast.Ident).Name, pos), ident(temps[1].(*ast.Ident).Name, pos)}
		return first
	}
	var list func([]ast.Stmt) []ast.Stmt
	var stmt func(ast.Stmt) ast.Stmt
	// withInit is s, whose init *init may be split, in a block with the
	// temporaries' define first.
	withInit := func(s ast.Stmt, init *ast.Stmt) ast.Stmt {
		if *init == nil {
			return s
		}
		if first := split(*init); first != nil {
			return &ast.BlockStmt{Lbrace: s.Pos(), List: []ast.Stmt{first, s}, Rbrace: s.End()}
		}
		return s
	}
	stmt = func(s ast.Stmt) ast.Stmt {
		switch x := s.(type) {
		case *ast.BlockStmt:
			x.List = list(x.List)
		case *ast.LabeledStmt:
			x.Stmt = stmt(x.Stmt)
		case *ast.IfStmt:
			x.Body.List = list(x.Body.List)
			if x.Else != nil {
				x.Else = stmt(x.Else)
			}
			return withInit(x, &x.Init)
		case *ast.SwitchStmt:
			for _, cc := range x.Body.List {
				cc.(*ast.CaseClause).Body = list(cc.(*ast.CaseClause).Body)
			}
			return withInit(x, &x.Init)
		case *ast.TypeSwitchStmt:
			if as, ok := x.Assign.(*ast.AssignStmt); ok && len(as.Lhs) == 1 {
				if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
					t := c.Temp("T")
					as.Lhs[0] = ident(t, id.Pos())
					for _, cc := range x.Body.List {
						cl := cc.(*ast.CaseClause)
						bind := []ast.Stmt{define(cl.Colon, []ast.Expr{ident(id.Name, id.Pos())}, ident(t, cl.Colon)),
							&ast.AssignStmt{Lhs: []ast.Expr{ident("_", cl.Colon)}, Tok: token.ASSIGN, TokPos: cl.Colon, Rhs: []ast.Expr{ident(id.Name, cl.Colon)}}}
						cl.Body = append(bind, cl.Body...)
					}
				}
			}
			for _, cc := range x.Body.List {
				cc.(*ast.CaseClause).Body = list(cc.(*ast.CaseClause).Body)
			}
			return withInit(x, &x.Init)
		case *ast.SelectStmt:
			for _, cc := range x.Body.List {
				cc.(*ast.CommClause).Body = list(cc.(*ast.CommClause).Body)
			}
		}
		return s
	}
	list = func(in []ast.Stmt) []ast.Stmt {
		var out []ast.Stmt
		for _, s := range in {
			if first := split(s); first != nil {
				out = append(out, first)
			}
			out = append(out, stmt(s))
		}
		return out
	}
	body.List = list(body.List)
}
