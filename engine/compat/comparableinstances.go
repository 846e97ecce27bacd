package compat

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"
)

// comparableInstances refuses an instance of a generic type of the cells
// (Set[Move]) with a type argument the interpreter compares by its
// wrappers, bound to a comparable type parameter: a cell's interface
// type, an interface with methods a cell type implements, a struct or
// array holding such values, or, when the session boxes types on basic
// types, any. yaegi v0.16.1 keeps a cell type's value in an interface as
// a wrapper with the node that made it (valueInterface,
// interp/value.go), and == and map keys compare the wrappers: outside
// generic code ifaceCompare and ifaceKeys compare the values inside, but
// in a generic body the operands' type is a type parameter, so nothing
// tells them apart from the ints a hot loop compares (a Set[Move] of two
// equal values had 2 elements). A comparable type parameter is there to
// be compared or to key a map, so the instance is refused, saying to
// write the code for the type. An instance of a generic function so
// bound (Count(ms, Move(Take(1))) said 0 where Go says 2) is called as a
// copy with the type arguments written in, which the engine declares in
// the cell before the passes run (CellCopies, engine/typedcopies.go):
// there the operands have the type written in. Such an instance is
// refused only where the copy cannot be made.
//
// And an instance of a generic type whose methods assert or switch to a
// type parameter bound to an interface type (Box[J] with v.(T)) is
// refused: yaegi's instance asserted to something else (a myint32
// implementing J was not a J, silently); a generic function so bound is
// called as a copy (assertsToIface).
var comparableInstances = Pass{
	Name:     "comparableinstances",
	Run:      runComparableInstances,
	Kinds:    []ast.Node{(*ast.Ident)(nil)},
	Snippets: []string{"generics_comparable_iface_instance", "generics_iface_param_assert_refused"},
}

func runComparableInstances(c *Cell) {
	c.ifaceParamInstances()
	if c.err != nil {
		return
	}
	for _, w := range c.wrapperInstances() {
		name := types.TypeString(w.arg, shortQualifier)
		c.Fail(w.id.Pos(), "%s: inside the generic %s %s the interpreter compares %s values by the wrappers it keeps them in, so == and map keys on its type parameter %s would be wrong; write %s for %s without type parameters (there == and maps compare the values), or use a comparable key of the values (a string, or a struct of their fields)",
			instanceName(w.id.Name, w.targs), w.what, w.id.Name, name, w.param.Obj().Name(), w.id.Name, name)
		return
	}
}

// wrapperInstance is an instance comparableInstances refuses: the
// function's or type's name where the cell instantiates it, its type
// arguments, and the first comparable type parameter bound to a type
// compared by its wrappers.
type wrapperInstance struct {
	id    *ast.Ident
	fn    *types.Func // nil for a type
	what  string      // "function" or "type"
	targs *types.TypeList
	param *types.TypeParam
	arg   types.Type
}

// wrapperInstances are the cell's instances of generic functions and
// types of the cells that comparableInstances refuses, in the cell's
// order.
func (c *Cell) wrapperInstances() []wrapperInstance {
	var out []wrapperInstance
	for _, id := range c.instanceIDs() {
		obj := c.Types.ObjectOf(id)
		if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "main" {
			continue
		}
		w := wrapperInstance{id: id, what: "function"}
		var tparams *types.TypeParamList
		switch o := obj.(type) {
		case *types.Func:
			sig := o.Type().(*types.Signature)
			if sig.Recv() != nil {
				continue // a method: its type's instance is checked
			}
			w.fn, tparams = o, sig.TypeParams()
		case *types.TypeName:
			n, ok := types.Unalias(o.Type()).(*types.Named)
			if !ok {
				continue
			}
			w.what, tparams = "type", n.TypeParams()
		default:
			continue
		}
		w.targs = c.Types.Instances[id].TypeArgs
		if tparams == nil || w.targs == nil || tparams.Len() != w.targs.Len() {
			continue
		}
		for i := range w.targs.Len() {
			ta, tp := w.targs.At(i), tparams.At(i)
			if !hasTypeParam(ta) && comparableParam(tp) && c.comparedByWrapper(ta) {
				w.param, w.arg = tp, ta
				out = append(out, w)
				break
			}
		}
	}
	return out
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
			case cellTypeOrIfaceLit(t):
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

// ifaceParamInstances refuses an instance of a generic type of the cells
// whose methods assert or switch to a type parameter the instance binds
// to an interface type (see comparableInstances).
func (c *Cell) ifaceParamInstances() {
	for _, id := range c.instanceIDs() {
		tn, ok := c.Types.ObjectOf(id).(*types.TypeName)
		if !ok || tn.Pkg() == nil || tn.Pkg().Path() != "main" {
			continue
		}
		n, ok := types.Unalias(tn.Type()).(*types.Named)
		targs := c.Types.Instances[id].TypeArgs
		if !ok || targs == nil || slices.ContainsFunc(typeList(targs), hasTypeParam) {
			continue
		}
		for i := range n.NumMethods() {
			fd := c.funcDecl(tn.Name() + "." + n.Method(i).Name())
			if fd == nil || !assertsToIface(fd, targs) {
				continue
			}
			c.Fail(id.Pos(), "%s: method %s of the generic type %s asserts to a type parameter bound to an interface type (or to an interface type mentioning one), which this interpreter asserts to as to another type (a value implementing it could fail); write %s for %s without type parameters",
				instanceName(id.Name, targs), n.Method(i).Name(), id.Name, id.Name, strings.TrimSuffix(strings.TrimPrefix(instanceName("", targs), "["), "]"))
			return
		}
	}
}
