type Acc struct{ total int }
func (a *Acc) Add(n int) { a.total += n }
acc := &Acc{}
add := acc.Add
for i := range 4 {
	add(i)
}
acc.total
// Output:
// 6
