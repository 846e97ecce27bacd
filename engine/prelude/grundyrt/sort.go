package grundyrt

import (
	"math"
	"reflect"
	"sort"
)

// The engine's slices sorts with these, and so runs Go's own algorithms:
// sort.Slice and sort.SliceStable are generated from the same template as
// slices.SortFunc and slices.SortStableFunc (a pattern-defeating
// quicksort; insertion sort in blocks merged by SymMerge), comparing the
// same pairs in the same order. So equal elements end up where Go puts
// them, a comparison function sees the calls it would see in Go, and only
// the comparisons run in the interpreter.

// SortFunc is slices.SortFunc of the slice x by cmp, a func(a, b E) int.
func SortFunc(x, cmp any) {
	xv, less := byCmp(x, cmp)
	sort.Slice(xv.Interface(), less)
}

// SortStableFunc is slices.SortStableFunc.
func SortStableFunc(x, cmp any) {
	xv, less := byCmp(x, cmp)
	sort.SliceStable(xv.Interface(), less)
}

func byCmp(x, cmp any) (reflect.Value, func(i, j int) bool) {
	xv := reflect.ValueOf(Unwrap(x))
	cv := reflect.ValueOf(Unwrap(cmp))
	args := make([]reflect.Value, 2)
	return xv, func(i, j int) bool {
		args[0], args[1] = xv.Index(i), xv.Index(j)
		return cv.Call(args)[0].Int() < 0
	}
}

// SortOrdered is slices.Sort of a slice of an ordered type, natively: by
// cmp.Less (a NaN before any number, -0 equal to +0), whatever the
// element type is named.
func SortOrdered(x any) {
	xv := reflect.ValueOf(Unwrap(x))
	var less func(i, j int) bool
	switch xv.Type().Elem().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		less = func(i, j int) bool { return xv.Index(i).Int() < xv.Index(j).Int() }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		less = func(i, j int) bool { return xv.Index(i).Uint() < xv.Index(j).Uint() }
	case reflect.Float32, reflect.Float64:
		less = func(i, j int) bool {
			a, b := xv.Index(i).Float(), xv.Index(j).Float()
			return a < b || math.IsNaN(a) && !math.IsNaN(b)
		}
	case reflect.String:
		less = func(i, j int) bool { return xv.Index(i).String() < xv.Index(j).String() }
	default:
		panic("slices.Sort: not an ordered type: " + xv.Type().String())
	}
	sort.Slice(xv.Interface(), less)
}
