package compat

import (
	"go/ast"
	"go/types"
)

// mainFunc: a cell may declare func main, as a Go programmer pasting a
// whole program does; it runs once, when its cell runs, and then only when
// called. yaegi v0.16.1 runs main after every compilation in package main
// once one is declared (interp/program.go, "Add main to list of functions
// to run"), so each later cell ran the program again before its own code.
// The function is renamed, with every use of it, and the declaring cell
// calls it last:
//
//	func main() { ... }  =>  func _grundyMain() { ... }; _grundyMain()
var mainFunc = Pass{
	Name:     "mainfunc",
	Run:      runMainFunc,
	Kinds:    []ast.Node{(*ast.Ident)(nil)},
	Snippets: []string{"func_main_runs_once"},
}

const mainName = tempPrefix + "Main"

func runMainFunc(c *Cell) {
	declared := c.renameFuncs(func(name string) string {
		if name == "main" {
			return mainName
		}
		return ""
	})
	if declared == nil {
		return
	}
	pos := declared[len(declared)-1].End()
	call := &ast.ExprStmt{X: called(ident(mainName, pos))}
	if c.Stmts == nil {
		c.Stmts = &ast.BlockStmt{Lbrace: pos, Rbrace: pos}
	}
	list := c.Stmts.List
	if n := len(list); n > 0 && c.Trail != nil && list[n-1] == ast.Stmt(c.Trail) {
		// Before the trailing value, which stays last to be shown.
		c.Stmts.List = append(list[:n-1:n-1], call, c.Trail)
		return
	}
	c.Stmts.List = append(list, call)
}

// isMainCall reports whether s is the call of the cell's func main that
// mainFunc adds.
func isMainCall(s ast.Stmt) bool {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	return ok && len(call.Args) == 0 && isIdent(call.Fun, mainName)
}

// renameFuncs gives the cell's top-level functions (not methods) a new
// name, in their declarations and wherever the cell uses
// them, the functions of earlier cells included: rename returns the new
// name, "" to keep it. It returns the cell's declarations it renamed.
// The new name must be one rename keeps (it is met again).
func (c *Cell) renameFuncs(rename func(name string) string) []*ast.FuncDecl {
	var declared []*ast.FuncDecl
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncDecl:
				if x.Recv == nil {
					if to := rename(x.Name.Name); to != "" {
						x.Name.Name = to
						declared = append(declared, x)
					}
				}
			case *ast.Ident:
				fn, ok := c.Types.ObjectOf(x).(*types.Func)
				if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "main" || fn.Parent() != fn.Pkg().Scope() {
					return true
				}
				if to := rename(x.Name); to != "" {
					x.Name = to
				}
			}
			return true
		})
	}
	return declared
}
