package slices

import (
	"math"
	"reflect"

	"grundy/engine/prelude/grundyrt"

	"grundy/engine/prelude/std/cmp"
)

// The sorts are Go's own, run natively (grundyrt's sort.go), so equal
// elements end up where Go puts them and a comparison function sees the
// calls it would see in Go. (cmp.Less is written out in the comparisons
// of IsSorted and BinarySearch: a call per comparison costs the
// interpreter more than the comparison.)

func Sort[S ~[]E, E cmp.Ordered](x S) { grundyrt.SortOrdered(x) }

func SortFunc[S ~[]E, E any](x S, cmp func(a, b E) int) { grundyrt.SortFunc(x, cmp) }

func SortStableFunc[S ~[]E, E any](x S, cmp func(a, b E) int) { grundyrt.SortStableFunc(x, cmp) }

func IsSorted[S ~[]E, E cmp.Ordered](x S) bool {
	for i := len(x) - 1; i > 0; i-- {
		if x[i] < x[i-1] || x[i] != x[i] && x[i-1] == x[i-1] {
			return false
		}
	}
	return true
}

func IsSortedFunc[S ~[]E, E any](x S, cmp func(a, b E) int) bool {
	for i := len(x) - 1; i > 0; i-- {
		if cmp(x[i], x[i-1]) < 0 {
			return false
		}
	}
	return true
}

// Min and Max are the builtins min and max over the elements: a NaN
// anywhere wins, and -0 is less than +0. (The comparisons are inline:
// yaegi v0.16.1 passes a -0 argument to an interpreted function as +0.)
func Min[S ~[]E, E cmp.Ordered](x S) E {
	if len(x) < 1 {
		panic("slices.Min: empty list")
	}
	m := 0
	for i := 1; i < len(x) && x[m] == x[m]; i++ {
		if x[i] != x[i] || x[i] < x[m] || x[i] == x[m] && negativeZero(x, i) {
			m = i
		}
	}
	return x[m]
}

func Max[S ~[]E, E cmp.Ordered](x S) E {
	if len(x) < 1 {
		panic("slices.Max: empty list")
	}
	m := 0
	for i := 1; i < len(x) && x[m] == x[m]; i++ {
		if x[i] != x[i] || x[i] > x[m] || x[i] == x[m] && negativeZero(x, m) {
			m = i
		}
	}
	return x[m]
}

// negativeZero reports whether x[i] is a floating-point -0, which equals
// +0 but is what min picks and max does not.
func negativeZero[E cmp.Ordered](x []E, i int) bool {
	var zero E
	if x[i] != zero {
		return false
	}
	e := reflect.ValueOf(x).Index(i)
	switch e.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Signbit(e.Float())
	}
	return false
}

func MinFunc[S ~[]E, E any](x S, cmp func(a, b E) int) E {
	if len(x) < 1 {
		panic("slices.MinFunc: empty list")
	}
	m := x[0]
	for i := 1; i < len(x); i++ {
		if cmp(x[i], m) < 0 {
			m = x[i]
		}
	}
	return m
}

func MaxFunc[S ~[]E, E any](x S, cmp func(a, b E) int) E {
	if len(x) < 1 {
		panic("slices.MaxFunc: empty list")
	}
	m := x[0]
	for i := 1; i < len(x); i++ {
		if cmp(x[i], m) > 0 {
			m = x[i]
		}
	}
	return m
}

func BinarySearch[S ~[]E, E cmp.Ordered](x S, target E) (int, bool) {
	n := len(x)
	i, j := 0, n
	for i < j {
		h := int(uint(i+j) >> 1)
		if x[h] < target || x[h] != x[h] && target == target {
			i = h + 1
		} else {
			j = h
		}
	}
	return i, i < n && (x[i] == target || x[i] != x[i] && target != target)
}

func BinarySearchFunc[S ~[]E, E, T any](x S, target T, cmp func(E, T) int) (int, bool) {
	n := len(x)
	i, j := 0, n
	for i < j {
		h := int(uint(i+j) >> 1)
		if cmp(x[h], target) < 0 {
			i = h + 1
		} else {
			j = h
		}
	}
	return i, i < n && cmp(x[i], target) == 0
}
