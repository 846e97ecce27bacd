func cloneDemo() {
	m := map[int]string{1: "x"}
	c := maps.Clone(m)
	c[2] = "y"
	fmt.Println(len(m), len(c), maps.Equal(m, c))
}
cloneDemo()
// Output:
// 1 2 false
