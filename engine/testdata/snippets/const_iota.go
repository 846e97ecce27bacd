const (
	P = iota
	N
	Draw
)
fmt.Println(P, N, Draw)
// Output:
// 0 1 2
