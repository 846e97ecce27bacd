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
			return heapSolver{g: g, fast: true}
		}
	}
	return plainFor(g, kind)
}

// plainFor is the reference solver: enumerate every follower of every
// position and apply the kind's rule (for a take-and-break game, every way
// to play in one heap, the row's value being the xor of its heaps').
func plainFor(g games.Game, kind Kind) solver {
	if tb, ok := g.(*games.TakeBreak); ok && kind != KindRemoteness {
		return heapSolver{g: tb}
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
func (memoSolver) workBytes(t *Table) int64                  { return int64(t.size) * 64 }
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
