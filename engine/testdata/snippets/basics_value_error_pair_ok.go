strconv.Atoi("123")
// Output:
// 123
