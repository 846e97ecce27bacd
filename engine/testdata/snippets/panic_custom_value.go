func check(n int) {
	if n < 0 {
		panic(fmt.Sprintf("negative: %d", n))
	}
}
check(-3)
// Output:
// !! panic: negative: -3
