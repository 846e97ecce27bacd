package grundyrt

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
)

// SlogValue is a value of a cell type as log/slog's handlers must see it
// (compat's slogValue): typed is the value Typed for the printer, text
// and errText its MarshalText and Error methods (nil where it has none),
// ownJSON whether it has MarshalJSON. The text handler asks for
// encoding.TextMarshaler, then prints with %+v; the JSON handler writes
// Error's text unless the value is a json.Marshaler, else json.Marshal's.
func SlogValue(typed any, text func() ([]byte, error), errText func() string, ownJSON bool) any {
	v := slogValue{typed: typed, errText: errText, ownJSON: ownJSON}
	if text != nil {
		return slogTextValue{v, text}
	}
	return v
}

type slogValue struct {
	typed   any
	errText func() string
	ownJSON bool
}

// Format prints the value as fmt prints the cell's (String, Error, its
// fields).
func (v slogValue) Format(st fmt.State, verb rune) {
	io.WriteString(st, Sprintf(fmt.FormatString(st, verb), v.typed))
}

// MarshalJSON is what slog's JSON handler writes of the cell's value.
func (v slogValue) MarshalJSON() ([]byte, error) {
	if v.errText != nil && !v.ownJSON {
		return json.Marshal(v.errText())
	}
	return JSONMarshal(v.typed)
}

type slogTextValue struct {
	slogValue
	text func() ([]byte, error)
}

// MarshalText is the cell's.
func (v slogTextValue) MarshalText() ([]byte, error) { return v.text() }

// SlogDynamic is v, a value a cell hands log/slog through an interface
// (var v any = p; slog.Any("k", v)), whose type the passes do not know:
// a value of a cell's struct type with a method the handlers would call
// (String, Error, Format, MarshalText, MarshalJSON), which they would not
// see (they printed its fields), stops the cell, saying to pass the
// value with its own type (compat's slogValue hands such a value over).
func (ts *Types) SlogDynamic(v any) any {
	rt := reflect.TypeOf(v)
	if rt == nil {
		return v
	}
	ptr := rt.Kind() == reflect.Pointer
	if ptr {
		rt = rt.Elem()
	}
	if name := structName(rt); name != "" && (ts.printsByMethod(name, ptr) || ts.marshals(name, ptr)) {
		panic("log/slog: a value of " + name + " passed in an interface (an any), whose String, Error, Format, MarshalText or MarshalJSON method log/slog's handlers do not see there in this engine; pass it with its own type (slog.Any(\"k\", p) with p a " + name + ")")
	}
	return v
}
