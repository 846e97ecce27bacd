m := map[string]int{"a": 1, "b": 2}
s := []int{1, 2, 3}
clear(m)
clear(s)
fmt.Println(len(m), s)
// Output:
// 0 [0 0 0]
