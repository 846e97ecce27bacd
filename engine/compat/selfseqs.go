package compat

import (
	"go/ast"
	"go/types"
)

// selfSeqs: an interface a cell declares whose method takes or returns an
// instance of a generic type with that interface among its type arguments
// (type Game interface{ Options() iter.Seq[Game] }, the commonest way to
// write an impartial game as its options) cannot be built by yaegi
// v0.16.1: converting a value to it failed with "reflect.Type is nil"
// (the interface's reflect type needs iter.Seq[Game]'s, which needs the
// interface's). The interface's method is declared with the instance's
// underlying type instead (Options() func(yield func(Game) bool)), which
// yaegi builds; it checks that a type implements an interface by its
// methods' names, so Nim's Options() iter.Seq[Game] still does, and the
// type oracle, which typed the cell as written, keeps the instance for
// the passes. Only instances of generic types without methods (iter.Seq,
// iter.Seq2, a cell's type Moves[T any] []T without methods) are written
// so: a method of the instance would be lost.
var selfSeqs = Pass{
	Name:     "selfseqs",
	Run:      runSelfSeqs,
	Kinds:    []ast.Node{(*ast.InterfaceType)(nil)},
	Snippets: []string{"iface_self_seq"},
}

func runSelfSeqs(c *Cell) {
	for _, root := range c.Roots() {
		ast.Inspect(root, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			it, ok := ts.Type.(*ast.InterfaceType)
			if !ok || it.Methods == nil {
				return true
			}
			self, _ := c.Types.Defs[ts.Name].(*types.TypeName)
			if self == nil {
				return true
			}
			for _, m := range it.Methods.List {
				if ft, ok := m.Type.(*ast.FuncType); ok {
					c.unwrapSelfInstances(ft, self)
				}
			}
			return true
		})
	}
}

// unwrapSelfInstances writes, in ft, each instance of a generic type
// without methods with self among its type arguments as its underlying
// type.
func (c *Cell) unwrapSelfInstances(ft *ast.FuncType, self *types.TypeName) {
	var lists []*ast.FieldList
	if ft.Params != nil {
		lists = append(lists, ft.Params)
	}
	if ft.Results != nil {
		lists = append(lists, ft.Results)
	}
	for _, fl := range lists {
		for _, f := range fl.List {
			n, ok := types.Unalias(c.Types.TypeOf(f.Type)).(*types.Named)
			if !ok || n.TypeArgs().Len() == 0 || n.Origin().NumMethods() > 0 {
				continue
			}
			mentions := false
			for i := range n.TypeArgs().Len() {
				EachNamed(n.TypeArgs().At(i), func(m *types.Named) { mentions = mentions || m.Obj() == self })
			}
			if !mentions {
				continue
			}
			if x, ok := c.TypeExpr(n.Underlying(), f.Type.Pos()); ok {
				f.Type = x
			}
		}
	}
}
