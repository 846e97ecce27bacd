package compat

import (
	"go/ast"
	"go/token"
	"go/types"
)

// commaOk: "v, ok := m[k]", "v, ok := x.(T)" and "v, ok := <-ch" among a
// cell's top-level statements. yaegi v0.16.1 compiles the global scope's
// definitions in its global analysis (interp/gta.go, defineStmt), which
// types only the single-value forms, so these failed to compile at top
// level; assignments to declared variables compile. The new variables are
// declared with their types, from the oracle, and assigned:
//
//	var v T; var ok bool
//	v, ok = <-ch
//
// Where a type cannot be written, the ok of an index or an assertion is
// computed in a function literal and the value separately:
//
//	ok := func() bool { _, _grundyOK := m[k]; return _grundyOK }()
//	v := m[k]
var commaOk = Pass{
	Name:     "commaok",
	Run:      runCommaOk,
	Kinds:    []ast.Node{(*ast.AssignStmt)(nil)},
	Snippets: []string{"comma_ok_top_level", "comma_ok_receive_top_level", "comma_ok_var_top_level"},
}

func runCommaOk(c *Cell) { c.eachTopLevel(c.commaOkForms) }

const okName = tempPrefix + "OK"

// commaOkSpec is the spec of s when s is var v, ok = x, without a type,
// else nil.
func commaOkSpec(s ast.Stmt) *ast.ValueSpec {
	ds, ok := s.(*ast.DeclStmt)
	if !ok {
		return nil
	}
	gd, ok := ds.Decl.(*ast.GenDecl)
	if !ok || gd.Tok != token.VAR || len(gd.Specs) != 1 {
		return nil
	}
	vs := gd.Specs[0].(*ast.ValueSpec)
	if vs.Type != nil || len(vs.Names) != 2 || len(vs.Values) != 1 {
		return nil
	}
	return vs
}

func (c *Cell) commaOkForms(s ast.Stmt) []ast.Stmt {
	as, ok := s.(*ast.AssignStmt)
	if vs := commaOkSpec(s); vs != nil {
		// var v, ok = m[k]: as v, ok := m[k] (yaegi failed alike on
		// an operand the cell defined with :=).
		as, ok = &ast.AssignStmt{Lhs: []ast.Expr{vs.Names[0], vs.Names[1]}, TokPos: vs.Pos(), Tok: token.DEFINE, Rhs: vs.Values}, true
	}
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return []ast.Stmt{s}
	}
	val, _ := as.Lhs[0].(*ast.Ident)
	okID, _ := as.Lhs[1].(*ast.Ident)
	if val == nil || okID == nil {
		return []ast.Stmt{s}
	}
	switch x := ast.Unparen(as.Rhs[0]).(type) {
	case *ast.IndexExpr, *ast.TypeAssertExpr:
	case *ast.UnaryExpr:
		if x.Op != token.ARROW {
			return []ast.Stmt{s}
		}
	default:
		return []ast.Stmt{s}
	}
	if typed := c.declaredThenAssigned(as); typed != nil {
		return typed
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

// declaredThenAssigned is "lhs := rhs" as declarations of its new
// variables, with their types, and an assignment; nil when a type is
// unknown or cannot be written.
func (c *Cell) declaredThenAssigned(as *ast.AssignStmt) []ast.Stmt {
	var out []ast.Stmt
	for _, l := range as.Lhs {
		id := l.(*ast.Ident)
		if id.Name == "_" || c.Types.Uses[id] != nil {
			continue // assigned, not declared
		}
		v, ok := c.Types.Defs[id].(*types.Var)
		if !ok {
			return nil
		}
		t, ok := c.TypeExpr(v.Type(), id.Pos())
		if !ok {
			return nil
		}
		out = append(out, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: id.Pos(), Specs: []ast.Spec{
			&ast.ValueSpec{Names: []*ast.Ident{id}, Type: t}}}})
	}
	var lhs []ast.Expr
	for _, l := range as.Lhs {
		lhs = append(lhs, ident(l.(*ast.Ident).Name, l.Pos()))
	}
	return append(out, &ast.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, TokPos: as.TokPos, Rhs: as.Rhs})
}
