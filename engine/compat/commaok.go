package compat

import (
	"go/ast"
	"go/token"
)

// commaOk: "v, ok := m[k]" and "v, ok := x.(T)" among a cell's top-level
// statements. yaegi v0.16.1 compiles the global scope's definitions in
// its global analysis (interp/gta.go, defineStmt), which types only the
// single-value forms, so these failed to compile at top level. The ok is
// computed in a function literal and the value separately:
//
//	ok := func() bool { _, _grundyOK := m[k]; return _grundyOK }()
//	v := m[k]
var commaOk = Pass{
	Name:     "commaok",
	Run:      runCommaOk,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"comma_ok_top_level"},
}

func runCommaOk(c *Cell) {
	for _, b := range c.TopLevel() {
		var out []ast.Stmt
		for _, s := range b.List {
			out = append(out, commaOkForms(s)...)
		}
		b.List = out
	}
}

const okName = tempPrefix + "OK"

func commaOkForms(s ast.Stmt) []ast.Stmt {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return []ast.Stmt{s}
	}
	val, _ := as.Lhs[0].(*ast.Ident)
	okID, _ := as.Lhs[1].(*ast.Ident)
	if val == nil || okID == nil {
		return []ast.Stmt{s}
	}
	pos := as.Pos()
	okFunc := called(funcLit(pos, pos, results(ident("bool", pos)),
		define(pos, []ast.Expr{ident("_", pos), ident(okName, pos)}, as.Rhs...),
		&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ident(okName, pos)}}))
	okVar := okID.Name
	if okVar == "_" {
		okVar = tempPrefix + "OKv"
	}
	okDef := define(pos, []ast.Expr{ident(okVar, okID.Pos())}, okFunc)
	switch x := as.Rhs[0].(type) {
	case *ast.IndexExpr:
		if val.Name == "_" {
			return []ast.Stmt{okDef}
		}
		return []ast.Stmt{okDef, define(pos, []ast.Expr{val}, x)}
	case *ast.TypeAssertExpr:
		if x.Type == nil {
			break
		}
		if val.Name == "_" {
			return []ast.Stmt{okDef}
		}
		return []ast.Stmt{okDef,
			&ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{val}, Type: x.Type}}}},
			&ast.IfStmt{If: pos, Cond: ident(okVar, pos), Body: &ast.BlockStmt{List: []ast.Stmt{
				&ast.AssignStmt{Lhs: []ast.Expr{ident(val.Name, pos)}, Tok: token.ASSIGN, Rhs: []ast.Expr{&ast.TypeAssertExpr{X: x.X, Type: x.Type}}, TokPos: pos},
			}}}}
	}
	return []ast.Stmt{s}
}
