package grundyrt

import (
	"cmp"
	"reflect"
	"slices"
)

// sortedMap is m's entries in fmt's order (see internal/fmtsort): keys by
// value, numbers and strings as such, structs and arrays element by
// element, pointers and channels by address, nil interfaces first. Keys in
// interfaces are compared through the interpreter's boxes, by type (as
// fmt does, by the addresses of their descriptors) before value.
func sortedMap(m reflect.Value) [][2]reflect.Value {
	out := make([][2]reflect.Value, 0, m.Len())
	it := m.MapRange()
	for it.Next() {
		out = append(out, [2]reflect.Value{it.Key(), it.Value()})
	}
	slices.SortStableFunc(out, func(a, b [2]reflect.Value) int { return compareKeys(a[0], b[0]) })
	return out
}

func compareKeys(a, b reflect.Value) int {
	an, bn := boxName(a), boxName(b)
	a, b = keyValue(a), keyValue(b)
	switch {
	case !a.IsValid() && !b.IsValid():
		return 0
	case !a.IsValid():
		return -1
	case !b.IsValid():
		return 1
	}
	if a.Type() != b.Type() {
		return cmp.Compare(reflect.ValueOf(a.Type()).Pointer(), reflect.ValueOf(b.Type()).Pointer())
	}
	if an != bn {
		// Types the interpreter gives one reflect type (type A int, type B
		// int, int): Go orders them by their descriptors' addresses, which
		// this cannot know; the cells' types first, in their names' order,
		// so that the order does not follow the map's.
		switch {
		case an == "":
			return 1
		case bn == "":
			return -1
		}
		return cmp.Compare(an, bn)
	}
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	case reflect.String:
		return cmp.Compare(a.String(), b.String())
	case reflect.Float32, reflect.Float64:
		return cmp.Compare(a.Float(), b.Float())
	case reflect.Complex64, reflect.Complex128:
		x, y := a.Complex(), b.Complex()
		if c := cmp.Compare(real(x), real(y)); c != 0 {
			return c
		}
		return cmp.Compare(imag(x), imag(y))
	case reflect.Bool:
		switch x, y := a.Bool(), b.Bool(); {
		case x == y:
			return 0
		case x:
			return 1
		}
		return -1
	case reflect.Pointer, reflect.UnsafePointer, reflect.Chan:
		return cmp.Compare(a.Pointer(), b.Pointer())
	case reflect.Struct:
		for i := range a.NumField() {
			if c := compareKeys(a.Field(i), b.Field(i)); c != 0 {
				return c
			}
		}
	case reflect.Array:
		for i := range a.Len() {
			if c := compareKeys(a.Index(i), b.Index(i)); c != 0 {
				return c
			}
		}
	}
	return 0
}

// boxName is the name of the cell type of the value in the
// interpreter's box that v, or the interface v is, holds ("" for none).
func boxName(v reflect.Value) string {
	for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if !v.IsValid() || !isBox(v.Type()) {
		return ""
	}
	_, name, _ := unbox(v)
	return name
}

// keyValue is a key through interfaces and the interpreter's boxes and
// wrappers (invalid for nil).
func keyValue(v reflect.Value) reflect.Value {
	for v.IsValid() {
		switch {
		case v.Kind() == reflect.Interface:
			if v.IsNil() {
				return reflect.Value{}
			}
			v = v.Elem()
		case isBox(v.Type()):
			inner, _, ok := unbox(v)
			if !ok {
				return reflect.Value{}
			}
			v = inner
		case isWrapper(v.Type()):
			v, _ = wrapped(v)
		default:
			return v
		}
	}
	return v
}
