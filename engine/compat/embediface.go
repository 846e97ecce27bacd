package compat

import (
	"go/ast"
	"go/types"
)

// embedIface: x.M where M is promoted through an embedded field of
// interface type (struct{ Named; Salary int }). yaegi v0.16.1 calls the
// method on the whole struct value instead of the interface in the field
// when the struct has other fields ("invalid interface value"); the
// selector names the embedded fields on the way, as Go resolves it:
//
//	e.Name() -> e.Named.Name()
//
// embedMethods declares such methods on a named cell type (for a value
// converted to an interface); this pass still serves unnamed and generic
// struct types.
var embedIface = Pass{
	Name:     "embediface",
	Run:      runEmbedIface,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil)},
	Snippets: []string{"embedded_interface_promoted_method", "embedded_interface_unnamed_struct"},
}

func runEmbedIface(c *Cell) {
	c.Apply(func(cur Cursor) bool {
		sel, ok := cur.Node().(*ast.SelectorExpr)
		if !ok {
			return true
		}
		s := c.Types.Selections[sel]
		if s == nil || s.Kind() != types.MethodVal || len(s.Index()) < 2 {
			return true
		}
		x, viaIface, depth := sel.X, false, 0
		t := s.Recv()
		for _, i := range s.Index()[:len(s.Index())-1] {
			depth++
			st, ok := deref(t).Underlying().(*types.Struct)
			if !ok {
				return true
			}
			f := st.Field(i)
			x = &ast.SelectorExpr{X: x, Sel: ident(f.Name(), sel.Sel.Pos())}
			t = f.Type()
			if _, isIface := t.Underlying().(*types.Interface); isIface {
				viaIface = true
				break // the method is the interface's
			}
		}
		if viaIface {
			c.notePromoted(sel, s, depth)
			sel.X = x
		}
		return true
	})
}
