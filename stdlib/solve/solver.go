package solve

import (
	"errors"

	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// A solver fills a table. The choice is made once per solve, by choose (the
// fastest that applies) or plainFor (the reference); everything else (the
// memory check, the bound that fits, the label a table shows) asks the
// solver itself.
type solver interface {
	// name is what Table.Method reports: "box", "slow", "plain", ...
	name() string
	// workBytes is the memory the solver needs beside the table itself.
	workBytes(t *Table) int64
	// solve fills t, already allocated, reporting progress on task.
	solve(t *Table, task *progress.Task) error
}

// choose picks the fastest solver that applies to the game and kind.
func choose(g games.Game, kind Kind) solver {
	switch g := g.(type) {
	case *games.SetGame:
		if _, amounts := g.Lowering(); amounts == nil {
			return boxSolver{g}
		}
		if s, ok := newOffsetSolver(g); ok {
			return s
		}
	case *games.Compound:
		if s := compoundSolverFor(g, kind); s != nil {
			return s
		}
	case games.WythoffGame:
		return wythoffSolver{}
	case *games.TakeBreak:
		if kind != KindRemoteness {
			return &heapSolver{g: g, fast: true}
		}
	}
	return plainFor(g, kind)
}

// plainFor is the reference solver: enumerate every follower of every
// position and apply the kind's rule (for a take-and-break game, every way
// to play in one heap, the row's value being the xor of its heaps').
func plainFor(g games.Game, kind Kind) solver {
	if tb, ok := g.(*games.TakeBreak); ok && kind != KindRemoteness {
		return &heapSolver{g: tb}
	}
	if monotone(g) {
		return plainSolver{}
	}
	return memoSolver{}
}

// plainSolver visits positions in index order and looks every follower up.
type plainSolver struct{}

func (plainSolver) name() string                              { return "plain" }
func (plainSolver) workBytes(*Table) int64                    { return 0 }
func (plainSolver) solve(t *Table, task *progress.Task) error { return solvePlain(t, task) }

// memoSolver searches from each position of the box, for games whose
// followers may leave it.
type memoSolver struct{}

func (memoSolver) name() string { return "plain" }

// workBytes: the memo holds every reachable position as a map entry.
func (memoSolver) workBytes(t *Table) int64 {
	if tb, ok := t.game.(*games.TakeBreak); ok {
		return satMul(searchRows(tb, t.max), 64)
	}
	return int64(t.size) * 64
}

// searchRows bounds how many rows the search meets from a take-and-break
// table with bounds max (rowCanon keys rows as multisets): heaps no larger
// than the largest bound, and either (with splits) any number of them of
// total at most the bounds' sum, or (without) at most one per table heap,
// C(M+k, k). Kayles' remoteness to heap 60 meets about 5.3 million rows.
func searchRows(g *games.TakeBreak, bounds []int) int64 {
	const top = int64(1) << 50
	M, T := 0, 0
	for _, m := range bounds {
		M, T = max(M, m), T+m
	}
	if g.MaxParts() == 1 {
		c := int64(1) // C(M+i, i), exactly, until it passes top
		for i := 1; i <= len(bounds) && c < top; i++ {
			c = satMul(c, int64(M+i)) / int64(i)
		}
		return min(c, top)
	}
	// rows[s]: multisets of parts 1..M with total s, part by part.
	rows := make([]int64, T+1)
	rows[0] = 1
	for m := 1; m <= M; m++ {
		for s := m; s <= T; s++ {
			rows[s] = min(rows[s]+rows[s-m], top)
		}
	}
	var n int64
	for _, r := range rows {
		n = min(n+r, top)
	}
	return n
}

// satMul is a*b for nonnegative operands, saturating instead of
// overflowing.
func satMul(a, b int64) int64 {
	if a != 0 && b > (1<<62)/a {
		return 1 << 62
	}
	return a * b
}
func (memoSolver) solve(t *Table, task *progress.Task) error { return solveMemo(t, task) }

// boxSolver: prefix-ORs over the box below each position (box.go).
type boxSolver struct{ g *games.SetGame }

func (boxSolver) name() string { return "box" }

func (s boxSolver) workBytes(t *Table) int64 {
	b := newBoxPlan(t, s.g)
	switch t.kind {
	case KindValues:
		return b.ringSlots() * int64(b.L) * 8 * int64(valueWords(t))
	case KindRemoteness:
		return b.ringSlots() * int64(b.L) * 4 // two uint16 rings
	}
	return b.ringSlots() * int64((b.L+63)/64) * 8
}

func (s boxSolver) solve(t *Table, task *progress.Task) error {
	switch t.kind {
	case KindOutcomes:
		return boxOutcomes(t, s.g, task)
	case KindRemoteness:
		return boxRemoteness(t, s.g, task)
	}
	total := 0
	for _, m := range t.max {
		total += m
	}
	for W := valueWords(t); ; W *= 2 {
		err := boxValues(t, s.g, task, W)
		var ew errWidth
		if !errors.As(err, &ew) || 64*W > total+1 {
			return err
		}
	}
}

// valueWords is the first bitset width (in 64-bit words) the box solver
// tries: values never exceed the number of tokens, which bounds the width;
// beyond 4 words it tries 4 and widens only if a value needs it.
func valueWords(t *Table) int {
	total := 0
	for _, m := range t.max {
		total += m
	}
	return min(total/64+1, 4)
}

type wythoffSolver struct{}

func (wythoffSolver) name() string { return "wythoff" }
func (wythoffSolver) workBytes(t *Table) int64 {
	return int64(t.max[0]+2*t.max[1]+2) * int64((t.max[0]+t.max[1])/64+1) * 8
}
func (wythoffSolver) solve(t *Table, task *progress.Task) error { return solveWythoff(t, task) }
