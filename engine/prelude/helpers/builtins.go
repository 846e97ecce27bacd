package helpers

import "grundy/engine/prelude/grundyrt"

// The builtins of Go 1.21 that yaegi v0.16.1 lacks (min, max, clear),
// declared where cells see them. The compatibility passes put a typed
// argument first in min and max: yaegi infers T from the first.

type _grundyOrdered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

// min and max take every argument in one slice: yaegi v0.16.1 passes a
// -0 argument as +0 (a zero argument is not copied at all), which would
// lose min(-0.0, 0.0) = -0.0; elements of a slice keep their sign.
func min[_grundyT _grundyOrdered](xs ..._grundyT) _grundyT {
	m := 0
	for i := 1; i < len(xs) && xs[m] == xs[m]; i++ {
		if xs[i] != xs[i] || xs[i] < xs[m] || xs[i] == xs[m] && grundyrt.SignbitAt(xs, i) {
			m = i
		}
	}
	return xs[m]
}

func max[_grundyT _grundyOrdered](xs ..._grundyT) _grundyT {
	m := 0
	for i := 1; i < len(xs) && xs[m] == xs[m]; i++ {
		if xs[i] != xs[i] || xs[i] > xs[m] || xs[i] == xs[m] && grundyrt.SignbitAt(xs, m) {
			m = i
		}
	}
	return xs[m]
}

func clear[_grundyT any](x _grundyT) { grundyrt.Clear(x) }

// The checks of compat's bounds pass: the interpreter's own panics for an
// index or slice bound out of range carry neither the index nor the
// length, and it shifts by a negative count.

// _grundyIndex is an index i of a value of length n, checked as Go checks
// it, where no statement can check it first (a loop's condition, the
// right of && or ||).
func _grundyIndex(i, n int) int {
	if i < 0 || i >= n {
		_grundyOutOfRange(i, n)
	}
	return i
}

// _grundyShiftCount is a signed shift count checked likewise.
func _grundyShiftCount(k int64) uint64 {
	if k < 0 {
		_grundyNegShift()
	}
	return uint64(k)
}

func _grundyOutOfRange(i any, n int) { panic(grundyrt.IndexError(i, n)) }

func _grundySliceBounds(lo, hi, max any, n int, capacity bool) {
	panic(grundyrt.SliceError(lo, hi, max, n, capacity))
}

func _grundyNegShift() { panic(grundyrt.ShiftError()) }

// _grundyIsNil is any(x) == nil (compat's nilCompares): x given an
// interface's place as an argument is the interface Go makes.
func _grundyIsNil(v any) bool { return v == nil }

// _grundyInternAny is k as a key of a map keyed by any (compat's
// ifaceKeys): out of yaegi's wrappers and the first key equal to it, in
// a declared function (a function literal at each key cost a closure).
func _grundyInternAny(k any) any {
	grundyrt.InternAnyKey(&k)
	return k
}

// _grundyInWrapper and _grundyUnwrap are grundyrt's InWrapper and Unwrap
// for the subject of an assertion (compat's structAsserts, inCellIface),
// returned by an interpreted function: yaegi v0.16.1 stores a native
// call's result in a slot that, once it held one of its boxes, boxes
// every later result too (interp/run.go, callBin: "dest.Interface().(
// valueInterface)"), so x.(P) of a P asserted the box, false, from the
// second time round a loop over []any{Level(2), P{1}}.
func _grundyInWrapper(v any) any {
	r := grundyrt.InWrapper(v)
	return r
}

func _grundyUnwrap(v any) any {
	r := grundyrt.Unwrap(v)
	return r
}
