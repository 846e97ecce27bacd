package grundyrt

import (
	"errors"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
)

var errorType = reflect.TypeFor[error]()

// ErrorsAs is errors.As for interpreted error types: native errors.As
// sees yaegi's wrapper instead of the cell's type, and neither the As nor
// the Unwrap methods of cell types.
func (ts *Types) ErrorsAs(err error, target any) bool {
	if err == nil {
		return false
	}
	tv := reflect.ValueOf(Unwrap(target))
	if !tv.IsValid() {
		panic("errors: target cannot be nil")
	}
	if tv.Kind() != reflect.Pointer || tv.IsNil() {
		panic("errors: target must be a non-nil pointer")
	}
	want := tv.Type().Elem()
	if !ts.mayBeError(want) {
		panic("errors: *target must be interface or implement error")
	}
	if want.Kind() == reflect.Interface && reflect.TypeOf(err).AssignableTo(want) {
		// An error target (var e error; errors.As(err, &e)): err itself,
		// as Go's first test of the chain finds. The value inside a
		// cell type's wrapper has no Error method of its own, so the
		// walk below passed it by.
		tv.Elem().Set(reflect.ValueOf(err))
		return true
	}
	return ts.errorsAs(err, target, nil, func(cand any) bool {
		if cv := reflect.ValueOf(cand); cv.IsValid() && cv.Type().AssignableTo(want) {
			tv.Elem().Set(cv)
			return true
		}
		return false
	})
}

// mayBeError reports whether want, the type an errors.As target points
// to, is an interface or has an Error method, as far as is known: a
// native named type by its methods, a struct or a pointer to one the
// cells declared by the methods the session told the printer (the
// interpreter's types have none); anything else (an int may be a cell
// type on int) is taken to be one.
func (ts *Types) mayBeError(want reflect.Type) bool {
	if want.Kind() == reflect.Interface || isBox(want) || isWrapper(want) {
		return true // (an interface type: yaegi's box for one a cell declares)
	}
	if want.PkgPath() != "" && want.PkgPath() != "main" {
		return want.Implements(errorType)
	}
	ts.mu.Lock()
	t := ts.deriveLocked(want)
	ts.mu.Unlock()
	// (A struct type the session told the printer no methods of has
	// none: the engine tells it those of every type with methods.)
	switch {
	case t.named != nil && want.Kind() == reflect.Struct:
		tab := t.named.methods.Load()
		return tab != nil && tab.val.has("Error")
	case t.kind == tkPointer && t.elem != nil && t.elem.named != nil && want.Elem().Kind() == reflect.Struct:
		tab := t.elem.named.methods.Load()
		return tab != nil && (tab.val.has("Error") || tab.ptr.has("Error"))
	}
	return true
}

// ErrorsAsDynamic is ErrorsAs for a target a cell holds in an interface
// (var t any = &n), whose type the passes do not know: one pointing to a
// native type that is not an error panics as Go's errors.As does. (A
// cell's type the interpreter made is not a native one here: a cell
// struct is unnamed, and a pointer to a cell type on a basic type is not
// put in an interface, compat's basedTypes refuses it.)
func (ts *Types) ErrorsAsDynamic(err error, target any) bool {
	if err != nil {
		if tv := reflect.ValueOf(Unwrap(target)); tv.Kind() == reflect.Pointer && !tv.IsNil() {
			want := tv.Type().Elem()
			native := want.Kind() != reflect.Interface && want.Kind() != reflect.Pointer && (want.Kind() != reflect.Struct || want.Name() != "")
			if native && !want.Implements(errorType) {
				panic("errors: *target must be interface or implement error")
			}
		}
	}
	return ts.ErrorsAs(err, target)
}

// ErrorsAsLater is errors.As of a target pointing to name, a type cells
// declared that had no Error method where the call was compiled: Go's
// panics ("errors: *target must be interface or implement error"), as
// this does. A later cell may have given the type the method; the code
// calling (a method, which is not compiled again) cannot see it, and that
// stops the cell, saying what to do.
func (ts *Types) ErrorsAsLater(err error, target any, name string) bool {
	ts.mu.Lock()
	nt := ts.named[name]
	ts.mu.Unlock()
	if nt != nil {
		if tab := nt.methods.Load(); tab != nil && tab.val.has("Error") {
			panic("errors.As: the target's type " + name + " got its Error method in a cell after the code calling errors.As was compiled, and the interpreter cannot compile that code again by itself; run its cell again")
		}
	}
	return errors.As(err, target)
}

// ErrorsAsKnown is errors.As with the test and store of each error in the
// chain (the value inside yaegi's wrapper) made by match, which knows only
// the cell types named in known (one a line): one it meets that is not
// among them stops the cell (a type a later cell declared, which may
// implement the interface the match asserts to). target goes to As
// methods.
func (ts *Types) ErrorsAsKnown(err error, target any, known string, match func(v any) bool) bool {
	names := map[string]bool{}
	for _, n := range strings.Split(known, "\n") {
		names[n] = true
	}
	return ts.errorsAs(err, target, names, match)
}

// errorsAs walks err's chain for errors.As (known: see ErrorsAsKnown).
func (ts *Types) errorsAs(err error, target any, known map[string]bool, match func(v any) bool) bool {
	return ts.walkErrors(err, func(err error) bool {
		if match(Unwrap(yaegiErrorValue(err))) {
			return true
		}
		if v, ms, ok := ts.errorMethods(err); ok {
			if name, t := ts.errorTypeName(err); known != nil && name != "" && !known[name] {
				panic("errors.As: the error's type " + t + " was declared after the function calling errors.As with an interface target; run that function's cell again")
			}
			return callBool(ms.as, v, reflect.ValueOf(&target).Elem())
		}
		x, ok := err.(interface{ As(any) bool })
		return ok && x.As(target)
	})
}

// ErrorsIs is errors.Is for interpreted error values: each conversion of
// one to error makes a new wrapper, so native errors.Is never finds a
// sentinel a cell declared, and it sees neither the Is nor the Unwrap
// methods of cell types. The values inside the wrappers are compared.
func (ts *Types) ErrorsIs(err, target error) bool {
	if err == nil || target == nil {
		return err == target
	}
	want := Unwrap(yaegiErrorValue(target))
	return ts.walkErrors(err, func(err error) bool {
		if sameValue(Unwrap(yaegiErrorValue(err)), want) {
			return true
		}
		if v, ms, ok := ts.errorMethods(err); ok {
			return ms.is.IsValid() && callBool(ms.is, v, reflect.ValueOf(&target).Elem())
		}
		x, ok := err.(interface{ Is(error) bool })
		return ok && x.Is(target)
	})
}

// ErrorsUnwrap is errors.Unwrap, calling a cell type's Unwrap method.
func (ts *Types) ErrorsUnwrap(err error) error {
	if v, ms, ok := ts.errorMethods(err); ok {
		if out, ok := call(ms.unwrap, v); ok {
			e, _ := out[0].Interface().(error)
			return e
		}
		return nil
	}
	return errors.Unwrap(err)
}

// errorTypeName is the name of err's cell type (a pointer's element
// type's), and the type; "" for none or a generic type.
func (ts *Types) errorTypeName(err error) (string, string) {
	v, t, _ := ts.resolve(reflect.ValueOf(&err).Elem(), &tinfo{kind: tkDynamic})
	if !v.IsValid() || t == nil {
		return "", ""
	}
	name := strings.TrimPrefix(t.str, "*")
	if strings.ContainsAny(name, "[ ") || !strings.HasPrefix(name, "main.") {
		return "", ""
	}
	return name, t.str
}

// errorMethods is the value in err and its type's methods, when err holds
// a value of a type cells declared.
func (ts *Types) errorMethods(err error) (reflect.Value, methodSet, bool) {
	if ts == nil {
		return reflect.Value{}, methodSet{}, false
	}
	v, t, _ := ts.resolve(reflect.ValueOf(&err).Elem(), &tinfo{kind: tkDynamic})
	if !v.IsValid() {
		return v, methodSet{}, false
	}
	ms, ok := t.methodSet()
	return v, ms, ok
}

// call calls a method closure of ms on v, or reports false when v cannot
// be its receiver.
func call(fn, v reflect.Value, args ...reflect.Value) ([]reflect.Value, bool) {
	if !fn.IsValid() || !v.Type().AssignableTo(fn.Type().In(0)) {
		return nil, false
	}
	return fn.Call(append([]reflect.Value{v}, args...)), true
}

func callBool(fn, v reflect.Value, args ...reflect.Value) bool {
	out, ok := call(fn, v, args...)
	return ok && out[0].Bool()
}

// walkErrors calls f on err and the errors it wraps, depth first, as
// errors.Is and errors.As visit them (Unwrap() error and Unwrap() []error,
// as errors.Join and fmt.Errorf with several %w make, and cell types'
// Unwrap methods), until f says done.
func (ts *Types) walkErrors(err error, f func(error) bool) bool {
	for err != nil {
		if f(err) {
			return true
		}
		var next any
		if v, ms, ok := ts.errorMethods(err); ok {
			if out, ok := call(ms.unwrap, v); ok {
				next = out[0].Interface()
			}
		} else if u, ok := err.(interface{ Unwrap() error }); ok {
			next = u.Unwrap()
		} else if u, ok := err.(interface{ Unwrap() []error }); ok {
			next = u.Unwrap()
		}
		switch u := next.(type) {
		case error:
			err = u
		case []error:
			for _, e := range u {
				if ts.walkErrors(e, f) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// NativeError returns v as an error when v needs no interpreted method
// to be one: nil, a native error, or a wrapper yaegi already built.
func NativeError(v any) error {
	e, _ := Unwrap(v).(error)
	return e
}

// IsNativeError tells whether v is an error without interpreted help.
func IsNativeError(v any) bool {
	u := Unwrap(v)
	_, ok := u.(error)
	return u == nil || ok
}

// WrapError builds yaegi's error wrapper (the type of like, a wrapper yaegi
// built for the same value) around the whole value v with its Error method
// msg. yaegi v0.16.1 builds it around the last field of a struct value
// (getConcreteValue), which breaks type assertions, type switches,
// errors.As and errors.Is on cell error types with value receivers.
func WrapError(v any, msg func() string, like error) error {
	w := reflect.ValueOf(like)
	// (v in the wrapper of another native interface, st.(error) of a
	// fmt.Stringer: the value in it, which e.(Pt) and errors.As look for)
	u := reflect.ValueOf(Unwrap(InWrapper(v)))
	if !w.IsValid() || w.Kind() != reflect.Struct || w.NumField() != 2 || w.Type().Field(0).Name != "IValue" || !u.IsValid() {
		return like
	}
	nw := reflect.New(w.Type()).Elem()
	nw.Field(0).Set(u)
	nw.Field(1).Set(reflect.ValueOf(msg))
	return nw.Interface().(error)
}

// CellError is v as an error when v is a value of a type cells declared
// with an Error method that the interpreter's own type switch missed (a
// value held in an interface without its type): yaegi's wrapper like
// like, bound to the method through the session's closures.
func (ts *Types) CellError(v any, like error) (error, bool) {
	e := ts.errorMethod(&typedArg{v: v, t: &tinfo{kind: tkDynamic}, ts: ts})
	if e == nil {
		return nil, false
	}
	return WrapError(v, e, like), true
}

// errorMethod is the Error method of a's value by the methods the
// session told the printer; nil if it has none.
func (ts *Types) errorMethod(a *typedArg) func() string {
	val, t, w := a.resolve()
	if !val.IsValid() {
		return nil
	}
	m, _ := methodsOf(ts, val, t, w)
	return m.error
}

// ErrorText is v's Error() when v is (or, Typed, holds) a value of a type
// cells declared with an Error method, by the methods the session told
// the printer: the interpreted helpers' type switch missed a pointer to a
// struct whose Error has a value receiver (a cell's trailing &E{4} was
// shown as text, not as the error it is).
func (ts *Types) ErrorText(v any) (string, bool) {
	e := ts.errorMethod(ts.typedOrDynamic(v))
	if e == nil {
		return "", false
	}
	return e(), true
}

// LacksError reports whether v is a value of a type cells declared that
// has no Error method, by the methods the session told the printer (of a
// type it was told none of, it says false). yaegi's type switch takes a
// value of a cell type with methods for an error when the type has as
// many methods as error, whichever they are (interp/run.go, typeAssert
// compares the counts first), and calling its Error panicked "method not
// found: Error"; its comma-ok assertion gets other values wrong.
func (ts *Types) LacksError(v any) bool {
	_, sets, ok := ts.methodSets(v)
	if !ok {
		return false
	}
	for _, s := range sets {
		if s.has("Error") {
			return false
		}
	}
	return true
}

// methodSets are the method sets the session told the printer of v's
// type, a type cells declared or a pointer to one (both of T's for a
// *T), with the type's name; ok is false for any other value, or one of
// a type the printer was told no methods of.
func (ts *Types) methodSets(v any) (name string, sets []methodSet, ok bool) {
	val, t, _ := (&typedArg{v: v, t: &tinfo{kind: tkDynamic}, ts: ts}).resolve()
	if !val.IsValid() || t == nil {
		return "", nil, false
	}
	switch {
	case t.named != nil:
		if tab := t.named.methods.Load(); tab != nil {
			return t.named.name, []methodSet{tab.val}, true
		}
	case t.kind == tkPointer && t.elem != nil && t.elem.named != nil:
		if tab := t.elem.named.methods.Load(); tab != nil {
			return "*" + t.elem.named.name, []methodSet{tab.val, tab.ptr}, true
		}
	}
	return "", nil, false
}

// Rewrap puts the whole of v in *p's wrapper, the one yaegi built to give
// v a native interface's methods (fmt.Stringer's): yaegi v0.16.1 puts
// there the last field of a struct value (getConcreteValue,
// interp/value.go:262), which fmt then printed as that field's value
// (with the String method of a cell type on its type). p is a pointer to
// a variable of the interface type; any other *p is left as it is.
// A native value (a *strings.Reader in a cell's interface that embeds
// io.Reader) goes in *p itself, as Go's conversion puts it: in the
// wrapper, which has only the interface's methods, asserting it to
// another interface it implements (rd.(io.Seeker)) failed.
func Rewrap(p, v any) {
	rp := reflect.ValueOf(p)
	if !rp.IsValid() || rp.Kind() != reflect.Pointer || rp.IsNil() || rp.Elem().Kind() != reflect.Interface || rp.Elem().IsNil() {
		return
	}
	rw := rp.Elem().Elem()
	u := reflect.ValueOf(Unwrap(v))
	if isWrapper(rw.Type()) && u.IsValid() && !Interpreted(u.Interface()) && !WrapperShape(u.Type()) && u.Type().Implements(rp.Elem().Type()) {
		rp.Elem().Set(u)
		return
	}
	if !isWrapper(rw.Type()) || !u.IsValid() || !u.Type().AssignableTo(rw.Type().Field(0).Type) {
		return
	}
	cp := reflect.New(rw.Type()).Elem()
	cp.Set(rw)
	cp.Field(0).Set(u)
	rp.Elem().Set(cp)
}

// RewrapBox puts box, a value of a cell type on a basic type, an array, a
// slice or a map in the interpreter's box (handed over from a variable of
// type any, which keeps it), in *p's wrapper in place of the bare value
// yaegi put there (genInterfaceWrapper takes the value out of its box):
// the box names the type, so an assertion back to it, %T and a type
// switch see it (a Pos in an encoding.TextMarshaler, asserted tm.(Pos),
// was the zero value and false). Anything else leaves *p as it is.
func RewrapBox(p, box any) {
	rp := reflect.ValueOf(p)
	if !rp.IsValid() || rp.Kind() != reflect.Pointer || rp.IsNil() || rp.Elem().Kind() != reflect.Interface || rp.Elem().IsNil() {
		return
	}
	rw, bv := rp.Elem().Elem(), reflect.ValueOf(box)
	if !isWrapper(rw.Type()) || !bv.IsValid() || !isBox(bv.Type()) {
		return
	}
	if inner, _, ok := unbox(bv); !ok || inner.Kind() == reflect.Struct || inner.Kind() == reflect.Pointer {
		return
	}
	cp := reflect.New(rw.Type()).Elem()
	cp.Set(rw)
	cp.Field(0).Set(bv)
	rp.Elem().Set(cp)
}

// InWrapper is v for an assertion to a cell's struct type: when v is a
// wrapper for a native interface (yaegi's, the runtime's composed ones),
// the value in it, which Rewrap made whole (a
// cell's struct value stored in a fmt.Stringer or a games.Game, asserted
// back to its type through any); otherwise v.
func InWrapper(v any) any {
	v = resultWrapped(v)
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || !WrapperShape(rv.Type()) || rv.Field(0).Kind() != reflect.Interface || rv.Field(0).IsNil() {
		return v
	}
	return rv.Field(0).Elem().Interface()
}

// WrapNil makes *p, a variable of a native interface type, hold v, a nil
// pointer, slice or map of a type cells declare: yaegi v0.16.1 converts
// such a value to a nil interface (interp/run.go:1089,
// genInterfaceWrapper), so s == nil was true where Go's s holds a typed
// nil and calls its methods. like is a non-nil value of v's type that
// yaegi converted to the interface: its wrapper is copied with v in it and
// each method field set to the function of fns of the same name (names),
// which calls the method on v. Anything else leaves *p as it is.
func WrapNil(p, like, v any, names []string, fns ...any) {
	rp := reflect.ValueOf(p)
	lw := reflect.ValueOf(like)
	if !rp.IsValid() || rp.Kind() != reflect.Pointer || rp.IsNil() || rp.Elem().Kind() != reflect.Interface ||
		!lw.IsValid() || !isWrapper(lw.Type()) || len(names) != len(fns) || !lw.Type().AssignableTo(rp.Elem().Type()) {
		return
	}
	w := reflect.New(lw.Type()).Elem()
	if u := reflect.ValueOf(Unwrap(v)); u.IsValid() && u.Type().AssignableTo(w.Field(0).Type()) {
		w.Field(0).Set(u)
	}
	for i := 1; i < w.NumField(); i++ {
		f := w.Field(i)
		name := lw.Type().Field(i).Name[1:] // yaegi's fields are the method names after one letter
		for j, n := range names {
			if fn := reflect.ValueOf(fns[j]); n == name && fn.IsValid() && fn.Type().AssignableTo(f.Type()) {
				f.Set(fn)
			}
		}
		if f.IsNil() {
			return // a method without its function: yaegi's conversion stands
		}
	}
	rp.Elem().Set(w)
}

// mapKey is a value of an interface type as a map compares it: its
// dynamic type's name as the interpreter writes it and its value.
type mapKey struct {
	typ string
	val any
}

// InternAnyKey is *p = AnyKey(*p) and InternKey(p) for p a *any, in one
// call: a key of a map keyed by any (see compat's ifaceKeys).
func (ts *Types) InternAnyKey(p *any) {
	if p == nil {
		return
	}
	*p = AnyKey(*p)
	ts.InternKey(p)
}

// InternKey makes *p, a value of an interface type a cell declared, the
// first value equal to it that InternKey was given: yaegi v0.16.1 keeps
// such a value as a wrapper with the node that made it (valueInterface),
// which a map hashes and compares whole, so equal keys made in two places
// were two keys (also inside a struct: Sum{A, B Game}, see deepKey).
// Given the same wrapper each time, the map finds them. Of a struct or
// array holding such values (a map[Sum]int's key), each is made so. A
// value whose type cannot be a map key panics, as Go's map does.
func (ts *Types) InternKey(p any) {
	rp := reflect.ValueOf(p)
	if !rp.IsValid() || rp.Kind() != reflect.Pointer || rp.IsNil() {
		return
	}
	if rp.Elem().Kind() == reflect.Interface {
		// A key of a map keyed by any: a box of a value of a cell type
		// on a basic type is made the first equal one, and so is each
		// interface in a struct or array (Box{Inner Game} in a
		// map[any]int memo), interned as a copy.
		if e := rp.Elem(); !e.IsNil() && (isBox(e.Elem().Type()) || holdsIfaces(e.Elem().Type())) {
			cp := reflect.New(e.Elem().Type())
			cp.Elem().Set(e.Elem())
			ts.InternKey(cp.Interface())
			e.Set(cp.Elem())
		}
		return
	}
	if !isBox(rp.Type().Elem()) {
		if holdsIfaces(rp.Type().Elem()) {
			ts.internInside(rp.Elem())
		}
		return
	}
	box := rp.Elem()
	v, name, ok := unbox(box)
	if !ok || !v.CanInterface() {
		return
	}
	if _, t := ts.dynamic(box.Interface()); t != nil && t.str != "" {
		name = t.str // (a box made by an index expression has no name of its own)
	}
	key := mapKey{name, CompareKey(v.Interface())}
	if key.val != nil && !reflect.TypeOf(key.val).Comparable() {
		panic(runtimeError("hash of unhashable type " + name))
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if first, ok := ts.keys[key]; ok {
		box.Set(first)
		return
	}
	first := detached(box, v)
	box.Set(first)
	ts.keys[key] = first
}

// AtomicStore panics as atomic.Value's Store and Swap (op: "store",
// "swap") do when v, the
// value to store, is of another type than the one av holds: the
// interpreter hands them values of cell types in its boxes, one native
// type for all (a Row's and a []Nimber's), so the Value itself could not
// tell them apart.
func (ts *Types) AtomicStore(av *atomic.Value, v any, op string) {
	old := av.Load()
	if old == nil || v == nil {
		return
	}
	_, ot := ts.dynamic(old)
	_, nt := ts.dynamic(v)
	if ot != nil && nt != nil && ot.str != nt.str {
		panic("sync/atomic: " + op + " of inconsistently typed value into Value")
	}
}

// AtomicCompare panics as atomic.Value's CompareAndSwap does when old
// and new, both non-nil, are of different types (of cell types the
// interpreter hands it in one native box type, which it could not tell
// apart: CompareAndSwap(A("x"), B("y")) stored the B).
func (ts *Types) AtomicCompare(old, new any) {
	if old == nil || new == nil {
		return
	}
	_, ot := ts.dynamic(old)
	_, nt := ts.dynamic(new)
	if ot != nil && nt != nil && ot.str != nt.str {
		panic("sync/atomic: compare and swap of inconsistently typed values")
	}
}

// internInside interns, in place, the interface values inside v, a key
// of a map keyed by a struct or array holding them (Sum{A, B Game}): the
// map compares the boxes in its keys as it compares a box it is keyed by.
func (ts *Types) internInside(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		if isBox(v.Type()) {
			if v.CanAddr() && v.CanInterface() {
				ts.InternKey(v.Addr().Interface())
			}
			return
		}
		for i := range v.NumField() {
			if f := v.Field(i); holdsIfaces(f.Type()) {
				ts.internInside(f)
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			ts.internInside(v.Index(i))
		}
	case reflect.Interface:
		if v.CanAddr() && v.CanInterface() {
			ts.InternKey(v.Addr().Interface())
		}
	}
}

// CompareKey is what == compares for a value in an interface: the value
// inside yaegi's wrappers (valueInterface, and the wrappers that give an
// interpreted value a native interface's methods, error's or
// fmt.Stringer's: structs named _pkg_Iface with the value in IValue), or
// the native value itself; a struct or array holding interfaces as
// deepKey writes it.
func CompareKey(v any) any { return deepKey(unwrapped(v)) }

// AnyKey is v as a key of a map keyed by any: the value inside yaegi's
// wrappers (see CompareKey), which Go's map would hold. A wrapper that
// gives a cell's value a native interface's methods (fmt.Stringer's,
// error's) is a struct of function fields the map cannot hash ("hash of
// unhashable type: stdlib._fmt_Stringer"), and one of a cell's interface
// is compared by where it was made. A value of a cell type on a basic
// type stays in its box, which names its type (Nimber(1) and 1 are two
// keys); the pass then makes it the first box of an equal value (see
// InternKey), in interpreted code: a box a native function returns is
// boxed again. A pointer (to a cell's struct with methods, which yaegi
// boxes) is taken out of its box, as an index expression's m[b1] holds
// it: its type is in its struct's reflect type.
func AnyKey(v any) any {
	rv := reflect.ValueOf(v)
	if rv.IsValid() && isWrapper(rv.Type()) {
		if f := rv.Field(0); f.CanInterface() {
			rv = reflect.ValueOf(f.Interface())
		}
	}
	if rv.IsValid() && isBox(rv.Type()) {
		if inner, _, ok := unbox(rv); ok && inner.Kind() != reflect.Struct && inner.Kind() != reflect.Pointer {
			return rv.Interface()
		}
	}
	return unwrapped(v)
}

// unwrapped is the value inside yaegi's wrappers of v.
func unwrapped(v any) any {
	u := Unwrap(v)
	for range 8 {
		rv := reflect.ValueOf(u)
		if rv.Kind() == reflect.Pointer && !rv.IsNil() {
			rv = rv.Elem()
		}
		if rv.Kind() != reflect.Struct || rv.Type().PkgPath() == "" || !strings.HasPrefix(rv.Type().Name(), "_") {
			break
		}
		f := rv.FieldByName("IValue")
		if !f.IsValid() || !f.CanInterface() {
			break
		}
		u = Unwrap(f.Interface())
	}
	return u
}

// sameValue is a == b for values of one comparable type.
func sameValue(a, b any) (same bool) {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta == nil || ta != tb || !ta.Comparable() {
		return false
	}
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(runtime.Error); ok && strings.HasPrefix(e.Error(), "runtime error: comparing uncomparable") {
				panic(r) // (Go's errors.Is compares with ==, which panics so)
			}
			same = false
		}
	}()
	if holdsIfaces(ta) {
		// (interfaces inside, holding the interpreter's boxes: two
		// E{Nim(3)} made apart have two boxes, which == told apart)
		return Equal(a, b)
	}
	return a == b
}

// yaegiErrorValue returns the interpreted value inside yaegi's error
// wrapper (a struct with the value in field IValue), or err itself.
func yaegiErrorValue(err error) any {
	if b, ok := err.(*boxedError); ok {
		return b.IValue
	}
	rv := reflect.ValueOf(err)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	// (error's wrapper, or another native interface's: a runtime.Error
	// or a net.Error holding a cell's value.)
	if rv.Kind() == reflect.Struct && (rv.Type().PkgPath() == yaegiInterp || isWrapper(rv.Type())) {
		if f := rv.FieldByName("IValue"); f.IsValid() && f.CanInterface() {
			return f.Interface()
		}
	}
	return err
}

// boxedError is a value of a cell's error type that reached Errorf's %w
// in an interface without methods (var a any = C(1); fmt.Errorf("%w",
// a), or recover()'s value): yaegi's box, which native code does not see
// as an error. It is the error Errorf wraps, its text the type's Error
// method, its value the box (see yaegiErrorValue), for errors.Is and As.
type boxedError struct {
	IValue any
	text   func() string
}

func (e *boxedError) Error() string { return e.text() }

// cellErrorArg is a, Typed, as a boxedError when it holds a value of a
// cell type with an Error method; nil otherwise.
func cellErrorArg(a any) error {
	ta, ok := a.(*typedArg)
	if !ok || ta.ts == nil {
		return nil
	}
	text := ta.ts.errorMethod(&typedArg{v: ta.v, t: &tinfo{kind: tkDynamic}, ts: ta.ts})
	if text == nil {
		return nil
	}
	return &boxedError{IValue: ta.v, text: text}
}
