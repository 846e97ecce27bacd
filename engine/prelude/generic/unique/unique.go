// Package unique declares, for the type oracle, the generic API of the
// standard unique package, which yaegi's symbol tables cannot hold (see
// package sync beside it): a cell's Make and Handle are the interpreted
// helpers' (helpers/generic.go).
package unique

// Handle is unique.Handle's declaration.
type Handle[T comparable] struct{ value *T }

// Value is (unique.Handle).Value.
func (h Handle[T]) Value() T { return *h.value }

// Make is unique.Make's declaration.
func Make[T comparable](value T) Handle[T] { return Handle[T]{&value} }
