type point struct{ x int }
// ---
type point struct{ x, y int }
// Output:
// !! CompileError: cell:1:6: type point is already defined and the interpreter cannot change a type; restart the kernel to change it, or use a new name
