// Package atomic declares, for the type oracle, the generic type of the
// standard sync/atomic package, which yaegi's symbol tables cannot hold
// (see package sync beside it).
package atomic

// Pointer is atomic.Pointer's declaration.
type Pointer[T any] struct{ v *T }

// Load is (*atomic.Pointer).Load.
func (x *Pointer[T]) Load() *T { return x.v }

// Store is (*atomic.Pointer).Store.
func (x *Pointer[T]) Store(val *T) { x.v = val }

// Swap is (*atomic.Pointer).Swap.
func (x *Pointer[T]) Swap(new *T) (old *T) { old, x.v = x.v, new; return old }

// CompareAndSwap is (*atomic.Pointer).CompareAndSwap.
func (x *Pointer[T]) CompareAndSwap(old, new *T) (swapped bool) {
	if x.v != old {
		return false
	}
	x.v = new
	return true
}
