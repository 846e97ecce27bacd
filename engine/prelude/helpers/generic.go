package helpers

import (
	"sync"

	"grundy/engine/prelude/grundyrt"
)

// The generic API of native standard packages, which yaegi's symbol
// tables cannot hold, as interpreted code: a cell's sync.OnceValue,
// atomic.Pointer[T], unique.Make and rand.N are these (compat's genericStd renames them; the type
// oracle knows the originals from generic/). Their type parameters and
// variables are named as the passes name things: yaegi would take a
// cell's type T for a helper's type parameter T.

// _grundyErrorsAsType is errors.AsType: the first error in err's tree
// that is an E, by errors.As as the passes write it for cells (the
// runtime's, which sees the types cells declare).
func _grundyErrorsAsType[_grundyE error](_grundyErr error) (_grundyE, bool) {
	var _grundyTarget _grundyE
	_grundyOK := grundyrt.ErrorsAs(_grundyErr, &_grundyTarget)
	return _grundyTarget, _grundyOK
}

// _grundyOnceValue is sync.OnceValue: f runs once; a panic in it is the
// panic of every call.
func _grundyOnceValue[_grundyT any](_grundyF func() _grundyT) func() _grundyT {
	var _grundyOnce sync.Once
	var _grundyV _grundyT
	var _grundyDone bool
	var _grundyP any
	return func() _grundyT {
		_grundyOnce.Do(func() {
			defer func() {
				if !_grundyDone {
					_grundyP = grundyrt.PanicAgain(recover())
					panic(_grundyP)
				}
			}()
			_grundyV = _grundyF()
			_grundyDone = true
		})
		if !_grundyDone {
			panic(_grundyP)
		}
		return _grundyV
	}
}

// _grundyOnceValues is sync.OnceValues, as _grundyOnceValue of the pair
// of f's results. Its type parameters end in no digit: the passes' own
// names do (c.Temp), and a helper's type parameter _grundyT1 made yaegi
// take a cell's variable _grundyT1 (a panic's value) for a type.
func _grundyOnceValues[_grundyFirst, _grundySecond any](_grundyF func() (_grundyFirst, _grundySecond)) func() (_grundyFirst, _grundySecond) {
	_grundyG := _grundyOnceValue(func() _grundyPair[_grundyFirst, _grundySecond] {
		_grundyA, _grundyB := _grundyF()
		return _grundyPair[_grundyFirst, _grundySecond]{_grundyA, _grundyB}
	})
	return func() (_grundyFirst, _grundySecond) {
		_grundyP := _grundyG()
		return _grundyP.a, _grundyP.b
	}
}

// _grundyPair holds the two results of a sync.OnceValues function.
type _grundyPair[_grundyFirst, _grundySecond any] struct {
	a _grundyFirst
	b _grundySecond
}

// _grundyAtomicPointer is atomic.Pointer[T]: its operations are atomic
// with one another, under a mutex.
type _grundyAtomicPointer[_grundyT any] struct {
	mu sync.Mutex
	v  *_grundyT
}

func (x *_grundyAtomicPointer[_grundyT]) Load() *_grundyT {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.v
}

func (x *_grundyAtomicPointer[_grundyT]) Store(val *_grundyT) {
	x.mu.Lock()
	x.v = val
	x.mu.Unlock()
}

func (x *_grundyAtomicPointer[_grundyT]) Swap(new *_grundyT) (old *_grundyT) {
	x.mu.Lock()
	defer x.mu.Unlock()
	old, x.v = x.v, new
	return old
}

func (x *_grundyAtomicPointer[_grundyT]) CompareAndSwap(old, new *_grundyT) (swapped bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.v != old {
		return false
	}
	x.v = new
	return true
}

// _grundyUniqueHandle is unique.Handle[T]. Go's handle is a pointer that
// Make gives every equal value alike, so handles compare as their values
// do; this one holds the value (made marks a handle from Make, unlike the
// zero Handle).
type _grundyUniqueHandle[_grundyT comparable] struct {
	v    _grundyT
	made bool
}

func (h _grundyUniqueHandle[_grundyT]) Value() _grundyT { return h.v }

// _grundyUniqueMake is unique.Make.
func _grundyUniqueMake[_grundyT comparable](_grundyV _grundyT) _grundyUniqueHandle[_grundyT] {
	return _grundyUniqueHandle[_grundyT]{_grundyV, true}
}

// _grundyRandN is math/rand/v2's N: a value in [0, n) from the global
// source, as N draws it (its Uint64N).
func _grundyRandN[_grundyInt ~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr](_grundyN _grundyInt) _grundyInt {
	if _grundyN <= 0 {
		panic("invalid argument to N")
	}
	var _grundyR _grundyInt // (yaegi cannot convert to a type parameter bound to a native type: time.Duration)
	grundyrt.SetInteger(&_grundyR, grundyrt.RandUint64N(uint64(_grundyN)))
	return _grundyR
}
