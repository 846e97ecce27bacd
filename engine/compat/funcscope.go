package compat

import (
	"go/ast"
	"go/token"
)

// funcScope: a top-level compound statement (a loop, if, switch, select or
// block) that declares, in a nested scope, what yaegi v0.16.1 declares only
// in a function or at package level: "a, b := f()", "var a, b = f()",
// local types and constants, the variable of a type switch. The global
// analysis skips nested blocks (interp/gta.go:37, "skip statement block
// if not the entry point") and the compiler leaves such declarations to
// it, so they ended up undefined. The statement runs as the body of a
// function literal instead, func() { s }(), unless it defers or jumps
// (goto), which a function would change the meaning of.
var funcScope = Pass{
	Name:     "funcscope",
	Run:      runFuncScope,
	Snippets: []string{"scope_define_in_for_block", "scope_define_in_if_block", "scope_define_nested_var_type"},
}

func runFuncScope(c *Cell) {
	for _, b := range c.TopLevel() {
		for i, s := range b.List {
			if needsFuncScope(s) {
				b.List[i] = inFuncLit(s)
			}
		}
	}
}

func needsFuncScope(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
		*ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
	default:
		return false
	}
	needs, blocked := false, false
	ast.Inspect(s, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE && len(x.Lhs) > 1 && len(x.Rhs) == 1 {
				needs = true
			}
		case *ast.TypeSwitchStmt:
			if _, binds := x.Assign.(*ast.AssignStmt); binds {
				needs = true // switch v := x.(type) crashes yaegi's compiler here
			}
		case *ast.GenDecl:
			switch x.Tok {
			case token.TYPE, token.CONST:
				needs = true
			case token.VAR:
				for _, sp := range x.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok && len(vs.Names) > 1 && len(vs.Values) == 1 {
						needs = true
					}
				}
			}
		case *ast.DeferStmt:
			blocked = true
		case *ast.BranchStmt:
			if x.Tok == token.GOTO {
				blocked = true
			}
		}
		return !blocked
	})
	return needs && !blocked
}

// inFuncLit wraps s as func() { s }().
func inFuncLit(s ast.Stmt) ast.Stmt {
	return &ast.ExprStmt{X: called(funcLit(s.Pos(), s.End(), nil, s))}
}
