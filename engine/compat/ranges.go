package compat

import (
	"go/ast"
	"go/token"
	"go/types"

	"grundy/engine/prelude"
)

// rangeStrings: a range over a string steps through it by UTF-8 encoded
// runes, the key being the byte index. yaegi v0.16.1 ranges over
// []rune(s) and computes the key as len(string(runes[:i]))
// (interp/run.go:2827, _range), so after an invalid byte, which becomes
// U+FFFD (three bytes), the indices were off; with the key alone it
// counted runes, not bytes; and every step cost the length of the string.
// The loop decodes the string itself:
//
//	for i, r := range s { body }
//	=>
//	{ _grundyS1 := string(s); for _grundyI2, _grundyW3 := 0, 0; _grundyI2 < len(_grundyS1); _grundyI2 += _grundyW3 {
//		_grundyR4 := grundyrt.DecodeRune(_grundyS1, _grundyI2, &_grundyW3); i, r := _grundyI2, _grundyR4; body } }
var rangeStrings = Pass{
	Name:     "rangestrings",
	Run:      runRangeStrings,
	Kinds:    []ast.Node{(*ast.RangeStmt)(nil)},
	Snippets: []string{"range_string_byte_indices"},
}

func runRangeStrings(c *Cell) {
	c.rewriteRanges(func(s *ast.RangeStmt) bool {
		return isStringType(c.Types.TypeOf(s.X))
	}, c.stringLoop)
}

// isStringType reports whether t is a string type, or a type parameter
// whose types are all strings (S ~string).
func isStringType(t types.Type) bool {
	b, ok := rangedType(t).(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// rangedType is what a range statement over a value of type t ranges
// over: t's underlying type or, for a type parameter, its core type (the
// underlying type all the types in its type set share; nil when they
// differ or the set is not a list of types). The range passes ask it, so
// that "for i := range n" with n of type T ~int, or "for v := range seq"
// with seq of type S ~func(func(int) bool), is rewritten as it is for
// their core types: yaegi fails on both ("nil type").
func rangedType(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		return t.Underlying()
	}
	var core types.Type
	agree := func(u types.Type) bool {
		if core == nil {
			core = u
		}
		return types.Identical(core, u)
	}
	if !typeSetEach(tp.Constraint(), agree) {
		return nil
	}
	return core
}

// rangeChans: a range whose value is a channel, over a slice, array or
// map of channels. yaegi v0.16.1 takes the value variable for the
// channel ranged over once its type is known (interp/scope.go:155,
// rangeChanType, reads the range's second child), so the loop failed in
// reflect or with a nil dereference. The loop ranges over the keys and
// reads each value:
//
//	for i, ch := range chs { body }  =>  { _grundyS1 := chs; for _grundyK2 := range _grundyS1 { i, ch := _grundyK2, _grundyS1[_grundyK2]; body } }
var rangeChans = Pass{
	Name:     "rangechans",
	Run:      runRangeChans,
	Kinds:    []ast.Node{(*ast.RangeStmt)(nil)},
	Snippets: []string{"range_over_channels_values", "range_slice_of_channels", "range_channels_type_param"},
}

func runRangeChans(c *Cell) {
	c.rewriteRanges(func(s *ast.RangeStmt) bool {
		if s.Value == nil || isIdent(s.Value, "_") {
			return false
		}
		t := rangedType(c.Types.TypeOf(s.X))
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if t == nil {
			return false
		}
		elem := indexedElem(t)
		if elem == nil {
			return false
		}
		_, isChan := elem.Underlying().(*types.Chan)
		return isChan
	}, c.keyedLoop)
}

// rewriteRanges replaces each range statement that match selects with
// what loop makes of it (a label stays on the new loop).
func (c *Cell) rewriteRanges(match func(*ast.RangeStmt) bool, loop func(s *ast.RangeStmt, label *ast.LabeledStmt) ast.Stmt) {
	c.Apply(func(cur Cursor) bool {
		var label *ast.LabeledStmt
		s, ok := cur.Node().(*ast.RangeStmt)
		if l, isLabel := cur.Node().(*ast.LabeledStmt); isLabel {
			s, ok = l.Stmt.(*ast.RangeStmt)
			label = l
		}
		if !ok || c.Types.TypeOf(s.X) == nil || !match(s) {
			return true
		}
		if _, parentLabel := cur.Parent().(*ast.LabeledStmt); parentLabel {
			return true // rewritten with its label
		}
		cur.Replace(loop(s, label))
		return true
	})
}

// rangeVars sets the range's key and value to key and value at the top of
// its body, as the range statement would (declared or assigned).
func rangeVars(s *ast.RangeStmt, key, value ast.Expr) {
	var lhs, rhs []ast.Expr
	for _, v := range [][2]ast.Expr{{s.Key, key}, {s.Value, value}} {
		if v[0] != nil && !isIdent(v[0], "_") && v[1] != nil {
			lhs, rhs = append(lhs, v[0]), append(rhs, v[1])
		}
	}
	if len(lhs) == 0 {
		return
	}
	tok := token.ASSIGN
	if s.Tok == token.DEFINE {
		tok = token.DEFINE
	}
	set := &ast.AssignStmt{Lhs: lhs, Tok: tok, Rhs: rhs, TokPos: s.For}
	s.Body.List = append([]ast.Stmt{set}, s.Body.List...)
}

// labelled puts loop under label, if there is one.
func labelled(loop ast.Stmt, label *ast.LabeledStmt) ast.Stmt {
	if label == nil {
		return loop
	}
	label.Stmt = loop
	return label
}

func (c *Cell) stringLoop(s *ast.RangeStmt, label *ast.LabeledStmt) ast.Stmt {
	pos := s.For
	str, i, w, r := c.Temp("S"), c.Temp("I"), c.Temp("W"), c.Temp("R")
	var value ast.Expr
	if s.Value != nil && !isIdent(s.Value, "_") {
		value = ident(r, pos)
	}
	rangeVars(s, ident(i, pos), value)
	decode := &ast.CallExpr{
		Fun:    &ast.SelectorExpr{X: ident(prelude.Runtime, pos), Sel: ident(prelude.RTDecodeRune, pos)},
		Args:   []ast.Expr{ident(str, pos), ident(i, pos), &ast.UnaryExpr{OpPos: pos, Op: token.AND, X: ident(w, pos)}},
		Lparen: pos, Rparen: pos,
	}
	var step ast.Stmt = &ast.ExprStmt{X: decode}
	if value != nil {
		step = define(pos, []ast.Expr{ident(r, pos)}, decode)
	}
	s.Body.List = append([]ast.Stmt{step}, s.Body.List...)
	loop := &ast.ForStmt{
		For:  pos,
		Init: define(pos, []ast.Expr{ident(i, pos), ident(w, pos)}, &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "0"}, &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "0"}),
		Cond: &ast.BinaryExpr{X: ident(i, pos), OpPos: pos, Op: token.LSS, Y: &ast.CallExpr{Fun: ident("len", pos), Lparen: pos, Args: []ast.Expr{ident(str, pos)}, Rparen: pos}},
		Post: &ast.AssignStmt{Lhs: []ast.Expr{ident(i, pos)}, Tok: token.ADD_ASSIGN, Rhs: []ast.Expr{ident(w, pos)}, TokPos: pos},
		Body: s.Body,
	}
	conv := &ast.CallExpr{Fun: ident("string", pos), Lparen: pos, Args: []ast.Expr{s.X}, Rparen: pos}
	return &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{define(pos, []ast.Expr{ident(str, pos)}, conv), labelled(loop, label)}, Rbrace: s.End() - 1}
}

func (c *Cell) keyedLoop(s *ast.RangeStmt, label *ast.LabeledStmt) ast.Stmt {
	pos := s.For
	coll, k := c.Temp("S"), c.Temp("K")
	rangeVars(s, ident(k, pos), &ast.IndexExpr{X: ident(coll, pos), Lbrack: pos, Index: ident(k, pos), Rbrack: pos})
	loop := &ast.RangeStmt{For: pos, Key: ident(k, pos), Tok: token.DEFINE, X: ident(coll, pos), Body: s.Body}
	return &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{define(pos, []ast.Expr{ident(coll, pos)}, s.X), labelled(loop, label)}, Rbrace: s.End() - 1}
}
