count := 0
for range 5 {
	count++
}
count
// Output:
// 5
