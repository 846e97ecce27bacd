package compat

import (
	"go/ast"
	"go/types"
)

// shadowedTypes: a type declared in a function under the name of a type
// the cells declare at top level (type Item in inventory(), beside the
// cell's type Item). Go's inner declaration shadows the outer; yaegi
// v0.16.1 resolves the name to the package's type where the function
// uses it (it.Qty: "undefined selector: Qty"; Item{"A", 3}: "too many
// values in struct literal"), or silently to the other type where both
// fit. The engine refuses it before running, saying to rename the
// function's type. So for a type declared in a block among a cell's
// statements ({ type T string; ... } beside the cells' type T int).
var shadowedTypes = Pass{
	Name:     "shadowedtypes",
	Run:      runShadowedTypes,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"local_type_shadowing_cell_type_refused"},
}

func runShadowedTypes(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if c.err != nil {
				return false
			}
			body := funcBody(n)
			if body == nil && c.Stmts != nil && n == ast.Node(c.Stmts) {
				// And a block among the cell's statements (if ... { type
				// T string }): the cell's top-level types are the
				// package's, which the condition below passes.
				body = c.Stmts
			}
			if body == nil {
				return true
			}
			where, local := "a function", "the function's type"
			if body == c.Stmts {
				where, local = "a block of the cell's statements", "the block's type"
			}
			ast.Inspect(body, func(m ast.Node) bool {
				ts, ok := m.(*ast.TypeSpec)
				if !ok || c.err != nil {
					return c.err == nil
				}
				name := ts.Name.Name
				outer, _ := c.Types.Pkg.Scope().Lookup(name).(*types.TypeName)
				if outer == nil {
					outer, _ = c.Types.Earlier(SourceName(name)).(*types.TypeName)
				}
				if outer != nil && c.Types.Defs[ts.Name] != outer {
					c.Fail(ts.Name.Pos(), "type %s, declared in %s beside the cells' type %s: this interpreter takes %s there for the cells' type; give %s another name (%sLocal)",
						name, where, name, name, local, name)
				}
				return true
			})
			return false
		})
	}
}
