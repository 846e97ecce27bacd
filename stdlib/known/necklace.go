package known

import (
	"fmt"

	"grundy/stdlib/games"
)

// NNn1IsP is Corollary 2.2 of seed 001 for NN(n,n-1), n >= 3: the
// P-positions are p_1 = p_2 + ... + p_{n-1} = p_n.
func NNn1IsP(p games.Pos) bool {
	n := len(p)
	if n < 3 {
		return false
	}
	return p[0] == sum(p[1:n-1]) && p[n-1] == p[0]
}

// NNn2IsP is Corollary 2.2 of seed 001 for NN(n,n-2), n >= 4: the
// P-positions are p_1 = p_3 + ... + p_{n-1} and p_n = p_2 + ... + p_{n-2}.
func NNn2IsP(p games.Pos) bool {
	n := len(p)
	if n < 4 {
		return false
	}
	return p[0] == sum(p[2:n-1]) && p[n-1] == sum(p[1:n-2])
}

// NN53Position is the P-position (a+b, c, a, b, a+c) of NN(5,3) (seed 001,
// section 4, after Ehrenborg and Steingrimsson, Example 3.3). Every
// P-position of NN(5,3) has this form for some a, b, c >= 0.
func NN53Position(a, b, c int) games.Pos { return games.Pos{a + b, c, a, b, a + c} }

// NNWindowSums returns s_i = p_i + ... + p_{i+k-2}, i = 2..l+1, the sums of
// the windows of k-1 consecutive heaps used by the anchor games of seed
// 001 (n = 2l with k = l, or n = 2l+1 with k = l+1).
func NNWindowSums(p games.Pos) []int {
	n := len(p)
	l, k := n/2, (n+1)/2
	s := make([]int, 0, l)
	for i := 2; i <= l+1; i++ {
		s = append(s, sum(p[i-1:i-1+k-1]))
	}
	return s
}

// NNAnchorSE is condition (SE) of seed 001's Theorem 2.3: the first
// floor(n/2) heaps and the last floor(n/2) heaps have equal sums (for odd n
// the centre heap is in neither).
func NNAnchorSE(p games.Pos) bool {
	n := len(p)
	return sum(p[:n/2]) == sum(p[(n+1)/2:])
}

// NNAnchorME is condition (ME) of seed 001's Theorem 2.3:
// min(p_1, p_n) = min_{i=2..l+1} s_i (see NNWindowSums).
func NNAnchorME(p games.Pos) bool {
	n := len(p)
	return min(p[0], p[n-1]) == minOf(NNWindowSums(p))
}

// NNAnchorIsP is Theorem 2.3 of seed 001 as read in the seeds README: the
// P-positions of the anchor games NN(2l,l) and NN(2l+1,l+1) are the
// positions satisfying both (SE) and (ME). The extracted text lost the
// symbols of the definition; the tests confirm this reading against
// exhaustive tables. n = len(p) >= 3 decides which anchor game.
func NNAnchorIsP(p games.Pos) bool {
	return len(p) >= 3 && NNAnchorSE(p) && NNAnchorME(p)
}

// NNIsP decides P-positions of Necklace Nim NN(n,k) for every solved case
// ceil(n/2) <= k <= n-1, n >= 3, by seed 001: for k = ceil(n/2) the anchor
// theorem (NNAnchorIsP); for larger k, Theorem 2.1 merges the n-2l middle
// heaps (l = n-k) into one and reduces to the anchor NN(2l+1,l+1).
func NNIsP(n, k int, p games.Pos) (bool, error) {
	if err := checkLen(p, n, fmt.Sprintf("NN(%d,%d)", n, k)); err != nil {
		return false, err
	}
	if n < 3 || k < (n+1)/2 || k > n-1 {
		return false, fmt.Errorf("NN(%d,%d) is not solved by seed 001: it needs n >= 3 and ceil(n/2) <= k <= n-1", n, k)
	}
	if k == (n+1)/2 {
		return NNAnchorIsP(p), nil
	}
	l := n - k
	merged := make([]int, 0, 2*l+1)
	merged = append(merged, p[:l]...)
	merged = append(merged, sum(p[l:n-l]))
	merged = append(merged, p[n-l:]...)
	return NNAnchorIsP(merged), nil
}

// PNZeroGapIsP is the set quoted in seed 001 (section 3, from Kadam,
// Dufour and Heubach) for Path Nim PN(n,k): positions
// (a_1..a_u, 0^(k-1), b_1..b_v), u, v >= 1, with a_1+...+a_u = b_1+...+b_v.
// No window of k heaps meets both sides, and each side fits in one window,
// so copying the opponent's total on the other side wins.
//
// The tests confirm it is exactly the P-set of PN(n,k) for k < n <= 2k, and
// show that for n = 2k+1 it is not: there a side of k+1 heaps no longer
// fits in one window (counterexample (1,0,1,0,2) of PN(5,2) is in the set
// but is an N-position).
func PNZeroGapIsP(k int, p games.Pos) bool {
	n := len(p)
	for s := 1; s+k-1 <= n-1; s++ {
		zeros := true
		for j := s; j < s+k-1; j++ {
			if p[j] != 0 {
				zeros = false
				break
			}
		}
		if zeros && sum(p[:s]) == sum(p[s+k-1:]) {
			return true
		}
	}
	return false
}

func sum(p []int) int {
	t := 0
	for _, x := range p {
		t += x
	}
	return t
}

func minOf(s []int) int {
	m := s[0]
	for _, x := range s[1:] {
		m = min(m, x)
	}
	return m
}
