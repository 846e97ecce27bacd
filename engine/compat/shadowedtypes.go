package compat

import (
	"go/ast"
	"go/token"
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
// statements ({ type T string; ... } beside the cells' type T int). A
// struct type localTypeNames declares under a name of its own is not.
//
// And a type other than a struct declared at top level under the name of
// a type parameter of a generic function or type an earlier cell declared
// (func Id[T any], then type T float64): yaegi instantiates the generic
// declaration by the parameter's spelling (interp/generic.go, genAST),
// and Id(T(2.5)) failed to compile ("too many arguments"), as did Id(3)
// once T was declared, and the session's later types then lost their
// methods (fmt printed a type's fields where Go calls its String).
var shadowedTypes = Pass{
	Name:     "shadowedtypes",
	Run:      runShadowedTypes,
	Kinds:    []ast.Node{(*ast.TypeSpec)(nil)},
	Snippets: []string{"local_type_shadowing_cell_type_refused"},
}

func runShadowedTypes(c *Cell) {
	c.typeParamNames()
	hoisted, _ := c.hoistedLocals() // (declared under names of their own)
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
				tn, _ := c.Types.Defs[ts.Name].(*types.TypeName)
				if _, ok := hoisted[tn]; ok {
					return true
				}
				if outer != nil && tn != outer {
					c.Fail(ts.Name.Pos(), "type %s, declared in %s beside the cells' type %s: this interpreter takes %s there for the cells' type; give %s another name (%sLocal)",
						name, where, name, name, local, name)
				}
				return true
			})
			return false
		})
	}
}

// typeParamNames refuses a type the cell declares at top level, other than
// a struct, under the name of a type parameter of an earlier cell's
// generic function or type (see shadowedTypes).
func (c *Cell) typeParamNames() {
	if c.Decls == nil {
		return
	}
	var params map[string]string // made when first needed
	for _, d := range c.Decls.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, sp := range gd.Specs {
			ts := sp.(*ast.TypeSpec)
			if _, isStruct := ts.Type.(*ast.StructType); isStruct || c.err != nil {
				continue
			}
			if params == nil {
				params = c.Types.EarlierTypeParams()
			}
			if generic, ok := params[ts.Name.Name]; ok && generic != ts.Name.Name {
				c.Fail(ts.Name.Pos(), "type %s: %s, declared in an earlier cell, has a type parameter %s, which this interpreter would take for this type where it instantiates %s; give the type another name (%sType), or rename %s's type parameter and run its cell again",
					ts.Name.Name, generic, ts.Name.Name, generic, ts.Name.Name, generic)
			}
		}
	}
}
