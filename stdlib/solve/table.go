// Package solve computes exhaustive tables of impartial games over a box of
// positions: Sprague-Grundy values, P/N outcomes, or Smith's remoteness.
//
//	t, err := solve.Values(games.CN(6, 2), 11) // every position with heaps 0..11
//	t.At(1, 1, 1, 2, 1, 2)                     // 0: a P-position
//	t.Count(0)                                 // how many P-positions
//	t.Face("0 a b 0 2 1")                      // a 2-D face for a heatmap
//
// A plain solver (enumerate every follower, take the mex) is the reference
// for every game. Games built on move sets (every games.SetGame) have fast
// solvers that use prefix-ORs of value bitsets over the box below a
// position, 1-bit tables for outcomes and prefix-min/max for remoteness,
// and they run on all cores; tests check each fast path against the plain
// solver. Tables are cached per session: asking twice for the same game,
// kind and bound returns the same table.
package solve

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"

	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// Table is an exhaustive table of one game over the positions with heap i
// in 0..Max()[i].
type Table struct {
	game    games.Game
	name    string
	kind    Kind
	max     []int
	dims    []int
	strides []int
	size    int
	vals    []uint16 // Values and Remoteness
	bits    []uint64 // Outcomes: bit set means N
	method  string
	seconds float64
	counts  []int
	seq     []uint16 // take-and-break games: the values G(0..) of one heap
	// rows answers for rows of a take-and-break remoteness table that the
	// table does not hold (a move may split a heap): the search that
	// built it, kept on first use.
	rows struct {
		sync.Mutex
		m *memo
	}
}

func newTable(g games.Game, kind Kind, max []int) *Table {
	t := &Table{game: g, name: g.Name(), kind: kind, max: slices.Clone(max)}
	t.layout()
	return t
}

func (t *Table) layout() {
	n := len(t.max)
	t.dims = make([]int, n)
	t.strides = make([]int, n)
	t.size = 1
	for i := n - 1; i >= 0; i-- {
		t.dims[i] = t.max[i] + 1
		t.strides[i] = t.size
		t.size *= t.dims[i]
	}
}

func (t *Table) alloc() {
	if t.kind == KindOutcomes {
		t.bits = make([]uint64, (t.size+63)/64)
	} else {
		t.vals = make([]uint16, t.size)
	}
}

// Game is the game the table was computed for (nil for a loaded table whose
// name games.Parse does not know).
func (t *Table) Game() games.Game { t.need("Game"); return t.game }

// GameName is the game's name, e.g. "CN(6,2)".
func (t *Table) GameName() string { t.need("GameName"); return t.name }

// Kind says whether the table holds values, outcomes or remoteness.
func (t *Table) Kind() Kind { t.need("Kind"); return t.kind }

// Max is the largest size of each heap in the table.
func (t *Table) Max() []int { t.need("Max"); return slices.Clone(t.max) }

// Len is the number of positions in the table.
func (t *Table) Len() int { t.need("Len"); return t.size }

// Method names the solver that computed the table ("plain", "box", ...).
func (t *Table) Method() string { t.need("Method"); return t.method }

// Seconds is how long the solve took.
func (t *Table) Seconds() float64 { t.need("Seconds"); return t.seconds }

func (t *Table) index(p []int) (int, bool) {
	if len(p) != len(t.max) {
		return 0, false
	}
	idx := 0
	for i, x := range p {
		if x < 0 || x > t.max[i] {
			return 0, false
		}
		idx += x * t.strides[i]
	}
	return idx, true
}

func (t *Table) pos(idx int) games.Pos {
	p := make(games.Pos, len(t.max))
	for i := range p {
		p[i] = idx / t.strides[i]
		idx %= t.strides[i]
	}
	return p
}

func (t *Table) get(idx int) int {
	if t.kind == KindOutcomes {
		return int(t.bits[idx>>6] >> (idx & 63) & 1)
	}
	return int(t.vals[idx])
}

func (t *Table) set(idx, v int) {
	if t.kind == KindOutcomes {
		if v != 0 {
			t.bits[idx>>6] |= 1 << (idx & 63)
		} else {
			t.bits[idx>>6] &^= 1 << (idx & 63)
		}
		return
	}
	t.vals[idx] = uint16(v)
}

// At is the entry at the position given heap by heap: the Grundy value,
// the outcome (0 = P, 1 = N) or the remoteness. A position outside the
// table (a coordinate too many or too few, or beyond the bound) stops the
// cell with an error naming the table's shape; Value returns that error
// instead.
func (t *Table) At(pos ...int) int { return t.at("At", pos) }

// Value is the entry at p, or an error saying why p is not in the table.
func (t *Table) Value(p games.Pos) (int, error) {
	if err := t.noTable("Value"); err != nil {
		return 0, err
	}
	if err := t.checkRow(p); err != nil {
		return 0, err
	}
	v, _, err := t.entry(p)
	return v, err
}

// IsP reports whether p is a P-position (the player to move loses). A
// position outside the table stops the cell, as with At.
func (t *Table) IsP(pos ...int) bool {
	v := t.at("IsP", pos)
	if t.kind == KindRemoteness {
		return v%2 == 0
	}
	return v == 0
}

func (t *Table) check(p games.Pos) error {
	if len(p) != len(t.max) {
		return fmt.Errorf("position %v has %d heaps; the table (%s) has positions of %d", p, len(p), t.shape(), len(t.max))
	}
	for i, x := range p {
		if x < 0 {
			return fmt.Errorf("heap %d of %v is negative; the table (%s) starts at 0", i+1, p, t.shape())
		}
		if x > t.max[i] {
			return fmt.Errorf("heap %d of %v is %d, beyond the table (%s); solve with a larger bound", i+1, p, x, t.shape())
		}
	}
	return nil
}

// Counts is the number of positions per entry: Counts()[v] positions have
// value (or remoteness) v; for outcomes [P count, N count].
func (t *Table) Counts() []int {
	t.need("Counts")
	if t.counts != nil {
		return slices.Clone(t.counts)
	}
	var c []int
	if t.kind == KindOutcomes {
		n := 0
		for i, w := range t.bits {
			if i == len(t.bits)-1 && t.size%64 != 0 {
				w &= 1<<(t.size%64) - 1
			}
			n += bits.OnesCount64(w)
		}
		c = []int{t.size - n, n}
	} else {
		for _, v := range t.vals {
			for int(v) >= len(c) {
				c = append(c, 0)
			}
			c[v]++
		}
	}
	t.counts = c
	return slices.Clone(c)
}

// Count is the number of positions with entry v (Count(0): P-positions for
// values and outcomes).
func (t *Table) Count(v int) int {
	t.need("Count")
	c := t.Counts()
	if v < 0 || v >= len(c) {
		return 0
	}
	return c[v]
}

// CountP is the number of P-positions, whatever the kind.
func (t *Table) CountP() int {
	t.need("CountP")
	if t.kind != KindRemoteness {
		return t.Count(0)
	}
	n := 0
	for v, c := range t.Counts() {
		if v%2 == 0 {
			n += c
		}
	}
	return n
}

// MaxValue is the largest entry in the table.
func (t *Table) MaxValue() int {
	t.need("MaxValue")
	c := t.Counts()
	for v := len(c) - 1; v >= 0; v-- {
		if c[v] > 0 {
			return v
		}
	}
	return 0
}

// Positions yields the positions with entry v, sorted by total number of
// tokens and then lexicographically.
func (t *Table) Positions(v int) func(yield func(games.Pos) bool) {
	t.need("Positions")
	return func(yield func(games.Pos) bool) {
		total := 0
		for _, m := range t.max {
			total += m
		}
		n := len(t.max)
		// suffixMax[i] is the most tokens heaps i.. can hold, to prune.
		suffixMax := make([]int, n+1)
		for i := n - 1; i >= 0; i-- {
			suffixMax[i] = suffixMax[i+1] + t.max[i]
		}
		p := make(games.Pos, n)
		var rec func(i, left, idx int) bool
		rec = func(i, left, idx int) bool {
			if i == n-1 || n == 0 {
				if n == 0 {
					return true
				}
				if left > t.max[i] {
					return true
				}
				p[i] = left
				idx += left * t.strides[i]
				if t.get(idx) == v {
					return yield(p.Clone())
				}
				return true
			}
			for x := max(0, left-suffixMax[i+1]); x <= min(left, t.max[i]); x++ {
				p[i] = x
				if !rec(i+1, left-x, idx+x*t.strides[i]) {
					return false
				}
			}
			return true
		}
		for s := 0; s <= total; s++ {
			if !rec(0, s, 0) {
				return
			}
		}
	}
}

// List is the first limit positions with entry v in Positions order (all
// of them when limit <= 0).
func (t *Table) List(v, limit int) []games.Pos {
	t.need("List")
	var out []games.Pos
	for p := range t.Positions(v) {
		out = append(out, p)
		if limit > 0 && len(out) >= limit {
			break
		}
	}
	return out
}

// WinningMoves lists the moves from p to a P-position (for a remoteness
// table: to a position of remoteness R(p)-1, the moves that win fastest).
// It is empty exactly when p is a P-position.
func (t *Table) WinningMoves(p games.Pos) ([]games.Pos, error) {
	if err := t.noTable("WinningMoves"); err != nil {
		return nil, err
	}
	if t.kind == KindRemoteness {
		r, err := t.Value(p)
		if err != nil {
			return nil, err
		}
		if r%2 == 0 {
			return nil, nil
		}
		return t.MovesTo(p, r-1)
	}
	return t.MovesTo(p, 0)
}

// MovesTo lists the distinct followers of p whose entry is v (for a
// take-and-break game, distinct rows: sorted, as multisets of heaps).
func (t *Table) MovesTo(p games.Pos, v int) ([]games.Pos, error) {
	if err := t.noTable("MovesTo"); err != nil {
		return nil, err
	}
	if err := t.checkRow(p); err != nil {
		return nil, err
	}
	moves, err := t.followers(p)
	if err != nil {
		return nil, err
	}
	var out []games.Pos
	for _, q := range moves {
		e, ok, err := t.entry(q)
		switch {
		case err != nil:
			return nil, err
		case !ok:
			return nil, fmt.Errorf("%s: follower %v of %v lies outside the table", t.name, q, p)
		}
		if e == v {
			out = append(out, q)
		}
	}
	return out, nil
}

// followers lists the distinct followers of p. A take-and-break game's
// rows are multisets of heaps, so they come sorted and without empty
// heaps: from (4,4) Kayles reaches (1,1,4) once, not also as (4,1,1).
func (t *Table) followers(p games.Pos) ([]games.Pos, error) {
	if t.game == nil {
		return nil, fmt.Errorf("%s: this table was loaded without its game (games.Parse does not know %q); moves need the game's rules", t.name, t.name)
	}
	form := func(q games.Pos) games.Pos { return q.Clone() }
	if tb, ok := t.game.(*games.TakeBreak); ok {
		form = tb.Canonical
	}
	var out []games.Pos
	seen := map[string]bool{}
	games.Visit(t.game, p, func(q games.Pos) bool {
		q = form(q)
		if k := q.String(); !seen[k] {
			seen[k] = true
			out = append(out, q)
		}
		return true
	})
	return out, nil
}

// advance steps p to the next position of the table's box in index order
// (the last heap fastest).
func (t *Table) advance(p []int) {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] < t.max[i] {
			p[i]++
			return
		}
		p[i] = 0
	}
}

// fillFrom sets every entry to entry(p), reporting progress; for an
// outcomes table any nonzero result means N.
func (t *Table) fillFrom(task *progress.Task, entry func(p []int) int) error {
	p := make([]int, len(t.max))
	for idx := 0; idx < t.size; idx++ {
		if idx%chunk == 0 && idx > 0 {
			if err := task.Add(chunk); err != nil {
				return err
			}
		}
		v := entry(p)
		if t.kind == KindOutcomes && v != 0 {
			v = 1
		}
		t.set(idx, v)
		t.advance(p)
	}
	return task.Add(int64(t.size % chunk))
}

// entry is the table's entry at q, which may be a row of another length
// for a take-and-break game (a move can split a heap): its heaps' values
// xor, or for remoteness the search's answer. ok is false when q lies
// outside the table; err is set when that search stopped (an interrupt),
// which is no answer about q.
func (t *Table) entry(q games.Pos) (_ int, ok bool, err error) {
	if idx, ok := t.index(q); ok {
		return t.get(idx), true, nil
	}
	if t.checkRow(q) != nil {
		return 0, false, nil
	}
	if t.kind == KindRemoteness {
		t.rows.Lock()
		defer t.rows.Unlock()
		if t.rows.m == nil {
			t.rows.m = newMemo(t.game, KindRemoteness)
		}
		v, err := t.rows.m.solve(q)
		return v, err == nil, err
	}
	v := rowValue(t.heapValues(), q)
	if t.kind == KindOutcomes && v != 0 {
		v = 1
	}
	return v, true, nil
}

// checkRow is check, except that a take-and-break game's table also
// answers for rows of other lengths (a move may split a heap), with heaps
// up to its largest bound.
func (t *Table) checkRow(p games.Pos) error {
	if _, ok := t.game.(*games.TakeBreak); !ok || len(p) == len(t.max) && t.check(p) == nil {
		return t.check(p)
	}
	top := slices.Max(t.max)
	if t.kind != KindRemoteness && t.heapValues() == nil {
		return fmt.Errorf("%s: the one-heap values behind rows of other lengths could not be computed", t.name)
	}
	for i, x := range p {
		if x < 0 || x > top {
			return fmt.Errorf("%s: heap %d of %v is %d, outside this table's 0..%d", t.name, i+1, p, x, top)
		}
	}
	return nil
}

// heapValues is G(0..) of one heap for a values or outcomes table of a
// take-and-break game (recomputed for a loaded table), else nil.
func (t *Table) heapValues() []uint16 {
	tb, ok := t.game.(*games.TakeBreak)
	if !ok || t.kind == KindRemoteness {
		return nil
	}
	if t.seq == nil {
		seq, err := heapSequence(tb, slices.Max(t.max))
		if err != nil {
			return nil
		}
		t.seq = seq
	}
	return t.seq
}

func (t *Table) boundText() string {
	same := true
	for _, m := range t.max {
		if m != t.max[0] {
			same = false
		}
	}
	if same && len(t.max) > 0 {
		return "heaps 0.." + strconv.Itoa(t.max[0])
	}
	parts := make([]string, len(t.max))
	for i, m := range t.max {
		parts[i] = "0.." + strconv.Itoa(m)
	}
	return "heaps " + strings.Join(parts, " x ")
}
