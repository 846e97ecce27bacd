type S struct{ n int }
func (s S) String() string { return fmt.Sprintf("S#%d", s.n) }
fmt.Println(S{1})
fmt.Sprint(S{2})
// Output:
// S#1
// S#2
