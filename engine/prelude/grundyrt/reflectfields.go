package grundyrt

import (
	"reflect"
	"strings"
	"unsafe"
)

// The fields of the struct types cells declare, as reflect describes
// them in Go. yaegi v0.16.1 marks an embedded field as embedded
// (Anonymous) only in a struct without other fields (interp/type.go,
// refType: golang/go#15924), so reflect found no promoted field
// (v.FieldByName("ID") of an Item embedding Base was invalid) and
// t.Field(i).Anonymous was false; the session's description of the type
// says which fields the cell embedded.

// Field is rt.Field(i) as Go describes the field the cell declared (see
// StructField), embedded when the cell embedded it.
func (ts *Types) Field(rt reflect.Type, i int) reflect.StructField {
	rt, t := ts.described(rt)
	return ts.namedField(field(rt, t, i))
}

// namedField is f with its type named as ft describes it (a field of type
// Heap, type Heap uint8, was of type uint8).
func (ts *Types) namedField(f reflect.StructField, ft *tinfo) reflect.StructField {
	f.Type = ts.rtypeOf(f.Type, ft)
	return f
}

// FieldByName is rt.FieldByName(name) as Go finds the field: an
// unexported one under its own name, a promoted one through the fields
// the cell embedded.
func (ts *Types) FieldByName(rt reflect.Type, name string) (reflect.StructField, bool) {
	rt, t := ts.described(rt)
	return ts.fieldByName(rt, t, func(n string) bool { return n == name })
}

// FieldByNameFunc is rt.FieldByNameFunc(match), the names match sees
// Go's (see FieldByName).
func (ts *Types) FieldByNameFunc(rt reflect.Type, match func(string) bool) (reflect.StructField, bool) {
	rt, t := ts.described(rt)
	return ts.fieldByName(rt, t, match)
}

// ValueFieldByName is v.FieldByName(name), the field found as
// FieldByName finds it.
func (ts *Types) ValueFieldByName(v reflect.Value, name string) reflect.Value {
	if v.Kind() != reflect.Struct {
		return v.FieldByName(name) // reflect's panic
	}
	return ts.valueFieldBy(v, func(n string) bool { return n == name })
}

// ValueFieldByNameFunc is v.FieldByNameFunc(match), the field found as
// FieldByNameFunc finds it.
func (ts *Types) ValueFieldByNameFunc(v reflect.Value, match func(string) bool) reflect.Value {
	if v.Kind() != reflect.Struct {
		return v.FieldByNameFunc(match) // reflect's panic
	}
	return ts.valueFieldBy(v, match)
}

// valueFieldBy is the field of the struct v whose name matches (see
// fieldByName), each step by ValueField.
func (ts *Types) valueFieldBy(v reflect.Value, match func(string) bool) reflect.Value {
	rt, t := ts.described(v.Type())
	f, ok := ts.fieldByName(rt, t, match)
	if !ok {
		return reflect.Value{}
	}
	for i, x := range f.Index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return v.FieldByIndex(f.Index[i:]) // reflect's panic
			}
			v = v.Elem()
		}
		v = ValueField(v, x)
	}
	return v
}

// ValueField is v.Field(i), read-only as Go's is when the cell declared
// the field unexported: yaegi exports such fields (as X+name), so
// CanSet and CanInterface were true and Set and Interface succeeded.
func ValueField(v reflect.Value, i int) reflect.Value {
	if v.Kind() == reflect.Struct && uint(i) >= uint(v.NumField()) {
		panic(reflectPanic("reflect: Field index out of range"))
	}
	f := v.Field(i)
	sf := v.Type().Field(i)
	switch {
	case !sf.IsExported() || StructField(sf).Name == sf.Name:
		return f
	case strings.Contains(string(sf.Tag), UnexportedEmbedTag):
		return embedReadOnly(f)
	}
	return readOnly(f)
}

// ValueFieldByIndex is v.FieldByIndex(index), each step by ValueField.
func ValueFieldByIndex(v reflect.Value, index []int) reflect.Value {
	for k, i := range index {
		if k > 0 && v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Struct {
			if v.IsNil() {
				panic(reflectPanic("reflect: indirection through nil pointer to embedded struct"))
			}
			v = v.Elem()
		}
		v = ValueField(v, i)
	}
	return v
}

// FieldByIndex is rt.FieldByIndex(index), each step by Field.
func (ts *Types) FieldByIndex(rt reflect.Type, index []int) reflect.StructField {
	var f reflect.StructField
	for k, i := range index {
		if k > 0 {
			rt = f.Type
			if rt.Kind() == reflect.Pointer && rt.Elem().Kind() == reflect.Struct {
				rt = rt.Elem()
			}
		}
		f = ts.Field(rt, i)
	}
	return f
}

// readOnly is v marked as obtained through an unexported field, as
// reflect marks one (the sticky read-only flag of reflect.Value, which
// TestReadOnly checks against reflect's own).
func readOnly(v reflect.Value) reflect.Value {
	h := (*valueHeader)(unsafe.Pointer(&v))
	h.flag |= flagStickyRO
	return v
}

// embedReadOnly is v marked as obtained through an embedded field of an
// unexported type, as reflect marks one: read-only, but not the exported
// fields reached through it (the flag is not sticky).
func embedReadOnly(v reflect.Value) reflect.Value {
	h := (*valueHeader)(unsafe.Pointer(&v))
	h.flag |= flagEmbedRO
	return v
}

// valueHeader is reflect.Value's layout (reflect/value.go).
type valueHeader struct {
	typ, ptr unsafe.Pointer
	flag     uintptr
}

const (
	flagStickyRO = 1 << 5
	flagEmbedRO  = 1 << 6
)

// VisibleFields is reflect.VisibleFields(t) with the fields the cell
// embedded walked into (reflect's walks only those marked embedded): each
// field in order, an embedded struct's after it, less those a shallower
// field of the same name hides or one as shallow cancels.
func (ts *Types) VisibleFields(t reflect.Type) []reflect.StructField {
	rt, d := ts.described(t)
	if rt.Kind() != reflect.Struct {
		return reflect.VisibleFields(rt) // reflect's panic
	}
	var out []reflect.StructField
	at := map[string]int{} // the field of each name so far, in out
	walking := map[reflect.Type]bool{}
	var walk func(rt reflect.Type, d *tinfo, index []int)
	walk = func(rt reflect.Type, d *tinfo, index []int) {
		if walking[rt] {
			return
		}
		walking[rt] = true
		defer delete(walking, rt)
		for i := range structFields(rt) {
			f, fd := field(rt, d, i)
			f.Index = append(append([]int(nil), index...), i)
			keep := true
			if j, seen := at[f.Name]; seen {
				switch old := &out[j]; {
				case len(old.Index) == len(f.Index):
					old.Name, keep = "", false // as shallow: neither is visible
				case len(old.Index) > len(f.Index):
					old.Name = "" // deeper: hidden
				default:
					keep = false
				}
			}
			if keep {
				at[f.Name] = len(out)
				out = append(out, f)
			}
			if ft, fd, ok := embeddedStruct(f, fd); ok {
				walk(ft, fd, f.Index)
			}
		}
	}
	walk(rt, d, nil)
	visible := out[:0]
	for _, f := range out {
		if f.Name != "" {
			visible = append(visible, f)
		}
	}
	return visible
}

// TypeNumField is rt.NumField(), without the field that carries the
// name of a struct type a cell declared without fields (see EmptyField).
func TypeNumField(rt reflect.Type) int { return structFields(RType(rt)) }

// ValueNumField is v.NumField() likewise.
func ValueNumField(v reflect.Value) int {
	if v.Kind() != reflect.Struct {
		return v.NumField() // reflect's panic
	}
	return structFields(v.Type())
}

// Field, NumField, FieldByName and FieldByNameFunc of a reflect.Type that grundyrt.TypeOf named.
func (c cellRType) Field(i int) reflect.StructField {
	return c.ts.namedField(field(c.Type, c.t, i))
}

// NumField leaves out the field that carries the name of a struct type
// without fields (see EmptyField).
func (c cellRType) NumField() int { return structFields(c.Type) }

func (c cellRType) FieldByName(name string) (reflect.StructField, bool) {
	return c.ts.FieldByName(c, name)
}

func (c cellRType) FieldByNameFunc(match func(string) bool) (reflect.StructField, bool) {
	return c.ts.FieldByNameFunc(c, match)
}

// described is the interpreter's reflect type rt and the session's
// description of it.
func (ts *Types) described(rt reflect.Type) (reflect.Type, *tinfo) {
	if c, ok := rt.(cellRType); ok {
		return c.Type, c.t
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return rt, ts.deriveLocked(rt)
}

// field is field i of the struct type rt that t describes (t may be nil),
// and the description of its type.
func field(rt reflect.Type, t *tinfo, i int) (reflect.StructField, *tinfo) {
	f := StructField(rt.Field(i))
	if t == nil || t.kind != tkStruct || i >= len(t.fields) {
		return f, nil
	}
	f.Anonymous = f.Anonymous || t.fields[i].embedded
	return f, t.fields[i].t
}

// fieldByName finds the field whose name matches in rt as Go does: the
// shallowest, none when two are as shallow.
func (ts *Types) fieldByName(rt reflect.Type, t *tinfo, match func(string) bool) (reflect.StructField, bool) {
	if rt.Kind() != reflect.Struct {
		return rt.FieldByNameFunc(match) // reflect's panic
	}
	type at struct {
		rt    reflect.Type
		t     *tinfo
		index []int
	}
	level, seen := []at{{rt, t, nil}}, map[reflect.Type]bool{}
	for len(level) > 0 {
		var found []reflect.StructField
		var next []at
		for _, s := range level {
			if seen[s.rt] {
				continue
			}
			seen[s.rt] = true
			for i := range s.rt.NumField() {
				f, ft := field(s.rt, s.t, i)
				f.Index = append(append([]int(nil), s.index...), i)
				if match(f.Name) {
					found = append(found, ts.namedField(f, ft))
					continue
				}
				if frt, ft, ok := embeddedStruct(f, ft); ok {
					next = append(next, at{frt, ft, f.Index})
				}
			}
		}
		switch len(found) {
		case 0:
			level = next
		case 1:
			return found[0], true
		default:
			return reflect.StructField{}, false
		}
	}
	return reflect.StructField{}, false
}

// embeddedStruct is the struct type (and its description) whose fields
// the embedded field f (described by fd) promotes, through a pointer too.
func embeddedStruct(f reflect.StructField, fd *tinfo) (reflect.Type, *tinfo, bool) {
	ft := f.Type
	if ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
		if fd != nil {
			fd = fd.elem
		}
	}
	return ft, fd, f.Anonymous && ft.Kind() == reflect.Struct
}
