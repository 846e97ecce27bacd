for i := range 4 {
	fmt.Print(i, " ")
}
fmt.Println()
// Output:
// 0 1 2 3
