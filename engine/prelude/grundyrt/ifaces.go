package grundyrt

import (
	"fmt"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Interfaces for the method sets cells assert values to by interfaces of
// their own (err.(interface{ Unwrap() []error })): the interpreter cannot
// put a native value in an interface type a cell declares, but can in a
// native one, and the value converts from there. The compatibility
// passes pick the one with the same method set (typeswitches.go).
type (
	UnwrapErrors interface{ Unwrap() []error }
	UnwrapError  interface{ Unwrap() error }
	IsError      interface{ Is(error) bool }
	AsTarget     interface{ As(any) bool }
	Timeouter    interface{ Timeout() bool }
	Temporary    interface{ Temporary() bool }
	Lener        interface{ Len() int }
	// RuntimeErrorer: a run-time error's mark, asked of a recovered
	// value (errors.As(err, &re), re an interface{ RuntimeError() });
	// the runtime's error types are unexported.
	RuntimeErrorer interface{ RuntimeError() }
)

// ifaceTable is the interfaces as the interpreter's tables list them,
// with the wrappers yaegi builds around interpreted values that implement
// them.
func ifaceTable() map[string]reflect.Value {
	return map[string]reflect.Value{
		"UnwrapErrors":    reflect.ValueOf((*UnwrapErrors)(nil)),
		"_UnwrapErrors":   reflect.ValueOf((*_UnwrapErrors)(nil)),
		"UnwrapError":     reflect.ValueOf((*UnwrapError)(nil)),
		"_UnwrapError":    reflect.ValueOf((*_UnwrapError)(nil)),
		"IsError":         reflect.ValueOf((*IsError)(nil)),
		"_IsError":        reflect.ValueOf((*_IsError)(nil)),
		"AsTarget":        reflect.ValueOf((*AsTarget)(nil)),
		"_AsTarget":       reflect.ValueOf((*_AsTarget)(nil)),
		"Timeouter":       reflect.ValueOf((*Timeouter)(nil)),
		"_Timeouter":      reflect.ValueOf((*_Timeouter)(nil)),
		"Temporary":       reflect.ValueOf((*Temporary)(nil)),
		"_Temporary":      reflect.ValueOf((*_Temporary)(nil)),
		"Lener":           reflect.ValueOf((*Lener)(nil)),
		"_Lener":          reflect.ValueOf((*_Lener)(nil)),
		"RuntimeErrorer":  reflect.ValueOf((*RuntimeErrorer)(nil)),
		"_RuntimeErrorer": reflect.ValueOf((*_RuntimeErrorer)(nil)),
	}
}

// The wrappers, in the form yaegi's symbol extraction writes them: the
// interpreted value, and its methods as functions.

type _UnwrapErrors struct {
	IValue  any
	WUnwrap func() []error
}

func (w _UnwrapErrors) Unwrap() []error { return w.WUnwrap() }

type _UnwrapError struct {
	IValue  any
	WUnwrap func() error
}

func (w _UnwrapError) Unwrap() error { return w.WUnwrap() }

type _IsError struct {
	IValue any
	WIs    func(error) bool
}

func (w _IsError) Is(target error) bool { return w.WIs(target) }

type _AsTarget struct {
	IValue any
	WAs    func(any) bool
}

func (w _AsTarget) As(target any) bool { return w.WAs(target) }

type _Timeouter struct {
	IValue   any
	WTimeout func() bool
}

func (w _Timeouter) Timeout() bool { return w.WTimeout() }

type _Temporary struct {
	IValue     any
	WTemporary func() bool
}

func (w _Temporary) Temporary() bool { return w.WTemporary() }

type _Lener struct {
	IValue any
	WLen   func() int
}

func (w _Lener) Len() int { return w.WLen() }

type _RuntimeErrorer struct {
	IValue        any
	WRuntimeError func()
}

func (w _RuntimeErrorer) RuntimeError() { w.WRuntimeError() }

// AssertPanic panics as a failed v.(I) does in Go, I being an interface
// type a cell declares (named iface) with the given methods: the
// interpreter's own assertion was not used.
func (ts *Types) AssertPanic(v any, iface string, methods []string) {
	missing := ""
	if t := reflect.TypeOf(Unwrap(v)); t != nil {
		for _, m := range methods {
			if _, ok := t.MethodByName(m); !ok {
				missing = m
				break
			}
		}
	}
	panic(ts.AssertionError(Unwrap(v), iface, missing))
}

// NativeMethods stops a cell, rather than let it go on wrongly, when v is
// a native value with the methods of iface, an interface type a cell
// declares with no native twin (time.Duration asserted to
// interface{ Hours() float64 }): the interpreter cannot put a native value
// in it, so the assertion said false where Go says true. Otherwise false.
func NativeMethods(v any, iface string, methods []string) bool {
	u := Unwrap(v)
	t := reflect.TypeOf(u)
	if t == nil || len(methods) == 0 {
		return false
	}
	if named := t; named.Kind() != reflect.Pointer && named.PkgPath() == "" || named.Kind() == reflect.Pointer && named.Elem().PkgPath() == "" {
		return false // the interpreter's own types have no names
	}
	for _, m := range methods {
		if _, ok := t.MethodByName(m); !ok {
			return false
		}
	}
	itself := "assert to " + t.String() + " itself, or"
	if name := strings.TrimLeft(t.String(), "*"); !token.IsExported(name[strings.LastIndex(name, ".")+1:]) {
		itself = "assert" // the type cannot be named (runtime.boundsError)
	}
	panic(fmt.Sprintf("cannot assert a %s to %s here: this interpreter cannot put a value of a library type in an interface a cell declares; %s to an interface of the library with the methods %s", t, iface, itself, strings.Join(methods, ", ")))
}

// NativeIn reports whether v is a native value of one of the types names
// lists, each as "path.Name" or "*path.Name" on a line of its own (names
// begins and ends with a newline): one call tells an assertion to an
// interface a cell declares whether the library types it tries next can
// hold the value, rather than a try for each (see nativeImplementers).
func NativeIn(v any, names string) bool {
	t := reflect.TypeOf(Unwrap(v))
	if t == nil {
		return false
	}
	star := ""
	if t.Kind() == reflect.Pointer {
		star, t = "*", t.Elem()
	}
	if t.PkgPath() == "" {
		return false
	}
	key := "\n" + star + t.PkgPath() + "." + t.Name() + "\n"
	return strings.Contains(names, key)
}

// LaterMethods stops a cell, rather than let it go on wrongly, when v is
// a value of a type cells declared that has the methods of an interface
// but is not among the types that had them when the assertion was
// compiled, which it asserts by name before asking the interpreter: a
// later cell declared the type, or gave it the methods, after the code
// asserting v was compiled (a method, a function a method calls, a
// function literal or value kept from before), so the interpreter's own
// assertion, which that code falls back on, said no where Go says yes
// (or said yes and gave nil). Otherwise false. assertion is the
// interface's name, its methods (a name and a signature each: compat's
// methodSignature) and the types that had them, a line each, the parts
// apart by an empty line (one constant, parsed once: the check is made
// on each value not one of those types).
func (ts *Types) LaterMethods(v any, assertion string) bool {
	if !Interpreted(v) {
		return false // (a library value: quickly)
	}
	name, sets, ok := ts.methodSets(v)
	if !ok {
		return false
	}
	a := laterAssertion(assertion)
	base := strings.TrimPrefix(name, "*")
	if slices.Contains(a.known, base) {
		return false
	}
	for _, m := range a.methods {
		name, sig, _ := strings.Cut(m, " ")
		if !slices.ContainsFunc(sets, func(s methodSet) bool {
			// (A method with a signature on record has to have the
			// interface's; the others are the ones fmt, errors and
			// json call, recorded only with theirs.)
			got, recorded := s.sigs[name]
			return s.has(name) && (!recorded || got == sig)
		}) {
			return false
		}
	}
	if strings.Contains(base, "[") {
		panic(fmt.Sprintf("cannot assert a %s to %s here: this code was compiled before a cell made the instance %s, and the interpreter cannot compile it again by itself; run this code's cell again",
			name, a.iface, base))
	}
	panic(fmt.Sprintf("cannot assert a %s to %s here: this code was compiled in a cell before %s had the methods, and the interpreter cannot compile it again by itself; run this code's cell again, after %s's",
		name, a.iface, base, base))
}

type lateAssertion struct {
	iface          string
	methods, known []string
}

var lateAssertions sync.Map // string -> *lateAssertion

func laterAssertion(s string) *lateAssertion {
	if a, ok := lateAssertions.Load(s); ok {
		return a.(*lateAssertion)
	}
	parts := strings.SplitN(s, "\n\n", 3)
	for len(parts) < 3 {
		parts = append(parts, "")
	}
	a := &lateAssertion{iface: parts[0], known: strings.Fields(parts[2])}
	if parts[1] != "" {
		a.methods = strings.Split(parts[1], "\n")
	}
	lateAssertions.Store(s, a)
	return a
}
