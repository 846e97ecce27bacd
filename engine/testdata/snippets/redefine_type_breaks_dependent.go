type cfg struct{ n int }
func defaultCfg() cfg { return cfg{1} }
// ---
type cfg struct{ n, m int }
// ---
defaultCfg().n
// Output:
// !! CompileError: cannot apply the new definitions: func defaultCfg no longer compiles: too few values in struct literal
// 1
