package solve

import (
	"fmt"
	"slices"

	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// The queries about one position, without a table. A take-and-break
// game's row is a sum of its heaps, so its value is the xor of the heaps'
// values: the queries read the heap sequence (heapSequence) instead of
// searching the rows reachable from the position, which grow exponentially
// with the heaps (Kayles' heap 60 took a minute, heap 100 hours). Every
// other game, and remoteness, which does not add up so, is searched.

// ValueOf is the Grundy value of one position (no table, no bound needed).
// For a take-and-break game it is the xor of the heaps' values, from the
// sequence computed to the largest heap; other games are searched over the
// positions reachable from p.
func ValueOf(g games.Game, p games.Pos) (int, error) {
	if err := checkQuery(g, p); err != nil {
		return 0, err
	}
	if tb, ok := g.(*games.TakeBreak); ok {
		seq, err := heapSequence(tb, largestHeap(p))
		if err != nil {
			return 0, err
		}
		return rowValue(seq, p), nil
	}
	return newMemo(g, KindValues).solve(p)
}

// RemotenessOf is Smith's remoteness of one position, found by searching
// the positions reachable from it (for a take-and-break game, rows as
// multisets of heaps: remoteness is not a function of the heaps' own).
func RemotenessOf(g games.Game, p games.Pos) (int, error) {
	if err := checkQuery(g, p); err != nil {
		return 0, err
	}
	return newMemo(g, KindRemoteness).solve(p)
}

// WinningMoves lists the moves from p to a P-position of g (no table
// needed), in the order the game generates them; empty when p is a
// P-position. For a take-and-break game the P-positions are the rows whose
// heaps' values xor to 0, read from the heap sequence; other games are
// searched from p.
func WinningMoves(g games.Game, p games.Pos) ([]games.Pos, error) {
	if err := checkQuery(g, p); err != nil {
		return nil, err
	}
	if tb, ok := g.(*games.TakeBreak); ok {
		return rowWinningMoves(tb, p)
	}
	m := newMemo(g, KindOutcomes)
	var out []games.Pos
	for _, q := range g.Followers(p) {
		v, err := m.solve(q)
		if err != nil {
			return nil, err
		}
		if v == 0 {
			out = append(out, q)
		}
	}
	return out, nil
}

// rowWinningMoves goes through the game's own moves, so that the list is
// exactly its legal moves, each as the game writes it; a move never makes
// a heap larger, so the sequence to p's largest heap covers every follower.
func rowWinningMoves(g *games.TakeBreak, p games.Pos) ([]games.Pos, error) {
	seq, err := heapSequence(g, largestHeap(p))
	if err != nil || rowValue(seq, p) == 0 {
		return nil, err
	}
	var out []games.Pos
	n := 0
	games.Visit(g, p, func(q games.Pos) bool {
		// A heap of n has about n/2 ways to split: poll as the solvers do.
		if n++; n%chunk == 0 {
			if err = progress.Err(); err != nil {
				return false
			}
		}
		if rowValue(seq, q) == 0 {
			out = append(out, q.Clone())
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func checkQuery(g games.Game, p games.Pos) error {
	if g == nil {
		return fmt.Errorf("no game given; pass one such as games.Octal(\"0.77\")")
	}
	return games.CheckPos(g, p)
}

// largestHeap is the largest heap of p, 0 for an empty row.
func largestHeap(p games.Pos) int {
	if len(p) == 0 {
		return 0
	}
	return slices.Max(p)
}

// rowValue is the value of a row of heaps: the xor of its heaps' values.
func rowValue(seq []uint16, p []int) int {
	v := 0
	for _, x := range p {
		v ^= int(seq[x])
	}
	return v
}
