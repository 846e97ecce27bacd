package compat

import (
	"go/types"
	"strings"

	"grundy/engine/typecheck"
)

// selfStruct (part of selfTypes) refuses a struct type with a field that
// holds a struct of its own cycle (itself, or a struct that refers back to
// it) where yaegi v0.16.1 cannot build the field. yaegi builds a recursive
// named struct with a placeholder (unsafe2.dummy) standing for the struct
// still being built, and then mends two kinds of field only
// (interp/type.go:2180-2191): a field whose type ends in the placeholder
// (*F, []*F, map[string][]*F, func(*F) *F) and a field of a function type
// (func(*F)). Elsewhere the placeholder stays: in a map's key
// (map[*F]bool), in a function type inside a container (map[string]func(*F),
// an interpreter's table of words; []func(*F), a list of handlers), in a
// function type with other results (func() (*F, error)), in an anonymous
// struct ([]struct{ p *F }). The first value stored there panicked in
// reflect.Set ("value of type map[string]func(*struct {...}) is not
// assignable to type map[string]func(*unsafe2.dummy)"), or the compiler
// said "cannot use type func(*struct {}) as type func(*unsafe2.dummy)". A
// named struct around that part mends it (yaegi builds every named struct
// in two steps), so the declaration is refused with that wrapper.
func selfStruct(c *Cell, owner *types.Named, st *types.Struct) {
	inCycle := cycleOf(owner)
	for i := range st.NumFields() {
		f := st.Field(i)
		if inst := cycleInstance(f.Type(), inCycle); inst != nil {
			var args []string
			held := ""
			for i := range inst.TypeArgs().Len() {
				a := inst.TypeArgs().At(i)
				args = append(args, types.TypeString(a, shortQualifier))
				reaches(a, func(n *types.Named) bool {
					if held == "" && inCycle(n) {
						held = types.TypeString(n, shortQualifier)
					}
					return held != ""
				}, map[types.Type]bool{})
			}
			origin := inst.Origin().Obj()
			// (A struct of its own with the instance's methods would be a
			// second struct in the cycle, which the interpreter builds
			// wrong too; a field ending in the struct is the safe shape.)
			advice := "hold the " + held + " values in a field of " + owner.Obj().Name() + " itself ([]*" + held + ", map[string]*" + held + ") and write " + origin.Name() + "'s methods you use as methods of " + owner.Obj().Name()
			if pkg := origin.Pkg(); pkg != nil && pkg.Path() == "sync/atomic" {
				advice = "keep the value in an atomic.Value instead (Load().(" + strings.Join(args, ", ") + "))"
				if origin.Name() == "Pointer" {
					advice = "keep the pointer in an atomic.Value instead (Load().(*" + strings.Join(args, ", ") + "))"
				}
			}
			c.Fail(f.Pos(), "field %s of %s holds %s, an instance of a generic type with methods whose type argument holds %s, which this interpreter cannot build (the struct's values come out empty); %s",
				f.Name(), owner.Obj().Name(), types.TypeString(inst, shortQualifier), held, advice)
			return
		}
		part := unbuiltPart(f.Type(), inCycle)
		if part == nil {
			continue
		}
		held := ""
		reaches(part, func(n *types.Named) bool {
			if inCycle(n) {
				held = types.TypeString(n, shortQualifier)
				return true
			}
			return false
		}, map[types.Type]bool{})
		partSrc := types.TypeString(part, shortQualifier)
		fieldSrc := types.TypeString(f.Type(), shortQualifier)
		where := partSrc
		if fieldSrc != partSrc {
			where += " inside " + fieldSrc
		}
		with := strings.Replace(fieldSrc, partSrc, "any", 1)
		advice := "declare " + f.Name() + " " + with + " and assert the " + partSrc + " values out of it"
		if owner.TypeParams().Len() == 0 {
			// (A generic wrapper would make a generic cycle, which
			// selfGenerics refuses.)
			wrapper, field := f.Name()+"Item", "v"
			switch part.Underlying().(type) {
			case *types.Signature:
				wrapper, field = f.Name()+"Func", "f"
			case *types.Pointer:
				wrapper, field = f.Name()+"Key", "p"
			}
			advice = "wrap " + partSrc + " in a named struct: type " + wrapper + " struct{ " + field + " " + partSrc + " }"
			if _, anon := part.(*types.Struct); anon {
				advice = "give the struct a name: type " + wrapper + " " + partSrc
			}
			advice += ", and declare " + f.Name() + " " + strings.Replace(fieldSrc, partSrc, wrapper, 1)
			if obj := owner.Obj(); obj.Parent() != obj.Pkg().Scope() {
				// A type declared in a function cannot name one declared after it.
				advice = "declare " + obj.Name() + " outside the function, " + advice
			}
		}
		c.Fail(f.Pos(), "field %s of %s holds %s in %s, which this interpreter cannot build; %s (a field of a function type, or one ending in *%s, like []*%s or map[string]*%s, works)",
			f.Name(), owner.Obj().Name(), held, where, advice, held, held, held)
		return
	}
}

// cycleInstance is an instance of a generic type with methods in t whose
// type arguments hold a struct of the cycle (kids List[*Node], next
// atomic.Pointer[Node], whose methods are interpreted helpers): yaegi
// compiles the instance's methods while the struct is being built, and
// the struct's type comes out with no fields (the first use panicked with
// "index out of range", reflect.TypeOf(n).NumField() said 0).
func cycleInstance(t types.Type, inCycle func(*types.Named) bool) *types.Named {
	var found *types.Named
	reaches(t, func(n *types.Named) bool {
		if n.TypeArgs().Len() == 0 || n.Origin().NumMethods() == 0 {
			return false
		}
		for i := range n.TypeArgs().Len() {
			if reaches(n.TypeArgs().At(i), inCycle, map[types.Type]bool{}) {
				found = n
				return true
			}
		}
		return false
	}, map[types.Type]bool{})
	return found
}

// cycleOf tells the cell's struct types in a cycle with owner: owner (or,
// for a generic type, its instances) and the structs that refer back to it.
func cycleOf(owner *types.Named) func(*types.Named) bool {
	memo := map[*types.Named]bool{}
	var in func(x *types.Named) bool
	in = func(x *types.Named) bool {
		x = x.Origin()
		if x == owner.Origin() {
			return true
		}
		if v, ok := memo[x]; ok {
			return v
		}
		st, ok := x.Underlying().(*types.Struct)
		if !ok || !typecheck.IsCellType(x) {
			return false
		}
		memo[x] = false // until known: a cycle that misses owner
		memo[x] = reaches(st, in, map[types.Type]bool{})
		return memo[x]
	}
	return in
}

// unbuiltPart is the part of a field's type t that yaegi leaves holding
// its placeholder for a struct of the cycle, or nil when it builds t.
func unbuiltPart(t types.Type, inCycle func(*types.Named) bool) types.Type {
	mentions := func(t types.Type) bool { return reaches(t, inCycle, map[types.Type]bool{}) }
	if !mentions(t) {
		return nil
	}
	if _, isFunc := t.Underlying().(*types.Signature); isFunc {
		return nil // mended as a whole
	}
	// Follow what the type's text ends in: the placeholder at its end is
	// mended with the others in the type.
	var part func(t types.Type) types.Type
	part = func(t types.Type) types.Type {
		switch u := types.Unalias(t).(type) {
		case *types.Named:
			if _, isStruct := u.Underlying().(*types.Struct); isStruct || !typecheck.IsCellType(u) {
				return nil // the cycle's struct, at the end
			}
			if p := part(u.Underlying()); p != u.Underlying() {
				return p
			}
			return u
		case *types.Pointer:
			return part(u.Elem())
		case *types.Slice:
			return part(u.Elem())
		case *types.Array:
			return part(u.Elem())
		case *types.Chan:
			return part(u.Elem())
		case *types.Map:
			if mentions(u.Elem()) {
				return part(u.Elem())
			}
			if k, ok := types.Unalias(u.Key()).(*types.Named); ok {
				if _, isStruct := k.Underlying().(*types.Struct); isStruct {
					return nil // a named struct, built in two steps
				}
			}
			return u.Key()
		case *types.Signature:
			if u.Results().Len() == 1 && mentions(u.Results().At(0).Type()) {
				return part(u.Results().At(0).Type())
			}
			return u
		}
		return t
	}
	return part(t)
}
