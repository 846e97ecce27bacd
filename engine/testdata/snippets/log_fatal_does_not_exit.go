log.SetFlags(0)
log.Fatal("fatal error")
// ---
"kernel still here"
// Output:
// stderr: fatal error
// !! panic: fatal error
// kernel still here
