type point struct{ x int }
func (p point) sum() int { return p.x }
count := 3
p := point{1}
// ---
type point struct{ x, y int }
func (p point) sum() int { return p.x + p.y }
point{1, 2}.sum() + count
// ---
p
// Output:
// stderr: note: types changed, so the session was rebuilt; these variables were dropped: p (re-run the cells that define them)
// 6
// !! CompileError: cell:1:1: undefined: p
