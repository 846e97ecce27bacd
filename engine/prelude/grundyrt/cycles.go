package grundyrt

import (
	"reflect"
	"strconv"
	"strings"
	"unsafe"
)

// MendCycle puts the right struct types in the fields of a group of
// struct types that refer to each other, which yaegi v0.16.1 builds
// wrong when no struct lies on every cycle of the group (compat's
// CycleMend: it mends every placeholder with the struct it met last, so
// Edge.Next of Vertex{ First *Edge; Next *Vertex } and Edge{ To *Vertex;
// Next *Edge } got the type *Vertex). ptrs are nil pointers to the
// group's structs (the interpreter's reflect types), spec says which
// field holds which struct (CycleMend.Spec). A field is changed in place,
// as yaegi changes its placeholders (the types are made by
// reflect.StructOf, in the heap), and only where the type it gets has the
// size and kind of the one it had: the struct's layout stays.
// It returns true, so that a package-level variable can call it.
func MendCycle(spec string, ptrs ...any) bool {
	group := make([]reflect.Type, len(ptrs))
	for k, p := range ptrs {
		t := reflect.TypeOf(p)
		if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
			return true
		}
		group[k] = t.Elem()
	}
	for _, entry := range strings.Fields(spec) {
		at, shape, ok := strings.Cut(entry, "=")
		ks, is, ok2 := strings.Cut(at, ".")
		k, err1 := strconv.Atoi(ks)
		i, err2 := strconv.Atoi(is)
		if !ok || !ok2 || err1 != nil || err2 != nil || k >= len(group) || i >= group[k].NumField() {
			continue
		}
		cur := group[k].Field(i).Type
		want, rest, ok := cycleType(cur, shape, group)
		if !ok || rest != "" || want == cur || want.Size() != cur.Size() || want.Kind() != cur.Kind() {
			continue
		}
		setFieldType(group[k], i, want)
	}
	return true
}

// cycleType is cur with the structs shape names (see compat's CycleMend)
// put in their places, and what follows shape's first shape.
func cycleType(cur reflect.Type, shape string, group []reflect.Type) (reflect.Type, string, bool) {
	if shape == "" {
		return nil, "", false
	}
	c, rest := shape[0], shape[1:]
	switch {
	case c == '.':
		return cur, rest, true
	case c >= 'a' && c <= 'z':
		k := int(c - 'a')
		if k >= len(group) {
			return nil, "", false
		}
		return group[k], rest, true
	}
	kinds := map[byte]reflect.Kind{'P': reflect.Pointer, 'S': reflect.Slice, 'A': reflect.Array, 'M': reflect.Map, 'C': reflect.Chan}
	if kind, ok := kinds[c]; !ok || cur.Kind() != kind {
		return nil, "", false
	}
	if c == 'M' {
		key, rest, ok := cycleType(cur.Key(), rest, group)
		if !ok {
			return nil, "", false
		}
		elem, rest, ok := cycleType(cur.Elem(), rest, group)
		if !ok || !key.Comparable() {
			return nil, "", false
		}
		return reflect.MapOf(key, elem), rest, true
	}
	elem, rest, ok := cycleType(cur.Elem(), rest, group)
	if !ok {
		return nil, "", false
	}
	switch c {
	case 'P':
		return reflect.PointerTo(elem), rest, true
	case 'S':
		return reflect.SliceOf(elem), rest, true
	case 'A':
		return reflect.ArrayOf(cur.Len(), elem), rest, true
	}
	return reflect.ChanOf(cur.ChanDir(), elem), rest, true
}

// The layout of a struct type in Go's runtime (internal/abi: Type,
// StructType, StructField), as far as setFieldType needs it.
type (
	abiType        [48]byte
	abiStructField struct {
		name   unsafe.Pointer
		typ    unsafe.Pointer
		offset uintptr
	}
	abiStructType struct {
		abiType
		pkgPath unsafe.Pointer
		fields  []abiStructField
	}
)

// setFieldType gives field i of the struct type s (one reflect.StructOf
// made) the type t.
func setFieldType(s reflect.Type, i int, t reflect.Type) {
	st := (*abiStructType)(typeData(s))
	if len(st.fields) != s.NumField() || st.fields[i].typ != typeData(s.Field(i).Type) {
		return // not the layout this file knows
	}
	st.fields[i].typ = typeData(t)
}

// typeData is the runtime's type behind t (the data word of the
// interface: reflect's *rtype).
func typeData(t reflect.Type) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&t))[1]
}
