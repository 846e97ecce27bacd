// Package cmp is the engine's cmp, interpreted in every session in place of
// the standard package: yaegi v0.16.1 cannot take generic functions from
// compiled code (its symbol tables hold none), so generic packages reach
// cells as source. The loader compiles it under the import path "cmp".
package cmp

type Ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

func Less[T Ordered](x, y T) bool { return (x != x && y == y) || x < y }

func Compare[T Ordered](x, y T) int {
	xNaN := x != x
	yNaN := y != y
	if xNaN {
		if yNaN {
			return 0
		}
		return -1
	}
	if yNaN {
		return +1
	}
	if x < y {
		return -1
	}
	if x > y {
		return +1
	}
	return 0
}

func Or[T comparable](vals ...T) T {
	var zero T
	for _, v := range vals {
		if v != zero {
			return v
		}
	}
	return zero
}
