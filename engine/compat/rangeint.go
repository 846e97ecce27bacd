package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// rangeInt: "for i := range n" over an integer (Go 1.22). yaegi v0.16.1
// ranges over arrays, slices, strings, maps, channels and pointers to
// arrays only (interp/cfg.go:145, the range cases of the block pre-order),
// and fails with "nil type" on an integer. The loop becomes a counting
// loop whose variable has n's type (a type parameter's whose types are
// all integers too), n evaluated once, as Go specifies:
//
//	{ _grundyN1 := n; for i := _grundyN1 - _grundyN1; i < _grundyN1; i++ { body } }
//
// (on a hidden counter, "i := _grundyI2; { body }", when the body changes
// i or takes its address: that changes no count in Go).
var rangeInt = Pass{
	Name:     "rangeint",
	Run:      runRangeInt,
	Kinds:    []ast.Node{(*ast.RangeStmt)(nil)},
	Snippets: []string{"range_int_literal", "range_int_var", "range_int_field", "range_int_type_param"},
}

func runRangeInt(c *Cell) {
	c.rewriteRanges(func(s *ast.RangeStmt) bool {
		b, ok := rangedType(c.Types.TypeOf(s.X)).(*types.Basic)
		return s.Value == nil && ok && b.Info()&types.IsInteger != 0
	}, c.countingLoop)
}

// countingLoop is the loop of a range over an integer; a label stays on
// the loop.
func (c *Cell) countingLoop(s *ast.RangeStmt, label *ast.LabeledStmt) ast.Stmt {
	pos := s.For
	limit := c.Temp("N")
	key := c.Temp("I")
	var body []ast.Stmt
	if id, ok := s.Key.(*ast.Ident); ok && s.Tok == token.DEFINE && id.Name != "_" {
		if assigns(s.Body, id.Name, false) || c.addressed(s.Body, id.Name) {
			// The body's changes to its variable do not change the
			// count: each iteration gets its own copy of the counter.
			s.Body.List = []ast.Stmt{define(pos, []ast.Expr{ident(id.Name, id.Pos())}, ident(key, pos)),
				&ast.BlockStmt{Lbrace: s.Body.Lbrace, List: s.Body.List, Rbrace: s.Body.Rbrace}}
		} else {
			key = id.Name
		}
	} else if s.Key != nil && !isIdent(s.Key, "_") {
		// for k = range n: k is assigned each value (through a copy
		// of its own when k is an interface: yaegi v0.16.1 kept the
		// counter itself there, a cell type's box, and the loop's
		// last increment showed: for s.v = range Max ended with 3).
		val := ident(key, pos)
		if types.IsInterface(c.Types.TypeOf(s.Key)) {
			cp := c.Temp("K")
			body = append(body, define(pos, []ast.Expr{ident(cp, pos)}, ident(key, pos)))
			val = ident(cp, pos)
		}
		body = append(body, &ast.AssignStmt{Lhs: []ast.Expr{s.Key}, Tok: token.ASSIGN, Rhs: []ast.Expr{val}, TokPos: pos})
	}
	s.Body.List = append(body, s.Body.List...)
	loop := &ast.ForStmt{
		For:  pos,
		Init: define(pos, []ast.Expr{ident(key, pos)}, &ast.BinaryExpr{X: ident(limit, pos), Op: token.SUB, Y: ident(limit, pos), OpPos: pos}),
		Cond: &ast.BinaryExpr{X: ident(key, pos), Op: token.LSS, Y: ident(limit, pos), OpPos: pos},
		Post: step(ident(key, pos), token.INC, pos, c.Types.TypeOf(s.X)),
		Body: s.Body,
	}
	c.loopReplaced(s, loop)
	n := s.X
	if tv, ok := c.Types.Types[s.X]; ok && tv.Value != nil && s.Tok == token.ASSIGN && s.Key != nil && !isIdent(s.Key, "_") {
		// A constant takes the type of the variable it is assigned
		// to (var x uint8; for x = range 3), not int.
		if kt := c.Types.TypeOf(s.Key); isTypedInteger(kt) {
			tx, _ := c.TypeExpr(kt, pos)
			if tx != nil {
				n = &ast.CallExpr{Fun: tx, Lparen: pos, Args: []ast.Expr{s.X}, Rparen: pos}
			}
		}
	}
	return &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{define(pos, []ast.Expr{ident(limit, pos)}, n), labelled(loop, label)}, Rbrace: s.End() - 1}
}
