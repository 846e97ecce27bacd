package compat

import (
	"go/ast"
	"go/types"
)

// embeddedLists: an embedded field of a generic type instantiated with two
// or more type arguments (type Outer struct{ Pair[string, int]; n int })
// named by a selector (o.Pair) or a composite literal's key (Outer{Pair:
// ...}). yaegi v0.16.1 names an embedded field by its type expression
// (interp/type.go:1229, fieldName), which knows Pair[int] (an index
// expression) but not Pair[string, int] (an index list): the field has no
// name, so "undefined selector: Pair" and "unknown field Pair in struct
// literal" (the fields and methods it promotes, o.k and o.Key(), work).
// A method promoted from such a field of an interface type (l.Get, with
// Store[K, V] embedded) is called through the field (embedIface), which
// has no name either. The engine refuses them before running, saying to
// name the field or to write the literal without keys.
var embeddedLists = Pass{
	Name:     "embeddedlists",
	Run:      runEmbeddedLists,
	Kinds:    []ast.Node{(*ast.SelectorExpr)(nil), (*ast.CompositeLit)(nil)},
	Snippets: []string{"embedded_generic_pair_named_refused"},
}

func runEmbeddedLists(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			if c.err != nil {
				return false
			}
			switch n := n.(type) {
			case *ast.SelectorExpr:
				s := c.Types.Selections[n]
				if s == nil {
					return true
				}
				if f := ifaceOnPath(s); f != nil {
					c.Fail(n.Sel.Pos(), "%s: %s is promoted from the embedded interface %s, a generic type with two or more type arguments, which has no name in this interpreter; name the field in the type (%s %s) and select through it (%s.%s.%s)",
						ExprString(n), n.Sel.Name, types.TypeString(f.Type(), shortQualifier), f.Name(), types.TypeString(f.Type(), shortQualifier), ExprString(n.X), f.Name(), n.Sel.Name)
					return false
				}
				if f, ok := s.Obj().(*types.Var); ok && s.Kind() == types.FieldVal && listEmbedded(f) {
					works := " (the fields and methods it promotes work)"
					if types.IsInterface(f.Type()) {
						works = ""
					}
					c.Fail(n.Sel.Pos(), "%s: the embedded field %s, a generic type with two or more type arguments, has no name in this interpreter%s; name the field in the type (%s %s) and select through it",
						ExprString(n), types.TypeString(f.Type(), shortQualifier), works, f.Name(), types.TypeString(f.Type(), shortQualifier))
				}
			case *ast.CompositeLit:
				st, ok := c.Types.TypeOf(n).Underlying().(*types.Struct)
				if !ok {
					return true
				}
				for _, e := range n.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					key, ok := kv.Key.(*ast.Ident)
					if !ok {
						continue
					}
					for i := range st.NumFields() {
						if f := st.Field(i); f.Name() == key.Name && listEmbedded(f) {
							c.Fail(key.Pos(), "%s: the embedded field %s, a generic type with two or more type arguments, has no name in this interpreter, so a literal cannot key it; write the literal without keys (every field in order), or name the field in the type (%s %s)",
								key.Name, types.TypeString(f.Type(), shortQualifier), f.Name(), types.TypeString(f.Type(), shortQualifier))
							return false
						}
					}
				}
			}
			return true
		})
	}
}

// listEmbedded reports whether f is an embedded field whose type is a
// cell's generic type with two or more type arguments (or a pointer to
// one).
func listEmbedded(f *types.Var) bool {
	if !f.Embedded() {
		return false
	}
	n, ok := types.Unalias(deref(f.Type())).(*types.Named)
	return ok && n.TypeArgs().Len() >= 2 && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "main"
}

// ifaceOnPath is the embedded field of an interface type with two or more
// type arguments that selection s goes through; nil if none.
func ifaceOnPath(s *types.Selection) *types.Var {
	t := s.Recv()
	for _, i := range s.Index()[:len(s.Index())-1] {
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return nil
		}
		f := st.Field(i)
		if listEmbedded(f) && types.IsInterface(f.Type()) {
			return f
		}
		t = f.Type()
	}
	return nil
}
