// Package grundyrt is the native half of the prelude: functions that the
// rewritten cells and the interpreted helpers call as package grundyrt,
// where native code can do what interpreted code cannot (look inside
// yaegi's boxes and error wrappers, format by a static type, order map
// keys as fmt does). Cells never name it: the compatibility passes and
// the helpers do, through the names in package prelude.
//
// Most functions are plain; the ones that report to the interpreter
// session running the code (Show, Defer, Recover...) are variables that
// Table binds to one session's Session.
package grundyrt

import (
	"fmt"
	"io"
	"math"
	"reflect"
	"unicode/utf8"
	"unsafe"

	"grundy/engine/display"
)

// Session is what the engine gives each interpreter: where a cell's
// trailing values, displays, goroutine panics and top-level defers go.
type Session interface {
	Show(vals []any, parts []display.Parts)
	// ShowLater keeps show, which shows the cell's trailing values, to
	// be called once the cell's top-level defers ran, if it has any to
	// run (false: it has none).
	ShowLater(show func()) bool
	Display(v any, parts display.Parts)
	Render(v any, parts display.Parts) display.Bundle
	GoPanic(v any)
	Defer(f func())
	Recover() any
	// Stopped is closed when the running cell is interrupted or found
	// deadlocked (nil: never).
	Stopped() <-chan struct{}
	// Stderr is the running cell's standard error.
	Stderr() io.Writer
}

// Bound per session by Table; nil outside one (only interpreted code, which
// runs in a session, calls them).
var (
	Show      func(vals []any, parts []display.Parts)
	ShowLater func(show func()) bool
	Display   func(v any, parts display.Parts)
	Render    func(v any, parts display.Parts) display.Bundle
	GoPanic   func(v any)
	Defer     func(f func())
	Recover   func() any
	// Text is fmt's %v of a value the interpreter hands native code
	// (see Types.Text).
	Text func(v any) string
	// AssertionError is the error of a failed x.(iface) (see
	// Types.AssertionError).
	AssertionError func(v any, iface, method string) error
	// CellError is v as an error by its type's Error method (see
	// Types.CellError).
	CellError func(v any, like error) (error, bool)
	// ErrorText is the Error of a value of a cell type (see
	// Types.ErrorText).
	ErrorText func(v any) (string, bool)
	// LacksError tells a value of a cell type without an Error method
	// (see Types.LacksError).
	LacksError func(v any) bool
	// ErrorsAs is errors.As knowing the types cells declare (see
	// Types.ErrorsAs).
	ErrorsAs func(err error, target any) bool
	// InternAnyKey makes *p a key of a map keyed by any (see
	// Types.InternAnyKey).
	InternAnyKey func(p *any)
)

// Table is the package as one interpreter sees it (interp.Exports' value
// for "grundyrt/grundyrt"), its session functions bound to s and its
// printer to the session's types ts; with s nil, bound to nothing (what
// the type oracle needs is the types).
func Table(s Session, ts *Types) map[string]reflect.Value {
	if s == nil {
		s = noSession{}
	}
	t := map[string]reflect.Value{
		"Show":      reflect.ValueOf(s.Show),
		"ShowLater": reflect.ValueOf(s.ShowLater),
		"Display":   reflect.ValueOf(s.Display),
		"Render":    reflect.ValueOf(s.Render),
		"GoPanic":   reflect.ValueOf(s.GoPanic),
		"Defer":     reflect.ValueOf(s.Defer),
		"Recover":   reflect.ValueOf(s.Recover),

		"Clear":           reflect.ValueOf(Clear),
		"Converted":       reflect.ValueOf(Converted),
		"SignbitAt":       reflect.ValueOf(SignbitAt),
		"SortOrdered":     reflect.ValueOf(SortOrdered),
		"SortFunc":        reflect.ValueOf(SortFunc),
		"SortStableFunc":  reflect.ValueOf(SortStableFunc),
		"Unwrap":          reflect.ValueOf(Unwrap),
		"Interpreted":     reflect.ValueOf(Interpreted),
		"ErrorsAs":        reflect.ValueOf(ts.ErrorsAs),
		"ErrorsAsDynamic": reflect.ValueOf(ts.ErrorsAsDynamic),
		"ErrorsAsLater":   reflect.ValueOf(ts.ErrorsAsLater),
		"ErrorsIs":        reflect.ValueOf(ts.ErrorsIs),
		"ErrorsUnwrap":    reflect.ValueOf(ts.ErrorsUnwrap),
		"ErrorsAsKnown":   reflect.ValueOf(ts.ErrorsAsKnown),
		"NativeError":     reflect.ValueOf(NativeError),
		"IsNativeError":   reflect.ValueOf(IsNativeError),
		"CompareKey":      reflect.ValueOf(ts.NamedCompareKey),
		"Equal":           reflect.ValueOf(Equal),
		"CompareKeyAs":    reflect.ValueOf(ts.NamedCompareKeyAs),
		"WrapError":       reflect.ValueOf(WrapError),
		"Rewrap":          reflect.ValueOf(Rewrap),
		"RewrapBox":       reflect.ValueOf(RewrapBox),
		"InWrapper":       reflect.ValueOf(InWrapper),
		"WrapNil":         reflect.ValueOf(WrapNil),
		"Empty":           reflect.ValueOf((*Empty)(nil)),
		"InternKey":       reflect.ValueOf(ts.InternKey),
		"InternAnyKey":    reflect.ValueOf(ts.InternAnyKey),
		"AtomicStore":     reflect.ValueOf(ts.AtomicStore),
		"AtomicCompare":   reflect.ValueOf(ts.AtomicCompare),
		"AnyKey":          reflect.ValueOf(AnyKey),
		"DecodeRune":      reflect.ValueOf(DecodeRune),
		"Return":          reflect.ValueOf(Return),
		"IndexError":      reflect.ValueOf(IndexError),
		"SliceError":      reflect.ValueOf(SliceError),
		"ShiftError":      reflect.ValueOf(ShiftError),
		"RangeContinued":  reflect.ValueOf(RangeContinued),
		"RangeRecovered":  reflect.ValueOf(RangeRecovered),
		"SlogValue":       reflect.ValueOf(SlogValue),
		"ArrayLen":        reflect.ValueOf(ArrayLen),
		"RandUint64N":     reflect.ValueOf(RandUint64N),
		"SetInteger":      reflect.ValueOf(SetInteger),
		"MinInt":          reflect.ValueOf(MinInt),
		"MaxInt":          reflect.ValueOf(MaxInt),
		"FloatToInt8":     reflect.ValueOf(FloatToInt8),
		"FloatToInt16":    reflect.ValueOf(FloatToInt16),
		"FloatToInt32":    reflect.ValueOf(FloatToInt32),
		"FloatToUint8":    reflect.ValueOf(FloatToUint8),
		"FloatToUint16":   reflect.ValueOf(FloatToUint16),
		"FloatToUint32":   reflect.ValueOf(FloatToUint32),
		"IntToFloat32":    reflect.ValueOf(IntToFloat32),
		"UintToFloat32":   reflect.ValueOf(UintToFloat32),
		"ValuePointer":    reflect.ValueOf(ValuePointer),
		"NilValueMethod":  reflect.ValueOf(NilValueMethod),
		"NilDeref":        reflect.ValueOf(NilDeref),
		"LogFatal":        reflect.ValueOf(LogFatal),
		"LogFatalf":       reflect.ValueOf(LogFatalf),
		"LogFatalln":      reflect.ValueOf(LogFatalln),
		"Select":          reflect.ValueOf(selector{s.Stopped}.Select),
		"SetZero":         reflect.ValueOf(SetZero),
		"Print":           reflect.ValueOf(builtinPrinter{s.Stderr}.Print),

		"TextTemplate":      reflect.ValueOf(TextTemplate),
		"HTMLTemplate":      reflect.ValueOf(HTMLTemplate),
		"TemplateError":     reflect.ValueOf(TemplateError),
		"TemplateData":      reflect.ValueOf(ts.TemplateData),
		"TextBuiltins":      reflect.ValueOf(ts.TextBuiltins),
		"HTMLBuiltins":      reflect.ValueOf(ts.HTMLBuiltins),
		"JSONMarshal":       reflect.ValueOf(JSONMarshal),
		"JSONMarshalIndent": reflect.ValueOf(JSONMarshalIndent),
		"JSONEncode":        reflect.ValueOf(JSONEncode),
		"JSONUnmarshal":     reflect.ValueOf(ts.JSONUnmarshal),
		"JSONDecode":        reflect.ValueOf(ts.JSONDecode),
		"XMLMarshal":        reflect.ValueOf(XMLMarshal),
		"XMLMarshalIndent":  reflect.ValueOf(XMLMarshalIndent),
		"XMLEncode":         reflect.ValueOf(XMLEncode),
		"NewDeferred":       reflect.ValueOf(NewDeferred),
		"Deferred":          reflect.ValueOf((*Deferred)(nil)),

		// The printer (fmtprint.go), with the session's types.
		"Typed":            reflect.ValueOf(ts.Typed),
		"TypedParam":       reflect.ValueOf(ts.TypedParam),
		"TypedParams":      reflect.ValueOf(ts.TypedParams),
		"Wrapped":          reflect.ValueOf(Wrapped),
		"Spread":           reflect.ValueOf(ts.Spread),
		"Tuple":            reflect.ValueOf(ts.Tuple),
		"Declare":          reflect.ValueOf(ts.Declare),
		"DeclareComposite": reflect.ValueOf(ts.DeclareComposite),
		"MendCycle":        reflect.ValueOf(MendCycle),
		"NewInstance":      reflect.ValueOf(ts.NewInstance),
		"InstanceMethods":  reflect.ValueOf(ts.InstanceMethods),
		"Text":             reflect.ValueOf(ts.Text),
		"State":            reflect.ValueOf((*fmt.State)(nil)),
		"Writer":           reflect.ValueOf((*io.Writer)(nil)),
		"Sprint":           reflect.ValueOf(Sprint),
		"Sprintf":          reflect.ValueOf(Sprintf),
		"Sprintln":         reflect.ValueOf(Sprintln),

		"TypeString":           reflect.ValueOf(ts.TypeString),
		"TypeName":             reflect.ValueOf(ts.TypeName),
		"TypePkgPath":          reflect.ValueOf(ts.TypePkgPath),
		"StructField":          reflect.ValueOf(ts.Field),
		"FieldByName":          reflect.ValueOf(ts.FieldByName),
		"ValueFieldByName":     reflect.ValueOf(ts.ValueFieldByName),
		"FieldByNameFunc":      reflect.ValueOf(ts.FieldByNameFunc),
		"ValueFieldByNameFunc": reflect.ValueOf(ts.ValueFieldByNameFunc),
		"ValueField":           reflect.ValueOf(ValueField),
		"FieldByIndex":         reflect.ValueOf(ts.FieldByIndex),
		"ValueFieldByIndex":    reflect.ValueOf(ValueFieldByIndex),
		"VisibleFields":        reflect.ValueOf(ts.VisibleFields),
		"TypeNumField":         reflect.ValueOf(TypeNumField),
		"ValueNumField":        reflect.ValueOf(ValueNumField),
		"TypeOf":               reflect.ValueOf(ts.TypeOf),
		"ValueOf":              reflect.ValueOf(ValueOf),
		"TypeOfParam":          reflect.ValueOf(TypeOfParam),
		"ValueElem":            reflect.ValueOf(ValueElem),
		"ValueSet":             reflect.ValueOf(ValueSet),
		"HoldsWrapped":         reflect.ValueOf(HoldsWrapped),
		"SameType":             reflect.ValueOf(SameType),
		"AssignableTo":         reflect.ValueOf(AssignableTo),
		"DeepEqual":            reflect.ValueOf(ts.DeepEqual),
		"RType":                reflect.ValueOf(RType),
		"HasType":              reflect.ValueOf(ts.HasType),
		"BasicBox":             reflect.ValueOf(BasicBox),
		"CellBox":              reflect.ValueOf(CellBox),
		"MustHaveType":         reflect.ValueOf(ts.MustHaveType),
		"HasTypeIn":            reflect.ValueOf(ts.HasTypeIn),
		"MustHaveTypeIn":       reflect.ValueOf(ts.MustHaveTypeIn),
		"AssertsExactly":       reflect.ValueOf(AssertsExactly),
		"ParamValue":           reflect.ValueOf(ParamValue),
		"AssertsParam":         reflect.ValueOf(AssertsParam),
		"Exact":                reflect.ValueOf(Exact),
		"MustExact":            reflect.ValueOf(ts.MustExact),
		"MustAssertExactly":    reflect.ValueOf(ts.MustAssertExactly),
		"MustAssertParam":      reflect.ValueOf(ts.MustAssertParam),
		"AssertInto":           reflect.ValueOf(AssertInto),
		"MustAssertInto":       reflect.ValueOf(ts.MustAssertInto),

		// Panics (panics.go).
		"Panic":          reflect.ValueOf(ts.Panic),
		"Recovered":      reflect.ValueOf(ts.Recovered),
		"SlogDynamic":    reflect.ValueOf(ts.SlogDynamic),
		"PanicAgain":     reflect.ValueOf(PanicAgain),
		"Relay":          reflect.ValueOf(Relay),
		"Relayed":        reflect.ValueOf(Relayed),
		"AssertionError": reflect.ValueOf(ts.AssertionError),
		"CellError":      reflect.ValueOf(ts.CellError),
		"ErrorText":      reflect.ValueOf(ts.ErrorText),
		"LacksError":     reflect.ValueOf(ts.LacksError),
		"AssertPanic":    reflect.ValueOf(ts.AssertPanic),
		"NativeMethods":  reflect.ValueOf(NativeMethods),
		"LaterMethods":   reflect.ValueOf(ts.LaterMethods),
		"NativeIn":       reflect.ValueOf(NativeIn),
	}
	for name, v := range ifaceTable() {
		t[name] = v
	}
	return t
}

// HoldsWrapped reports whether v is a library's struct value (or a pointer
// to one) with a field of an interface type holding a cell's value in the
// interpreter's box or wrapper (io.LimitReader(z, 3), sort.Reverse(h)):
// fmt, natively, printed the wrapper's fields; the printer prints the
// value, as Go does.
func HoldsWrapped(v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct || Interpreted(v) {
		return false
	}
	wrapped := func(f reflect.Value) bool {
		if f.Kind() != reflect.Interface || f.IsNil() {
			return false
		}
		e := f.Elem()
		return e.Kind() == reflect.Struct && (isBox(e.Type()) || isWrapper(e.Type()))
	}
	for i := range rv.NumField() {
		f := rv.Field(i)
		if wrapped(f) {
			return true
		}
		// (io.MultiReader's []io.Reader)
		if f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Interface {
			for j := range f.Len() {
				if wrapped(f.Index(j)) {
					return true
				}
			}
		}
	}
	return false
}

// Interpreted tells whether v's type could carry methods that native code
// cannot see: a type built by the interpreter has no name (or no package
// path). Native values are rendered natively, which is both faster and
// exact.
func Interpreted(v any) bool {
	t := reflect.TypeOf(Unwrap(v))
	if t == nil {
		return false
	}
	if isWrapper(t) {
		// A cell's value in a native interface (a games.Game holding a
		// cell's struct): native code sees only the wrapper, whose %v
		// was the wrapper's fields (the value and a method address each).
		return true
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() == "" || t.Name() == ""
}

// resultWrapped is v without the valueInterface with no node yaegi
// v0.16.1 puts a native call's result in when the call's slot held one of
// its boxes before (interp/run.go, callBin: valueInterface{value: r}, r
// the interface holding the value): the value itself, or the box in it.
func resultWrapped(v any) any {
	rv := reflect.ValueOf(v)
	inner, ok := boxed(rv)
	if !ok {
		return v
	}
	node, _ := rv.Type().FieldByName("node")
	if node.Type == nil || node.Type.Kind() != reflect.Pointer || !rv.FieldByIndex(node.Index).IsNil() ||
		!inner.IsValid() || inner.Kind() == reflect.Interface && inner.IsNil() || !inner.CanInterface() {
		return v
	}
	return resultWrapped(inner.Interface())
}

// Unwrap returns the Go value inside yaegi's internal wrapper for
// interpreted values stored in interfaces (interp.valueInterface), which is
// what native code receives for "any" arguments coming from []any.
func Unwrap(v any) any {
	inner, ok := boxed(reflect.ValueOf(v))
	if !ok {
		return v
	}
	if !inner.IsValid() {
		return nil
	}
	if inner.Kind() == reflect.Interface {
		if inner.IsNil() {
			return nil
		}
		inner = inner.Elem()
	}
	if !inner.CanInterface() {
		return v
	}
	return Unwrap(inner.Interface())
}

// boxed is the value in rv when rv is yaegi's interp.valueInterface (its
// unexported field value, read through unsafe); false for anything else.
func boxed(rv reflect.Value) (reflect.Value, bool) {
	if !rv.IsValid() || rv.Kind() != reflect.Struct || rv.Type().PkgPath() != "github.com/traefik/yaegi/interp" {
		return reflect.Value{}, false
	}
	f, ok := rv.Type().FieldByName("value")
	if !ok || f.Type != reflect.TypeOf(reflect.Value{}) {
		return reflect.Value{}, false
	}
	cp := reflect.New(rv.Type()).Elem()
	cp.Set(rv)
	return *(*reflect.Value)(unsafe.Pointer(cp.FieldByIndex(f.Index).UnsafeAddr())), true
}

// DecodeRune is the rune of s at byte i and, in *width, its length in
// bytes: one step of a range over a string (an invalid byte is
// utf8.RuneError, one byte long).
func DecodeRune(s string, i int, width *int) rune {
	r, w := utf8.DecodeRuneInString(s[i:])
	*width = w
	return r
}

// SignbitAt reports whether the slice xs holds a floating-point value
// with its sign bit set at i: the helpers' min and max tell -0 from +0 by
// it, as the builtins do.
func SignbitAt(xs any, i int) bool {
	v := reflect.ValueOf(Unwrap(xs))
	if v.Kind() != reflect.Slice || i < 0 || i >= v.Len() {
		return false
	}
	switch e := v.Index(i); e.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Signbit(e.Float())
	}
	return false
}

// Clear is the builtin clear: delete a map's entries, zero a slice.
func Clear(x any) {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Map, reflect.Slice:
		v.Clear()
	}
}

// Converted is the element of the one-element slice xs converted to the
// type to points to, as the Go conversion T(x) does.
func Converted(xs, to any) any {
	return reflect.ValueOf(xs).Index(0).Convert(reflect.TypeOf(to).Elem()).Interface()
}

// noSession is a Session that reports nowhere.
type noSession struct{}

func (noSession) Show([]any, []display.Parts)              {}
func (noSession) ShowLater(func()) bool                    { return false }
func (noSession) Display(any, display.Parts)               {}
func (noSession) Render(any, display.Parts) display.Bundle { return nil }
func (noSession) GoPanic(any)                              {}
func (noSession) Defer(func())                             {}
func (noSession) Recover() any                             { return nil }
func (noSession) Stopped() <-chan struct{}                 { return nil }
func (noSession) Stderr() io.Writer                        { return io.Discard }

// SetZero sets the variable p points to to its zero value (a copy of an
// earlier cell's variable the cell no longer reads: see the compat pass
// earlierReads).
func SetZero(p any) {
	if v := reflect.ValueOf(p); v.Kind() == reflect.Pointer && !v.IsNil() {
		v.Elem().SetZero()
	}
}
