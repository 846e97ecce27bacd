size := 4
// ---
total := 0
for i := range size {
	total += i
}
total
// Output:
// 6
