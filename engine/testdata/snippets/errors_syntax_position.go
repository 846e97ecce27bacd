x := [3]int{1, 2, 3}
if x[0] == 1 {
	fmt.Println("one"
}
// Output:
// !! CompileError: cell:3:19: missing ',' before newline in argument list
