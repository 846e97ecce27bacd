package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// rangeChans: "for i, ch := range chs" where the elements are channels.
// yaegi v0.16.1 decides that a range statement receives from a channel by
// the type of its second child (interp/scope.go:148, rangeChanType), which
// is the range expression in "for v := range ch" but the value variable
// in "for i, v := range xs": a slice or map of channels was received from
// as if it were a channel, and the loop failed ("reflect: call of
// reflect.Value.Len on int Value") or hung. The loop ranges over the keys
// and reads each element itself, the range expression evaluated once:
//
//	{ _grundyR1 := chs; for i := range _grundyR1 { ch := _grundyR1[i]; { body } } }
var rangeChans = Pass{
	Name:     "rangechans",
	Run:      runRangeChans,
	Kinds:    []ast.Node{(*ast.RangeStmt)(nil)},
	Snippets: []string{"range_slice_of_channels"},
}

func runRangeChans(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		var label *ast.LabeledStmt
		s, ok := cur.Node().(*ast.RangeStmt)
		if l, isLabel := cur.Node().(*ast.LabeledStmt); isLabel {
			s, ok = l.Stmt.(*ast.RangeStmt)
			label = l
		}
		if !ok || s.Value == nil || isIdent(s.Value, "_") || !c.elemIsChan(s.X) {
			return true
		}
		if _, parentLabel := cur.Parent().(*ast.LabeledStmt); parentLabel {
			return true // rewritten with its label
		}
		cur.Replace(c.keysLoop(s, label))
		return true
	})
}

// elemIsChan reports whether ranging over x yields channels as values.
func (c *Cell) elemIsChan(x ast.Expr) bool {
	t := c.Types.TypeOf(x)
	if t == nil {
		return false
	}
	u := typeUnder(t)
	if p, ok := u.(*types.Pointer); ok {
		u = typeUnder(p.Elem())
	}
	var elem types.Type
	switch u := u.(type) {
	case *types.Slice:
		elem = u.Elem()
	case *types.Array:
		elem = u.Elem()
	case *types.Map:
		elem = u.Elem()
	default:
		return false
	}
	_, ch := typeUnder(elem).(*types.Chan)
	return ch
}

// keysLoop is s ranging over the keys of its expression, evaluated once;
// a label stays on the loop.
func (c *Cell) keysLoop(s *ast.RangeStmt, label *ast.LabeledStmt) ast.Stmt {
	pos := s.For
	coll := c.Temp("R")
	key := c.Temp("K")
	elem := &ast.IndexExpr{X: ident(coll, pos), Lbrack: pos, Index: ident(key, pos), Rbrack: pos}
	var set ast.Stmt
	if s.Key == nil || isIdent(s.Key, "_") {
		set = &ast.AssignStmt{Lhs: []ast.Expr{s.Value}, Tok: s.Tok, Rhs: []ast.Expr{elem}, TokPos: pos}
	} else {
		set = &ast.AssignStmt{Lhs: []ast.Expr{s.Key, s.Value}, Tok: s.Tok, Rhs: []ast.Expr{ident(key, pos), elem}, TokPos: pos}
	}
	var loop ast.Stmt = &ast.RangeStmt{
		For:    pos,
		Key:    ident(key, pos),
		Tok:    token.DEFINE,
		TokPos: pos,
		X:      ident(coll, pos),
		// The body in a block of its own: it may declare the names again.
		Body: &ast.BlockStmt{Lbrace: s.Body.Lbrace, List: []ast.Stmt{set, s.Body}, Rbrace: s.Body.Rbrace},
	}
	if label != nil {
		label.Stmt = loop
		loop = label
	}
	return &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{define(pos, []ast.Expr{ident(coll, pos)}, s.X), loop}, Rbrace: s.End() - 1}
}
