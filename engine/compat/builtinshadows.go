package compat

import (
	"go/ast"
	"go/types"
)

// builtinShadows: a variable, parameter or result a function or a
// literal declares under the name of a predeclared identifier the
// engine's rewriting writes (len, cap, int, int64: a function's len :=
// 0, a parameter int int). yaegi v0.16.1 types the builtins' results by
// looking the name int up where the call is, so int := 1; n := len(s)
// failed to compile ("the interpreter cannot compile this"), and the
// passes that write len or int (a string's range, the bounds checks)
// called the variable ("too many arguments") or left indexes unchecked.
// The variable is renamed in its declaration and its uses; it is the
// function's own, so no other cell sees the name. (A cell's top-level
// variable is the session's, renamed by shadowVars.)
//
//	func pad(s string, len int) string { ... len ... }  =>  func pad(s string, _grundyLocal_len int) string { ... _grundyLocal_len ... }
var builtinShadows = Pass{
	Name:     "builtinshadows",
	Run:      runBuiltinShadows,
	Kinds:    []ast.Node{(*ast.Ident)(nil)},
	Snippets: []string{"local_builtin_names"},
}

func runBuiltinShadows(c *Cell) {
	rename := map[types.Object]string{}
	for id, obj := range c.Types.Defs {
		v, ok := obj.(*types.Var)
		if !ok || !writtenNames[id.Name] || v.IsField() || cellGlobal(v) || c.topLevelVar(v) || !c.declaredHere(v) {
			continue
		}
		rename[v] = prefixLocal + id.Name
	}
	if len(rename) == 0 {
		return
	}
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if to, ok := rename[c.Types.ObjectOf(id)]; ok {
					if c.renamed == nil {
						c.renamed = map[string]string{}
					}
					c.renamed[to] = id.Name
					id.Name = to
				}
			}
			return true
		})
	}
}

// prefixLocal begins the names builtinShadows gives variables.
const prefixLocal = tempPrefix + "Local_"
