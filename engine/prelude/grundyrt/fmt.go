package grundyrt

import (
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
)

// FmtAs is v formatted as fmt formats a value whose Error or String method
// returned s: s for the verbs that call the method, v for the others.
func FmtAs(v any, s string) any { return fmtAs{raw: Unwrap(v), s: s} }

type fmtAs struct {
	raw any
	s   string
}

func (f fmtAs) Format(st fmt.State, verb rune) {
	switch {
	case verb == 'v' && st.Flag('#'), !strings.ContainsRune("vsqxX", verb):
		fmt.Fprintf(st, fmt.FormatString(st, verb), f.raw)
	default:
		fmt.Fprintf(st, fmt.FormatString(st, verb), f.s)
	}
}

// FmtStruct is a cell struct as fmt would format it, with its fields'
// values (some of them FmtAs) formatted by the same verb.
func FmtStruct(raw any, names []string, vals []any) any {
	return fmtStruct{raw: Unwrap(raw), names: names, vals: vals}
}

type fmtStruct struct {
	raw   any
	names []string
	vals  []any
}

func (f fmtStruct) Format(st fmt.State, verb rune) {
	if verb == 'v' && st.Flag('#') || verb == 'T' || verb == 'p' {
		fmt.Fprintf(st, fmt.FormatString(st, verb), f.raw)
		return
	}
	format := fmt.FormatString(st, verb)
	io.WriteString(st, "{")
	for i, v := range f.vals {
		if i > 0 {
			io.WriteString(st, " ")
		}
		if verb == 'v' && st.Flag('+') {
			io.WriteString(st, f.names[i]+":")
		}
		fmt.Fprintf(st, format, v)
	}
	io.WriteString(st, "}")
}

// fmtMap prints a map of cell-defined Stringers as fmt would: keys in
// fmt's order (by the keys' values), each key and value by its String
// method (the interpreted hook computed the texts).
type fmtMap struct{ keys, vals []string }

// FmtMap is a map printer for the keys and the texts of keys and values.
func FmtMap(keys []any, keyText, valText []string) any {
	idx := make([]int, len(keys))
	vals := make([]reflect.Value, len(keys))
	for i := range idx {
		idx[i] = i
		vals[i] = reflect.ValueOf(Unwrap(keys[i]))
	}
	sort.SliceStable(idx, func(a, b int) bool {
		return compareKeys(vals[idx[a]], vals[idx[b]], keyText[idx[a]], keyText[idx[b]]) < 0
	})
	m := fmtMap{}
	for _, i := range idx {
		m.keys = append(m.keys, keyText[i])
		m.vals = append(m.vals, valText[i])
	}
	return m
}

func (m fmtMap) String() string {
	var b strings.Builder
	b.WriteString("map[")
	for i := range m.keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(m.keys[i] + ":" + m.vals[i])
	}
	b.WriteString("]")
	return b.String()
}

func (m fmtMap) Format(f fmt.State, verb rune) { io.WriteString(f, m.String()) }

// FmtMapText is the text of a map printer (ok false for any other value).
func FmtMapText(v any) (string, bool) {
	m, ok := v.(fmtMap)
	if !ok {
		return "", false
	}
	return m.String(), true
}

// compareKeys orders map keys as fmt does (numbers, strings, bools,
// structs and arrays field by field), falling back on their texts.
func compareKeys(a, b reflect.Value, at, bt string) int {
	if !a.IsValid() || !b.IsValid() || a.Kind() != b.Kind() {
		return strings.Compare(at, bt)
	}
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmpOrdered(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmpOrdered(a.Uint(), b.Uint())
	case reflect.Float32, reflect.Float64:
		return cmpOrdered(a.Float(), b.Float())
	case reflect.String:
		return strings.Compare(a.String(), b.String())
	case reflect.Bool:
		switch {
		case a.Bool() == b.Bool():
			return 0
		case !a.Bool():
			return -1
		}
		return 1
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if c := compareKeys(a.Field(i), b.Field(i), at, bt); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if c := compareKeys(a.Index(i), b.Index(i), at, bt); c != 0 {
				return c
			}
		}
		return 0
	}
	return strings.Compare(at, bt)
}

func cmpOrdered[T int64 | uint64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
