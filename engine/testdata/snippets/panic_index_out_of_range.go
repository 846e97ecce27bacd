xs := []int{1, 2}
func at(i int) int { return xs[i] }
at(5)
// ---
"session lives on"
// Output:
// !! panic: runtime error: index out of range
// session lives on
