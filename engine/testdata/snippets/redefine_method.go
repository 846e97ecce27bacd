type T struct{ n int }
func (t T) Get() int { return t.n }
T{3}.Get()
// ---
type T struct{ n int }
func (t T) Get() int { return t.n }
T{4}.Get()
// ---
func (t T) Get() int { return t.n * 10 }
T{3}.Get()
// Output:
// 3
// 4
// 30
