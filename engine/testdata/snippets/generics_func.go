func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
Map[int, string]([]int{1, 2, 3}, func(x int) string { return strconv.Itoa(x * x) })
// Output:
// [1 4 9]
