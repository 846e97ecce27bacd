package compat

import (
	"go/ast"
	"go/types"
)

// predeclaredNames: a variable or parameter named nil or iota (nil :=
// "not nil"; iota := 0 outside a constant declaration; a constant so
// named, const ( iota = iota ), works).
// yaegi v0.16.1 resolves those names to the predeclared ones wherever it
// meets them (interp/scope.go's universe comes first for them): nil
// printed <nil> where Go prints the variable, iota read 0 and iota += 3
// failed ("cannot assign to 0"), silently for the reads. The engine
// refuses the declaration before running, saying to rename it.
var predeclaredNames = Pass{
	Name:     "predeclarednames",
	Run:      runPredeclaredNames,
	Kinds:    []ast.Node{(*ast.Ident)(nil)},
	Snippets: []string{"variable_named_nil_refused"},
}

func runPredeclaredNames(c *Cell) {
	var first *ast.Ident
	for id, obj := range c.Types.Defs {
		if obj == nil || id.Name != "nil" && id.Name != "iota" {
			continue
		}
		if _, isVar := obj.(*types.Var); !isVar {
			continue
		}
		if first == nil || id.Pos() < first.Pos() {
			first = id
		}
	}
	if first != nil {
		c.Fail(first.Pos(), "%s declared as a name: this interpreter takes %s for the predeclared %s wherever it is used; give it another name (%sValue)",
			first.Name, first.Name, first.Name, first.Name)
	}
}
