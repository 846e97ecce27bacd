var n int
fmt.Scan(&n)
n * 2
// Output:
// 84
