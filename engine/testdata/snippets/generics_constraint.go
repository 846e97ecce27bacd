type Number interface{ ~int | ~int64 | ~float64 }
func Sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}
fmt.Println(Sum([]int{1, 2, 3}), Sum([]float64{1.5, 2.5}))
// Output:
// 6 4
