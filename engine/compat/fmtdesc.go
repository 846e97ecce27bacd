package compat

import (
	"fmt"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"grundy/engine/prelude/grundyrt"
	"grundy/engine/typecheck"
)

// FmtDesc describes t for the runtime's printer (see grundyrt's
// fmttypes.go): t as Go's reflect names it, with a placeholder for each
// named type, then a line per named type: "_N = NAME" for a native type,
// "_N = NAME = UNDERLYING" for one a cell declared (and for an interface). The printer names
// values by it and walks their fields, elements and keys with it.
func FmtDesc(t types.Type) string {
	w := descWriter{ids: map[string]int{}}
	main := w.write(t)
	return strings.Join(append([]string{main}, w.lines...), "\n")
}

type descWriter struct {
	ids   map[string]int // named types by name
	lines []string
	// params, when not nil, collects the type parameters t is made of,
	// each written as the placeholder _P<n> (see FmtDescParams).
	params *[]*types.TypeParam
}

// FmtDescParams is FmtDesc for t made of type parameters (xs []T, m
// map[K]V), which only the instance knows: each is written as a
// placeholder _P<n>, n its index in params, for the printer to fill in
// with the type of a value of it (see grundyrt's TypedParams). ok is
// false where t names a type with a type parameter among its type
// arguments (Pair[K, V]), whose name the description could not write.
func FmtDescParams(t types.Type) (desc string, params []*types.TypeParam, ok bool) {
	named := typeIn(t, func(t types.Type) bool {
		n, ok := t.(*types.Named)
		return ok && n.TypeArgs().Len() > 0 && hasTypeParam(n)
	})
	if named != nil {
		return "", nil, false
	}
	w := descWriter{ids: map[string]int{}, params: &params}
	main := w.write(t)
	return strings.Join(append([]string{main}, w.lines...), "\n"), params, true
}

func (w *descWriter) write(t types.Type) string {
	if u, ok := hiddenComposite(t); ok {
		return w.write(u)
	}
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		name := reflectName(t, false)
		id, seen := w.ids[name]
		if !seen {
			id = len(w.ids)
			w.ids[name] = id
			line := fmt.Sprintf("_%d = %s", id, name)
			i := len(w.lines)
			w.lines = append(w.lines, line)
			if typecheck.IsCellType(t) || types.IsInterface(t) {
				// The structure of a cell's type; that a native type
				// is an interface.
				w.lines[i] = line + " = " + w.write(t.Underlying())
			}
		}
		return "_" + strconv.Itoa(id)
	case *types.Pointer:
		return "*" + w.write(t.Elem())
	case *types.Slice:
		return "[]" + w.write(t.Elem())
	case *types.Array:
		return fmt.Sprintf("[%d]%s", t.Len(), w.write(t.Elem()))
	case *types.Map:
		return "map[" + w.write(t.Key()) + "]" + w.write(t.Elem())
	case *types.Struct:
		return structString(t, w.write)
	case *types.TypeParam:
		if w.params != nil {
			i := slices.Index(*w.params, t)
			if i < 0 {
				i = len(*w.params)
				*w.params = append(*w.params, t)
			}
			return "_P" + strconv.Itoa(i)
		}
		// Known when the generic function runs: by the value.
		return "interface {}"
	}
	return reflectString(t, false)
}

// reflectName is a named type as reflect.Type.String writes it: the
// package by its name, type arguments by their packages' paths
// (main.Box[sync/atomic.Pointer[int]]); inArgs: inside type arguments.
func reflectName(n *types.Named, inArgs bool) string {
	obj := n.Obj()
	s := obj.Name()
	if pkg := obj.Pkg(); pkg != nil {
		q := pkg.Name()
		if inArgs {
			q = pkg.Path()
		}
		s = q + "." + s
	}
	if args := n.TypeArgs(); args != nil && args.Len() > 0 {
		parts := make([]string, args.Len())
		for i := range parts {
			parts[i] = reflectString(args.At(i), true)
		}
		s += "[" + strings.Join(parts, ",") + "]"
	}
	return s
}

// reflectString is t as reflect.Type.String writes it.
func reflectString(t types.Type, inArgs bool) string {
	if u, ok := hiddenComposite(t); ok {
		return reflectString(u, inArgs)
	}
	switch t := types.Unalias(t).(type) {
	case *types.Basic:
		return basicName(t)
	case *types.Named:
		return reflectName(t, inArgs)
	case *types.Pointer:
		return "*" + reflectString(t.Elem(), inArgs)
	case *types.Slice:
		return "[]" + reflectString(t.Elem(), inArgs)
	case *types.Array:
		return fmt.Sprintf("[%d]%s", t.Len(), reflectString(t.Elem(), inArgs))
	case *types.Map:
		return "map[" + reflectString(t.Key(), inArgs) + "]" + reflectString(t.Elem(), inArgs)
	case *types.Chan:
		el := reflectString(t.Elem(), inArgs)
		switch t.Dir() {
		case types.RecvOnly:
			return "<-chan " + el
		case types.SendOnly:
			return "chan<- " + el
		}
		if c, ok := types.Unalias(t.Elem()).(*types.Chan); ok && c.Dir() == types.RecvOnly {
			el = "(" + el + ")"
		}
		return "chan " + el
	case *types.Signature:
		return "func" + signatureString(t, inArgs)
	case *types.Struct:
		return structString(t, func(t types.Type) string { return reflectString(t, inArgs) })
	case *types.Interface:
		if t.NumMethods() == 0 {
			return "interface {}"
		}
		var ms []string
		for i := range t.NumMethods() {
			m := t.Method(i)
			ms = append(ms, m.Name()+signatureString(m.Type().(*types.Signature), inArgs))
		}
		return "interface { " + strings.Join(ms, "; ") + " }"
	case *types.TypeParam:
		return "interface {}"
	}
	return t.String()
}

func signatureString(sig *types.Signature, inArgs bool) string {
	var b strings.Builder
	b.WriteString("(")
	ps := sig.Params()
	for i := range ps.Len() {
		if i > 0 {
			b.WriteString(", ")
		}
		if sig.Variadic() && i == ps.Len()-1 {
			b.WriteString("..." + reflectString(ps.At(i).Type().(*types.Slice).Elem(), inArgs))
		} else {
			b.WriteString(reflectString(ps.At(i).Type(), inArgs))
		}
	}
	b.WriteString(")")
	rs := sig.Results()
	switch rs.Len() {
	case 0:
	case 1:
		b.WriteString(" " + reflectString(rs.At(0).Type(), inArgs))
	default:
		b.WriteString(" (")
		for i := range rs.Len() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(reflectString(rs.At(i).Type(), inArgs))
		}
		b.WriteString(")")
	}
	return b.String()
}

// basicName is a basic type's name in reflect (byte is uint8, rune
// int32, an untyped constant its default type).
func basicName(b *types.Basic) string {
	if b.Info()&types.IsUntyped != 0 {
		if d, ok := types.Default(b).(*types.Basic); ok && d != b {
			return basicName(d)
		}
	}
	switch b.Kind() {
	case types.Byte:
		return "uint8"
	case types.Rune:
		return "int32"
	case types.UnsafePointer:
		return "unsafe.Pointer"
	}
	return b.Name()
}

// embeddedName is the name an embedded field of type t gets from the
// type itself: its type name (an alias's is the aliased type's).
func embeddedName(t types.Type) string {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	switch t := t.(type) {
	case *types.Named:
		return t.Obj().Name()
	case *types.Basic:
		return t.Name()
	}
	return ""
}

// structString is a struct type as reflect writes it, each field's type
// written by elem.
func structString(t *types.Struct, elem func(types.Type) string) string {
	var fields []string
	for i := range t.NumFields() {
		f := t.Field(i)
		s := elem(f.Type())
		tag := t.Tag(i)
		if !f.Embedded() || embeddedName(f.Type()) != f.Name() {
			// (an embedded alias, type Q = P: the field is Q, where the
			// printer would take P from the type; it is written named,
			// with grundyrt's EmbedTag, which says it is embedded)
			s = f.Name() + " " + s
			if f.Embedded() {
				tag = grundyrt.EmbedTag + tag
			}
		}
		if tag != "" {
			s += " " + strconv.Quote(tag)
		}
		fields = append(fields, s)
	}
	if len(fields) == 0 {
		return "struct {}"
	}
	return "struct { " + strings.Join(fields, "; ") + " }"
}
