package known

import (
	"slices"

	"grundy/stdlib/games"
)

// NNCheatSheetMove is the winning-move "cheat sheet" of seed 001, section
// 5.2, Case 1, for the anchor games NN(2l,l) and NN(2l+1,l+1) (n = len(p)
// >= 4): the case m >= s*, where m = min(p_1, p_n) and s* is the least
// window sum (NNWindowSums). Write A and B for the sums of the first and
// last floor(n/2) heaps and Delta = A - B; when Delta < 0 the rule is
// applied to the reversed position (NN is symmetric). With delta = m - s*:
//
//	1.1  m = p_1, delta >= Delta:  endpoint move p_1 -= delta, p_n -= delta - Delta
//	1.1  m = p_1, delta <  Delta:  p_1 = s*, then the Delta-algorithm for the rest
//	1.2  m = p_n, p_1 >= m + Delta: endpoint move p_1 -= Delta + delta, p_n -= delta
//	1.3  m = p_n, p_1 <  m + Delta: p_1 = s* and p_n -= p_1 - s* - Delta when that
//	     is >= 0; otherwise p_1 = s*, then the Delta-algorithm for the rest
//
// The Delta-algorithm (an A-side move) lowers p_2..p_l, smallest index
// first, each by as much as the remaining imbalance and the slack of the
// windows it lies in allow (heap j lies in windows 2..j, and no window may
// fall below s*).
//
// The extracted text of row 1.3 is garbled; the row above is the reading
// the tables confirm. Case 2 (m < s*, the TwoDelta and delta algorithms)
// is not implemented: ok is false there, and at P-positions.
func NNCheatSheetMove(p games.Pos) (next games.Pos, ok bool) {
	n := len(p)
	if n < 4 || NNAnchorIsP(p) {
		return nil, false
	}
	h := n / 2
	A, B := sum(p[:h]), sum(p[n-h:])
	if A < B {
		r := slices.Clone(p)
		slices.Reverse(r)
		next, ok = NNCheatSheetMove(r)
		if ok {
			slices.Reverse(next)
		}
		return next, ok
	}
	delta0 := A - B // the paper's Delta
	sStar := minOf(NNWindowSums(p))
	m := min(p[0], p[n-1])
	if m < sStar {
		return nil, false // Case 2
	}
	delta := m - sStar // the paper's delta
	q := slices.Clone(p)
	switch {
	case p[0] == m && delta >= delta0: // 1.1, endpoint move
		q[0] -= delta
		q[n-1] -= delta - delta0
		return q, true
	case p[0] == m: // 1.1, then the Delta-algorithm
		q[0] = sStar
		return deltaAlgorithm(q, delta0-delta, sStar)
	case p[0] >= m+delta0: // 1.2
		q[0] -= delta0 + delta
		q[n-1] -= delta
		return q, true
	case p[0]-sStar >= delta0: // 1.3, endpoint move
		q[n-1] -= p[0] - sStar - delta0
		q[0] = sStar
		return q, true
	default: // 1.3, then the Delta-algorithm
		rest := delta0 - (p[0] - sStar)
		q[0] = sStar
		return deltaAlgorithm(q, rest, sStar)
	}
}

// deltaAlgorithm lowers heaps 2..floor(n/2) of q by rest in total without
// taking any window sum below goal; q already has p_1 set. ok is false if
// the slack does not allow it.
func deltaAlgorithm(q []int, rest, goal int) ([]int, bool) {
	n := len(q)
	s := NNWindowSums(q) // s[i-2] is s_i
	// slack[j] = min over windows 2..j of (s_i - goal): the most heap j may lose.
	for j := 2; j <= n/2 && rest > 0; j++ {
		slack := s[0] - goal
		for i := 2; i <= j; i++ {
			slack = min(slack, s[i-2]-goal)
		}
		d := min(q[j-1], rest, slack)
		if d <= 0 {
			continue
		}
		q[j-1] -= d
		rest -= d
		for i := 2; i <= j; i++ {
			s[i-2] -= d
		}
	}
	if rest > 0 {
		return nil, false
	}
	return q, true
}

// necklaceSets lists the move sets of NN(n,k), heaps numbered from 0.
func necklaceSets(n, k int) [][]int {
	var sets [][]int
	for i := 0; i+k <= n; i++ {
		s := make([]int, k)
		for j := range s {
			s[j] = i + j
		}
		sets = append(sets, s)
	}
	return append(sets, []int{0, n - 1})
}
