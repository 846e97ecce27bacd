package grundyrt

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
)

// Naming cell types in json's type errors. Native json writes an
// UnmarshalTypeError with the reflect types it decodes into, which for
// cell types are the interpreter's: a struct a cell declares has no name
// ("Go struct field .age" where Go says "T.age") and a type on another
// type is that type ("of type int" for a Color). namedTypeError writes
// them as Go does, walking the error's field path (json names, and the Go
// names of embedded structs) from the decoded value's type as the oracle
// knows it.

// namedTypeError is err with the names of the cell types it mentions, for
// an error of decoding into a value of reflect type rt and type t.
func namedTypeError(err error, rt reflect.Type, t *tinfo) error {
	var te *json.UnmarshalTypeError
	if t == nil || !errors.As(err, &te) || te.Type == nil {
		return err
	}
	out := *te
	var inStruct *tinfo // the struct whose field the path ends at
	embedded := false   // the last step went into an embedded struct
	if te.Field != "" {
		for seg := range strings.SplitSeq(te.Field, ".") {
			rt, t = structIn(rt, t)
			if rt == nil {
				return err
			}
			i := jsonFieldIndex(rt, seg)
			if i < 0 || i >= len(t.fields) {
				return err
			}
			if !embedded {
				inStruct = t
			}
			f := t.fields[i]
			embedded = f.embedded
			rt, t = rt.Field(i).Type, f.t
		}
		if out.Struct == "" && inStruct != nil && inStruct.named != nil {
			out.Struct = cellRType{rt, inStruct, nil}.Name()
		}
	}
	if nt := typeWithin(rt, t, te.Type); nt != nil {
		out.Type = cellRTypeOf(te.Type, nt)
	}
	return &out
}

// derivedTypeError is err, of decoding into v, with the struct its field
// is in named, as v's reflect type tells it (a generic function's *T,
// a *Pair[int, int]: "Go struct field Pair[int,int].Key", where the
// interpreter's struct has no name).
func (ts *Types) derivedTypeError(err error, v any) error {
	var te *json.UnmarshalTypeError
	rt := reflect.TypeOf(v)
	if !errors.As(err, &te) || te.Struct != "" || te.Field == "" || rt == nil {
		return err
	}
	var in reflect.Type // the struct whose field the path ends at
	embedded := false
	for seg := range strings.SplitSeq(te.Field, ".") {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice || rt.Kind() == reflect.Array || rt.Kind() == reflect.Map {
			rt = rt.Elem()
		}
		i := -1
		if rt.Kind() == reflect.Struct {
			i = jsonFieldIndex(rt, seg)
		}
		if i < 0 {
			return err
		}
		if !embedded {
			in = rt
		}
		embedded = rt.Field(i).Anonymous
		rt = rt.Field(i).Type
	}
	ts.mu.Lock()
	name := ts.deriveLocked(in).str
	ts.mu.Unlock()
	if !strings.HasPrefix(name, "main.") {
		return err
	}
	out := *te
	out.Struct = strings.TrimPrefix(name, "main.")
	return &out
}

// structIn is the struct type rt's elements are (through pointers,
// slices, arrays and maps), with its type; nil if none.
func structIn(rt reflect.Type, t *tinfo) (reflect.Type, *tinfo) {
	for t != nil && rt != nil {
		switch rt.Kind() {
		case reflect.Struct:
			if t.kind != tkStruct || len(t.fields) != structFields(rt) {
				return nil, nil
			}
			return rt, t
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			rt, t = rt.Elem(), t.elem
		default:
			return nil, nil
		}
	}
	return nil, nil
}

// jsonFieldIndex is the index of the field of the struct type rt that json
// names name (its tag's name, else its Go name), or -1.
func jsonFieldIndex(rt reflect.Type, name string) int {
	for i := range rt.NumField() {
		if jsonFieldName(rt.Field(i)) == name {
			return i
		}
	}
	return -1
}

// typeWithin is the type of the value of reflect type want that json
// reached in a value of reflect type rt and type t (rt itself, or an
// element of it), nil if none says more than want.
func typeWithin(rt reflect.Type, t *tinfo, want reflect.Type) *tinfo {
	for t != nil && rt != nil && t.kind != tkDynamic {
		if rt == want {
			if t.str == "" {
				return nil
			}
			return t
		}
		switch rt.Kind() {
		case reflect.Map:
			if kt := typeWithin(rt.Key(), t.key, want); kt != nil {
				return kt
			}
			rt, t = rt.Elem(), t.elem
		case reflect.Pointer, reflect.Slice, reflect.Array:
			rt, t = rt.Elem(), t.elem
		default:
			return nil
		}
	}
	return nil
}
