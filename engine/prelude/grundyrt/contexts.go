package grundyrt

import (
	"context"
	"fmt"
	"reflect"
	"strings"
)

// contextName is what context's String says of c, with the keys and
// values of its WithValue layers named as Go names them. context names
// one by its String method or by its reflect type (stringify, in
// context.go), and the interpreter gives a cell's value neither: a key of
// type k string came out as interp.valueInterface (its box), a cell struct
// as the interpreter's struct type, a value with a String method as its
// box too. The other layers (WithCancel, WithDeadline, ...) say what
// context says of them after their parent's name.
func (ts *Types) contextName(c context.Context) string {
	own := nativeContextName(c)
	sv, ok := contextStruct(reflect.ValueOf(c))
	if !ok {
		return own
	}
	parent, ok := contextParent(sv)
	if !ok {
		return own
	}
	if sv.Type().Name() == "valueCtx" {
		key, kok := sv.Type().FieldByName("key")
		val, vok := sv.Type().FieldByName("val")
		if kok && vok {
			return ts.contextName(parent) + ".WithValue(" +
				ts.stringify(valueOf(readable(sv.FieldByIndex(key.Index)))) + ", " +
				ts.stringify(valueOf(readable(sv.FieldByIndex(val.Index)))) + ")"
		}
	}
	if rest, ok := strings.CutPrefix(own, nativeContextName(parent)); ok {
		return ts.contextName(parent) + rest
	}
	return own
}

// contextStruct is the struct of package context that rv is or points
// to.
func contextStruct(rv reflect.Value) (reflect.Value, bool) {
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct || rv.Type().PkgPath() != "context" {
		return rv, false
	}
	if !rv.CanAddr() {
		// (WithoutCancel's is a struct value: its fields are read in place)
		cp := reflect.New(rv.Type()).Elem()
		cp.Set(rv)
		rv = cp
	}
	return rv, true
}

// nativeContextName is context's contextName: c's String, or its type.
func nativeContextName(c context.Context) string {
	if s, ok := c.(fmt.Stringer); ok {
		return s.String()
	}
	return reflect.TypeOf(c).String()
}

// contextParent is the context a context of package context was made
// from: its embedded Context (promoted from an embedded cancelCtx), or
// its field c (WithoutCancel's).
func contextParent(v reflect.Value) (context.Context, bool) {
	f := v.FieldByName("Context")
	if !f.IsValid() {
		f = v.FieldByName("c")
	}
	if !f.IsValid() || f.Kind() != reflect.Interface || f.IsNil() {
		return nil, false
	}
	p, ok := valueOf(readable(f)).(context.Context)
	return p, ok
}

// stringify is context's stringify of v, a key or value of a WithValue
// layer: its String, itself if a string, else its type's name, here the
// one Go gives a cell's type.
func (ts *Types) stringify(v any) string {
	if v == nil {
		return "<nil>"
	}
	rv, t, w := ts.resolve(reflect.ValueOf(v), &tinfo{kind: tkDynamic})
	if !rv.IsValid() || t == nil {
		return reflect.TypeOf(v).String()
	}
	if m, _ := methodsOf(ts, rv, t, w); m.string != nil {
		return m.string()
	}
	if t.str == "string" {
		return rv.String()
	}
	return t.str
}
