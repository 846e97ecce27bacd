1 + 2*3
// Output:
// 7
