s := []int{5, 2, 8, 1}
slices.Sort(s)
fmt.Println(s, slices.Contains(s, 8), slices.Index(s, 5))
// Output:
// [1 2 5 8] true 2
