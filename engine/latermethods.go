package engine

import (
	"go/ast"
	"go/parser"
	"go/types"
	"slices"
	"strings"

	"grundy/engine/compat"
	"grundy/engine/prelude"
)

// Methods of an earlier cell's generic type. The type oracle checks a
// method of an earlier cell's type as a function of its receiver, which
// for a generic type has no type parameters, and yaegi v0.16.1 compiles
// an instance's methods once, when it makes the instance. So a cell
// declaring a method of a generic type an earlier cell declared (cell 1:
// type List[T any] with Push; cell 2: func (l *List[T]) All()) is checked
// and rewritten with the type's declaration and its earlier methods, from
// their text, as if it declared them again (withGenericType), and
// compiles only its own methods, while nothing has made an instance of
// the type or refers to it but its methods: otherwise compat's
// latermethods refuses the method, as before.

// laterMethodTypes adds to the cell's declarations the generic types of
// earlier cells that the cell declares methods of, and the generic types
// naming them, with their methods, where they all can (see above); it
// reports the declarations it added, which the cell drops once rewritten
// (dropAdded).
func (it *Interp) laterMethodTypes(pc *parsedCell) []ast.Decl {
	if pc.Decls == nil {
		return nil
	}
	declared := typeNamesOf(pc.Decls.Decls)
	own := map[string]bool{} // the methods the cell declares, in place of any earlier
	for _, d := range pc.Decls.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
			own[compat.FuncKey(fd)] = true
		}
	}
	// The types the cell adds methods to are declared again together: one
	// may name another (List[T] holding *elem[T], the cell adding methods
	// to both), which then fits when the other does.
	var bases []string
	group := map[string]bool{}
	for _, d := range pc.Decls.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
			continue
		}
		key := compat.FuncKey(fd)
		if base := key[:strings.IndexByte(key, '.')]; !declared[base] && !group[base] {
			bases = append(bases, base)
			group[base] = true
		}
	}
	// And the generic types that name one of them (Tree[T] holding
	// *tnode[T], the cell adding a method to tnode only): declared again,
	// they name the type the cell declares again.
	for grew := true; grew; {
		grew = false
		for _, name := range sortedKeys(it.types) {
			if ts := it.types[name]; !group[name] && !declared[name] && ts.TypeParams != nil && namesAny(ts, group) {
				bases = append(bases, name)
				group[name], grew = true, true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, base := range bases {
			if group[base] && !it.laterMethodsFit(base, own, group) {
				group[base], changed = false, true
			}
		}
	}
	var added []ast.Decl
	for _, base := range bases {
		if !group[base] {
			continue
		}
		decls := it.genericTypeAgain(base, own)
		if decls == nil {
			continue
		}
		declared[base] = true
		added = append(added, decls...)
	}
	pc.Decls.Decls = append(added, pc.Decls.Decls...)
	return added
}

// laterMethodsFit reports whether a later cell may declare methods of
// base, a generic type of an earlier cell: its text and its methods' are
// kept, yaegi has made no instance of it, and no earlier declaration but
// its methods refers to it (a function, a variable or another type).
func (it *Interp) laterMethodsFit(base string, own, group map[string]bool) bool {
	ts := it.types[base]
	if ts == nil || ts.TypeParams == nil || it.typeSrcs[base].text == "" {
		return false
	}
	if g := it.yaegiGenericType(base); !g.IsValid() || yaegiField(g, "instance").Len() > 0 {
		return false
	}
	for key, fd := range it.funcs {
		if strings.HasPrefix(key, base+".") {
			if fd.src.text == "" && !fd.forwarder() && !own[key] {
				return false
			}
			continue
		}
		if strings.HasPrefix(key, compat.NilConvGeneric) {
			continue // (a generic conversion to a native interface: made where it is called, with the type as it is then)
		}
		if fd.refs[base] && !it.replaysWithType(key, base) {
			// (A generic function is compiled where it is instantiated,
			// but with the type it was declared with: the cell declares
			// NewBag[T], returning a *Bag[T], again, see replay.)
			return false
		}
	}
	for name, kind := range it.globals {
		if kind == "var" && it.varMentions(name, base) {
			return false
		}
	}
	for name, ts := range it.types {
		if name != base && !group[name] && namesAny(ts, map[string]bool{base: true}) {
			return false // (a type of a field or an element: its instances have the earlier type)
		}
	}
	return true
}

// replaysWithType reports whether the function key, which refers to
// base, a generic type a later cell declares methods of, is compiled again
// by that cell (replay): yaegi makes the instances it returns from the
// type as it was when the function was compiled, without the later
// methods (fmt.Println(NewBag(1)) printed the fields, not the String
// method), so it must be a generic function that is, and every function
// that compiled a call of it must be one too, or a method of base: yaegi
// compiles a generic type's methods for an instance when it makes one,
// calling the function as it is then (func (m Matrix[T]) Twice() calling
// New[T]; a method of another type calling it keeps the earlier one).
func (it *Interp) replaysWithType(key, base string) bool {
	replays := func(fd *funcDecl) bool {
		return fd.decl.Recv == nil && fd.decl.Type.TypeParams != nil && fd.generic.text != "" && fd.refs[base]
	}
	if !replays(it.funcs[key]) || it.calledByMethod(key, map[string]bool{base: true}) {
		return false
	}
	for other, f := range it.funcs {
		if other != key && f.refs[key] && !replays(f) && !strings.HasPrefix(other, base+".") {
			return false
		}
	}
	return true
}

// laterMethodBases are the generic types of earlier cells the cell
// declares methods of (see laterMethodTypes).
func (it *Interp) laterMethodBases(pc *parsedCell) map[string]bool {
	out := map[string]bool{}
	if pc.Decls == nil {
		return out
	}
	declared := typeNamesOf(pc.Decls.Decls)
	for _, d := range pc.Decls.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) > 0 {
			key := compat.FuncKey(fd)
			base := key[:strings.IndexByte(key, '.')]
			if ts := it.types[base]; ts != nil && ts.TypeParams != nil && !declared[base] {
				out[base] = true
			}
		}
	}
	return out
}

// genericTypeAgain is the declaration of the generic type base and its
// methods parsed anew from their text; nil if one does not parse.
func (it *Interp) genericTypeAgain(base string, own map[string]bool) []ast.Decl {
	src := it.typeSrcs[base]
	f, err := parser.ParseFile(it.fset, it.name, "package main;/*line "+src.at+"*/"+src.text, parser.SkipObjectResolution)
	if err != nil || len(f.Decls) != 1 {
		return nil
	}
	out := []ast.Decl{f.Decls[0]}
	for _, key := range sortedKeys(it.funcs) {
		if !strings.HasPrefix(key, base+".") || it.funcs[key].forwarder() || own[key] {
			continue // (the passes declare the forwarders again)
		}
		d := it.parseFunc(it.funcs[key].src)
		if d == nil || compat.FuncKey(d) != key {
			return nil
		}
		out = append(out, d)
	}
	return out
}

// dropAdded drops from the cell's declarations those laterMethodTypes
// added, once checked and rewritten: they are compiled already.
func dropAdded(pc *parsedCell, added []ast.Decl) {
	if len(added) == 0 || pc.Decls == nil {
		return
	}
	pc.Decls.Decls = slices.DeleteFunc(pc.Decls.Decls, func(d ast.Decl) bool { return slices.Contains(added, d) })
}

// varMentions reports whether the type of the session's variable name
// mentions the cells' type base.
func (it *Interp) varMentions(name, base string) bool {
	v := it.tc.Lookup(compat.SourceName(name))
	if v == nil {
		return false
	}
	found := false
	compat.EachNamed(v.Type(), func(n *types.Named) { found = found || n.Origin().Obj().Name() == base })
	return found
}

// forwarder reports whether fd is a method the passes declared, not the
// cells: one that calls a method promoted through an embedded field
// (compat's embedMethods), its receiver named by the engine.
func (fd *funcDecl) forwarder() bool {
	recv := fd.decl.Recv
	return fd.src.text == "" && recv != nil && len(recv.List) == 1 && len(recv.List[0].Names) == 1 && strings.HasPrefix(recv.List[0].Names[0].Name, prelude.Temp)
}
