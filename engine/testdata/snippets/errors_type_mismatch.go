var n int = "three"
// Output:
// !! CompileError: cell:1:13: cannot convert "three" to int
