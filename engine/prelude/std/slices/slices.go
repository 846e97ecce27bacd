// Package slices is the engine's slices, interpreted in every session under
// the import path "slices" in place of the standard package: yaegi v0.16.1
// cannot take generic functions from compiled code, and its own interpreted
// copy lacks Sort, Max and friends and cannot infer E from S ~[]E, so these
// take plain []E. The iterator functions are real iterators; the
// compatibility passes turn ranges over them into calls.
package slices

import "grundy/engine/prelude/std/cmp"

func Equal[E comparable](s1, s2 []E) bool {
	if len(s1) != len(s2) {
		return false
	}
	for i := range s1 {
		if s1[i] != s2[i] {
			return false
		}
	}
	return true
}

func EqualFunc[E1, E2 any](s1 []E1, s2 []E2, eq func(E1, E2) bool) bool {
	if len(s1) != len(s2) {
		return false
	}
	for i := range s1 {
		if !eq(s1[i], s2[i]) {
			return false
		}
	}
	return true
}

func Compare[E cmp.Ordered](s1, s2 []E) int {
	for i := 0; i < len(s1) && i < len(s2); i++ {
		if c := cmp.Compare(s1[i], s2[i]); c != 0 {
			return c
		}
	}
	if len(s1) < len(s2) {
		return -1
	}
	if len(s1) > len(s2) {
		return +1
	}
	return 0
}

func CompareFunc[E1, E2 any](s1 []E1, s2 []E2, c func(E1, E2) int) int {
	for i := 0; i < len(s1) && i < len(s2); i++ {
		if r := c(s1[i], s2[i]); r != 0 {
			return r
		}
	}
	if len(s1) < len(s2) {
		return -1
	}
	if len(s1) > len(s2) {
		return +1
	}
	return 0
}

func Index[E comparable](s []E, v E) int {
	for i := range s {
		if v == s[i] {
			return i
		}
	}
	return -1
}

func IndexFunc[E any](s []E, f func(E) bool) int {
	for i := range s {
		if f(s[i]) {
			return i
		}
	}
	return -1
}

func Contains[E comparable](s []E, v E) bool { return Index(s, v) >= 0 }

func ContainsFunc[E any](s []E, f func(E) bool) bool { return IndexFunc(s, f) >= 0 }

func Insert[E any](s []E, i int, v ...E) []E {
	if i < 0 || i > len(s) {
		panic("slices.Insert: index out of range")
	}
	out := make([]E, 0, len(s)+len(v))
	out = append(out, s[:i]...)
	out = append(out, v...)
	return append(out, s[i:]...)
}

func Delete[E any](s []E, i, j int) []E {
	if i < 0 || j > len(s) || i > j {
		panic("slices.Delete: index out of range")
	}
	return append(s[:i], s[j:]...)
}

func DeleteFunc[E any](s []E, del func(E) bool) []E {
	out := s[:0]
	for _, v := range s {
		if !del(v) {
			out = append(out, v)
		}
	}
	return out
}

func Replace[E any](s []E, i, j int, v ...E) []E {
	out := make([]E, 0, len(s)-(j-i)+len(v))
	out = append(out, s[:i]...)
	out = append(out, v...)
	return append(out, s[j:]...)
}

func Clone[E any](s []E) []E {
	if s == nil {
		return nil
	}
	return append([]E{}, s...)
}

func Compact[E comparable](s []E) []E {
	if len(s) < 2 {
		return s
	}
	out := s[:1]
	for _, v := range s[1:] {
		if v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

func CompactFunc[E any](s []E, eq func(E, E) bool) []E {
	if len(s) < 2 {
		return s
	}
	out := s[:1]
	for _, v := range s[1:] {
		if !eq(out[len(out)-1], v) {
			out = append(out, v)
		}
	}
	return out
}

func Grow[E any](s []E, n int) []E {
	if cap(s)-len(s) >= n {
		return s
	}
	out := make([]E, len(s), len(s)+n)
	copy(out, s)
	return out
}

func Clip[E any](s []E) []E { return s[:len(s):len(s)] }

func Reverse[E any](s []E) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func Concat[E any](ss ...[]E) []E {
	var out []E
	for _, s := range ss {
		out = append(out, s...)
	}
	return out
}

func Sort[E cmp.Ordered](x []E) {
	SortFunc(x, func(a, b E) int { return cmp.Compare(a, b) })
}

func SortFunc[E any](x []E, c func(a, b E) int) {
	n := len(x)
	if n < 2 {
		return
	}
	tmp := make([]E, n)
	for width := 1; width < n; width *= 2 {
		for lo := 0; lo < n-width; lo += 2 * width {
			mid := lo + width
			hi := mid + width
			if hi > n {
				hi = n
			}
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if c(x[j], x[i]) < 0 {
					tmp[k] = x[j]
					j++
				} else {
					tmp[k] = x[i]
					i++
				}
				k++
			}
			for i < mid {
				tmp[k] = x[i]
				i++
				k++
			}
			for j < hi {
				tmp[k] = x[j]
				j++
				k++
			}
			copy(x[lo:hi], tmp[lo:hi])
		}
	}
}

func SortStableFunc[E any](x []E, c func(a, b E) int) { SortFunc(x, c) }

func IsSorted[E cmp.Ordered](x []E) bool {
	for i := len(x) - 1; i > 0; i-- {
		if x[i] < x[i-1] {
			return false
		}
	}
	return true
}

func IsSortedFunc[E any](x []E, c func(a, b E) int) bool {
	for i := len(x) - 1; i > 0; i-- {
		if c(x[i], x[i-1]) < 0 {
			return false
		}
	}
	return true
}

func Min[E cmp.Ordered](x []E) E {
	if len(x) < 1 {
		panic("slices.Min: empty list")
	}
	m := x[0]
	for i := 1; i < len(x); i++ {
		if x[i] < m {
			m = x[i]
		}
	}
	return m
}

func Max[E cmp.Ordered](x []E) E {
	if len(x) < 1 {
		panic("slices.Max: empty list")
	}
	m := x[0]
	for i := 1; i < len(x); i++ {
		if x[i] > m {
			m = x[i]
		}
	}
	return m
}

func MinFunc[E any](x []E, c func(a, b E) int) E {
	if len(x) < 1 {
		panic("slices.MinFunc: empty list")
	}
	m := x[0]
	for i := 1; i < len(x); i++ {
		if c(x[i], m) < 0 {
			m = x[i]
		}
	}
	return m
}

func MaxFunc[E any](x []E, c func(a, b E) int) E {
	if len(x) < 1 {
		panic("slices.MaxFunc: empty list")
	}
	m := x[0]
	for i := 1; i < len(x); i++ {
		if c(x[i], m) > 0 {
			m = x[i]
		}
	}
	return m
}

func BinarySearch[E cmp.Ordered](x []E, target E) (int, bool) {
	lo, hi := 0, len(x)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if x[h] < target {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo, lo < len(x) && x[lo] == target
}

func BinarySearchFunc[E, T any](x []E, target T, c func(E, T) int) (int, bool) {
	lo, hi := 0, len(x)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if c(x[h], target) < 0 {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo, lo < len(x) && c(x[lo], target) == 0
}

// The iterator functions are Go's, their types written as the function
// types iter.Seq and iter.Seq2 stand for. Their bodies call yield
// functions directly: the interpreter cannot range over functions.

// All is an iterator over index and value.
func All[E any](x []E) func(yield func(int, E) bool) {
	return func(yield func(int, E) bool) {
		for i, v := range x {
			if !yield(i, v) {
				return
			}
		}
	}
}

// Values is an iterator over the values.
func Values[E any](x []E) func(yield func(E) bool) {
	return func(yield func(E) bool) {
		for _, v := range x {
			if !yield(v) {
				return
			}
		}
	}
}

// Backward is an iterator over index and value, last first.
func Backward[E any](x []E) func(yield func(int, E) bool) {
	return func(yield func(int, E) bool) {
		for i := len(x) - 1; i >= 0; i-- {
			if !yield(i, x[i]) {
				return
			}
		}
	}
}

// AppendSeq appends the values of seq to s.
func AppendSeq[E any](s []E, seq func(yield func(E) bool)) []E {
	seq(func(v E) bool {
		s = append(s, v)
		return true
	})
	return s
}

// Collect is the values of seq in a new slice.
func Collect[E any](seq func(yield func(E) bool)) []E { return AppendSeq([]E(nil), seq) }

// Sorted is the values of seq, sorted.
func Sorted[E cmp.Ordered](seq func(yield func(E) bool)) []E {
	s := Collect(seq)
	Sort(s)
	return s
}

// SortedFunc is the values of seq, sorted by c.
func SortedFunc[E any](seq func(yield func(E) bool), c func(a, b E) int) []E {
	s := Collect(seq)
	SortFunc(s, c)
	return s
}

// SortedStableFunc is SortedFunc keeping equal values in order.
func SortedStableFunc[E any](seq func(yield func(E) bool), c func(a, b E) int) []E {
	s := Collect(seq)
	SortStableFunc(s, c)
	return s
}

// Chunk is an iterator over consecutive sub-slices of up to n values.
func Chunk[E any](s []E, n int) func(yield func([]E) bool) {
	if n < 1 {
		panic("cannot be less than 1")
	}
	return func(yield func([]E) bool) {
		for i := 0; i < len(s); i += n {
			end := i + n
			if end > len(s) {
				end = len(s) // (no min: the interpreter's min is the prelude's, in package main)
			}
			if !yield(s[i:end:end]) {
				return
			}
		}
	}
}

func Repeat[E any](x []E, count int) []E {
	out := make([]E, 0, len(x)*count)
	for i := 0; i < count; i++ {
		out = append(out, x...)
	}
	return out
}
