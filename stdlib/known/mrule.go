package known

import (
	"slices"

	"grundy/stdlib/games"
)

// MMove is the M-rule of seed 004 for Exact Slow NIM(k+1,k) (k+1 heaps; a
// move lowers exactly k of them by one each, i.e. keeps exactly one): if
// every heap is odd, keep a largest heap and lower all others; otherwise
// keep a smallest even heap and lower all others. It returns the position
// after the M-move, or ok = false at a terminal position (two or more empty
// heaps, so no k heaps can be lowered). Ties keep the last such heap, which
// is the paper's choice e(x) on sorted positions; any tie gives the same
// position up to order.
//
// Seed 004 proves that M-moves are optimal in Smith's sense: the remoteness
// drops by exactly one with every M-move, so M(x) = R(x), and x is P iff
// that number is even.
func MMove(x games.Pos) (next games.Pos, ok bool) {
	if len(x) < 2 {
		return nil, false
	}
	zeros := 0
	for _, v := range x {
		if v < 0 {
			return nil, false
		}
		if v == 0 {
			zeros++
		}
	}
	if zeros >= 2 {
		return nil, false
	}
	keep := -1
	for i, v := range x {
		if v%2 == 0 && (keep < 0 || v <= x[keep]) {
			keep = i
		}
	}
	if keep < 0 {
		for i, v := range x {
			if keep < 0 || v >= x[keep] {
				keep = i
			}
		}
	}
	next = slices.Clone(x)
	for i := range next {
		if i != keep {
			next[i]--
		}
	}
	return next, true
}

// M is the number of moves from x to a terminal position of Exact Slow
// NIM(k+1,k), k = len(x)-1, when both players follow the M-rule (seed 004:
// M(3,3,3) = 4 and M(3,5,5) = 6 in NIM(3,2)). Seed 004's theorem: M equals
// Smith's remoteness.
func M(x games.Pos) int {
	steps := 0
	for {
		next, ok := MMove(x)
		if !ok {
			return steps
		}
		x = next
		steps++
	}
}

// MPath returns the sequence of positions visited by M-moves from x to a
// terminal position, x first; seed 004 prints
// (3,3,3) -> (2,2,3) -> (1,2,2) -> (0,1,2) -> (0,0,1) with positions sorted.
func MPath(x games.Pos) []games.Pos {
	path := []games.Pos{slices.Clone(x)}
	for {
		next, ok := MMove(path[len(path)-1])
		if !ok {
			return path
		}
		path = append(path, next)
	}
}

// MIsP: seed 004's corollary, x is a P-position of Exact Slow NIM(k+1,k)
// exactly when M(x) is even.
func MIsP(x games.Pos) bool { return M(x)%2 == 0 }
