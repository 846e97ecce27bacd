s := []float64{2.5, -1, 7}
fmt.Println(slices.Min(s), slices.Max(s))
slices.Reverse(s)
s
// Output:
// -1 7
// [7 -1 2.5]
