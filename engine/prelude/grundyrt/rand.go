package grundyrt

import (
	"math/rand/v2"
	"reflect"
)

// RandUint64N is math/rand/v2's Uint64N, for the helper that stands in
// for the package's generic N (the session imports math/rand as rand).
func RandUint64N(n uint64) uint64 { return rand.Uint64N(n) }

// SetInteger sets *p, a pointer to an integer, to v.
func SetInteger(p any, v uint64) {
	e := reflect.ValueOf(p).Elem()
	if e.CanInt() {
		e.SetInt(int64(v))
	} else {
		e.SetUint(v)
	}
}
