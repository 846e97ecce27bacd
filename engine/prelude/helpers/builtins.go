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
