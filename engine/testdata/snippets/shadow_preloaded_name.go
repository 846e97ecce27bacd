sort := []int{3, 1}
sort
// Output:
// [3 1]
