package compat

import (
	"go/ast"
	"go/types"
)

// builtinShadows: a variable, parameter or result a function or a
// literal declares under the name of a predeclared identifier the
// engine's rewriting writes (len, cap, int, int64: a function's len :=
// 0, a parameter int int), or of any type (string := 0; Pt := "x", see
// namesType). yaegi v0.16.1 types the builtins' results by
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
	Snippets: []string{"local_builtin_names", "local_type_named_variables"},
}

func runBuiltinShadows(c *Cell) {
	rename := map[types.Object]string{}
	for id, obj := range c.Types.Defs {
		if !c.renamesLocal(obj) {
			continue
		}
		v := obj.(*types.Var)
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

// renamesLocal reports whether builtinShadows renames obj: a function's
// own variable named like a builtin the passes write or a type.
func (c *Cell) renamesLocal(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	return ok && (writtenNames[v.Name()] || c.namesType(v.Name())) && !v.IsField() && !cellGlobal(v) && !c.topLevelVar(v) && c.declaredHere(v)
}

// namesType reports whether name is a predeclared type's (string, bool,
// float64) or a type's the cells declare at top level: yaegi v0.16.1
// instantiates a generic function by its type arguments' names, looked
// up where the call is, so slices.Sort(ys) of a []string in a function
// with a variable string, or Show(p) of a Pt beside a variable Pt,
// panicked compiling the instance.
func (c *Cell) namesType(name string) bool {
	for _, sc := range []*types.Scope{types.Universe, c.Types.Pkg.Scope()} {
		if _, ok := sc.Lookup(name).(*types.TypeName); ok {
			return true
		}
	}
	_, ok := c.Types.Earlier(name).(*types.TypeName)
	return ok
}

// prefixLocal begins the names builtinShadows gives variables.
const prefixLocal = tempPrefix + "Local_"
