package compat

import (
	"go/ast"
)

// forInits: a for loop with an init statement but neither a condition
// nor a post statement (for i := 0; ; { ... }) gets the condition true.
// yaegi v0.16.1 makes the end of such a loop's body go back to the init
// statement (interp/cfg.go, forStmt1: body.tnext = n.start), so the
// init ran again before each iteration: i was 0 in each, what the body
// did to it was lost, and a loop that counts its way out ran forever.
// A loop with a condition goes back to the condition (forStmt3).
var forInits = Pass{
	Name:     "forinits",
	Run:      runForInits,
	Kinds:    []ast.Node{(*ast.ForStmt)(nil)},
	Snippets: []string{"for_init_only"},
}

func runForInits(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if f, ok := n.(*ast.ForStmt); ok && f.Init != nil && f.Cond == nil && f.Post == nil {
				f.Cond = ident("true", f.Body.Lbrace)
			}
			return true
		})
	}
}
