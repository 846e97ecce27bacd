package grundyrt

import (
	"reflect"
	"unsafe"
)

// boxKey is a value yaegi boxed (valueInterface) as == compares it: its
// dynamic type's name and its value, itself a key.
type boxKey struct {
	typ string
	val any
}

var anyType = reflect.TypeFor[any]()

// deepKey is v as == compares it when v's type holds interfaces in its
// fields or elements (type Sum struct{ A, B Game }): yaegi v0.16.1 keeps
// a value of an interface type a cell declares as a box with the node
// that made it (valueInterface), and compares and hashes the box whole,
// so two equal structs made in two places differed and a map keyed by
// them (or by a Game holding them) missed. Its boxes are replaced by
// boxKeys, its structs and arrays by arrays of such keys; other values
// are themselves.
func deepKey(v any) any {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || !holdsIfaces(rv.Type()) {
		return v
	}
	return keyOf(rv)
}

// holdsIfaces reports whether a value of t has interfaces inside it,
// where == compares them (not behind pointers, which compare by address).
func holdsIfaces(t reflect.Type) bool {
	return holdsIfacesDepth(t, 0)
}

func holdsIfacesDepth(t reflect.Type, depth int) bool {
	if depth > 16 {
		return false
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Array:
		return holdsIfacesDepth(t.Elem(), depth+1)
	case reflect.Struct:
		if isBox(t) {
			return true
		}
		for i := range t.NumField() {
			if holdsIfacesDepth(t.Field(i).Type, depth+1) {
				return true
			}
		}
	}
	return false
}

// keyOf is deepKey of a value.
func keyOf(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return keyOf(readable(v).Elem())
	case reflect.Struct:
		if isBox(v.Type()) {
			inner, name, ok := unbox(v)
			if !ok {
				return nil
			}
			switch inner.Kind() {
			case reflect.Slice, reflect.Map, reflect.Func:
				// == panics on it, naming its type (see uncomparableKey).
				lastUncomparable.Store(name)
				return boxKey{name, uncomparableKey{}}
			}
			return boxKey{name, keyOf(inner)}
		}
		if isWrapper(v.Type()) {
			return keyOf(readable(v).Field(0))
		}
		if !holdsIfaces(v.Type()) {
			return valueOf(v)
		}
		r := readable(v)
		return keysOf(r.NumField(), r.Field)
	case reflect.Array:
		if !holdsIfaces(v.Type()) {
			return valueOf(v)
		}
		r := readable(v)
		return keysOf(r.Len(), r.Index)
	}
	return valueOf(v)
}

// keysOf is an array of the keys of n parts, part i being at(i).
func keysOf(n int, at func(int) reflect.Value) any {
	k := reflect.New(reflect.ArrayOf(n, anyType)).Elem()
	for i := range n {
		if e := keyOf(at(i)); e != nil {
			k.Index(i).Set(reflect.ValueOf(e))
		}
	}
	return k.Interface()
}

// readable is v, addressable, with fields that can be read (the
// interpreter's struct types have unexported fields).
func readable(v reflect.Value) reflect.Value {
	if v.CanAddr() {
		return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	cp := reflect.New(v.Type()).Elem()
	cp.Set(v)
	return cp
}

// valueOf is v's value as an any, also when v was read from an
// unexported field.
func valueOf(v reflect.Value) any {
	if !v.CanInterface() && v.CanAddr() {
		v = readable(v)
	}
	return v.Interface()
}

// detached is a copy of box, a valueInterface holding v, with v copied to
// memory of its own: yaegi v0.16.1 boxes a value in its frame's storage
// (a composite literal's slot, which the next call fills again), so a
// map key kept as it was changed with that storage (a memo keyed by
// Row{5: n} held one key, whatever n).
func detached(box, v reflect.Value) reflect.Value {
	cp := reflect.New(box.Type()).Elem()
	cp.Set(box)
	f, ok := box.Type().FieldByName("value")
	if !ok || f.Type != reflect.TypeOf(reflect.Value{}) || !v.IsValid() {
		return cp
	}
	own := reflect.New(v.Type()).Elem()
	own.Set(readable(v))
	*(*reflect.Value)(unsafe.Pointer(cp.FieldByIndex(f.Index).UnsafeAddr())) = own
	return cp
}

// Equal is CompareKey(a) == CompareKey(b) for a and b of one struct or
// array type holding interfaces, compared in place: building the keys
// allocated for every comparison (a loop comparing structs with an any
// field ran seven times as long as yaegi's own ==).
func Equal(a, b any) bool {
	return equalValues(reflect.ValueOf(unwrapped(a)), reflect.ValueOf(unwrapped(b)))
}

func equalValues(x, y reflect.Value) bool {
	if !x.IsValid() || !y.IsValid() {
		return x.IsValid() == y.IsValid()
	}
	if x.Type() != y.Type() {
		return keyOf(x) == keyOf(y)
	}
	switch x.Kind() {
	case reflect.Interface:
		if x.IsNil() || y.IsNil() {
			return x.IsNil() == y.IsNil()
		}
		return equalValues(readable(x).Elem(), readable(y).Elem())
	case reflect.Struct:
		switch t := x.Type(); {
		case isBox(t), isWrapper(t):
			return keyOf(x) == keyOf(y)
		case !holdsIfaces(t):
			return valueOf(x) == valueOf(y)
		}
		rx, ry := readable(x), readable(y)
		return equalParts(rx.NumField(), rx.Field, ry.Field)
	case reflect.Array:
		if !holdsIfaces(x.Type()) {
			return valueOf(x) == valueOf(y)
		}
		rx, ry := readable(x), readable(y)
		return equalParts(rx.Len(), rx.Index, ry.Index)
	}
	return valueOf(x) == valueOf(y)
}

// equalParts reports whether the n parts of two values are equal, part i
// being x(i) and y(i).
func equalParts(n int, x, y func(int) reflect.Value) bool {
	for i := range n {
		if !equalValues(x(i), y(i)) {
			return false
		}
	}
	return true
}
