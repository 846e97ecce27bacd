type box struct{ n int }
func count(b box) int {
	s := 0
	for i := range b.n {
		s += i
	}
	return s
}
count(box{4})
// ---
b := box{3}
for i := range b.n {
	fmt.Print(i)
}
fmt.Println()
// Output:
// 6
// 012
