xs := []string{"x", "y"}
for i := range xs {
	fmt.Print(i)
}
fmt.Println()
// Output:
// 01
