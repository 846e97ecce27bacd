func divmod(a, b int) (int, int) { return a / b, a % b }
divmod(17, 5)
// Output:
// 3 2
