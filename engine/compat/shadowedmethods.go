package compat

import (
	"go/ast"
	"go/types"
)

// shadowedMethods: a struct's own field selected where an embedded field
// has a method of the same name (type User struct{ Base; Name string },
// Base with a Name method; u.Name). Go takes the shallower one, the
// field. yaegi v0.16.1 counts the field's depth one deeper than Go
// (interp/cfg.go:1849, len(ti) against methodDepth), finds both at one
// depth and fails to compile: "ambiguous selector: Name". The engine
// refuses it before running, naming the field and the method and saying
// to rename one of them.
var shadowedMethods = Pass{
	Name:     "shadowedmethods",
	Run:      runShadowedMethods,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil)},
	Snippets: []string{"field_shadowing_embedded_method_refused"},
}

func runShadowedMethods(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || c.err != nil {
				return c.err == nil
			}
			s := c.Types.Selections[sel]
			if s == nil || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
				return true
			}
			st, ok := deref(s.Recv()).Underlying().(*types.Struct)
			if !ok {
				return true
			}
			name := sel.Sel.Name
			for i := range st.NumFields() {
				f := st.Field(i)
				if !f.Embedded() {
					continue
				}
				ms := types.NewMethodSet(types.NewPointer(deref(f.Type())))
				if types.IsInterface(f.Type()) {
					ms = types.NewMethodSet(f.Type())
				}
				if m := ms.Lookup(f.Pkg(), name); m != nil {
					c.Fail(sel.Sel.Pos(), "%s: the field %s beside the method %s of the embedded %s, which this interpreter takes for an ambiguous selector (Go takes the field); rename the field or the method",
						ExprString(sel), name, name, types.TypeString(f.Type(), types.RelativeTo(c.Types.Pkg)))
					return false
				}
			}
			return true
		})
	}
}
