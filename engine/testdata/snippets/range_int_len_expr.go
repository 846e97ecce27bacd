xs := []string{"a", "b", "c"}
for i := range len(xs) - 1 {
	fmt.Print(xs[i])
}
fmt.Println()
// Output:
// ab
