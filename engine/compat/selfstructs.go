package compat

import (
	"fmt"
	"go/types"
	"slices"
	"strings"
	"unicode"

	"grundy/engine/typecheck"
)

// selfEmbed (part of selfTypes) refuses a struct type that reaches
// itself through embedded fields (type Node struct{ *Node; val int }, or
// A embedding *B embedding *A): yaegi v0.16.1 looks a selector that is
// not a field up in the embedded fields of native types first
// (interp/cfg.go:1881, lookupBinField), recursing into every embedded
// field without remembering where it has been (interp/type.go:1784), so a
// method call on such a type recursed until the stack overflowed, which
// ends the process.
func selfEmbed(c *Cell, owner *types.Named, st *types.Struct) {
	var path []string
	seen := map[*types.Named]bool{}
	var walk func(st *types.Struct) bool
	walk = func(st *types.Struct) bool {
		for i := range st.NumFields() {
			f := st.Field(i)
			if !f.Embedded() {
				continue
			}
			t := f.Type()
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = p.Elem()
			}
			n, ok := types.Unalias(t).(*types.Named)
			if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "main" {
				continue
			}
			path = append(path, types.TypeString(f.Type(), shortQualifier))
			if n == owner || n.Origin() == owner.Origin() {
				return true
			}
			if inner, ok := n.Underlying().(*types.Struct); ok && !seen[n] {
				seen[n] = true
				if walk(inner) {
					return true
				}
			}
			path = path[:len(path)-1]
		}
		return false
	}
	if !walk(st) {
		return
	}
	name := owner.Obj().Name()
	how := name + " embeds " + path[0]
	for _, p := range path[1:] {
		how += ", which embeds " + p
	}
	first := strings.TrimPrefix(path[0], "*")
	field := strings.ToLower(first[:1]) + first[1:]
	if len(path) == 1 {
		field = "next"
	}
	c.Fail(owner.Obj().Pos(), "type %s reaches itself through embedded fields (%s): this interpreter's lookup of its methods recurses without end; give the field a name (%s %s) and select through it", name, how, field, path[0])
}

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
			// (A struct of the cell's own with those methods, not
			// generic, runs too: BuildRoots has its cycle built right.)
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
	seen := map[*types.Named]bool{}
	part = func(t types.Type) types.Type {
		switch u := types.Unalias(t).(type) {
		case *types.Named:
			if _, isStruct := u.Underlying().(*types.Struct); isStruct || !typecheck.IsCellType(u) {
				return nil // the cycle's struct, at the end
			}
			if seen[u] {
				return u // (a function type that refers to itself: type stateFn func(*lexer) stateFn)
			}
			seen[u] = true
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

// BuildRoots are the structs of ts (a cell's types) that yaegi v0.16.1's
// build of recursive structs must start from, the engine making them
// first (declareTypes); the first use of a struct in a cycle decides where
// yaegi's build starts. Its placeholders for structs still being built are
// all mended with one struct, the last it met again (interp/type.go,
// fixDummy with ctx.rect), so a build that meets two structs again gives
// one the other's type (List{ head *Node } with Node{ next *Node; list
// *List }, started from List, gave Node.next the type *List), and one that
// meets a struct again held by value (Kids in Tree{ kids Kids }, Kids{ xs
// []*Tree }) lays the holder out with an empty struct in its place.
// Started from a struct every cycle passes through, and that no struct of
// the cycle holds by value, the build meets only that struct again; of
// those, one that the others refer to through pointers only
// (pointedOnly), and then one from which the build makes the group's
// named slices and maps right (brokenComposites). One
// such root for each group of structs that refer to each other, groups
// referred to before the groups referring to them; a group without one
// is built as yaegi builds it, and mended afterwards (CycleMends).
func BuildRoots(ts []*types.Named) []*types.Named {
	var roots []*types.Named
	for _, g := range structCycles(ts) {
		if g.root != nil {
			roots = append(roots, g.root)
			continue
		}
		in := map[*types.Named]bool{}
		for _, s := range g.group {
			in[s] = true
		}
		for _, s := range g.group {
			for _, n := range heldComposites(s, in) {
				if !slices.Contains(roots, n) {
					roots = append(roots, n)
				}
			}
		}
	}
	return roots
}

// structCycle is a group of structs of a cell that refer to each other,
// with the struct every cycle of the group passes through and that none
// holds by value, if there is one (BuildRoots).
type structCycle struct {
	group   []*types.Named
	root    *types.Named
	byValue bool // a struct of the group holds another (or itself) by value
	mend    bool // the root is not on every cycle: mended after the build too
}

// structCycles are the groups of two or more structs of ts (a cell's
// types) that refer to each other, groups referred to before the groups
// referring to them.
func structCycles(ts []*types.Named) []structCycle {
	in := map[*types.Named]bool{}
	for _, t := range ts {
		if _, ok := t.Underlying().(*types.Struct); ok && t.TypeParams().Len() == 0 {
			in[t] = true
		}
	}
	// edges[s][t]: s refers to t other than through another named struct;
	// byValue[s][t]: s holds t itself (or an array of it).
	edges := map[*types.Named]map[*types.Named]bool{}
	byValue := map[*types.Named]map[*types.Named]bool{}
	for s := range in {
		edges[s], byValue[s] = map[*types.Named]bool{}, map[*types.Named]bool{}
		st := s.Underlying().(*types.Struct)
		for i := range st.NumFields() {
			ft := st.Field(i).Type()
			reaches(ft, func(n *types.Named) bool {
				if in[n] {
					edges[s][n] = true
				}
				return false
			}, map[types.Type]bool{})
			for {
				a, ok := types.Unalias(ft).(*types.Array)
				if !ok {
					break
				}
				ft = a.Elem()
			}
			if n, ok := types.Unalias(ft).(*types.Named); ok && in[n] {
				byValue[s][n] = true
			}
		}
	}
	var out []structCycle
	referred := map[*types.Named]bool{}
	for s := range in {
		for t := range edges[s] {
			referred[t] = referred[t] || t != s
		}
	}
	for _, group := range sccs(ts, in, edges) {
		if len(group) == 1 && edges[group[0]][group[0]] && referred[group[0]] {
			// A struct referring to itself that others refer to (S{
			// Prev *S } with A{ S *S; Next *A }): built inside A's
			// build, it met two structs again and S.Prev got A's type.
			// It is built first, from itself.
			out = append(out, structCycle{group: group, root: group[0]})
			continue
		}
		if len(group) < 2 {
			continue
		}
		c := structCycle{group: group}
		best := -1
		for _, r := range group {
			if !rootOf(r, group, edges, byValue) {
				continue
			}
			score := 0
			if pointedOnly(r, group) {
				score += 2
			}
			if brokenComposites(r) == 0 {
				score++
			}
			if score > best {
				c.root, best = r, score
			}
		}
		for _, s := range group {
			for _, t := range group {
				c.byValue = c.byValue || byValue[s][t]
			}
		}
		if c.root != nil && !c.byValue && brokenComposites(c.root) > 0 {
			// A named slice or map of the group held by a struct that is
			// not on every cycle (A{ Bs Bs } with B{ Cs []*C; A *A },
			// C{ B *B }): built from B, Bs kept []*unsafe2.dummy and lost
			// its methods; built from A, C.B got A's type. The build
			// starts from a struct that builds every such type right,
			// and the group is mended after it (CycleMends).
			for _, r := range group {
				if brokenComposites(r) == 0 {
					c.root, c.mend = r, true
					break
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// brokenComposites counts the named types of the cell that are not
// structs (type Es []*E) which yaegi v0.16.1's build of recursive structs
// started from r meets while a struct they hold is still being built
// (Sys{ Es Es }, Es []*E, E{ S *Sys }, started from E): it keeps for such
// a type the placeholder's ([]*unsafe2.dummy), which its methods'
// receivers and every function type naming it then have, while its
// values have the struct's: fmt printed an Es with String as its
// pointers, and an Es in an error or a heap.Interface panicked in reflect
// ("Call using []*struct {...} as type []*unsafe2.dummy"). The walk
// follows the build: the fields in their order, each type built once.
func brokenComposites(r *types.Named) int {
	building, built := map[*types.Named]bool{}, map[*types.Named]bool{}
	broken := 0
	var walk func(t types.Type)
	walk = func(t types.Type) {
		switch t := types.Unalias(t).(type) {
		case *types.Named:
			if !typecheck.IsCellType(t) || building[t] || built[t] || t.TypeParams().Len() > 0 {
				return
			}
			if _, isStruct := t.Underlying().(*types.Struct); !isStruct && reaches(t.Underlying(), func(m *types.Named) bool { return building[m] }, map[types.Type]bool{}) {
				broken++
			}
			building[t] = true
			walk(t.Underlying())
			delete(building, t)
			built[t] = true
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Struct:
			for i := range t.NumFields() {
				walk(t.Field(i).Type())
			}
		case *types.Signature:
			for _, tuple := range []*types.Tuple{t.Params(), t.Results()} {
				for v := range tuple.Variables() {
					walk(v.Type())
				}
			}
		}
	}
	walk(r)
	return broken
}

// heldComposites are the named types of the cell that are not structs
// and hold a struct of in which r holds, other than through another named
// struct (Bs in A{ Bs Bs }, with type Bs []*B).
func heldComposites(r *types.Named, in map[*types.Named]bool) []*types.Named {
	var out []*types.Named
	st := r.Underlying().(*types.Struct)
	for i := range st.NumFields() {
		reaches(st.Field(i).Type(), func(n *types.Named) bool {
			if _, isStruct := n.Underlying().(*types.Struct); isStruct || !typecheck.IsCellType(n) || slices.Contains(out, n) {
				return false
			}
			if reaches(n.Underlying(), func(m *types.Named) bool { return in[m] }, map[types.Type]bool{}) {
				out = append(out, n)
			}
			return false
		}, map[types.Type]bool{})
	}
	return out
}

// pointedOnly reports whether the structs of group refer to r only
// through pointers (*r, []*r): a root so referred to is met again only
// where a pointer mends it. Started from Edge in Edge{ To *Node } with
// Node{ Edges []Edge }, the build left Node's Edges a []unsafe2.dummy, and
// append(n.Edges, Edge{...}) failed to compile ("cannot use type
// main.Edge as type unsafe2.dummy"); started from Node it does not.
func pointedOnly(r *types.Named, group []*types.Named) bool {
	var walk func(t types.Type, underPtr bool, seen map[types.Type]bool) bool
	walk = func(t types.Type, underPtr bool, seen map[types.Type]bool) bool {
		t = types.Unalias(t)
		if n, ok := t.(*types.Named); ok {
			if n == r {
				return underPtr
			}
			if seen[n] || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "main" {
				return true
			}
			seen[n] = true
			if _, isStruct := n.Underlying().(*types.Struct); isStruct {
				return true // (a struct of its own: its fields are checked as the group's)
			}
			return walk(n.Underlying(), false, seen)
		}
		switch u := t.(type) {
		case *types.Pointer:
			return walk(u.Elem(), true, seen)
		case *types.Slice:
			return walk(u.Elem(), false, seen)
		case *types.Array:
			return walk(u.Elem(), false, seen)
		case *types.Map:
			return walk(u.Key(), false, seen) && walk(u.Elem(), false, seen)
		case *types.Chan:
			return walk(u.Elem(), false, seen)
		case *types.Struct:
			for i := range u.NumFields() {
				if !walk(u.Field(i).Type(), false, seen) {
					return false
				}
			}
		case *types.Signature:
			for _, tuple := range []*types.Tuple{u.Params(), u.Results()} {
				for v := range tuple.Variables() {
					if !walk(v.Type(), false, seen) {
						return false
					}
				}
			}
		}
		return true
	}
	for _, s := range group {
		st := s.Underlying().(*types.Struct)
		for i := range st.NumFields() {
			if !walk(st.Field(i).Type(), false, map[types.Type]bool{}) {
				return false
			}
		}
	}
	return true
}

// CycleMend is a group of structs referring to each other that yaegi
// v0.16.1 builds wrong whichever struct it starts from (no struct lies on
// every cycle: Vertex{ First *Edge; Next *Vertex } with Edge{ To *Vertex;
// Next *Edge }): its placeholders for the structs still being built are
// all mended with the one it met last (see BuildRoots), so Edge.Next got
// the type *Vertex and the first store of an *Edge there panicked in
// reflect.Set. The engine hands the interpreter's reflect types of the
// group's structs to grundyrt's MendCycle, which puts the right struct
// in each field where Spec says one is held (through pointers, slices,
// arrays, maps and channels: the field's size does not change).
type CycleMend struct {
	Structs []*types.Named
	// Spec is one entry "k.i=shape" for each field i of Structs[k] that
	// holds a struct of the group, separated by spaces; a shape is
	// prefix code: P (pointer to), S (slice of), A (array of), M (map:
	// key shape, element shape), C (channel of), a letter from 'a'
	// (Structs[0]) on, or '.' for a part that holds none of them.
	Spec string
}

// CycleMends are the groups of structs of ts (a cell's types) that
// MendCycle must mend: groups without a root (BuildRoots) where no
// struct holds one of the group by value (a struct's size there is not
// known until the build is done).
func CycleMends(ts []*types.Named) []CycleMend {
	var out []CycleMend
	for _, g := range structCycles(ts) {
		if g.root != nil && !g.mend || len(g.group) > 26 {
			continue
		}
		index := map[*types.Named]int{}
		for k, s := range g.group {
			index[s] = k
		}
		var entries []string
		for k, s := range g.group {
			st := s.Underlying().(*types.Struct)
			for i := range st.NumFields() {
				if shape, ok := cycleShape(st.Field(i).Type(), index); ok && strings.ContainsFunc(shape, unicode.IsLower) {
					entries = append(entries, fmt.Sprintf("%d.%d=%s", k, i, shape))
				}
			}
		}
		out = append(out, CycleMend{Structs: g.group, Spec: strings.Join(entries, " ")})
	}
	return out
}

// cycleShape is t's shape for CycleMend's Spec; false where t holds a
// struct of the group other than through pointers, slices, arrays, maps
// and channels (a function, an anonymous struct, another named type),
// which MendCycle leaves as yaegi built it.
func cycleShape(t types.Type, index map[*types.Named]int) (string, bool) {
	if n, ok := types.Unalias(t).(*types.Named); ok {
		if k, ok := index[n]; ok {
			return string(rune('a' + k)), true
		}
	}
	if !reaches(t, func(n *types.Named) bool { _, ok := index[n]; return ok }, map[types.Type]bool{}) {
		return ".", true
	}
	var code string
	var parts []types.Type
	switch u := types.Unalias(t).(type) {
	case *types.Pointer:
		code, parts = "P", []types.Type{u.Elem()}
	case *types.Slice:
		code, parts = "S", []types.Type{u.Elem()}
	case *types.Array:
		code, parts = "A", []types.Type{u.Elem()}
	case *types.Map:
		code, parts = "M", []types.Type{u.Key(), u.Elem()}
	case *types.Chan:
		code, parts = "C", []types.Type{u.Elem()}
	default:
		return "", false
	}
	for _, p := range parts {
		shape, ok := cycleShape(p, index)
		if !ok {
			return "", false
		}
		code += shape
	}
	return code, true
}

// rootOf reports whether every cycle of group passes through r and no
// struct of group holds r by value.
func rootOf(r *types.Named, group []*types.Named, edges, byValue map[*types.Named]map[*types.Named]bool) bool {
	member := map[*types.Named]bool{}
	for _, s := range group {
		member[s] = true
		if byValue[s][r] {
			return false
		}
	}
	// Without r the group must have no cycle.
	state := map[*types.Named]int{} // 1 visiting, 2 done
	var cyclic func(s *types.Named) bool
	cyclic = func(s *types.Named) bool {
		state[s] = 1
		for t := range edges[s] {
			if t == r || !member[t] {
				continue
			}
			if state[t] == 1 || state[t] == 0 && cyclic(t) {
				return true
			}
		}
		state[s] = 2
		return false
	}
	for _, s := range group {
		if s != r && state[s] == 0 && cyclic(s) {
			return false
		}
	}
	return true
}

// sccs are the strongly connected groups of the structs in, in the order
// of ts within each group, groups referred to before those referring to
// them (Tarjan's order).
func sccs(ts []*types.Named, in map[*types.Named]bool, edges map[*types.Named]map[*types.Named]bool) [][]*types.Named {
	pos := map[*types.Named]int{}
	for i, t := range ts {
		pos[t] = i
	}
	index, low := map[*types.Named]int{}, map[*types.Named]int{}
	onStack := map[*types.Named]bool{}
	var stack []*types.Named
	var out [][]*types.Named
	next := 0
	var visit func(s *types.Named)
	visit = func(s *types.Named) {
		index[s], low[s] = next, next
		next++
		stack = append(stack, s)
		onStack[s] = true
		targets := make([]*types.Named, 0, len(edges[s]))
		for t := range edges[s] {
			targets = append(targets, t)
		}
		slices.SortFunc(targets, func(a, b *types.Named) int { return pos[a] - pos[b] })
		for _, t := range targets {
			if _, seen := index[t]; !seen {
				visit(t)
				low[s] = min(low[s], low[t])
			} else if onStack[t] {
				low[s] = min(low[s], index[t])
			}
		}
		if low[s] == index[s] {
			var group []*types.Named
			for {
				t := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[t] = false
				group = append(group, t)
				if t == s {
					break
				}
			}
			slices.SortFunc(group, func(a, b *types.Named) int { return pos[a] - pos[b] })
			out = append(out, group)
		}
	}
	for _, t := range ts {
		if _, seen := index[t]; !seen && in[t] {
			visit(t)
		}
	}
	return out
}
