package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// blankReceive: "_, ok = <-ch", a receive assigned with its value
// blanked. yaegi v0.16.1 stores the value received in the blank's
// place, typed as the channel (interp/run.go, recv2), and reflect
// panicked ("value of type int is not assignable to type chan int", or
// to type error at a cell's top level, where commaOk writes this form
// for "_, ok := <-ch"). The receive is made in a function literal, where
// the declaring form works:
//
//	_, ok = <-ch  =>  ok = func() bool { _, _grundyOK1 := <-ch; return _grundyOK1 }()
//
// And "_ = *p", a dereference assigned to the blank (the idiom that
// checks a pointer is not nil): yaegi v0.16.1 does not dereference for
// the blank, so a nil p did not panic where Go does. The value is
// defined first:
//
//	_ = *p  =>  { _grundyBD1 := *p; _ = _grundyBD1 }
var blankReceive = Pass{
	Name:     "blankreceive",
	Run:      runBlankReceive,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"receive_ok_with_blank_value", "blank_deref_nil_panics"},
}

func runBlankReceive(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		as, ok := cur.Node().(*ast.AssignStmt)
		if ok && as.Tok == token.ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 && isIdent(as.Lhs[0], "_") {
			if star, deref := ast.Unparen(as.Rhs[0]).(*ast.StarExpr); deref && cur.Index() >= 0 {
				pos, v := as.Pos(), c.Temp("BD")
				cur.Replace(&ast.BlockStmt{Lbrace: pos, Rbrace: as.End(), List: []ast.Stmt{
					define(pos, []ast.Expr{ident(v, pos)}, star),
					&ast.AssignStmt{Lhs: []ast.Expr{ident("_", pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ident(v, pos)}}}})
				return true
			}
		}
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 2 || len(as.Rhs) != 1 || !isIdent(as.Lhs[0], "_") || isIdent(as.Lhs[1], "_") {
			return true
		}
		recv, ok := ast.Unparen(as.Rhs[0]).(*ast.UnaryExpr)
		if !ok || recv.Op != token.ARROW {
			return true
		}
		if t := c.Types.TypeOf(as.Lhs[1]); t != nil && !types.Identical(t, types.Typ[types.Bool]) {
			return true // a named boolean type: rare, left as it is
		}
		pos := as.Pos()
		okName := c.Temp("OK")
		body := []ast.Stmt{
			define(pos, []ast.Expr{ident("_", pos), ident(okName, pos)}, recv),
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident(okName, pos)}},
		}
		fn := &ast.FuncLit{
			Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos},
				Results: &ast.FieldList{List: []*ast.Field{{Type: ident("bool", pos)}}}},
			Body: &ast.BlockStmt{Lbrace: pos, List: body, Rbrace: pos},
		}
		cur.Replace(&ast.AssignStmt{Lhs: []ast.Expr{as.Lhs[1]}, TokPos: as.TokPos, Tok: token.ASSIGN,
			Rhs: []ast.Expr{&ast.CallExpr{Fun: fn, Lparen: pos, Rparen: pos}}})
		return true
	})
}
