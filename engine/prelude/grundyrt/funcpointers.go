package grundyrt

import (
	"errors"
	"reflect"
	"runtime"
)

// makeFuncStub is the code pointer reflect gives every function made with
// reflect.MakeFunc, which is how yaegi v0.16.1 hands native code each
// interpreted function (see compat's funcPointers).
var makeFuncStub = reflect.MakeFunc(reflect.TypeFor[func()](), func([]reflect.Value) []reflect.Value { return nil }).Pointer()

// errFuncPointer is the panic of ValuePointer for an interpreted function.
var errFuncPointer = errors.New("reflect.Value.Pointer of a function the cells wrote: the interpreter's functions all share one code pointer (reflect.makeFuncStub), so it cannot tell them apart or name them; keep a name beside each function (a map[string]func... or a struct with a name field) and compare or print that")

// ValuePointer is v.Pointer() where v, from an interface, may hold a
// function the cells wrote: for one, whose pointer names no function (the
// shared reflect.makeFuncStub, or what yaegi keeps in an interface, where
// runtime.FuncForPC found nothing and the name printed was ""), it panics
// saying so.
func ValuePointer(v reflect.Value) uintptr {
	p := v.Pointer()
	if v.Kind() == reflect.Func && (p == makeFuncStub || runtime.FuncForPC(p) == nil) {
		panic(errFuncPointer)
	}
	return p
}
