fmt.Println(math.Sqrt(16), strings.Count("banana", "a"), sort.IntsAreSorted([]int{1, 2}), bits.OnesCount(7))
// Output:
// 4 3 true 3
