package engine

// preludeSource is interpreted once per session: the builtins yaegi
// v0.16.1 lacks (min, max, clear) and the display helpers that must run as
// interpreted code, because only interpreted code sees the methods of
// types that cells define.
const preludeSource = `package main

type _grundyOrdered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

func min[T _grundyOrdered](x T, y ...T) T {
	for _, v := range y {
		if v < x || v != v {
			x = v
		}
	}
	return x
}

func max[T _grundyOrdered](x T, y ...T) T {
	for _, v := range y {
		if v > x || v != v {
			x = v
		}
	}
	return x
}

func clear[T any](x T) { grundyrt.Clear(x) }

type _grundyHTMLer interface{ HTML() string }
type _grundyMarkdowner interface{ Markdown() string }
type _grundyLaTeXer interface{ LaTeX() string }
type _grundySVGer interface{ SVG() ([]byte, error) }
type _grundyPNGer interface{ PNG() ([]byte, error) }
type _grundyJPEGer interface{ JPEG() ([]byte, error) }
type _grundyStringer interface{ String() string }
type _grundyError interface{ Error() string }

// Type switches, one per method: yaegi v0.16.1 fails on "x, ok :=
// v.(I)" for interpreted types, does not see their methods through
// interfaces declared in native packages, and sometimes matches a case
// whose method the type lacks (the call then panics: recovered here).
func _grundyHTML(v any) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundyHTMLer:
		return x.HTML(), true
	}
	return "", false
}

func _grundyMarkdown(v any) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundyMarkdowner:
		return x.Markdown(), true
	}
	return "", false
}

func _grundyLaTeX(v any) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundyLaTeXer:
		return x.LaTeX(), true
	}
	return "", false
}

func _grundyString(v any) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundyStringer:
		return x.String(), true
	}
	return "", false
}

func _grundyErr(v any) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundyError:
		return x.Error(), true
	}
	return "", false
}

func _grundySVG(v any) (b []byte, err error, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundySVGer:
		b, err = x.SVG()
		return b, err, true
	}
	return nil, nil, false
}

func _grundyPNG(v any) (b []byte, err error, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundyPNGer:
		b, err = x.PNG()
		return b, err, true
	}
	return nil, nil, false
}

func _grundyJPEG(v any) (b []byte, err error, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	switch x := v.(type) {
	case _grundyJPEGer:
		b, err = x.JPEG()
		return b, err, true
	}
	return nil, nil, false
}

// _grundyFmtHook turns slices (and maps) of cell-defined types with a
// String method into slices of their strings (a map printer), for fmt,
// which cannot see interpreted methods inside a slice or map. The engine
// assigns it as such types appear.
var _grundyFmtHook = func(v any) any { return v }

func _grundyFmtArg(v any) any { return _grundyFmtHook(v) }

// _grundyFmtSpread prepares the values of fmt.Println(xs...): native fmt
// got the interpreter's boxes of cell-typed values in a []any and printed
// their insides. Values with an interpreted Error or String method become
// formatters that print it where fmt would call it.
func _grundyFmtSpread(xs []any) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		if !grundyrt.Interpreted(x) {
			out[i] = grundyrt.FmtRaw(x)
		} else if s, ok := _grundyErr(x); ok {
			out[i] = grundyrt.FmtAs(x, s)
		} else if s, ok := _grundyString(x); ok {
			out[i] = grundyrt.FmtAs(x, s)
		} else {
			out[i] = grundyrt.FmtRaw(_grundyFmtHook(x))
		}
	}
	return out
}

func _grundyParts(v any) map[string]any {
	m := map[string]any{}
	if v == nil || !grundyrt.Interpreted(v) {
		return m
	}
	if s, ok := _grundyFmtHook(v).([]string); ok {
		if _, isStrings := v.([]string); !isStrings {
			m["text/plain"] = fmt.Sprint(s)
		}
	} else if s, ok := grundyrt.FmtMapText(_grundyFmtHook(v)); ok {
		m["text/plain"] = s
	}
	if s, ok := _grundyErr(v); ok {
		m["error"] = s
		return m
	}
	if s, ok := _grundyHTML(v); ok {
		m["text/html"] = s
	}
	if s, ok := _grundyMarkdown(v); ok {
		m["text/markdown"] = s
	}
	if s, ok := _grundyLaTeX(v); ok {
		m["text/latex"] = s
	}
	if b, err, ok := _grundySVG(v); ok {
		if err == nil {
			m["image/svg+xml"] = b
		} else {
			m["text/plain"] = "SVG failed: " + err.Error()
		}
	}
	if b, err, ok := _grundyPNG(v); ok {
		if err == nil {
			m["image/png"] = b
		} else {
			m["text/plain"] = "PNG failed: " + err.Error()
		}
	}
	if b, err, ok := _grundyJPEG(v); ok && err == nil {
		m["image/jpeg"] = b
	}
	if s, ok := _grundyString(v); ok {
		if _, have := m["text/plain"]; !have {
			m["text/plain"] = s
		}
	}
	return m
}

func _grundyShow(vs ...any) {
	parts := make([]map[string]any, len(vs))
	for i, v := range vs {
		parts[i] = _grundyParts(v)
	}
	grundyrt.Show(vs, parts)
}

func _grundyDisplay(vs ...any) {
	for _, v := range vs {
		if v == nil && len(vs) > 1 {
			continue
		}
		grundyrt.Display(v, _grundyParts(v))
	}
}

func _grundyRender(v any) display.Bundle { return grundyrt.Render(v, _grundyParts(v)) }

func _grundyGoPanic(r any) { grundyrt.GoPanic(r) }

func _grundyDefer(f func()) { grundyrt.Defer(f) }

func _grundyRecover() any { return grundyrt.Recover() }

// _grundyAsError converts a value to error. yaegi v0.16.1's own
// conversion of a struct value (a value-receiver Error method) keeps only
// its last field, so err.(T), type switches and errors.As lose it. An
// interpreted interface keeps the whole value: its Error method value is
// bound correctly, and the runtime builds the wrapper from both.
func _grundyAsError(v any) error {
	if grundyrt.IsNativeError(v) {
		return grundyrt.NativeError(v)
	}
	switch e := v.(type) {
	case _grundyError:
		return grundyrt.WrapError(v, e.Error, _grundyErrorProto)
	}
	return grundyrt.NativeError(v)
}

// _grundyErrorAssert is v.(error) in its comma-ok form.
func _grundyErrorAssert(v any) (error, bool) {
	if v == nil {
		return nil, false
	}
	if grundyrt.IsNativeError(v) {
		return grundyrt.NativeError(v), true
	}
	switch e := v.(type) {
	case _grundyError:
		return grundyrt.WrapError(v, e.Error, _grundyErrorProto), true
	}
	return nil, false
}

// _grundyErrorProto is a wrapper yaegi built: WrapError builds its own of
// the same type.
var _grundyErrorProto = _grundyToError(_grundyProtoError{})

type _grundyProtoError struct{}

func (_grundyProtoError) Error() string { return "" }

func _grundyToError(e error) error { return e }
`

// genericSources are the engine's iter, slices, maps and cmp packages
// (iter for its Seq and Seq2 types: the rewriter turns ranges over them
// into calls, see rangefunc.go). yaegi
// v0.16.1 cannot extract generic packages and its own interpreted copies
// lack Sort, Max, Keys and friends and cannot infer E from S ~[]E, so these
// take plain []E and map[K]V. yaegi cannot range over functions, so the
// iterator functions (maps.Keys, maps.Values, slices.Values, slices.Sorted,
// slices.Collect) work on slices here; the rewriter turns
// "for k := range maps.Keys(m)" into a range over the slice's values.
var genericSources = []string{`package iter

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
`, `package cmp

type Ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

func Less[T Ordered](x, y T) bool { return (x != x && y == y) || x < y }

func Compare[T Ordered](x, y T) int {
	xNaN := x != x
	yNaN := y != y
	if xNaN {
		if yNaN {
			return 0
		}
		return -1
	}
	if yNaN {
		return +1
	}
	if x < y {
		return -1
	}
	if x > y {
		return +1
	}
	return 0
}

func Or[T comparable](first T, rest ...T) (zero T) {
	if first != zero {
		return first
	}
	for _, v := range rest {
		if v != zero {
			return v
		}
	}
	return zero
}
`, `package slices

import "cmp"

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

func Sorted[E cmp.Ordered](x []E) []E {
	y := Clone(x)
	Sort(y)
	return y
}

func SortedFunc[E any](x []E, c func(a, b E) int) []E {
	y := Clone(x)
	SortFunc(y, c)
	return y
}

func Collect[E any](x []E) []E { return Clone(x) }

func Values[E any](x []E) []E { return x }

// All stands for the iterator over index and value: ranging over the
// slice itself gives the same pairs.
func All[E any](x []E) []E { return x }

// Backward is a real iterator: the engine ranges over functions.
func Backward[E any](x []E) func(yield func(int, E) bool) {
	return func(yield func(int, E) bool) {
		for i := len(x) - 1; i >= 0; i-- {
			if !yield(i, x[i]) {
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
`, `package maps

func Equal[K, V comparable](m1, m2 map[K]V) bool {
	if len(m1) != len(m2) {
		return false
	}
	for k, v1 := range m1 {
		if v2, ok := m2[k]; !ok || v1 != v2 {
			return false
		}
	}
	return true
}

func EqualFunc[K comparable, V1, V2 any](m1 map[K]V1, m2 map[K]V2, eq func(V1, V2) bool) bool {
	if len(m1) != len(m2) {
		return false
	}
	for k, v1 := range m1 {
		if v2, ok := m2[k]; !ok || !eq(v1, v2) {
			return false
		}
	}
	return true
}

func Clone[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func Copy[K comparable, V any](dst, src map[K]V) {
	for k, v := range src {
		dst[k] = v
	}
}

func DeleteFunc[K comparable, V any](m map[K]V, del func(K, V) bool) {
	for k, v := range m {
		if del(k, v) {
			delete(m, k)
		}
	}
}

// All stands for the iterator over key and value pairs.
func All[K comparable, V any](m map[K]V) map[K]V { return m }

func Collect[K comparable, V any](m map[K]V) map[K]V { return Clone(m) }

func Keys[K comparable, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func Values[K comparable, V any](m map[K]V) []V {
	out := make([]V, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
`}
