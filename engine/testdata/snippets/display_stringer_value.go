type Pos struct{ X, Y int }
func (p Pos) String() string { return fmt.Sprintf("(%d, %d)", p.X, p.Y) }
Pos{1, 2}
// Output:
// (1, 2)
