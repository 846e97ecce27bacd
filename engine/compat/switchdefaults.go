package compat

import (
	"go/ast"
	"go/token"
)

// switchDefaults: a switch or type switch whose default clause is not the
// last one. yaegi v0.16.1 swaps the default clause with the last clause
// before compiling (interp/cfg.go:541, "make sure default clause is in
// last position"), so the clause that was last is tried before the others
// (switch { default: ...; case x > 1: A; case x > 0: B } took B for x = 5,
// a type switch its last case before an earlier one that also matched),
// and a fallthrough went to the clause now next to it. Go tries the cases
// in the order written and takes default when none matches, so moving the
// default clause to the end changes nothing, unless a fallthrough enters
// or leaves it. Then the switch picks a clause and a second switch runs
// it, the clauses in their order with their fallthroughs:
//
//	{ init; var _grundySw1 int
//	  switch tag { case a: _grundySw1 = 0; case b: _grundySw1 = 2; default: _grundySw1 = 1 }
//	  label: switch _grundySw1 { case 0: ...; fallthrough; case 1: ...; case 2: ... } }
var switchDefaults = Pass{
	Name:     "switchdefaults",
	Run:      runSwitchDefaults,
	Kinds:    []ast.Node{(*ast.SwitchStmt)(nil), (*ast.TypeSwitchStmt)(nil)},
	Snippets: []string{"switch_default_first", "switch_default_fallthrough"},
}

func runSwitchDefaults(c *Cell) {
	gotos := map[string]bool{}
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO && b.Label != nil {
				gotos[b.Label.Name] = true
			}
			return true
		})
	}
	c.Apply(func(cur Cursor) bool {
		switch s := cur.Node().(type) {
		case *ast.TypeSwitchStmt:
			moveDefault(s.Body)
		case *ast.SwitchStmt:
			if _, labeled := cur.Parent().(*ast.LabeledStmt); labeled && throughDefault(s.Body) {
				return true // rewritten with its label, below
			}
			c.switchDefault(cur, s, nil)
		case *ast.LabeledStmt:
			if sw, ok := s.Stmt.(*ast.SwitchStmt); ok {
				if gotos[s.Label.Name] && throughDefault(sw.Body) {
					c.Fail(s.Pos(), "a fallthrough into or out of a default clause that is not the last, in a switch a goto names (%s): move the default clause to the end of the switch", userLabel(s.Label))
					return false
				}
				c.switchDefault(cur, sw, s)
			}
		}
		return true
	})
}

// defaultAt is the index of the default clause of a switch body, -1 if
// there is none.
func defaultAt(body *ast.BlockStmt) int {
	for i, s := range body.List {
		if cc, ok := s.(*ast.CaseClause); ok && cc.List == nil {
			return i
		}
	}
	return -1
}

// moveDefault puts the default clause last, the others keeping their
// order.
func moveDefault(body *ast.BlockStmt) {
	d := defaultAt(body)
	if d < 0 || d == len(body.List)-1 {
		return
	}
	def := body.List[d]
	body.List = append(append(body.List[:d:d], body.List[d+1:]...), def)
}

// endsInFallthrough reports whether a case clause ends with fallthrough.
func endsInFallthrough(s ast.Stmt) bool {
	cc := s.(*ast.CaseClause)
	if len(cc.Body) == 0 {
		return false
	}
	b, ok := cc.Body[len(cc.Body)-1].(*ast.BranchStmt)
	return ok && b.Tok == token.FALLTHROUGH
}

// throughDefault reports whether a fallthrough enters or leaves a default
// clause that is not last.
func throughDefault(body *ast.BlockStmt) bool {
	d := defaultAt(body)
	if d < 0 || d == len(body.List)-1 {
		return false
	}
	return endsInFallthrough(body.List[d]) || d > 0 && endsInFallthrough(body.List[d-1])
}

// switchDefault rewrites the switch s at cur (or the labeled statement
// lab holding it) whose default clause is not last.
func (c *Cell) switchDefault(cur Cursor, s *ast.SwitchStmt, lab *ast.LabeledStmt) {
	if !throughDefault(s.Body) {
		moveDefault(s.Body)
		return
	}
	pos := s.Pos()
	k := c.Temp("Sw")
	var pick, run []ast.Stmt
	for i, st := range s.Body.List {
		cc := st.(*ast.CaseClause)
		n := &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: itoa(i)}
		set := &ast.AssignStmt{Lhs: []ast.Expr{ident(k, pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{n}}
		pick = append(pick, &ast.CaseClause{Case: cc.Case, List: cc.List, Colon: cc.Colon, Body: []ast.Stmt{set}})
		run = append(run, &ast.CaseClause{Case: cc.Case, List: []ast.Expr{n}, Colon: cc.Colon, Body: cc.Body})
	}
	picker := &ast.SwitchStmt{Switch: pos, Tag: s.Tag, Body: &ast.BlockStmt{Lbrace: s.Body.Lbrace, List: pick, Rbrace: s.Body.Rbrace}}
	moveDefault(picker.Body)
	var runner ast.Stmt = &ast.SwitchStmt{Switch: pos, Tag: ident(k, pos), Body: &ast.BlockStmt{Lbrace: s.Body.Lbrace, List: run, Rbrace: s.Body.Rbrace}}
	if lab != nil {
		runner = &ast.LabeledStmt{Label: lab.Label, Colon: lab.Colon, Stmt: runner}
	}
	decl := &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{ident(k, pos)}, Type: ident("int", pos)},
	}}}
	var list []ast.Stmt
	if s.Init != nil {
		list = append(list, s.Init)
	}
	list = append(list, decl, picker, runner)
	cur.Replace(&ast.BlockStmt{Lbrace: pos, List: list, Rbrace: s.End()})
}
