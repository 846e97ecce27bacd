var fs []func() int
for _, v := range []int{1, 2, 3} {
	fs = append(fs, func() int { return v })
}
fs[0]()*100 + fs[1]()*10 + fs[2]()
// Output:
// 123
