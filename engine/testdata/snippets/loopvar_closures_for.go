var fs []func() int
for i := 0; i < 3; i++ {
	fs = append(fs, func() int { return i })
}
fs[0]()*100 + fs[1]()*10 + fs[2]()
// Output:
// 12
