import "github.com/someone/else"
// Output:
// !! CompileError: cell:1:8: import "github.com/someone/else": not available; only Go's standard library and grundy's packages can be imported
