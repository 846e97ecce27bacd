// Package slices is the engine's slices, interpreted in every session under
// the import path "slices" in place of the standard package: yaegi v0.16.1
// cannot take generic functions from compiled code. The declarations are
// Go's, type parameters and all, and so is what each function does, down
// to what a cell can observe: the elements a Delete leaves behind are
// zeroed, Insert and Replace work in place when the capacity allows, the
// comparison functions are called on the same pairs in the same order, and
// equal elements end up in the same order after a sort. The interpreter
// is given a form of these files with each type parameter that only
// stands for a slice type (S ~[]E) replaced by that type (prelude.go,
// interpreted), since yaegi cannot infer or instantiate those; the type
// oracle sees them as written here, so cells are typed as Go types them.
package slices

import (
	"grundy/engine/prelude/grundyrt"

	"grundy/engine/prelude/std/cmp"
)

func Equal[S ~[]E, E comparable](s1, s2 S) bool {
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

func EqualFunc[S1 ~[]E1, S2 ~[]E2, E1, E2 any](s1 S1, s2 S2, eq func(E1, E2) bool) bool {
	if len(s1) != len(s2) {
		return false
	}
	for i, v1 := range s1 {
		if !eq(v1, s2[i]) {
			return false
		}
	}
	return true
}

// Compare and CompareFunc compare the same pairs as Go's, in the same
// order.
func Compare[S ~[]E, E cmp.Ordered](s1, s2 S) int {
	for i := 0; i < len(s1) && i < len(s2); i++ {
		if c := compareOrdered(s1[i], s2[i]); c != 0 {
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

// compareOrdered is cmp.Compare, written here: yaegi v0.16.1 resolves
// cmp.Compare in this package to the package's own Compare.
func compareOrdered[E cmp.Ordered](x, y E) int {
	xNaN, yNaN := x != x, y != y
	switch {
	case xNaN && yNaN:
		return 0
	case xNaN:
		return -1
	case yNaN:
		return +1
	case x < y:
		return -1
	case x > y:
		return +1
	}
	return 0
}

func CompareFunc[S1 ~[]E1, S2 ~[]E2, E1, E2 any](s1 S1, s2 S2, cmp func(E1, E2) int) int {
	for i := 0; i < len(s1) && i < len(s2); i++ {
		if c := cmp(s1[i], s2[i]); c != 0 {
			return c
		}
	}
	return compareLen(len(s1), len(s2))
}

func compareLen(n1, n2 int) int {
	switch {
	case n1 < n2:
		return -1
	case n1 > n2:
		return +1
	}
	return 0
}

func Index[S ~[]E, E comparable](s S, v E) int {
	for i := range s {
		if v == s[i] {
			return i
		}
	}
	return -1
}

func IndexFunc[S ~[]E, E any](s S, f func(E) bool) int {
	for i := range s {
		if f(s[i]) {
			return i
		}
	}
	return -1
}

func Contains[S ~[]E, E comparable](s S, v E) bool { return Index(s, v) >= 0 }

func ContainsFunc[S ~[]E, E any](s S, f func(E) bool) bool { return IndexFunc(s, f) >= 0 }

// Insert works in place when s has the room, as Go's does: the caller's
// slice sees the shifted elements.
func Insert[S ~[]E, E any](s S, i int, v ...E) S {
	if i < 0 || i > len(s) { // s[i:], Go's bounds check
		panic(grundyrt.SliceError(i, len(s), nil, cap(s), true))
	}
	m := len(v)
	if m == 0 {
		return s
	}
	n := len(s)
	if i == n {
		return append(s, v...)
	}
	if n+m > cap(s) {
		// A new array, grown as append grows it.
		s2 := append(s[:i], make(S, n+m-i)...)
		copy(s2[i:], v)
		copy(s2[i+m:], s[i:])
		return s2
	}
	s = s[:n+m]
	if !overlaps(v, s[i+m:]) {
		copy(s[i+m:], s[i:])
		copy(s[i:], v)
		return s
	}
	// v is part of s, after i: move it to the end, then rotate it into
	// place.
	copy(s[n:], v)
	rotateRight(s[i:], m)
	return s
}

// Delete zeroes the elements it drops from the end, as Go's does.
func Delete[S ~[]E, E any](s S, i, j int) S {
	if i < 0 || j < i || j > len(s) { // s[i:j:len(s)], Go's bounds check
		panic(grundyrt.SliceError(i, j, len(s), cap(s), true))
	}
	if i == j {
		return s
	}
	oldlen := len(s)
	s = append(s[:i], s[j:]...)
	zero(s[len(s):oldlen])
	return s
}

func DeleteFunc[S ~[]E, E any](s S, del func(E) bool) S {
	i := IndexFunc(s, del)
	if i == -1 {
		return s
	}
	for j := i + 1; j < len(s); j++ {
		if v := s[j]; !del(v) {
			s[i] = v
			i++
		}
	}
	zero(s[i:])
	return s[:i]
}

// Replace works in place when s has the room, as Go's does.
func Replace[S ~[]E, E any](s S, i, j int, v ...E) S {
	if i < 0 || j < i || j > cap(s) { // s[i:j], Go's bounds check
		panic(grundyrt.SliceError(i, j, nil, cap(s), true))
	}
	if i == j {
		return Insert(s, i, v...)
	}
	if j == len(s) {
		s2 := append(s[:i], v...)
		if len(s2) < len(s) {
			zero(s[len(s2):])
		}
		return s2
	}
	if j > len(s) { // s[j:], with Go's message
		panic(grundyrt.SliceError(j, len(s), nil, cap(s), true))
	}
	tot := len(s[:i]) + len(v) + len(s[j:])
	if tot > cap(s) {
		s2 := append(s[:i], make(S, tot-i)...)
		copy(s2[i:], v)
		copy(s2[i+len(v):], s[j:])
		return s2
	}
	r := s[:tot]
	if i+len(v) <= j {
		// Shrinking: copy v in, then the tail down.
		copy(r[i:], v)
		copy(r[i+len(v):], s[j:])
		zero(s[tot:])
		return r
	}
	// Growing in place: the tail moves up first, unless v lies there.
	if !overlaps(r[i+len(v):], v) {
		copy(r[i+len(v):], s[j:])
		copy(r[i:], v)
		return r
	}
	// v overlaps the tail's new place: put its parts where they survive
	// the move, then rotate.
	y := len(v) - (j - i)
	if !overlaps(r[i:j], v) {
		copy(r[i:j], v[y:])
		copy(r[len(s):], v[:y])
		rotateRight(r[i:], y)
		return r
	}
	if !overlaps(r[len(s):], v) {
		copy(r[len(s):], v[:y])
		copy(r[i:j], v[y:])
		rotateRight(r[i:], y)
		return r
	}
	// v is all of s[i:]: move s[j:] within it.
	k := startIdx(v, s[j:])
	copy(r[i:], v)
	copy(r[i+len(v):], r[i+k:])
	return r
}

func Clone[S ~[]E, E any](s S) S {
	if s == nil {
		return nil
	}
	return append(S{}, s...)
}

// Compact and CompactFunc compare neighbours of the original slice (not
// the last element kept), as Go's do: an eq that is not transitive keeps
// what Go keeps.
func Compact[S ~[]E, E comparable](s S) S {
	if len(s) < 2 {
		return s
	}
	for k := 1; k < len(s); k++ {
		if s[k] == s[k-1] {
			rest := s[k:]
			for k2 := 1; k2 < len(rest); k2++ {
				if rest[k2] != rest[k2-1] {
					s[k] = rest[k2]
					k++
				}
			}
			zero(s[k:])
			return s[:k]
		}
	}
	return s
}

func CompactFunc[S ~[]E, E any](s S, eq func(E, E) bool) S {
	if len(s) < 2 {
		return s
	}
	for k := 1; k < len(s); k++ {
		if eq(s[k], s[k-1]) {
			rest := s[k:]
			for k2 := 1; k2 < len(rest); k2++ {
				if !eq(rest[k2], rest[k2-1]) {
					s[k] = rest[k2]
					k++
				}
			}
			zero(s[k:])
			return s[:k]
		}
	}
	return s
}

// Grow grows as append does, so cap reports what it reports in Go.
func Grow[S ~[]E, E any](s S, n int) S {
	if n < 0 {
		panic("cannot be negative")
	}
	if n -= cap(s) - len(s); n > 0 {
		s = append(s[:cap(s)], make([]E, n)...)[:len(s)]
	}
	return s
}

func Clip[S ~[]E, E any](s S) S { return s[:len(s):len(s)] }

func Reverse[S ~[]E, E any](s S) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func Concat[S ~[]E, E any](slices ...S) S {
	size := 0
	for _, s := range slices {
		size += len(s)
		if size < 0 {
			panic("len out of range")
		}
	}
	out := Grow(S(nil), size)
	for _, s := range slices {
		out = append(out, s...)
	}
	return out
}

func Repeat[S ~[]E, E any](x S, count int) S {
	if count < 0 {
		panic("cannot be negative")
	}
	if count > 0 && len(x) > int(^uint(0)>>1)/count {
		panic("the result of (len(x) * count) overflows")
	}
	out := make(S, len(x)*count)
	n := copy(out, x)
	for n < len(out) {
		n += copy(out[n:], out[:n])
	}
	return out
}

func rotateLeft[E any](s []E, r int) {
	Reverse(s[:r])
	Reverse(s[r:])
	Reverse(s)
}

func rotateRight[E any](s []E, r int) { rotateLeft(s, len(s)-r) }

// overlaps reports whether a and b share elements. Go compares addresses
// with unsafe; two windows of one array overlap when the first element of
// either is among the other's, which plain pointer equality can tell.
func overlaps[E any](a, b []E) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	for i := range b {
		if &a[0] == &b[i] {
			return true
		}
	}
	for i := range a {
		if &b[0] == &a[i] {
			return true
		}
	}
	return false
}

// startIdx is the index in haystack where needle starts (needle being a
// window of it).
func startIdx[E any](haystack, needle []E) int {
	p := &needle[0]
	for i := range haystack {
		if p == &haystack[i] {
			return i
		}
	}
	panic("needle not found")
}

// zero is the builtin clear on a slice, which the interpreter lacks (the
// prelude's clear is the session's, in package main).
func zero[E any](s []E) {
	var z E
	for i := range s {
		s[i] = z
	}
}
