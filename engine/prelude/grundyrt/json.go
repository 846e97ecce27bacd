package grundyrt

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strconv"
	"sync"
)

// encoding/json for the values of the types cells declare. yaegi v0.16.1
// gives those types no methods native code can see and embeds no field
// (interp/type.go, refType), so native encoding/json ignored their
// MarshalJSON and MarshalText methods and named an embedded struct as a
// field. The compatibility passes hand json.Marshal, MarshalIndent and
// (*Encoder).Encode the value as Typed (its type as the oracle knows it)
// through JSONMarshal, JSONMarshalIndent and JSONEncode; the typed value's
// own MarshalJSON encodes a native copy of the value in which each value
// with a method is a native value calling the method (through the
// session's closures, when json reaches it, as Go calls them), each
// struct a cell declared is a struct with its fields embedded as Go
// embeds them, and each map key with MarshalText is its text.

// MarshalJSON encodes the value as encoding/json would in Go. The
// encoder that called it escapes HTML (or not) and indents the result.
func (a *typedArg) MarshalJSON() ([]byte, error) {
	v, t, _ := a.resolve()
	x, err := a.ts.jsonValue(v, t, false)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// JSONMarshal is json.Marshal of a Typed value.
func JSONMarshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return b, jsonError(err)
}

// JSONMarshalIndent is json.MarshalIndent of a Typed value.
func JSONMarshalIndent(v any, prefix, indent string) ([]byte, error) {
	b, err := json.MarshalIndent(v, prefix, indent)
	return b, jsonError(err)
}

// JSONEncode is enc.Encode of a Typed value.
func JSONEncode(enc *json.Encoder, v any) error {
	return jsonError(enc.Encode(v))
}

// cellJSONError is the error of a cell type's method as Go's encoder
// reports it (a *json.MarshalerError naming the cell's type there).
type cellJSONError struct {
	msg string
	err error
}

func (e *cellJSONError) Error() string { return e.msg }
func (e *cellJSONError) Unwrap() error { return e.err }

// jsonError is the error Go's encoder would report: the cell's, from
// under the errors that name the engine's types.
func jsonError(err error) error {
	var ce *cellJSONError
	if errors.As(err, &ce) {
		return ce
	}
	return err
}

func methodError(method, typ string, err error) error {
	return &cellJSONError{msg: "json: error calling " + method + " for type " + typ + ": " + err.Error(), err: err}
}

// cellMarshaler calls a cell type's MarshalJSON or MarshalText method
// when json encodes it.
type cellMarshaler struct {
	fn, v reflect.Value
	typ   string
}

type cellTextMarshaler cellMarshaler

func (m cellMarshaler) MarshalJSON() ([]byte, error) {
	out := m.fn.Call([]reflect.Value{m.v})
	b, _ := out[0].Interface().([]byte)
	if err, _ := out[1].Interface().(error); err != nil {
		return nil, methodError("MarshalJSON", m.typ, err)
	}
	if !json.Valid(b) {
		var raw json.RawMessage
		err := json.Unmarshal(b, &raw)
		if err == nil {
			err = errors.New("unexpected end of JSON input")
		}
		return nil, methodError("MarshalJSON", m.typ, err)
	}
	return b, nil
}

func (m cellTextMarshaler) MarshalText() ([]byte, error) {
	out := m.fn.Call([]reflect.Value{m.v})
	b, _ := out[0].Interface().([]byte)
	if err, _ := out[1].Interface().(error); err != nil {
		return nil, methodError("MarshalText", m.typ, err)
	}
	return b, nil
}

// jsonMethods are the closures of t's MarshalJSON and MarshalText that
// Go's encoder calls on a value of t, addressable or not.
func jsonMethods(t *tinfo, addressable bool) (marshalJSON, marshalText reflect.Value, ptr bool) {
	ms, ok := t.methodSet()
	if !ok {
		return
	}
	if ms.marshalJSON.IsValid() || ms.marshalText.IsValid() || !addressable || t.named == nil {
		return ms.marshalJSON, ms.marshalText, false
	}
	if tab := t.named.methods.Load(); tab != nil {
		return tab.ptr.marshalJSON, tab.ptr.marshalText, true
	}
	return
}

// jsonValue is v, of type t, as a native value whose encoding is Go's
// encoding of v (addressable: Go's encoder could take v's address, so it
// calls pointer methods).
func (ts *Types) jsonValue(v reflect.Value, t *tinfo, addressable bool) (any, error) {
	v, t, _ = ts.resolve(v, t)
	if !v.IsValid() {
		return nil, nil
	}
	if !ts.jsonNeeds(v.Type(), t, map[*tinfo]bool{}) {
		if !v.CanInterface() {
			return nil, nil
		}
		return v.Interface(), nil
	}
	if mj, mt, ptr := jsonMethods(t, addressable); mj.IsValid() || mt.IsValid() {
		if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
			return nil, nil
		}
		recv := v
		if ptr {
			if !v.CanAddr() {
				cp := reflect.New(v.Type()).Elem()
				cp.Set(v)
				v = cp
			}
			recv = v.Addr()
		}
		fn := mj
		if !fn.IsValid() {
			fn = mt
		}
		if !recv.Type().AssignableTo(fn.Type().In(0)) {
			return nil, errors.New("json: cannot call a method of " + t.str + " (the engine lost its type)")
		}
		m := cellMarshaler{fn: fn, v: recv, typ: t.str}
		if mj.IsValid() {
			return m, nil
		}
		return cellTextMarshaler(m), nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil, nil
		}
		return ts.jsonValue(v.Elem(), elemOf(t), true)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return nil, nil
		}
		out := make([]any, v.Len())
		for i := range out {
			x, err := ts.jsonValue(v.Index(i), elemOf(t), addressable || v.Kind() == reflect.Slice)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case reflect.Map:
		if v.IsNil() {
			return nil, nil
		}
		return ts.jsonMap(v, t)
	case reflect.Struct:
		return ts.jsonStruct(v, t, addressable)
	}
	if !v.CanInterface() {
		return nil, nil
	}
	return v.Interface(), nil
}

func elemOf(t *tinfo) *tinfo {
	if t == nil {
		return nil
	}
	return t.elem
}

// jsonMap is a map as map[string]any with its keys as Go's encoder
// writes them.
func (ts *Types) jsonMap(v reflect.Value, t *tinfo) (any, error) {
	var kt *tinfo
	if t != nil {
		kt = t.key
	}
	out := make(map[string]any, v.Len())
	it := v.MapRange()
	for it.Next() {
		k, kt, _ := ts.resolve(it.Key(), kt)
		var name string
		switch _, mt, _ := jsonMethods(kt, false); {
		case k.Kind() == reflect.String:
			name = k.String()
		case mt.IsValid() && k.Type().AssignableTo(mt.Type().In(0)):
			if k.Kind() == reflect.Pointer && k.IsNil() {
				break
			}
			b, err := cellTextMarshaler{fn: mt, v: k, typ: kt.str}.MarshalText()
			if err != nil {
				return nil, err
			}
			name = string(b)
		case k.CanInt():
			name = strconv.FormatInt(k.Int(), 10)
		case k.CanUint():
			name = strconv.FormatUint(k.Uint(), 10)
		default:
			str := v.Type().String()
			if t != nil && t.str != "" {
				str = t.str
			}
			return nil, errors.New("json: unsupported type: " + str)
		}
		x, err := ts.jsonValue(it.Value(), elemOf(t), false)
		if err != nil {
			return nil, err
		}
		out[name] = x
	}
	return out, nil
}

// jsonStruct is a struct value as a struct of jsonStructType.
func (ts *Types) jsonStruct(v reflect.Value, t *tinfo, addressable bool) (any, error) {
	st := ts.jsonStructType(v.Type(), t)
	out := reflect.New(st.rt).Elem()
	for _, f := range st.fields {
		fv := v.Field(f.from)
		var x any
		switch {
		case f.embedded:
			if fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					continue
				}
				fv = fv.Elem()
			}
			y, err := ts.jsonStruct(fv, f.t, addressable || v.Field(f.from).Kind() == reflect.Pointer)
			if err != nil {
				return nil, err
			}
			x = y
		case f.dynamic:
			if f.omit(fv) {
				continue
			}
			y, err := ts.jsonValue(fv, f.t, addressable)
			if err != nil {
				return nil, err
			}
			if y == nil {
				continue
			}
			x = y
		default:
			out.Field(f.to).Set(fv)
			continue
		}
		dst := out.Field(f.to)
		if dst.Kind() == reflect.Pointer {
			p := reflect.New(dst.Type().Elem())
			p.Elem().Set(reflect.ValueOf(x))
			dst.Set(p)
		} else {
			dst.Set(reflect.ValueOf(x))
		}
	}
	return out.Interface(), nil
}

// jsonStructType is the native struct type standing for a struct type
// cells declared: its exported fields with their tags, a field whose
// values need jsonValue as an any (set unless Go's omitempty or omitzero
// leaves it out), an embedded struct embedded (as its own jsonStructType).
type jsonStructType struct {
	rt     reflect.Type
	fields []jsonField
}

type jsonField struct {
	from, to  int
	t         *tinfo
	st        *jsonStructType // an embedded field's
	embedded  bool            // a struct (or pointer to one) Go embeds
	dynamic   bool            // an any holding jsonValue's value
	omitEmpty bool
	omitZero  bool
}

func (f jsonField) omit(v reflect.Value) bool {
	if f.omitZero && v.IsZero() {
		return true
	}
	if !f.omitEmpty {
		return false
	}
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

type jsonTypeKey struct {
	rt reflect.Type
	t  *tinfo
	in bool
}

var jsonTypes sync.Map // jsonTypeKey → *jsonStructType

func (ts *Types) jsonStructType(rt reflect.Type, t *tinfo) *jsonStructType {
	return ts.jsonStructTypeOf(rt, t, false)
}

// jsonInType is jsonStructType for decoding: a field whose values need
// decode is a json.RawMessage.
func (ts *Types) jsonInType(rt reflect.Type, t *tinfo) *jsonStructType {
	return ts.jsonStructTypeOf(rt, t, true)
}

func (ts *Types) jsonStructTypeOf(rt reflect.Type, t *tinfo, in bool) *jsonStructType {
	key := jsonTypeKey{rt, t, in}
	if st, ok := jsonTypes.Load(key); ok {
		return st.(*jsonStructType)
	}
	st := &jsonStructType{}
	var fields []reflect.StructField
	for i := range rt.NumField() {
		rf := rt.Field(i)
		name, tag := fieldName(rf)
		var ft *tinfo
		embedded := rf.Anonymous
		if t != nil && t.kind == tkStruct && i < len(t.fields) {
			ft = t.fields[i].t
			embedded = embedded || t.fields[i].embedded
		}
		f := jsonField{from: i, t: ft}
		sf := reflect.StructField{Name: rf.Name, Tag: reflect.StructTag(tag), Type: rf.Type}
		base := rf.Type
		if base.Kind() == reflect.Pointer {
			base = base.Elem()
		}
		jsonTag, _ := reflect.StructTag(tag).Lookup("json")
		switch {
		case embedded && base.Kind() == reflect.Struct && jsonTag != "-":
			// Go embeds it, unexported too (its exported fields are
			// promoted).
			et := ts.jsonStructTypeOf(base, derefInfo(ft), in)
			f.embedded, f.st, sf.Anonymous, sf.Type = true, et, true, et.rt
			if rf.Type.Kind() == reflect.Pointer {
				sf.Type = reflect.PointerTo(et.rt)
			}
			if !isExportedName(name) {
				sf.Name = "X" + name
			}
			f.t = derefInfo(ft)
		case !isExportedName(name) || !rf.IsExported():
			continue
		case in && ts.jsonInNeeds(rf.Type, ft, map[*tinfo]bool{}):
			f.dynamic, sf.Type = true, reflect.TypeFor[json.RawMessage]()
		case !in && ts.jsonNeeds(rf.Type, ft, map[*tinfo]bool{}):
			f.dynamic, sf.Type = true, reflect.TypeFor[any]()
			opts := jsonTag
			f.omitEmpty = hasOption(opts, "omitempty")
			f.omitZero = hasOption(opts, "omitzero")
		}
		f.to = len(fields)
		fields = append(fields, sf)
		st.fields = append(st.fields, f)
	}
	st.rt = reflect.StructOf(fields)
	actual, _ := jsonTypes.LoadOrStore(key, st)
	return actual.(*jsonStructType)
}

func derefInfo(t *tinfo) *tinfo {
	if t != nil && t.kind == tkPointer {
		return t.elem
	}
	return t
}

func isExportedName(name string) bool {
	return name != "" && name[0] >= 'A' && name[0] <= 'Z'
}

func hasOption(tag, opt string) bool {
	for i, part := range bytes.Split([]byte(tag), []byte(",")) {
		if i > 0 && string(part) == opt {
			return true
		}
	}
	return false
}

// jsonNeeds reports whether values of rt, of type t, encode differently
// in Go than native json encodes them: they may have methods of a cell
// type, are held in interfaces, or are structs a cell declared with an
// embedded field.
func (ts *Types) jsonNeeds(rt reflect.Type, t *tinfo, seen map[*tinfo]bool) bool {
	if rt.Kind() == reflect.Interface || isBox(rt) || isWrapper(rt) {
		return true
	}
	if t != nil {
		if seen[t] {
			return false
		}
		seen[t] = true
		if mj, mt, _ := jsonMethods(t, true); mj.IsValid() || mt.IsValid() {
			return true
		}
		if t.kind == tkDynamic {
			return true
		}
	} else if !isNativeType(rt) && rt.Kind() == reflect.Struct {
		t = ts.derive(rt)
		if seen[t] {
			return false
		}
		seen[t] = true
	}
	switch rt.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return ts.jsonNeeds(rt.Elem(), elemOf(t), seen)
	case reflect.Map:
		var kt *tinfo
		if t != nil {
			kt = t.key
		}
		return ts.jsonNeeds(rt.Key(), kt, seen) || ts.jsonNeeds(rt.Elem(), elemOf(t), seen)
	case reflect.Struct:
		for i := range rt.NumField() {
			var ft *tinfo
			if t != nil && t.kind == tkStruct && i < len(t.fields) {
				ft = t.fields[i].t
				if t.fields[i].embedded {
					return true
				}
			}
			if rt.Field(i).Anonymous || ts.jsonNeeds(rt.Field(i).Type, ft, seen) {
				return true
			}
		}
	}
	return false
}

// Decoding. json.Unmarshal and (*Decoder).Decode into a pointer to a value
// whose type has a cell type with UnmarshalJSON or UnmarshalText in it, or
// a struct a cell declared with an embedded field, get the pointer as
// Typed (JSONUnmarshal, JSONDecode); json hands the typed value's own
// UnmarshalJSON the whole input, which it decodes as Go does: a value
// with a method calls it, a struct goes through a native struct of
// jsonInType in which such fields are json.RawMessage (decoded after) and
// embedded fields are embedded, slices and maps element by element, and
// what needs nothing goes to native json.

// UnmarshalJSON decodes data into the value the typed pointer points to.
func (a *typedArg) UnmarshalJSON(data []byte) error {
	v, t, _ := a.resolve()
	if !v.IsValid() || v.Kind() != reflect.Pointer || v.IsNil() {
		return &json.InvalidUnmarshalError{Type: reflect.TypeOf(a.v)}
	}
	d := &jsonDecoder{ts: a.ts}
	if err := d.decode(data, v.Elem(), elemOf(t)); err != nil {
		return err
	}
	return d.saved
}

// JSONUnmarshal is json.Unmarshal into a Typed pointer.
func JSONUnmarshal(data []byte, v any) error {
	return jsonError(json.Unmarshal(data, v))
}

// JSONDecode is dec.Decode into a Typed pointer.
func JSONDecode(dec *json.Decoder, v any) error {
	return jsonError(dec.Decode(v))
}

type jsonDecoder struct {
	ts    *Types
	saved error // the first error Go's decoder goes on after
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
	v, t, _ = d.ts.resolveIn(v, t)
	if !d.ts.jsonInNeeds(v.Type(), t, map[*tinfo]bool{}) {
		if err := json.Unmarshal(data, v.Addr().Interface()); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				d.save(err)
				return nil
			}
			return err
		}
		return nil
	}
	isNull := bytes.Equal(data, nullJSON)
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
				d.save(&cellJSONError{msg: "json: cannot unmarshal " + jsonKind(data) + " into Go value of type " + t.str})
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
			return d.typeError(data, err, t)
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
	return json.Unmarshal(data, v.Addr().Interface())
}

// typeError is what Go reports for data that is not of v's kind.
func (d *jsonDecoder) typeError(data []byte, err error, t *tinfo) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return err
	}
	d.save(&cellJSONError{msg: "json: cannot unmarshal " + jsonKind(data) + " into Go value of type " + t.str})
	return nil
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
		return d.typeError(data, err, t)
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
		case key.Kind() == reflect.String:
			key.SetString(k)
		case ut.IsValid() && key.Addr().Type().AssignableTo(ut.Type().In(0)):
			out := ut.Call([]reflect.Value{key.Addr(), reflect.ValueOf([]byte(k))})
			if err, _ := out[0].Interface().(error); err != nil {
				d.save(err)
				continue
			}
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
			return d.typeError(data, errors.New("key"), t)
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
	if err := json.Unmarshal(data, shadow.Addr().Interface()); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return err
		}
		d.save(err)
	}
	return d.copyOut(st, shadow, v)
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

func (d *jsonDecoder) copyOut(st *jsonStructType, shadow, v reflect.Value) error {
	for _, f := range st.fields {
		fv, sv := v.Field(f.from), shadow.Field(f.to)
		switch {
		case f.embedded:
			if sv.Kind() == reflect.Pointer {
				if sv.IsNil() {
					continue
				}
				if fv.IsNil() {
					fv.Set(reflect.New(fv.Type().Elem()))
				}
				fv, sv = fv.Elem(), sv.Elem()
			}
			if err := d.copyOut(f.st, sv, fv); err != nil {
				return err
			}
		case f.dynamic:
			if raw := sv.Bytes(); raw != nil {
				if err := d.decode(raw, fv, f.t); err != nil {
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

// jsonInNeeds reports whether decoding into values of rt, of type t,
// needs more than native json: a cell type's UnmarshalJSON or
// UnmarshalText, or an embedded field.
func (ts *Types) jsonInNeeds(rt reflect.Type, t *tinfo, seen map[*tinfo]bool) bool {
	if t == nil && !isNativeType(rt) && rt.Kind() == reflect.Struct {
		t = ts.derive(rt)
	}
	if t != nil {
		if seen[t] {
			return false
		}
		seen[t] = true
		if uj, ut := unmarshalMethods(t); uj.IsValid() || ut.IsValid() {
			return true
		}
	}
	switch rt.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return ts.jsonInNeeds(rt.Elem(), elemOf(t), seen)
	case reflect.Map:
		var kt *tinfo
		if t != nil {
			kt = t.key
		}
		return ts.jsonInNeeds(rt.Key(), kt, seen) || ts.jsonInNeeds(rt.Elem(), elemOf(t), seen)
	case reflect.Struct:
		for i := range rt.NumField() {
			var ft *tinfo
			if t != nil && t.kind == tkStruct && i < len(t.fields) {
				ft = t.fields[i].t
				if t.fields[i].embedded {
					return true
				}
			}
			if rt.Field(i).Anonymous || ts.jsonInNeeds(rt.Field(i).Type, ft, seen) {
				return true
			}
		}
	}
	return false
}
