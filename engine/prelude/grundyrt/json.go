package grundyrt

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unsafe"
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
	x, err := a.ts.jsonValue(v, t, false, &jsonCycles{})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil {
		var ue *json.UnsupportedTypeError
		if errors.As(err, &ue) && v.IsValid() && ue.Type == v.Type() {
			// Named as the cell's type (a Table with array keys, held in
			// an any: the encoder saw map[[2]int]int).
			return nil, &json.UnsupportedTypeError{Type: a.ts.rtypeOf(v.Type(), t)}
		}
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
	rt  reflect.Type // the interpreter's type of the value
}

func (e *cellJSONError) Error() string { return e.msg }
func (e *cellJSONError) Unwrap() error { return e.err }

// As makes errors.As(err, &me), me a *json.MarshalerError, hold, as in Go,
// its Type named as the cell's type.
func (e *cellJSONError) As(target any) bool {
	p, ok := target.(**json.MarshalerError)
	if ok {
		*p = &json.MarshalerError{Type: e.rt, Err: e.err}
	}
	return ok
}

// jsonError is the error Go's encoder would report: the cell's, from
// under the errors that name the engine's types.
func jsonError(err error) error {
	var ce *cellJSONError
	if errors.As(err, &ce) {
		return ce
	}
	// The encoder calls a Typed value's MarshalJSON, and says so in the
	// errors of what it encodes, which Go's encoder reports bare.
	var me *json.MarshalerError
	if errors.As(err, &me) && me.Type == reflect.TypeFor[*typedArg]() {
		return me.Err
	}
	var ue *json.UnsupportedValueError
	if errors.As(err, &ue) {
		if str := renameCellStructs(ue.Str); str != ue.Str {
			return &json.UnsupportedValueError{Value: ue.Value, Str: str}
		}
	}
	return err
}

func methodError(method, typ string, rt reflect.Type, err error) error {
	return &cellJSONError{msg: "json: error calling " + method + " for type " + typ + ": " + err.Error(), err: err, rt: rt}
}

// cellMarshaler calls a cell type's MarshalJSON or MarshalText method
// when json encodes it.
type cellMarshaler struct {
	fn, v reflect.Value
	typ   string
	rt    reflect.Type // the value's type, named as the cell's (a MarshalerError's Type)
}

type cellTextMarshaler cellMarshaler

func (m cellMarshaler) MarshalJSON() ([]byte, error) {
	out := m.fn.Call([]reflect.Value{m.v})
	b, _ := out[0].Interface().([]byte)
	if err, _ := out[1].Interface().(error); err != nil {
		return nil, methodError("MarshalJSON", m.typ, m.rt, err)
	}
	if !json.Valid(b) {
		var raw json.RawMessage
		err := json.Unmarshal(b, &raw)
		if err == nil {
			err = errors.New("unexpected end of JSON input")
		}
		return nil, methodError("MarshalJSON", m.typ, m.rt, err)
	}
	return b, nil
}

func (m cellTextMarshaler) MarshalText() ([]byte, error) {
	out := m.fn.Call([]reflect.Value{m.v})
	b, _ := out[0].Interface().([]byte)
	if err, _ := out[1].Interface().(error); err != nil {
		return nil, methodError("MarshalText", m.typ, m.rt, err)
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

// isZeroMethod is the closure of the IsZero method of t, else of its
// pointer (which Go's omitzero calls too).
func isZeroMethod(t *tinfo) reflect.Value {
	ms, ok := t.methodSet()
	if !ok {
		return reflect.Value{}
	}
	if ms.isZero.IsValid() || t.named == nil {
		return ms.isZero
	}
	if tab := t.named.methods.Load(); tab != nil {
		return tab.ptr.isZero
	}
	return reflect.Value{}
}

// jsonValue is v, of type t, as a native value whose encoding is Go's
// encoding of v (addressable: Go's encoder could take v's address, so it
// calls pointer methods).
func (ts *Types) jsonValue(v reflect.Value, t *tinfo, addressable bool, cy *jsonCycles) (any, error) {
	if v.IsValid() && (v.Kind() == reflect.Interface || isBox(v.Type()) || isWrapper(v.Type())) {
		addressable = false // a value in an interface ([]any{PMove{2, 3}}) has no address
	}
	v, t, _ = ts.resolve(v, t)
	if !v.IsValid() {
		return nil, nil
	}
	if t != nil && t.namedFunc() {
		// (A function type that refers to itself is a struct to the
		// interpreter: compat's selfFuncs.)
		return nil, &json.UnsupportedTypeError{Type: ts.rtypeOf(v.Type(), t)}
	}
	if nativeMarshaler(v.Type()) && v.CanInterface() {
		// A library value with its own MarshalJSON or MarshalText (a
		// *solve.Certificate in a field of a cell's interface type):
		// json calls it, as Go's encoder does, rather than the walk
		// below encoding its fields.
		return v.Interface(), nil
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
		m := cellMarshaler{fn: fn, v: recv, typ: t.str, rt: ts.rtypeOf(v.Type(), t)}
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
		leave, err := cy.enter(ts, v, t)
		if err != nil {
			return nil, err
		}
		defer leave()
		return ts.jsonValue(v.Elem(), elemOf(t), true, cy)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return nil, nil
		}
		if v.Kind() == reflect.Slice {
			leave, err := cy.enter(ts, v, t)
			if err != nil {
				return nil, err
			}
			defer leave()
		}
		out := make([]any, v.Len())
		for i := range out {
			x, err := ts.jsonValue(v.Index(i), elemOf(t), addressable || v.Kind() == reflect.Slice, cy)
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
		leave, err := cy.enter(ts, v, t)
		if err != nil {
			return nil, err
		}
		defer leave()
		return ts.jsonMap(v, t, cy)
	case reflect.Struct:
		s, err := ts.jsonStruct(v, t, addressable, cy)
		if err != nil || !addressable {
			return s, err
		}
		// Addressable, as the struct it stands for (json.Marshal(&s)):
		// json calls a pointer method of a value field (big.Int's
		// MarshalJSON, big.Rat's MarshalText) only then ({} was written
		// for a big.Int beside an error field).
		p := reflect.New(reflect.TypeOf(s))
		p.Elem().Set(reflect.ValueOf(s))
		return p.Interface(), nil
	}
	if !v.CanInterface() {
		return nil, nil
	}
	return v.Interface(), nil
}

// jsonCycles finds a cycle of pointers, maps or slices in a value
// jsonValue walks, as Go's encoder does (encoding/json's ptrLevel and
// ptrSeen): past a depth of 1000, each one entered is remembered until it
// is left, and one entered again is an error naming its type. Without it
// a value that refers to itself (a.Next = a) recursed until the process
// died of a stack overflow.
type jsonCycles struct {
	level int
	seen  map[any]bool
}

// enter counts v entered; the function to call when it is left.
func (cy *jsonCycles) enter(ts *Types, v reflect.Value, t *tinfo) (func(), error) {
	cy.level++
	if cy.level <= 1000 {
		return func() { cy.level-- }, nil
	}
	var key any = v.UnsafePointer()
	if v.Kind() == reflect.Slice {
		key = struct {
			p   unsafe.Pointer
			len int
		}{v.UnsafePointer(), v.Len()}
	}
	if cy.seen[key] {
		cy.level--
		return nil, &json.UnsupportedValueError{Value: v, Str: "encountered a cycle via " + ts.rtypeOf(v.Type(), t).String()}
	}
	if cy.seen == nil {
		cy.seen = map[any]bool{}
	}
	cy.seen[key] = true
	return func() { cy.level--; delete(cy.seen, key) }, nil
}

// namedFunc reports whether t is a function type cells declared, which
// json cannot encode.
func (t *tinfo) namedFunc() bool { return t.named != nil && strings.HasPrefix(t.under, "func(") }

// nativeMarshaler reports whether rt is a native named type (or a
// pointer to one) whose method set has MarshalJSON or MarshalText.
func nativeMarshaler(rt reflect.Type) bool {
	named := rt
	if rt.Kind() == reflect.Pointer {
		named = rt.Elem()
	}
	if named.Name() == "" || named.PkgPath() == "" || strings.HasPrefix(named.PkgPath(), "github.com/traefik/yaegi/") {
		return false
	}
	return rt.Implements(jsonMarshalerType) || rt.Implements(textMarshalerType)
}

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func elemOf(t *tinfo) *tinfo {
	if t == nil {
		return nil
	}
	return t.elem
}

// jsonMap is a map as map[string]any with its keys as Go's encoder
// writes them.
func (ts *Types) jsonMap(v reflect.Value, t *tinfo, cy *jsonCycles) (any, error) {
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
		x, err := ts.jsonValue(it.Value(), elemOf(t), false, cy)
		if err != nil {
			return nil, err
		}
		out[name] = x
	}
	return out, nil
}

// jsonStruct is a struct value as a struct of jsonStructType.
func (ts *Types) jsonStruct(v reflect.Value, t *tinfo, addressable bool, cy *jsonCycles) (any, error) {
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
			y, err := ts.jsonStruct(fv, f.t, addressable || v.Field(f.from).Kind() == reflect.Pointer, cy)
			if err != nil {
				return nil, err
			}
			x = y
		case f.dynamic:
			if f.omit(fv) {
				continue
			}
			y, err := ts.jsonValue(fv, f.t, addressable, cy)
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
	hidden    bool            // embedded, of an unexported type
	dynamic   bool            // an any holding jsonValue's value
	omitEmpty bool
	omitZero  bool
}

func (f jsonField) omit(v reflect.Value) bool {
	if f.omitZero {
		// Go asks the type's IsZero method where it has one.
		if fn := isZeroMethod(f.t); fn.IsValid() {
			if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
				return true // Go does not call IsZero on a nil pointer
			}
			recv := v
			if fn.Type().In(0).Kind() == reflect.Pointer && v.Kind() != reflect.Pointer {
				// Go boxes a value it cannot address to call a
				// pointer method.
				if !v.CanAddr() {
					p := reflect.New(v.Type())
					p.Elem().Set(v)
					v = p.Elem()
				}
				recv = v.Addr()
			}
			if out, ok := call(fn, recv); ok {
				return out[0].Bool()
			}
		}
		if v.IsZero() {
			return true
		}
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
		exported := isExportedName(name) && rf.IsExported()
		if t != nil && t.kind == tkStruct && i < len(t.fields) {
			ft = t.fields[i].t
			embedded = embedded || t.fields[i].embedded
			// (An embedded field of an unexported type the interpreter
			// exported, Xnimber, untagged: Go names it nimber.)
			exported = exported && t.fields[i].exported
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
			f.embedded, f.hidden, f.st, sf.Anonymous, sf.Type = true, !exported, et, true, et.rt
			if rf.Type.Kind() == reflect.Pointer {
				sf.Type = reflect.PointerTo(et.rt)
			}
			if !isExportedName(name) {
				sf.Name = "X" + name
			}
			f.t = derefInfo(ft)
		case !exported:
			continue
		case jsonTag == "-":
			continue // (Go leaves it out: a function json cannot encode too)
		case in && (ts.jsonInNeeds(rf.Type, ft, map[*tinfo]bool{}) || reusesIface(rf.Type)):
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
	return ts.jsonWalk(rt, t, seen, func(t *tinfo) bool {
		mj, mt, _ := jsonMethods(t, true)
		return mj.IsValid() || mt.IsValid() || t.kind == tkDynamic || isZeroMethod(t).IsValid() || t.namedFunc()
	}, ts.jsonNeeds)
}

// jsonWalk reports whether t (of reflect type rt) has what has looks for
// or an embedded field, asking next of the types in it.
func (ts *Types) jsonWalk(rt reflect.Type, t *tinfo, seen map[*tinfo]bool, has func(*tinfo) bool, next func(reflect.Type, *tinfo, map[*tinfo]bool) bool) bool {
	if t == nil && !isNativeType(rt) && rt.Kind() == reflect.Struct {
		t = ts.derive(rt)
	}
	if t != nil {
		if seen[t] {
			return false
		}
		seen[t] = true
		if has(t) {
			return true
		}
	}
	switch rt.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return next(rt.Elem(), elemOf(t), seen)
	case reflect.Map:
		var kt *tinfo
		if t != nil {
			kt = t.key
		}
		return next(rt.Key(), kt, seen) || next(rt.Elem(), elemOf(t), seen)
	case reflect.Struct:
		for i := range rt.NumField() {
			var ft *tinfo
			if t != nil && t.kind == tkStruct && i < len(t.fields) {
				ft = t.fields[i].t
				if t.fields[i].embedded {
					return true
				}
			}
			if rt.Field(i).Anonymous || next(rt.Field(i).Type, ft, seen) {
				return true
			}
		}
	}
	return false
}
