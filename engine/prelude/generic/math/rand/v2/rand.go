// Package rand declares, for the type oracle, the generic function of the
// standard math/rand/v2 package, which yaegi's symbol tables cannot hold
// (see package sync in generic/): a cell's rand.N is the interpreted
// helper's (helpers/generic.go).
package rand

type intType interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// N is rand.N's declaration.
func N[Int intType](n Int) Int { return n }
