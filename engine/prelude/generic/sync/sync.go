// Package sync declares, for the type oracle, the generic functions of the
// standard sync package, which yaegi's symbol tables cannot hold: the
// oracle adds them to the package its table makes, and a cell's calls run
// the interpreted helpers that stand in for them (see helpers/generic.go
// and compat's genericStd).
package sync

// OnceValue is sync.OnceValue's declaration.
func OnceValue[T any](f func() T) func() T { return f }

// OnceValues is sync.OnceValues's declaration.
func OnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) { return f }
