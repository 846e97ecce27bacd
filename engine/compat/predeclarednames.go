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
// failed ("cannot assign to 0"), silently for the reads. And anything
// the cells declare at top level named true or false (func true(ok
// bool)), which the passes' own uses of
// the constants would name. The engine refuses the declaration before
// running, saying to rename it.
var predeclaredNames = Pass{
	Name:     "predeclarednames",
	Run:      runPredeclaredNames,
	Kinds:    []ast.Node{(*ast.Ident)(nil)},
	Snippets: []string{"variable_named_nil_refused"},
}

func runPredeclaredNames(c *Cell) {
	var first *ast.Ident
	for id, obj := range c.Types.Defs {
		if obj == nil {
			continue
		}
		switch id.Name {
		case "nil", "iota":
			if _, isVar := obj.(*types.Var); !isVar {
				continue
			}
		case "true", "false":
			// Any declaration at the cells' top level: the passes write
			// the predeclared true and false into the cells they rewrite
			// (func true(ok bool) made println's rewriting fail to
			// compile: "cannot use type func(bool) as type bool"). In a
			// function it shadows what the function writes, which works.
			if obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
				continue
			}
		default:
			continue
		}
		if first == nil || id.Pos() < first.Pos() {
			first = id
		}
	}
	if first != nil {
		how := "this interpreter takes " + first.Name + " for the predeclared " + first.Name + " wherever it is used"
		if first.Name == "true" || first.Name == "false" {
			how = "the engine's rewriting of cells uses the predeclared " + first.Name
		}
		c.Fail(first.Pos(), "%s declared as a name: %s; give it another name (%sValue)", first.Name, how, first.Name)
	}
}
