f := 0.5
min(1, f)
// Output:
// 0.5
