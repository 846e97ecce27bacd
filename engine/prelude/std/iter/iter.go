// Package iter is the engine's iter, interpreted in every session under the
// import path "iter" (yaegi v0.16.1 predates it). Seq and Seq2 are the
// standard types; ranges over them are rewritten into calls by the
// compatibility passes, since the interpreter cannot range over functions.
package iter

// Seq is an iterator over single values: range over it, or call it with a
// yield function that returns false to stop.
type Seq[V any] func(yield func(V) bool)

// Seq2 is an iterator over pairs of values.
type Seq2[K, V any] func(yield func(K, V) bool)

// The engine's slices.Values/All and maps.Keys/Values/All return slices
// and maps, which ranges take directly; where a cell passes one to a
// parameter of iterator type, the rewriter calls these instead.

func GrundySliceValues[E any](x []E) func(yield func(E) bool) {
	return func(yield func(E) bool) {
		for _, v := range x {
			if !yield(v) {
				return
			}
		}
	}
}

func GrundySliceAll[E any](x []E) func(yield func(int, E) bool) {
	return func(yield func(int, E) bool) {
		for i, v := range x {
			if !yield(i, v) {
				return
			}
		}
	}
}

func GrundyMapKeys[K comparable, V any](m map[K]V) func(yield func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func GrundyMapValues[K comparable, V any](m map[K]V) func(yield func(V) bool) {
	return func(yield func(V) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

func GrundyMapAll[K comparable, V any](m map[K]V) func(yield func(K, V) bool) {
	return func(yield func(K, V) bool) {
		for k, v := range m {
			if !yield(k, v) {
				return
			}
		}
	}
}
