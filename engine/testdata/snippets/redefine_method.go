type T struct{ n int }
func (t T) Get() int { return t.n }
T{3}.Get()
// ---
type T struct{ n int }
func (t T) Get() int { return t.n }
T{4}.Get()
// ---
func (t T) Get() int { return t.n * 10 }
// Output:
// 3
// 4
// !! CompileError: cell:1:1: method T.Get is already defined and the interpreter cannot replace a method; restart the kernel to change it, or use a function instead
