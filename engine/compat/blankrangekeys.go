package compat

import (
	"go/ast"
	"go/token"
)

// blankRangeKeys: a range among a cell's statements (not in a function)
// whose key is blank and whose value is not (for _, v := range xs) gets
// a key of its own: for _grundyK1, v := range xs. yaegi v0.16.1 gives the
// blank key of such a loop no slot of its own among the cell's
// variables, and a type switch binding a variable in its body (switch e
// := v.(type) with one interface case, which typeSwitches writes as a
// switch with an init) had its slot written with the index: "reflect:
// call of reflect.Value.SetInt on interface Value".
var blankRangeKeys = Pass{
	Name:     "blankrangekeys",
	Run:      runBlankRangeKeys,
	Kinds:    []ast.Node{(*ast.RangeStmt)(nil)},
	Snippets: []string{"range_blank_key_type_switch"},
}

func runBlankRangeKeys(c *Cell) {
	for _, b := range c.TopLevel() {
		ast.Inspect(b, func(n ast.Node) bool {
			switch r := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.RangeStmt:
				if r.Tok == token.DEFINE && r.Value != nil && isIdent(r.Key, "_") {
					r.Key = ident(c.Temp("K"), r.Key.Pos())
				}
			}
			return true
		})
	}
}
