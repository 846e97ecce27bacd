package compat

import (
	"go/ast"
	"go/types"
)

// comparableInstances refuses an instance of a generic function or type
// of the cells (Count[Move], Set[Move]) with a type argument the
// interpreter compares by its wrappers, bound to a comparable type
// parameter: a cell's interface type, an interface with methods a cell
// type implements, a struct or array holding such values, or, when the
// session boxes types on basic types, any. yaegi v0.16.1 keeps a cell
// type's value in an interface as a wrapper with the node that made it
// (valueInterface, interp/value.go), and == and map keys compare the
// wrappers: outside generic code ifaceCompare and ifaceKeys compare the
// values inside, but in a generic body the operands' type is a type
// parameter, so nothing tells them apart from the ints a hot loop
// compares (Count(ms, Move(Take(1))) said 0 where Go says 2; a Set[Move]
// of two equal values had 2 elements). A comparable type parameter is
// there to be compared or to key a map, so the instance is refused,
// saying to write the code for the type.
var comparableInstances = Pass{
	Name:     "comparableinstances",
	Run:      runComparableInstances,
	Kinds:    []ast.Node{(*ast.Ident)(nil)},
	Snippets: []string{"generics_comparable_iface_instance"},
}

func runComparableInstances(c *Cell) {
	for _, id := range c.instanceIDs() {
		obj := c.Types.ObjectOf(id)
		if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "main" {
			continue
		}
		var tparams *types.TypeParamList
		what := "function"
		switch o := obj.(type) {
		case *types.Func:
			sig := o.Type().(*types.Signature)
			if sig.Recv() != nil {
				continue // a method: its type's instance is checked
			}
			tparams = sig.TypeParams()
		case *types.TypeName:
			n, ok := types.Unalias(o.Type()).(*types.Named)
			if !ok {
				continue
			}
			what = "type"
			tparams = n.TypeParams()
		default:
			continue
		}
		targs := c.Types.Instances[id].TypeArgs
		if tparams == nil || targs == nil || tparams.Len() != targs.Len() {
			continue
		}
		for i := range targs.Len() {
			ta, tp := targs.At(i), tparams.At(i)
			if hasTypeParam(ta) || !comparableParam(tp) || !c.comparedByWrapper(ta) {
				continue
			}
			name := types.TypeString(ta, shortQualifier)
			c.Fail(id.Pos(), "%s[%s]: inside the generic %s %s the interpreter compares %s values by the wrappers it keeps them in, so == and map keys on its type parameter %s would be wrong; write %s for %s without type parameters (there == and maps compare the values), or use a comparable key of the values (a string, or a struct of their fields)",
				id.Name, name, what, id.Name, name, tp.Obj().Name(), id.Name, name)
			return
		}
	}
}

// comparableParam reports whether tp's constraint makes its values
// comparable (comparable, or an interface embedding it; with type terms,
// only the types they list satisfy it).
func comparableParam(tp *types.TypeParam) bool {
	it, ok := tp.Constraint().Underlying().(*types.Interface)
	return ok && it.IsComparable()
}

// comparedByWrapper reports whether the interpreter's == on values of t
// compares its wrappers of cells' values (see comparableInstances): an
// interface that may hold a cell's value in one, or a struct or array
// with such fields or elements (a native interface no cell type
// implements, games.Game, holds native values, which compare right).
func (c *Cell) comparedByWrapper(t types.Type) bool {
	seen := map[types.Type]bool{}
	var wrapped func(t types.Type) bool
	wrapped = func(t types.Type) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		switch u := t.Underlying().(type) {
		case *types.Interface:
			switch {
			case u.Empty():
				return c.boxesBasic()
			case interpretedIface(t):
				return true
			}
			return c.wrappedKey(t) != nil
		case *types.Array:
			return wrapped(u.Elem())
		case *types.Struct:
			for i := range u.NumFields() {
				if wrapped(u.Field(i).Type()) {
					return true
				}
			}
		}
		return false
	}
	return wrapped(t)
}
