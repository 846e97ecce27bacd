a, b := 3, 7
fmt.Println(min(a, b), max(a, b), min(2.5, 1), max("x", "y"), min(4, a, 1))
// Output:
// 3 7 1 y 1
