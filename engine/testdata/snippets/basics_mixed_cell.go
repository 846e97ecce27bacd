total := twice(21)
func twice(n int) int { return 2 * n }
type pair struct{ a, b int }
p := pair{total, 1}
fmt.Println(p.a + p.b)
// Output:
// 43
