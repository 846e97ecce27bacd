package engine

import (
	"go/ast"
	"go/types"
	"strings"

	"grundy/engine/compat"
)

// A later cell's method that overrides one a struct type has from an
// embedded field (see overridesPromoted) is a change of the type that
// makes the engine start a new interpreter (rebuild.go) where earlier
// cells used the type.

// overridesPromoted reports whether fd is a method of a struct type an
// earlier cell declared that the type had from an embedded field (type D
// struct{ A }, A with String; a later cell declares D's String). That
// changes the type as a redefinition does: yaegi v0.16.1 compiles a call
// of a promoted method (w.M() in a function of an earlier cell) as a call
// of the embedded field's, and binds the methods of a library interface's
// wrapper when it converts a value (func as(d D) fmt.Stringer { return d
// }), so code compiled before went on calling A's method where Go calls
// D's, silently. In the new interpreter it is compiled with D's; a
// variable holding a value of a cell type in an interface is dropped
// (its value has the earlier interpreter's methods: see nativeHeld).
func (it *Interp) overridesPromoted(fd *ast.FuncDecl) bool {
	base, _, _ := strings.Cut(compat.FuncKey(fd), ".")
	return it.promotedPlace(fd) && it.usedSince(base, it.tc.Lookup(base).(*types.TypeName), fd.Name.Name)
}

// promotedPlace reports whether fd is a method of an earlier cell's type
// (not generic) taking the place of one the type has from an embedded
// field.
func (it *Interp) promotedPlace(fd *ast.FuncDecl) bool {
	base, _, isMethod := strings.Cut(compat.FuncKey(fd), ".")
	if !isMethod {
		return false
	}
	if _, earlier := it.types[base]; !earlier {
		return false
	}
	tn, ok := it.tc.Lookup(base).(*types.TypeName)
	if !ok {
		return false
	}
	if n, ok := types.Unalias(tn.Type()).(*types.Named); !ok || n.TypeParams().Len() > 0 {
		return false
	}
	return compat.PromotedFrom(tn.Type(), fd.Name.Name) != ""
}

// usedSince reports whether code or values of earlier cells may have the
// method name of the type base (tn) from its embedded field: a function
// or method selecting name (x.name), a function naming the type or a
// struct type embedding it (embedders), a generic function's instance for
// one, a variable declared after it that may hold one in a
// library interface (fmt.Stringer, error, a []error: yaegi's wrapper
// there has the methods the value had; in a cell's interface or an any
// the value calls the type's methods as they are), or a function literal
// or method value kept in a variable that uses one (staleClosures: it
// stays the earlier interpreter's, and says so after the rebuild). A type
// no cell has used since its declaration (a cell declaring it, the next
// one its String) takes the method as any later method, without a new
// interpreter (which would drop the values other variables hold in
// interfaces).
func (it *Interp) usedSince(base string, tn *types.TypeName, name string) bool {
	holders := it.embedders(base)
	for key, f := range it.funcs {
		if f.forwarder() {
			continue
		}
		if selects(f.decl, name) {
			return true // (x.name of a value that may hold the type: reg[k].M(), c.M() of a C embedding it)
		}
		if recv, _, _ := strings.Cut(key, "."); holders[recv] {
			continue
		}
		for h := range holders {
			if f.refs[h] {
				return true
			}
		}
	}
	for _, key := range it.instanceKeys() {
		// (A generic function's instance for the type: Show[main.W].)
		for h := range holders {
			if strings.Contains(key, "main."+h+"]") || strings.Contains(key, "main."+h+",") {
				return true
			}
		}
	}
	for g, kind := range it.globals {
		if kind != "var" {
			continue
		}
		v, ok := it.tc.Lookup(compat.SourceName(g)).(*types.Var)
		if ok && v.Pos() > tn.Pos() && holdsNativeIface(v.Type()) {
			return true
		}
	}
	return len(it.staleClosures(change{names: map[string]bool{}, methods: map[string]bool{name: true}})) > 0
}

// embedders are base and the session's struct types that embed it, by
// value or pointer, directly or through others (type C struct{ B }):
// they have base's promoted methods.
func (it *Interp) embedders(base string) map[string]bool {
	out := map[string]bool{base: true}
	for grew := true; grew; {
		grew = false
		for name := range it.types {
			if out[name] {
				continue
			}
			tn, ok := it.tc.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			st, ok := tn.Type().Underlying().(*types.Struct)
			if !ok {
				continue
			}
			for i := range st.NumFields() {
				f := st.Field(i)
				t := f.Type()
				if p, ok := t.(*types.Pointer); ok {
					t = p.Elem()
				}
				if n, ok := types.Unalias(t).(*types.Named); ok && f.Embedded() && out[n.Obj().Name()] && n.Obj().Pkg() == tn.Pkg() {
					out[name] = true
					grew = true
					break
				}
			}
		}
	}
	return out
}

// selects reports whether n selects name (x.name).
func selects(n ast.Node, name string) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if sel, ok := m.(*ast.SelectorExpr); ok && sel.Sel.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// holdsNativeIface reports whether values of t may hold a value in a
// library interface with methods (error, fmt.Stringer; not any, nor a
// cell's interface).
func holdsNativeIface(t types.Type) bool {
	return holds(t, func(t types.Type) bool {
		u, ok := t.Underlying().(*types.Interface)
		n, named := t.(*types.Named)
		return ok && !u.Empty() && (!named || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "main")
	})
}

// holds reports whether t, or a type its values hold (an element, a
// field, a key), is one that is says.
func holds(t types.Type, is func(types.Type) bool) bool {
	seen := map[types.Type]bool{}
	var walk func(t types.Type) bool
	walk = func(t types.Type) bool {
		t = types.Unalias(t)
		if seen[t] {
			return false
		}
		seen[t] = true
		if is(t) {
			return true
		}
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			return walk(u.Elem())
		case *types.Slice:
			return walk(u.Elem())
		case *types.Array:
			return walk(u.Elem())
		case *types.Chan:
			return walk(u.Elem())
		case *types.Map:
			return walk(u.Key()) || walk(u.Elem())
		case *types.Struct:
			for i := range u.NumFields() {
				if walk(u.Field(i).Type()) {
					return true
				}
			}
		}
		return false
	}
	return walk(t)
}
