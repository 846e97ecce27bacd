type S struct{ x int }
func (t *S) M1() {}
func (t *S) M2() { fmt.Println("M2", t.x) }
type I interface{ M1() }
type M2er interface{ M2() }
func G(x *S) I { return x }
func K(x *S) (r I) { r = x; return }
K(&S{2}).(M2er).M2()
