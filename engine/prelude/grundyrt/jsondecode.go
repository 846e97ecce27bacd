package grundyrt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Decoding. json.Unmarshal and (*Decoder).Decode into a pointer to a value
// whose type has a cell type with UnmarshalJSON or UnmarshalText in it, or
// a struct a cell declared with an embedded field, get the pointer as
// Typed (JSONUnmarshal, JSONDecode); json hands the typed value's own
// UnmarshalJSON the whole input, which it decodes as Go does: a value
// with a method calls it, a struct goes through a native struct of
// jsonInType in which such fields are json.RawMessage (decoded after) and
// embedded fields are embedded, slices and maps element by element, an
// empty interface holding the interpreter's box of a pointer into what
// the pointer points to (boxedPointer), and what needs nothing goes to
// native json.

// UnmarshalJSON decodes data into the value the typed pointer points to.
func (a *typedArg) UnmarshalJSON(data []byte) error {
	return decodeInto{a: a}.UnmarshalJSON(data)
}

// decodeInto is a typed pointer to decode into with a decoder's options,
// which json does not pass on to an Unmarshaler.
type decodeInto struct {
	a    *typedArg
	opts decodeOpts
}

type decodeOpts struct{ disallowUnknownFields, useNumber bool }

func (x decodeInto) UnmarshalJSON(data []byte) error {
	v, t, _ := x.a.resolve()
	if !v.IsValid() || v.Kind() != reflect.Pointer || v.IsNil() {
		if !v.IsValid() {
			return &json.InvalidUnmarshalError{}
		}
		return &json.InvalidUnmarshalError{Type: cellRTypeOf(v.Type(), t)}
	}
	d := &jsonDecoder{ts: x.a.ts, opts: x.opts}
	if err := d.decode(data, v.Elem(), elemOf(t)); err != nil {
		return err
	}
	return d.saved
}

// optsOf reads dec's options (json has no getters for them).
func optsOf(dec *json.Decoder) decodeOpts {
	var o decodeOpts
	ds := reflect.ValueOf(dec).Elem().FieldByName("d")
	if ds.Kind() != reflect.Struct {
		return o
	}
	if f := ds.FieldByName("disallowUnknownFields"); f.Kind() == reflect.Bool {
		o.disallowUnknownFields = f.Bool()
	}
	if f := ds.FieldByName("useNumber"); f.Kind() == reflect.Bool {
		o.useNumber = f.Bool()
	}
	return o
}

// JSONUnmarshal is json.Unmarshal into a Typed pointer, or into v of a
// type the cell's code does not say (a generic function's *T).
func (ts *Types) JSONUnmarshal(data []byte, v any) error {
	if p, rt, t, ok := nativeIn(v); ok {
		return namedTypeError(json.Unmarshal(data, p), rt, t)
	}
	return ts.derivedTypeError(jsonError(json.Unmarshal(data, v)), v)
}

// JSONDecode is dec.Decode into a Typed pointer, or as JSONUnmarshal.
func (ts *Types) JSONDecode(dec *json.Decoder, v any) error {
	if p, rt, t, ok := nativeIn(v); ok {
		return namedTypeError(dec.Decode(p), rt, t)
	}
	if _, ok := v.(*typedArg); !ok {
		return ts.derivedTypeError(jsonError(dec.Decode(v)), v)
	}
	if a, ok := v.(*typedArg); ok {
		return jsonError(dec.Decode(&decodeInto{a, optsOf(dec)}))
	}
	return jsonError(dec.Decode(v))
}

// nativeIn is the pointer a Typed pointer v holds, with the reflect type
// and type of what it points to, when native json decodes into that as Go
// does (only the names in its errors need the type): then the decoder's
// own options (DisallowUnknownFields, UseNumber) apply.
func nativeIn(v any) (p any, rt reflect.Type, t *tinfo, ok bool) {
	a, isTyped := v.(*typedArg)
	if !isTyped {
		return nil, nil, nil, false
	}
	pv, pt, _ := a.resolve()
	if !pv.IsValid() || pv.Kind() != reflect.Pointer || pv.IsNil() {
		return nil, nil, nil, false
	}
	et := elemOf(pt)
	if !a.ts.decodesNatively(pv.Elem(), et) {
		return nil, nil, nil, false
	}
	return pv.Interface(), pv.Type().Elem(), et, true
}

type jsonDecoder struct {
	ts    *Types
	saved error // the first error Go's decoder goes on after
	opts  decodeOpts
}

// unmarshal is json.Unmarshal of data into p with the decoder's options.
func (d *jsonDecoder) unmarshal(data []byte, p any) error {
	if d.opts == (decodeOpts{}) {
		return json.Unmarshal(data, p)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if d.opts.disallowUnknownFields {
		dec.DisallowUnknownFields()
	}
	if d.opts.useNumber {
		dec.UseNumber()
	}
	return dec.Decode(p)
}

func (d *jsonDecoder) save(err error) {
	if d.saved == nil && err != nil {
		d.saved = err
	}
}

var nullJSON = []byte("null")

// decode decodes data into the addressable v of type t.
func (d *jsonDecoder) decode(data []byte, v reflect.Value, t *tinfo) error {
	data = bytes.TrimSpace(data)
	if cellInterface(v, t) {
		return d.decodeInterface(data, v, t)
	}
	isNull := bytes.Equal(data, nullJSON)
	if in := boxedPointer(v); in.IsValid() && (!isNull || in.Elem().Kind() == reflect.Pointer) {
		// (Go decodes into a non-nil pointer an interface holds, and
		// null into it when it points to a pointer.)
		return d.decode(data, in.Elem(), d.ts.derive(in.Type()).elem)
	}
	v, t, _ = d.ts.resolveIn(v, t)
	if d.ts.decodesNatively(v, t) {
		if err := d.unmarshal(data, v.Addr().Interface()); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				d.save(namedTypeError(err, v.Type(), t))
				return nil
			}
			return err
		}
		return nil
	}
	if v.Kind() == reflect.Pointer {
		if isNull {
			v.SetZero()
			return nil
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return d.decode(data, v.Elem(), elemOf(t))
	}
	if uj, ut := unmarshalMethods(t); uj.IsValid() || ut.IsValid() {
		recv := v.Addr()
		switch {
		case uj.IsValid() && recv.Type().AssignableTo(uj.Type().In(0)):
			out := uj.Call([]reflect.Value{recv, reflect.ValueOf(append([]byte(nil), data...))})
			if err, _ := out[0].Interface().(error); err != nil {
				return err
			}
			return nil
		case ut.IsValid() && recv.Type().AssignableTo(ut.Type().In(0)):
			if isNull {
				return nil
			}
			var s string
			if err := json.Unmarshal(data, &s); err != nil {
				d.save(kindError(data, v, t))
				return nil
			}
			out := ut.Call([]reflect.Value{recv, reflect.ValueOf([]byte(s))})
			if err, _ := out[0].Interface().(error); err != nil {
				d.save(err)
			}
			return nil
		}
	}
	if isNull {
		switch v.Kind() {
		case reflect.Map, reflect.Slice, reflect.Interface:
			v.SetZero()
		}
		return nil
	}
	switch v.Kind() {
	case reflect.Struct:
		return d.decodeStruct(data, v, t)
	case reflect.Slice, reflect.Array:
		var raws []json.RawMessage
		if err := json.Unmarshal(data, &raws); err != nil {
			return d.typeError(data, err, v, t)
		}
		i := 0
		for ; i < len(raws); i++ {
			if v.Kind() == reflect.Slice {
				if i >= v.Cap() {
					v.Grow(1)
				}
				if i >= v.Len() {
					v.SetLen(i + 1)
				}
			}
			if i < v.Len() {
				if err := d.decode(raws[i], v.Index(i), elemOf(t)); err != nil {
					return err
				}
			}
		}
		if i < v.Len() {
			if v.Kind() == reflect.Array {
				for ; i < v.Len(); i++ {
					v.Index(i).SetZero()
				}
			} else {
				v.SetLen(i)
			}
		}
		if len(raws) == 0 && v.Kind() == reflect.Slice {
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		}
		return nil
	case reflect.Map:
		return d.decodeMap(data, v, t)
	}
	return namedTypeError(d.unmarshal(data, v.Addr().Interface()), v.Type(), t)
}

// cellInterface reports whether v, of type t, is of an interface type
// with methods that a cell declared (the interpreter keeps its values in
// a box, a struct that native json would fill field by field).
func cellInterface(v reflect.Value, t *tinfo) bool {
	return t != nil && t.kind == tkDynamic && t.str != "interface {}" && t.str != "any" && isBox(v.Type())
}

// decodeInterface decodes into v, of a cell's interface type with
// methods, as Go does: null makes it nil; a non-nil pointer in it is
// decoded into; anything else is a type error (json cannot choose a
// type that has the methods).
func (d *jsonDecoder) decodeInterface(data []byte, v reflect.Value, t *tinfo) error {
	if bytes.Equal(data, nullJSON) {
		v.SetZero()
		return nil
	}
	if in, _, ok := unbox(v); ok && in.Kind() == reflect.Pointer && !in.IsNil() {
		return d.decode(data, in.Elem(), d.ts.derive(in.Type()).elem)
	}
	d.save(&json.UnmarshalTypeError{Value: jsonKind(data), Type: cellRType{v.Type(), t, nil}})
	return nil
}

// typeError is what Go reports for data that is not of v's kind.
func (d *jsonDecoder) typeError(data []byte, err error, v reflect.Value, t *tinfo) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return err
	}
	d.save(kindError(data, v, t))
	return nil
}

// kindError is Go's error for data that cannot go into v, of type t: an
// UnmarshalTypeError, which the struct holding v gives its place
// (placeErrors).
func kindError(data []byte, v reflect.Value, t *tinfo) error {
	return &json.UnmarshalTypeError{Value: jsonKind(data), Type: cellRTypeOf(v.Type(), t)}
}

// jsonKind names the JSON value data starts with, as Go's errors do.
func jsonKind(data []byte) string {
	if len(data) == 0 {
		return "value"
	}
	switch data[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

func (d *jsonDecoder) decodeMap(data []byte, v reflect.Value, t *tinfo) error {
	var raws map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raws); err != nil {
		return d.typeError(data, err, v, t)
	}
	if v.IsNil() {
		v.Set(reflect.MakeMap(v.Type()))
	}
	var kt *tinfo
	if t != nil {
		kt = t.key
	}
	keys := make([]string, 0, len(raws))
	for k := range raws {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		key := reflect.New(v.Type().Key()).Elem()
		_, ut := unmarshalMethods(kt)
		switch {
		case ut.IsValid() && key.Addr().Type().AssignableTo(ut.Type().In(0)):
			// (Before a string's kind, as Go's decoder asks: a type K
			// string with UnmarshalText decodes its keys through it.)
			out := ut.Call([]reflect.Value{key.Addr(), reflect.ValueOf([]byte(k))})
			if err, _ := out[0].Interface().(error); err != nil {
				d.save(err)
				continue
			}
		case key.Kind() == reflect.String:
			key.SetString(k)
		case key.CanInt():
			n, err := strconv.ParseInt(k, 10, 64)
			if err != nil || key.OverflowInt(n) {
				d.save(&cellJSONError{msg: "json: cannot unmarshal number " + k + " into Go value of type " + key.Type().String()})
				continue
			}
			key.SetInt(n)
		case key.CanUint():
			n, err := strconv.ParseUint(k, 10, 64)
			if err != nil || key.OverflowUint(n) {
				d.save(&cellJSONError{msg: "json: cannot unmarshal number " + k + " into Go value of type " + key.Type().String()})
				continue
			}
			key.SetUint(n)
		default:
			return d.typeError(data, errors.New("key"), v, t)
		}
		elem := reflect.New(v.Type().Elem()).Elem()
		if err := d.decode(raws[k], elem, elemOf(t)); err != nil {
			return err
		}
		v.SetMapIndex(key, elem)
	}
	return nil
}

// decodeStruct decodes an object into a struct through a native struct of
// jsonInType, which native json fills by Go's rules for names (tags, case,
// embedding).
func (d *jsonDecoder) decodeStruct(data []byte, v reflect.Value, t *tinfo) error {
	st := d.ts.jsonInType(v.Type(), t)
	shadow := reflect.New(st.rt).Elem()
	st.copyIn(shadow, v)
	if err := d.unmarshal(data, shadow.Addr().Interface()); err != nil {
		var te *json.UnmarshalTypeError
		// Go's decoder goes on after an unknown field, as after a type
		// error (its error has no type of its own).
		if !errors.As(err, &te) && !strings.HasPrefix(err.Error(), "json: unknown field ") {
			return err
		}
		if te != nil && te.Type == st.rt {
			// Not an object: the error names the struct, not its shadow.
			out := *te
			out.Type = cellRTypeOf(v.Type(), t)
			err = &out
		}
		d.save(namedTypeError(err, v.Type(), t))
	}
	var name string // the struct's name, as json's errors give it
	if t != nil && t.named != nil {
		name = cellRType{v.Type(), t, nil}.Name()
	}
	return d.copyOut(st, shadow, v, name)
}

// copyIn sets the shadow's native fields to v's, so that what the input
// leaves out keeps its value.
func (st *jsonStructType) copyIn(shadow, v reflect.Value) {
	for _, f := range st.fields {
		fv, sv := v.Field(f.from), shadow.Field(f.to)
		switch {
		case f.embedded:
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue
				}
				sv.Set(reflect.New(f.st.rt))
				f.st.copyIn(sv.Elem(), fv.Elem())
				continue
			}
			f.st.copyIn(sv, fv)
		case !f.dynamic:
			sv.Set(fv)
		}
	}
}

// copyOut sets v's fields from the shadow's, decoding its dynamic ones;
// a type error there gets the field's place, as Go's decoder gives it (the
// struct's name, the path of field names from it).
func (d *jsonDecoder) copyOut(st *jsonStructType, shadow, v reflect.Value, name string) error {
	for _, f := range st.fields {
		fv, sv := v.Field(f.from), shadow.Field(f.to)
		switch {
		case f.embedded:
			if sv.Kind() == reflect.Pointer {
				if sv.IsNil() {
					continue
				}
				if fv.IsNil() {
					if f.hidden {
						// Go's decoder cannot set it (the field is
						// unexported): it says so, and goes on.
						name := fv.Type().Elem().String()
						if f.t != nil {
							name = f.t.str
						}
						d.save(fmt.Errorf("json: cannot set embedded pointer to unexported struct: %s", name))
						continue
					}
					fv.Set(reflect.New(fv.Type().Elem()))
				}
				fv, sv = fv.Elem(), sv.Elem()
			}
			saved := d.saved
			err := d.copyOut(f.st, sv, fv, name)
			d.placeErrors(saved, &err, name, v.Type().Field(f.from).Name)
			if err != nil {
				return err
			}
		case f.dynamic:
			if raw := sv.Bytes(); raw != nil {
				saved := d.saved
				err := d.decode(raw, fv, f.t)
				d.placeErrors(saved, &err, name, jsonFieldName(st.rt.Field(f.to)))
				if err != nil {
					return err
				}
			}
		default:
			fv.Set(sv)
		}
	}
	return nil
}

// unmarshalMethods are the closures of the UnmarshalJSON and UnmarshalText
// methods of *T, for a value of type t = T.
func unmarshalMethods(t *tinfo) (unmarshalJSON, unmarshalText reflect.Value) {
	if t == nil || t.named == nil {
		return
	}
	if tab := t.named.methods.Load(); tab != nil {
		return tab.ptr.unmarshalJSON, tab.ptr.unmarshalText
	}
	return
}

// resolveIn is v's type as the oracle knows it: an addressable value is
// decoded into as the type it has, not through an interface.
func (ts *Types) resolveIn(v reflect.Value, t *tinfo) (reflect.Value, *tinfo, reflect.Value) {
	if t == nil || t.kind == tkDynamic {
		return v, ts.derive(v.Type()), reflect.Value{}
	}
	return v, t, reflect.Value{}
}

// decodesNatively reports whether native json decodes into v, of type t,
// as Go does: its type needs nothing more (jsonInNeeds), and no empty
// interface in it holds the interpreter's box of a pointer
// (boxedPointerIn).
func (ts *Types) decodesNatively(v reflect.Value, t *tinfo) bool {
	return !ts.jsonInNeeds(v.Type(), t, map[*tinfo]bool{}) && !boxedPointerIn(v, map[uintptr]bool{})
}

// boxedPointer is the non-nil pointer in the interpreter's box that v, an
// empty interface, holds (var v any = &Rect{} with Rect's pointer
// methods), or the zero Value. Native json sees a struct there and
// replaces it with a map; Go decodes into the pointer.
func boxedPointer(v reflect.Value) reflect.Value {
	if v.Kind() != reflect.Interface || v.IsNil() || v.NumMethod() > 0 || !v.CanInterface() {
		return reflect.Value{}
	}
	e := v.Elem()
	if !isBox(e.Type()) {
		return reflect.Value{}
	}
	if in, _, ok := unbox(e); ok && in.Kind() == reflect.Pointer && !in.IsNil() {
		return in
	}
	return reflect.Value{}
}

// boxedPointerIn reports whether v has an empty interface holding
// boxedPointer where json decodes into what is there: v itself, what a
// pointer points to, exported fields, a slice's or an array's elements (a
// map's are made anew).
func boxedPointerIn(v reflect.Value, seen map[uintptr]bool) bool {
	if !reusesIface(v.Type()) {
		return false
	}
	switch v.Kind() {
	case reflect.Interface:
		if boxedPointer(v).IsValid() {
			return true
		}
		return !v.IsNil() && v.CanInterface() && v.Elem().Kind() == reflect.Pointer && boxedPointerIn(v.Elem(), seen)
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return false
		}
		seen[v.Pointer()] = true
		return boxedPointerIn(v.Elem(), seen)
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); (f.IsExported() || f.Anonymous) && boxedPointerIn(v.Field(i), seen) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if boxedPointerIn(v.Index(i), seen) {
				return true
			}
		}
	}
	return false
}

// reusesIface reports whether values of rt may have an interface where
// json decodes into what is there (see boxedPointerIn), once for each
// type: boxedPointerIn asks it of every element it walks.
func reusesIface(rt reflect.Type) bool {
	if r, ok := reusesIfaces.Load(rt); ok {
		return r.(bool)
	}
	r := reusesIfaceIn(rt, map[reflect.Type]bool{})
	reusesIfaces.Store(rt, r)
	return r
}

var reusesIfaces sync.Map // reflect.Type -> bool

func reusesIfaceIn(rt reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[rt] {
		return false
	}
	seen[rt] = true
	switch rt.Kind() {
	case reflect.Interface:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return reusesIfaceIn(rt.Elem(), seen)
	case reflect.Struct:
		for i := range rt.NumField() {
			if reusesIfaceIn(rt.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// jsonInNeeds reports whether decoding into values of rt, of type t,
// needs more than native json: a cell type's UnmarshalJSON or
// UnmarshalText, or an embedded field.
func (ts *Types) jsonInNeeds(rt reflect.Type, t *tinfo, seen map[*tinfo]bool) bool {
	if isBox(rt) {
		return true // a cell's interface: see decodeInterface
	}
	return ts.jsonWalk(rt, t, seen, func(t *tinfo) bool {
		uj, ut := unmarshalMethods(t)
		return uj.IsValid() || ut.IsValid()
	}, ts.jsonInNeeds)
}

// placeErrors gives a type error decoding the field field of the struct
// named name (returned in *err, or saved since saved) its place.
func (d *jsonDecoder) placeErrors(saved error, err *error, name, field string) {
	if d.saved != saved {
		d.saved = placedTypeError(d.saved, name, field)
	}
	if *err != nil {
		*err = placedTypeError(*err, name, field)
	}
}

func placedTypeError(err error, name, field string) error {
	te, ok := err.(*json.UnmarshalTypeError)
	if !ok {
		return err
	}
	out := *te
	if out.Struct == "" {
		out.Struct = name
	}
	if out.Field == "" {
		out.Field = field
	} else {
		out.Field = field + "." + out.Field
	}
	return &out
}

// jsonFieldName is the name json gives the struct field f.
func jsonFieldName(f reflect.StructField) string {
	if key, _, _ := strings.Cut(f.Tag.Get("json"), ","); key != "" && key != "-" {
		return key
	}
	return f.Name
}
