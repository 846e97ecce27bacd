var m map[string]int
m["a"] = 1
// Output:
// !! panic: assignment to entry in nil map
