func counter() func() int {
	n := 0
	return func() int { n++; return n }
}
c := counter()
c()
c()
c()
// Output:
// 3
