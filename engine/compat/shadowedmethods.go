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
//
// So is the embedded field itself when its struct type has a method of
// its name (r.Sum of a struct{ Sum }, Sum with a method Sum), which yaegi
// finds at one depth with the method too; an embedded interface's field
// (struct{ Area } with Area an interface{ Area() int }) works.
//
// Likewise an interface type with a method of its own name (type I2
// interface{ I2() string }) embedded in another interface: yaegi takes
// the method's name for the interface type where it collects the
// embedded methods ("cannot use main.I2 as type interface {}", then
// "the interpreter cannot compile this"); refused, saying to rename one.
var shadowedMethods = Pass{
	Name:     "shadowedmethods",
	Run:      runShadowedMethods,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil), (*ast.InterfaceType)(nil)},
	Snippets: []string{"field_shadowing_embedded_method_refused"},
}

func runShadowedMethods(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if it, ok := n.(*ast.InterfaceType); ok && c.err == nil {
				c.selfNamedEmbedded(it)
				return c.err == nil
			}
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
				if !f.Embedded() || i == s.Index()[0] && types.IsInterface(f.Type()) {
					continue // (an embedded interface itself, f.Area of a struct{ Area }: yaegi takes the field)
				}
				ms := types.NewMethodSet(types.NewPointer(deref(f.Type())))
				if types.IsInterface(f.Type()) {
					ms = types.NewMethodSet(f.Type())
				}
				if m := ms.Lookup(f.Pkg(), name); m != nil && i == s.Index()[0] {
					c.Fail(sel.Sel.Pos(), "%s: the embedded field %s, whose type has a method %s of the same name, which this interpreter takes for an ambiguous selector (Go takes the field); rename the method, or embed the type under another name",
						ExprString(sel), name, name)
					return false
				} else if m != nil {
					c.Fail(sel.Sel.Pos(), "%s: the field %s beside the method %s of the embedded %s, which this interpreter takes for an ambiguous selector (Go takes the field); rename the field or the method",
						ExprString(sel), name, name, types.TypeString(f.Type(), types.RelativeTo(c.Types.Pkg)))
					return false
				}
			}
			return true
		})
	}
}

// selfNamedEmbedded refuses an interface type embedding a named interface
// that has a method of its own name (see shadowedMethods).
func (c *Cell) selfNamedEmbedded(it *ast.InterfaceType) {
	for _, f := range it.Methods.List {
		if len(f.Names) > 0 {
			continue // a method
		}
		n, ok := types.Unalias(c.Types.TypeOf(f.Type)).(*types.Named)
		if !ok || !types.IsInterface(n) {
			continue
		}
		name := n.Obj().Name()
		if m, _, _ := types.LookupFieldOrMethod(n, false, n.Obj().Pkg(), name); m != nil {
			c.Fail(f.Type.Pos(), "the interface %s, with a method %s of its own name, embedded in another interface: this interpreter takes the method's name for the interface there; rename the method or the interface",
				name, name)
			return
		}
	}
}
