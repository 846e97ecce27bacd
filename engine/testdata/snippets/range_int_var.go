n := 3
sum := 0
for i := range n {
	sum += i
}
sum
// Output:
// 3
