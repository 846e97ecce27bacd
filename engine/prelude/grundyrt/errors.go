package grundyrt

import (
	"errors"
	"reflect"
)

var errorType = reflect.TypeFor[error]()

// ErrorsAs is errors.As for interpreted error types: native errors.As
// sees yaegi's wrapper instead of the cell's type.
func ErrorsAs(err error, target any) bool {
	tv := reflect.ValueOf(Unwrap(target))
	if !tv.IsValid() || tv.Kind() != reflect.Pointer || tv.IsNil() {
		panic("errors: target must be a non-nil pointer")
	}
	want := tv.Type().Elem()
	return walkErrors(err, func(err error) bool {
		cand := Unwrap(yaegiErrorValue(err))
		if cv := reflect.ValueOf(cand); cv.IsValid() && cv.Type().AssignableTo(want) {
			tv.Elem().Set(cv)
			return true
		}
		// Native errors.As panics on targets of cell types (their
		// methods are invisible to it).
		return (want.Kind() == reflect.Interface || want.Implements(errorType)) && errors.As(err, target)
	})
}

// walkErrors calls f on err and the errors it wraps, depth first, as
// errors.Is and errors.As visit them (Unwrap() error and Unwrap() []error,
// as errors.Join and fmt.Errorf with several %w make), until f says done.
func walkErrors(err error, f func(error) bool) bool {
	for err != nil {
		if f(err) {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if walkErrors(e, f) {
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
	u := reflect.ValueOf(Unwrap(v))
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
	val, t, w := (&typedArg{v: v, t: &tinfo{kind: tkDynamic}, ts: ts}).resolve()
	if !val.IsValid() {
		return nil, false
	}
	m, _ := methodsOf(ts, val, t, w)
	if m.error == nil {
		return nil, false
	}
	return WrapError(v, m.error, like), true
}

// ErrorKey is what == compares for an error: the value inside yaegi's
// wrapper, or the native error itself.
func ErrorKey(v any) any {
	u := Unwrap(v)
	if e, ok := u.(error); ok {
		return Unwrap(yaegiErrorValue(e))
	}
	return u
}

// ErrorsIs is errors.Is for interpreted error values: each conversion of
// one to error makes a new wrapper, so native errors.Is never finds a
// sentinel a cell declared. The values inside the wrappers are compared.
func ErrorsIs(err, target error) bool {
	if errors.Is(err, target) {
		return true
	}
	if err == nil || target == nil {
		return false
	}
	want := Unwrap(yaegiErrorValue(target))
	return walkErrors(err, func(err error) bool {
		return sameValue(Unwrap(yaegiErrorValue(err)), want)
	})
}

// sameValue is a == b for values of one comparable type.
func sameValue(a, b any) (same bool) {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta == nil || ta != tb || !ta.Comparable() {
		return false
	}
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

// yaegiErrorValue returns the interpreted value inside yaegi's error
// wrapper (a struct with the value in field IValue), or err itself.
func yaegiErrorValue(err error) any {
	rv := reflect.ValueOf(err)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() == reflect.Struct && rv.Type().PkgPath() == "github.com/traefik/yaegi/interp" {
		if f := rv.FieldByName("IValue"); f.IsValid() && f.CanInterface() {
			return f.Interface()
		}
	}
	return err
}
