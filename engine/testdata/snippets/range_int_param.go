func squares(n int) []int {
	var out []int
	for i := range n {
		out = append(out, i*i)
	}
	return out
}
squares(5)
// Output:
// [0 1 4 9 16]
