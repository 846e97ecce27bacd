package helpers

import "grundy/engine/prelude/grundyrt"

// The builtins of Go 1.21 that yaegi v0.16.1 lacks (min, max, clear),
// declared where cells see them. The compatibility passes put a typed
// argument first in min and max: yaegi infers T from the first.

type _grundyOrdered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

func min[_grundyT _grundyOrdered](x _grundyT, y ..._grundyT) _grundyT {
	for _, v := range y {
		if v < x || v != v {
			x = v
		}
	}
	return x
}

func max[_grundyT _grundyOrdered](x _grundyT, y ..._grundyT) _grundyT {
	for _, v := range y {
		if v > x || v != v {
			x = v
		}
	}
	return x
}

func clear[_grundyT any](x _grundyT) { grundyrt.Clear(x) }
