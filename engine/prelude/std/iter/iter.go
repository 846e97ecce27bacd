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
