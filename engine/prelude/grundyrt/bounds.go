package grundyrt

import (
	"reflect"
	"slices"
	"strconv"
)

// Bounds. yaegi v0.16.1 indexes and slices through reflect, whose panics
// carry neither the index nor the length, and converts a shift count to
// unsigned, so a negative one shifted instead of panicking. compat's
// bounds pass checks what it cannot prove in range and panics with these,
// the runtime's errors in the runtime's words (runtime/error.go,
// boundsErrorFmt).

// ArrayLen is len(p) or cap(p) of p, a pointer to an array of n elements
// that a call or a receive gives: Go evaluates p and does not read
// through it, so a nil p has a length (see compat's ptrArrayLens).
func ArrayLen(p any, n int) int { return n }

// bound is an index or slice bound as the runtime prints it: signed
// bounds may be negative; unsigned ones are printed unsigned.
type bound struct {
	neg bool
	mag uint64
}

func boundOf(v any) bound {
	// A cell's type on an integer (type W int) comes in the
	// interpreter's box, or in its wrapper with its String method.
	rv := keyValue(reflect.ValueOf(v))
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i := rv.Int()
		if i < 0 {
			return bound{true, uint64(-i)}
		}
		return bound{false, uint64(i)}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return bound{false, rv.Uint()}
	}
	return bound{}
}

func (b bound) String() string {
	s := strconv.FormatUint(b.mag, 10)
	if b.neg {
		return "-" + s
	}
	return s
}

// above reports whether b > c.
func (b bound) above(c bound) bool {
	switch {
	case b.neg != c.neg:
		return c.neg
	case b.neg:
		return b.mag < c.mag
	}
	return b.mag > c.mag
}

// IndexError is the runtime's error for x[i] with i not in [0, n).
func IndexError(i any, n int) error {
	b := boundOf(i)
	if b.neg {
		return boundsError("index out of range [" + b.String() + "]")
	}
	return boundsError("index out of range [" + b.String() + "] with length " + strconv.Itoa(n))
}

// SliceError is the runtime's error for x[lo:hi] (max nil) or
// x[lo:hi:max] out of range, n being x's capacity (its length when
// capacity is false: a string or an array). A bound the slice expression
// leaves out is passed as Go fills it in (lo 0, hi len(x)).
func SliceError(lo, hi, max any, n int, capacity bool) error {
	l, h := boundOf(lo), boundOf(hi)
	limit := bound{false, uint64(n)}
	with := " with length "
	if capacity {
		with = " with capacity "
	}
	if max == nil {
		switch {
		case h.neg:
			return sliceError("[:" + h.String() + "]")
		case h.above(limit):
			return sliceError("[:" + h.String() + "]" + with + strconv.Itoa(n))
		case l.neg:
			return sliceError("[" + l.String() + ":]")
		}
		return sliceError("[" + l.String() + ":" + h.String() + "]")
	}
	m := boundOf(max)
	switch {
	case m.neg:
		return sliceError("[::" + m.String() + "]")
	case m.above(limit):
		return sliceError("[::" + m.String() + "]" + with + strconv.Itoa(n))
	case h.neg:
		return sliceError("[:" + h.String() + ":]")
	case h.above(m):
		return sliceError("[:" + h.String() + ":" + m.String() + "]")
	case l.neg:
		return sliceError("[" + l.String() + "::]")
	}
	return sliceError("[" + l.String() + ":" + h.String() + ":]")
}

func sliceError(s string) error { return boundsError("slice bounds out of range " + s) }

// ShiftError is the runtime's error for a shift by a negative count.
func ShiftError() error { return runtimeError("negative shift amount") }

// MinInt is the least element of s, 0 if it has none: compat's loop
// versions bound a loop's variable ranging over s by MinInt and MaxInt.
func MinInt(s []int) int {
	if len(s) == 0 {
		return 0
	}
	return slices.Min(s)
}

// MaxInt is the greatest element of s, 0 if it has none.
func MaxInt(s []int) int {
	if len(s) == 0 {
		return 0
	}
	return slices.Max(s)
}
