package grundyrt

import (
	"reflect"
	"strings"
	"sync/atomic"
	"unsafe"
)

// reflect.TypeOf of values of cell types. yaegi v0.16.1 gives a type a
// cell declares on another type (type Kelvin float64, type Scores
// []Celsius) that type's reflect type, so reflect.TypeOf(Kelvin(300))
// was float64's. TypeOf answers with a reflect.Type that is the
// interpreter's, renamed as Go names the type: a cellRType.

// cellRType is a reflect.Type named as Go would name it. Embedding the
// interpreter's reflect.Type gives it reflect.Type's unexported methods
// too, so it is one; reflect's constructors (New, Zero, MakeSlice...)
// need the bare type, which RType gives back.
type cellRType struct {
	reflect.Type
	t  *tinfo
	ts *Types // the session that made it, which makes one cellRType of each type (nil: not so made)
}

func (c cellRType) String() string { return c.t.str }

func (c cellRType) Name() string {
	if c.t.named == nil {
		return c.Type.Name()
	}
	name := strings.TrimPrefix(c.t.str, "main.")
	if i := strings.LastIndexByte(name, '.'); i >= 0 && !strings.Contains(name, "[") {
		name = name[i+1:]
	}
	return name
}

func (c cellRType) PkgPath() string {
	if c.t.named == nil {
		return c.Type.PkgPath()
	}
	if strings.HasPrefix(c.t.str, "main.") {
		return "main"
	}
	return c.Type.PkgPath()
}

func (c cellRType) Elem() reflect.Type { return c.ts.rtypeOf(c.Type.Elem(), c.t.elem) }

func (c cellRType) Key() reflect.Type { return c.ts.rtypeOf(c.Type.Key(), c.t.key) }

// A function type that refers to itself is a struct holding the function
// to the interpreter (compat's selfFuncs): its kind and signature are the
// function's.

// selfFunc is the function type a self-referring function type's struct
// holds, or nil.
func (c cellRType) selfFunc() reflect.Type { return heldFunc(c.Type, c.t) }

// heldFunc is the function type rt, the interpreter's type of a value of
// t, holds when t is a function type that refers to itself, which the
// interpreter has as a struct holding the function (compat's selfFuncs);
// nil otherwise.
func heldFunc(rt reflect.Type, t *tinfo) reflect.Type {
	if t != nil && t.namedFunc() && rt.Kind() == reflect.Struct && rt.NumField() == 1 && rt.Field(0).Type.Kind() == reflect.Func {
		return rt.Field(0).Type
	}
	return nil
}

func (c cellRType) Kind() reflect.Kind {
	if c.selfFunc() != nil {
		return reflect.Func
	}
	return c.Type.Kind()
}

func (c cellRType) NumIn() int {
	if f := c.selfFunc(); f != nil {
		return f.NumIn()
	}
	return c.Type.NumIn()
}

func (c cellRType) NumOut() int {
	if f := c.selfFunc(); f != nil {
		return f.NumOut()
	}
	return c.Type.NumOut()
}

func (c cellRType) IsVariadic() bool {
	if f := c.selfFunc(); f != nil {
		return f.IsVariadic()
	}
	return c.Type.IsVariadic()
}

// cellRTypeOf is rt named by t, or rt itself when t says nothing more.
func cellRTypeOf(rt reflect.Type, t *tinfo) reflect.Type { return (*Types)(nil).rtypeOf(rt, t) }

// rtypeKey is a type as a cellRType names it.
type rtypeKey struct {
	rt  reflect.Type
	str string
}

// rtypeOf is cellRTypeOf, the same cellRType each time for a type of the
// session (ts not nil): == on reflect.Types compares them (p.Elem() ==
// reflect.TypeOf(Move{}) of a p from reflect.TypeOf(&Move{}) was false,
// the two named by descriptions of their own).
func (ts *Types) rtypeOf(rt reflect.Type, t *tinfo) reflect.Type {
	if rt == nil || t == nil || t.kind == tkDynamic || t.str == "" || t.str == rt.String() {
		return rt
	}
	if ts == nil {
		return cellRType{rt, t, nil}
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	key := rtypeKey{rt, t.str}
	if c, ok := ts.rtypes[key]; ok {
		return c
	}
	if ts.rtypes == nil {
		ts.rtypes = map[rtypeKey]cellRType{}
	}
	c := cellRType{rt, t, ts}
	ts.rtypes[key] = c
	return c
}

// TypeOf is reflect.TypeOf(v) for a value whose static type desc describes
// (see Typed): a value of an interface type by its dynamic type, as the
// printer finds it.
func (ts *Types) TypeOf(v any, desc string) reflect.Type {
	rv, t, _ := ts.resolve(reflect.ValueOf(v), ts.desc(desc, nil))
	if !rv.IsValid() {
		return nil
	}
	return ts.rtypeOf(rv.Type(), t)
}

// RType is t as reflect's constructors take it: the interpreter's own
// reflect type of a cellRType.
func RType(t reflect.Type) reflect.Type {
	if c, ok := t.(cellRType); ok {
		return c.Type
	}
	return t
}

// HasType reports whether v's dynamic type is want, as reflect's String
// writes it ("main.Nimber", "int"): the interpreter's own assertion
// matches by reflect type, so a Nimber (type Nimber int, with methods)
// passed for an int and an int for a Nimber. A value of such a type is in
// one of the interpreter's boxes, which names it.
func (ts *Types) HasType(v any, want string) bool {
	_, t := ts.dynamic(v)
	return t != nil && t.str == want
}

// MustHaveType is HasType for x.(T): it panics as Go's failed assertion
// does; iface is x's static type.
func (ts *Types) MustHaveType(v any, want, iface string) {
	ok, t := ts.dynamic(v)
	switch {
	case !ok:
		panic(assertionError("interface conversion: " + iface + " is nil, not " + want))
	case t == nil || t.str != want:
		panic(assertionError("interface conversion: " + iface + " is " + t.str + ", not " + want))
	}
}

// HasTypeIn is HasType for v, ok := x.(T) where v may be the wrapper of
// a native interface (a Nimber kept in a fmt.Stringer, then in an any:
// yaegi's assertion does not look inside it): in reports whether it is
// one, w being the value in it, to assert instead of v.
func (ts *Types) HasTypeIn(v any, want string) (w any, in, ok bool) {
	if !ts.HasType(v, want) {
		return nil, false, false
	}
	w, in = inWrapperValue(v)
	return w, in, true
}

// MustHaveTypeIn is HasTypeIn for the one-value x.(T): it panics as
// MustHaveType does.
func (ts *Types) MustHaveTypeIn(v any, want, iface string) (w any, in bool) {
	ts.MustHaveType(v, want, iface)
	return inWrapperValue(v)
}

// inWrapperValue is the value in v when v is the interpreter's wrapper of
// a native interface (see HasTypeIn).
func inWrapperValue(v any) (any, bool) {
	if rv := reflect.ValueOf(v); rv.IsValid() && WrapperShape(rv.Type()) {
		return InWrapper(v), true
	}
	return nil, false
}

// dynamic is v's dynamic type as the printer knows it; !ok for nil.
func (ts *Types) dynamic(v any) (ok bool, t *tinfo) {
	rv, t, _ := ts.resolve(reflect.ValueOf(v), &tinfo{kind: tkDynamic})
	if !rv.IsValid() {
		return false, nil
	}
	return true, t
}

// namedKey is what == compares for a value of a type declared on a basic
// type with methods (type Nimber int): the interpreter keeps one in an
// interface in a box (or a wrapper) whose value is the basic one, so
// without its type's name any(Nimber(3)) would equal any(3).
type namedKey struct {
	name string
	v    any
}

// NamedCompareKey is CompareKey knowing the types cells declared: a value
// of a type declared on a basic type or an array, in its box or wrapper, is keyed
// with its type's name, as NamedCompareKeyAs keys such a value whose
// static type the compatibility pass knows.
func (ts *Types) NamedCompareKey(v any) any {
	ok, t := ts.dynamic(v)
	if ok && t.uncomparable() {
		// The interpreter's value is a []int, whose == would panic
		// naming that; the key's does after the name, which tells two
		// types apart first (Go compares an interface's types first).
		lastUncomparable.Store(t.str)
		return namedKey{t.str, uncomparableKey{}}
	}
	if ok && (t.named != nil && (t.kind == tkLeaf || t.kind == tkSlice && !strings.HasPrefix(t.under, "[]")) ||
		t.composite && t.kind == tkSlice && !strings.HasPrefix(t.str, "[]")) {
		return namedKey{t.str, CompareKey(v)}
	}
	return CompareKey(v)
}

// uncomparableKey is the value part of the key of a value of an
// uncomparable type cells declared (type Heaps []Heap, a hidden
// composite []main.Heap): == of two panics, and the message names the
// type of the last such key made (lastUncomparable: the interpreter's
// name of the box, or Go's), the one == panics on (see reflectPanic).
type uncomparableKey struct{ _ []int }

var lastUncomparable atomic.Value // string

// uncomparableKeyPanic is the runtime's message for == of two
// uncomparableKeys.
var uncomparableKeyPanic = "runtime error: comparing uncomparable type " + uncomparableKeyType

// uncomparableKeyType is uncomparableKey's type as reflect names it.
var uncomparableKeyType = reflect.TypeOf(uncomparableKey{}).String()

// uncomparable reports whether values of t, a type cells declared on a
// slice, map or function type or a hidden composite of a slice or map,
// panic when == compares them.
func (t *tinfo) uncomparable() bool {
	var under string
	switch {
	case t.named != nil:
		under = t.under
	case t.composite:
		under = t.str
	default:
		return false
	}
	return strings.HasPrefix(under, "[]") || strings.HasPrefix(under, "map[") || strings.HasPrefix(under, "func(")
}

// NamedCompareKeyAs is the key of v, of the type named name (see
// NamedCompareKey).
func (ts *Types) NamedCompareKeyAs(v any, name string) any {
	if t := ts.byName(name); t != nil && t.uncomparable() {
		lastUncomparable.Store(t.str) // (any(Path(nil)): see NamedCompareKey)
		return namedKey{t.str, uncomparableKey{}}
	}
	return namedKey{name, CompareKey(v)}
}

// AssertsExactly reports whether x.(T) may hold, T a type parameter or a
// slice, map, array or channel type; like is a *T (the address of a
// variable of type T: the interpreter's reflect type of a type parameter
// is only found so; or (*T)(nil)). yaegi v0.16.1 asserts to a
// non-interface type by assignability (interp/run.go:569,
// canAssertTypes), so a games.Pos passed for a []int; for slice, map,
// array and channel types, where a named native type and the unnamed one
// are alike to it, the types must be identical. So must they for a basic
// kind: a value of a cell type on a basic type (type Heap int) is in a
// box that yaegi's assertion takes for its underlying type's. A value of a
// cell type in the interpreter's box (type Score int) asserts to no type
// but an interface here: canAssertTypes passed a Score for T = int, and an
// instance whose T is a boxed cell type is a copy with T written in,
// which checks the box's name instead (compat's boxedParamChecks). Other
// kinds are left to the interpreter's assertion.
//
// sample, when given, is a zero value of T as the interpreter puts it in
// an interface: for T bound to a cell type on a basic type, an array, a
// slice or a map, a box naming it, which x must be too (in a generic
// type's method the interpreter's T is the underlying type, and like says
// nothing more).
func AssertsExactly(x, like any, sample ...any) bool {
	if name, ok := boxedSample(sample); ok {
		return boxNamed(x) == name
	}
	t := reflect.TypeOf(like).Elem()
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.Array, reflect.Chan:
		return reflect.TypeOf(x) == t
	case reflect.Interface:
		return true
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return reflect.TypeOf(x) == t
	}
	return !BasicBox(x)
}

// MustAssertExactly is AssertsExactly for x.(T): it panics as Go's failed
// assertion does, naming T's type argument (the assertion in the generic
// function's source names only T), when x is nil or the types differ;
// iface is x's static type.
//
// It returns ParamValue(x, sample[0]) once x passes (for T bound to a
// cell type on a basic type, an array, a slice or a map), or the value
// in yaegi's wrapper of a native interface (inWrapperAs); nil otherwise.
func (ts *Types) MustAssertExactly(x, like any, iface string, sample ...any) any {
	if x != nil && AssertsExactly(x, like, sample...) {
		if len(sample) > 0 {
			if v := ParamValue(x, sample[0]); v != nil {
				return v
			}
		}
		return inWrapperAs(x, like)
	}
	if name, ok := boxedSample(sample); ok {
		if ok, dt := ts.dynamic(x); !ok {
			panic(assertionError("interface conversion: " + iface + " is nil, not " + name))
		} else {
			panic(assertionError("interface conversion: " + iface + " is " + dt.str + ", not " + name))
		}
	}
	t := reflect.TypeOf(like).Elem()
	switch ok, dt := ts.dynamic(x); {
	case !ok:
		if t.Kind() == reflect.Interface {
			iface = "interface"
		}
		panic(assertionError("interface conversion: " + iface + " is nil, not " + ts.TypeString(t)))
	case !AssertsExactly(x, like):
		panic(assertionError("interface conversion: " + iface + " is " + dt.str + ", not " + ts.TypeString(t)))
	}
	return nil
}

// AssertsParam is AssertsExactly with the sample, for v, ok := x.(T):
// whether x passes, and then ParamValue(x, sample) (one call of the
// runtime, not two).
func AssertsParam(x, like, sample any) (any, bool) {
	if !AssertsExactly(x, like, sample) {
		return nil, false
	}
	if v := ParamValue(x, sample); v != nil {
		return v, true
	}
	return inWrapperAs(x, like), true
}

// inWrapperAs is the value in x when x is yaegi's wrapper of a native
// interface (an error or a fmt.Stringer holding a cell's struct value or
// pointer, put in an any) and the value's type is T, like's element: the
// interpreter's x.(T) said no to the wrapper (Is[NotFound](err) was
// false). nil otherwise.
func inWrapperAs(x, like any) any {
	rv := reflect.ValueOf(x)
	if !rv.IsValid() || !WrapperShape(rv.Type()) {
		return nil
	}
	in := InWrapper(x)
	if in == nil || reflect.TypeOf(in) != reflect.TypeOf(like).Elem() {
		return nil
	}
	return in
}

// MustAssertParam is MustAssertExactly with the sample (a call with a
// fixed number of arguments costs the interpreter less).
func (ts *Types) MustAssertParam(x, like any, iface string, sample any) any {
	return ts.MustAssertExactly(x, like, iface, sample)
}

// boxedSample is the name of the type of sample[0] when it is in the
// interpreter's box of a value of a cell type on a basic type, an array,
// a slice or a map (see AssertsExactly).
func boxedSample(sample []any) (string, bool) {
	if len(sample) == 0 || !BasicBox(sample[0]) {
		return "", false
	}
	name := boxNamed(sample[0])
	return name, name != ""
}

// boxNamed is the name of the type of x's value when x is in the
// interpreter's box, else "".
func boxNamed(x any) string { return boxName(reflect.ValueOf(x)) }

// ParamValue is the value in x's box for x.(T), T a type parameter,
// once AssertsExactly passed x with sample, when T is bound to a cell
// type on a basic type, an array, a slice or a map: the interpreter's T
// is the underlying type in a generic type's method, and its assertion of
// the box failed ("interface {} is main.Pos, not [2]int"). nil for other
// type arguments.
func ParamValue(x, sample any) any {
	if _, ok := boxedSample([]any{sample}); !ok {
		return nil
	}
	if rv := reflect.ValueOf(x); rv.IsValid() && isBox(rv.Type()) {
		if inner, _, ok := unbox(rv); ok && inner.CanInterface() {
			return inner.Interface()
		}
	}
	return nil
}

// AssertInto is x.(*T) for dst, a **T (the address of a variable of type
// *T: the interpreter makes a variable's type where it cannot compile the
// assertion, see compat's instanceAsserts): it sets *dst to x and reports
// true when x's dynamic type is *T, and reports false otherwise.
func AssertInto(dst, x any) bool {
	d := reflect.ValueOf(dst).Elem()
	v := reflect.ValueOf(Unwrap(x))
	if !v.IsValid() || v.Type() != d.Type() {
		return false
	}
	d.Set(v)
	return true
}

// MustAssertInto is AssertInto for the one-value x.(*T): it panics as Go's
// failed assertion does; iface is x's static type.
func (ts *Types) MustAssertInto(dst, x any, iface string) {
	if AssertInto(dst, x) {
		return
	}
	want := ts.TypeString(reflect.TypeOf(dst).Elem())
	if ok, dt := ts.dynamic(x); !ok {
		panic(assertionError("interface conversion: " + iface + " is nil, not " + want))
	} else {
		panic(assertionError("interface conversion: " + iface + " is " + dt.str + ", not " + want))
	}
}

// notExact is what Exact answers for a value x.(T) must not pass: no
// slice, map, array or channel type asserts it (not a struct: yaegi's
// assertion looks at a struct's first field).
type notExact uint8

// Exact is x, when x.(T) may hold (see AssertsExactly; like is a *T),
// else a value the assertion x.(T) fails on: x.(T) written as
// Exact(x, (*T)(nil)).(T) costs one call, where a function literal
// around the assertion would cost the interpreter a closure each time.
func Exact(x, like any) any {
	if AssertsExactly(x, like) {
		return x
	}
	return notExact(0)
}

// MustExact is x, after MustAssertExactly: the one-value form of Exact.
func (ts *Types) MustExact(x, like any, iface string) any {
	ts.MustAssertExactly(x, like, iface)
	return x
}

// ValueOf is reflect.ValueOf(v) for v of an interface type: a value of a
// cell type on a basic type is in one of the interpreter's boxes there,
// whose reflect.Value was a struct (Kind said struct, Int panicked), and
// a value of a cell type in a native interface (an error, a
// fmt.Stringer) is in the interpreter's wrapper, whose reflect.Value was
// the wrapper (Type said interp._error, Field(1) was a func); the value
// in the box or wrapper is the one Go's reflect sees (its reflect type is
// the basic type's, as for a value whose static type is the cell type).
func ValueOf(v any) reflect.Value {
	return unwrapValue(reflect.ValueOf(v))
}

// TypeOfParam is reflect.TypeOf(v) for v of a type parameter's type: a
// value of a cell type there, with the type parameter bound to a native
// interface (error, fmt.Stringer), is in the interpreter's wrapper, whose
// type reflect gave (interp._error, with the fields IValue and WError).
func TypeOfParam(v any) reflect.Type {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || isBox(rv.Type()) || !isWrapper(rv.Type()) {
		return reflect.TypeOf(v) // (a box's type, which reflectNames' calls name)
	}
	if rv = rv.Field(0); rv.Kind() == reflect.Interface {
		rv = rv.Elem()
	}
	if !rv.IsValid() {
		return nil
	}
	return rv.Type()
}

// unwrapValue is rv out of the interpreter's wrapper and box, if it is
// in them (the invalid Value for an empty box).
func unwrapValue(rv reflect.Value) reflect.Value {
	if !rv.IsValid() {
		return rv
	}
	if isWrapper(rv.Type()) {
		if rv = rv.Field(0); rv.Kind() == reflect.Interface {
			rv = rv.Elem()
		}
		if !rv.IsValid() {
			return rv
		}
	}
	if isBox(rv.Type()) {
		inner, _, ok := unbox(rv)
		if !ok {
			return reflect.Value{}
		}
		return inner
	}
	return rv
}

// ValueSet is v.Set(x), where x of an unnamed struct type goes into v of
// a named one of the cells with that underlying type (or the other way
// round), as Go assigns it: the interpreter's struct type of the named
// one carries its name in a tag, so reflect.Set panicked ("value of type
// struct { V int } is not assignable to type struct { V int
// \"grundy:...\" }"). Anything else is reflect's Set.
func ValueSet(v, x reflect.Value) {
	if x.IsValid() && v.IsValid() && x.Kind() == reflect.Struct && v.Kind() == reflect.Struct && x.Type() != v.Type() &&
		(structName(x.Type()) == "") != (structName(v.Type()) == "") && !x.Type().AssignableTo(v.Type()) && x.Type().ConvertibleTo(v.Type()) {
		x = x.Convert(v.Type())
	}
	v.Set(x)
}

// ValueElem is v.Elem(): of an interface value holding a value of a cell
// type on a basic type, a slice or a map, or one in a native interface's
// wrapper, it is the value in the interpreter's box or wrapper, as Go's
// reflect sees it (Elem of a []any's Temp(2) was a struct, whose fields
// a walk over the value followed without end).
func ValueElem(v reflect.Value) reflect.Value {
	e := v.Elem()
	if v.Kind() != reflect.Interface {
		return e
	}
	return unwrapValue(e)
}

// DeepEqual is reflect.DeepEqual(a, b), each value with its static type's
// description: a value of a cell type on a basic type, boxed or not, is
// equal only to one of the same type (the interpreter gives both the
// basic type's reflect type, so DeepEqual(ID(1), 1) was true, a boxed
// ID(1) in an any was not equal to ID(1), and two boxes of ID(1) in
// []any were not equal either: the boxes differ where the values do not).
func (ts *Types) DeepEqual(a any, da string, b any, db string) bool {
	va, na := ts.deepOperand(a, da)
	vb, nb := ts.deepOperand(b, db)
	if na != nb || !va.IsValid() || !vb.IsValid() {
		return na == nb && va.IsValid() == vb.IsValid()
	}
	return va.Type() == vb.Type() && ts.deepEqual(va, vb, map[deepVisit]bool{})
}

// deepOperand is v out of the interpreter's box, and the name of its type
// as Go writes it ("" where unknown): a Row and a []Nimber, a Pos and a
// [2]int, which the interpreter keeps alike, are not deeply equal.
func (ts *Types) deepOperand(v any, desc string) (reflect.Value, string) {
	rv, t, _ := ts.resolve(reflect.ValueOf(v), ts.desc(desc, nil))
	if t != nil && rv.IsValid() {
		return rv, t.str
	}
	return rv, "" // a nil interface (var err error) is any(nil), whatever its static type
}

type deepVisit struct {
	a, b unsafe.Pointer
	t    reflect.Type
}

// deepEqual is reflect's deep equality of a and b, of one type, with the
// values in interfaces taken out of the interpreter's boxes and compared
// with their types' names.
func (ts *Types) deepEqual(a, b reflect.Value, visited map[deepVisit]bool) bool {
	switch a.Kind() {
	case reflect.Map, reflect.Slice, reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Kind() != reflect.Interface {
			v := deepVisit{a.UnsafePointer(), b.UnsafePointer(), a.Type()}
			if v.a == v.b && a.Kind() != reflect.Slice {
				return true
			}
			if visited[v] {
				return true
			}
			visited[v] = true
		}
	}
	switch a.Kind() {
	case reflect.Interface:
		x, nx := ts.unboxed(a.Elem())
		y, ny := ts.unboxed(b.Elem())
		if nx != ny || x.IsValid() != y.IsValid() {
			return false
		}
		return !x.IsValid() || x.Type() == y.Type() && ts.deepEqual(x, y, visited)
	case reflect.Struct:
		if isBox(a.Type()) {
			x, nx := ts.unboxed(a)
			y, ny := ts.unboxed(b)
			return nx == ny && x.IsValid() == y.IsValid() && (!x.IsValid() || x.Type() == y.Type() && ts.deepEqual(x, y, visited))
		}
		for i := range a.NumField() {
			if !ts.deepEqual(a.Field(i), b.Field(i), visited) {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		if a.Kind() == reflect.Slice && a.UnsafePointer() == b.UnsafePointer() {
			return true
		}
		for i := range a.Len() {
			if !ts.deepEqual(a.Index(i), b.Index(i), visited) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		if a.UnsafePointer() == b.UnsafePointer() {
			return true
		}
		it := a.MapRange()
		for it.Next() {
			w := b.MapIndex(it.Key())
			if !w.IsValid() || !ts.deepEqual(it.Value(), w, visited) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		return ts.deepEqual(a.Elem(), b.Elem(), visited)
	case reflect.Func:
		return a.IsNil() && b.IsNil()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Chan, reflect.UnsafePointer:
		return a.Pointer() == b.Pointer()
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// unboxed is v (from an interface) out of the interpreter's box, and its
// cell type's name when it was in one; out of its wrapper of a native
// interface with methods too, whose method fields are functions, which
// are never deeply equal (two []error{ParseErr{3}} were unequal).
func (ts *Types) unboxed(v reflect.Value) (reflect.Value, string) {
	if v.IsValid() && WrapperShape(v.Type()) {
		if in := v.Field(0); in.Kind() == reflect.Interface && !in.IsNil() {
			return ts.unboxed(in.Elem())
		}
	}
	if v.IsValid() && isBox(v.Type()) {
		inner, name, ok := unbox(v)
		if !ok {
			return reflect.Value{}, ""
		}
		return inner, name
	}
	return v, ""
}

// SameType is a == b for two reflect.Types: reflect.TypeOf names a cell's
// type by a cellRType, the other reflect.Types a cell gets (a Value's
// Type(), reflect.New(t).Elem().Type()) are the interpreter's own, so
// reflect.ValueOf(p).Type() == reflect.TypeOf(p) was false. The two are
// the same type when the interpreter's is the cellRType's own and no
// other type of the cells shares it (a struct type's is its own; a type
// on a basic type has the basic type's, which says no more).
func SameType(a, b reflect.Type) bool {
	if a == b {
		return true
	}
	ca, aok := a.(cellRType)
	cb, bok := b.(cellRType)
	switch {
	case aok && bok:
		return ca.t.str == cb.t.str && ca.Type == cb.Type
	case aok:
		return ca.Type == b && !ca.t.sharesBare()
	case bok:
		return cb.Type == a && !cb.t.sharesBare()
	}
	return false
}

// sharesBare reports whether the interpreter's reflect type of a value of
// t may be that of another type too: t is, or is made of, a type cells
// declare on a basic type, an array, a slice or a map, or a hidden
// composite.
func (t *tinfo) sharesBare() bool {
	switch {
	case t == nil || t.kind == tkDynamic:
		return false
	case t.composite || t.named != nil && t.kind != tkStruct:
		return true
	case t.kind == tkStruct:
		return false
	}
	return t.elem.sharesBare() || t.key.sharesBare()
}

// AssignableTo is t.AssignableTo(u): the interpreter's reflect types of
// two types on one basic type (type Temp float64, type Cel float64), or of
// a slice type and one declared on it, are one type, which reflect finds
// assignable to itself; by Go's rule, two types are assignable when they
// are identical, or their underlying types are and one of them has no
// name. (Interfaces, channels and types the interpreter keeps apart are
// reflect's to answer.)
func AssignableTo(t, u reflect.Type) bool {
	_, tok := t.(cellRType)
	_, uok := u.(cellRType)
	rt, ru := RType(t), RType(u)
	if rt != ru && (tok || uok) && rt.Kind() == reflect.Struct && ru.Kind() == reflect.Struct {
		// struct{ V int } and a Box: the interpreter's struct type of a
		// named one carries its name in a tag.
		return underlyingString(t) == underlyingString(u) && (t.Name() == "" || u.Name() == "")
	}
	if !tok && !uok || rt != ru || ru.Kind() == reflect.Interface || ru.Kind() == reflect.Chan {
		return rt.AssignableTo(ru)
	}
	if SameType(t, u) || t.String() == u.String() {
		return true
	}
	return underlyingString(t) == underlyingString(u) && (t.Name() == "" || u.Name() == "")
}

// underlyingString is t's underlying type as reflect's String writes it.
func underlyingString(t reflect.Type) string {
	if c, ok := t.(cellRType); ok && c.t.named != nil && c.t.under != "" {
		return c.t.under
	}
	return RType(t).String()
}
