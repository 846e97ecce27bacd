strings.Repeat("ab", 3)
// Output:
// ababab
