a := []int{1, 2, 2, 3, 3, 3}
fmt.Println(slices.Compact(slices.Clone(a)))
fmt.Println(slices.Equal(a, []int{1, 2, 2, 3, 3, 3}))
i, found := slices.BinarySearch(a, 3)
fmt.Println(i, found)
fmt.Println(slices.Insert([]int{1, 4}, 1, 2, 3))
fmt.Println(slices.IndexFunc(a, func(x int) bool { return x > 1 }))
// Output:
// [1 2 3]
// true
// 3 true
// [1 2 3 4]
// 1
