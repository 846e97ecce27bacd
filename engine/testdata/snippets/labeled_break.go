found := -1
outer:
for i := range 10 {
	for j := range 10 {
		if i*j == 42 {
			found = i*10 + j
			break outer
		}
	}
}
found
// Output:
// 67
