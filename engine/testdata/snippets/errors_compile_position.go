a := 1
b := a + undefinedName
// Output:
// !! CompileError: cell:2:10: undefined: undefinedName
