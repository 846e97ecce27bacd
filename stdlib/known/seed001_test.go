package known

import (
	"grundy/stdlib/games"
	"grundy/stdlib/solve"
	"testing"
)

// Seed 001, Corollary 2.2: NN(n,n-1) P-positions are p_1 = p_2+...+p_{n-1} = p_n.
func TestSeed001NNn1(t *testing.T) {
	for _, c := range []struct{ n, max int }{{3, bound(20, 40)}, {4, bound(10, 16)}, {5, bound(6, 8)}, {6, bound(4, 5)}} {
		spec := name("NN(%d,%d)", c.n, c.n-1)
		agree(t, table(t, solve.KindOutcomes, spec, c.max), spec, nil, NNn1IsP)
	}
}

// Seed 001, Corollary 2.2: NN(n,n-2) P-positions are
// p_1 = p_3+...+p_{n-1}, p_n = p_2+...+p_{n-2}.
func TestSeed001NNn2(t *testing.T) {
	for _, c := range []struct{ n, max int }{{4, bound(12, 20)}, {5, bound(7, 10)}, {6, bound(5, 6)}, {7, bound(3, 4)}} {
		spec := name("NN(%d,%d)", c.n, c.n-2)
		agree(t, table(t, solve.KindOutcomes, spec, c.max), spec, nil, NNn2IsP)
	}
}

// Seed 001: the P-positions of NN(5,3) are exactly (a+b, c, a, b, a+c).
func TestSeed001NN53Form(t *testing.T) {
	N := bound(8, 12)
	tb := table(t, solve.KindOutcomes, "NN(5,3)", N)
	form := map[[5]int]bool{}
	for a := 0; a <= N; a++ {
		for b := 0; b <= N; b++ {
			for c := 0; c <= N; c++ {
				p := NN53Position(a, b, c)
				if max(p[0], p[4]) <= N {
					form[[5]int(p)] = true
				}
			}
		}
	}
	agree(t, tb, "NN(5,3) as (a+b,c,a,b,a+c)", nil, func(p games.Pos) bool { return form[[5]int(p)] })
}

// Seed 001, Theorem 2.3 as read in the seeds README: the anchor games
// NN(2l,l) and NN(2l+1,l+1) have P-positions (SE) and (ME).
func TestSeed001Anchors(t *testing.T) {
	for _, c := range []struct{ n, k, max int }{
		{4, 2, bound(12, 20)}, {6, 3, bound(8, 11)}, {8, 4, bound(4, 5)}, // NN(2l,l)
		{3, 2, bound(20, 40)}, {5, 3, bound(12, 20)}, {7, 4, bound(5, 7)}, // NN(2l+1,l+1)
	} {
		spec := name("NN(%d,%d)", c.n, c.k)
		agree(t, table(t, solve.KindOutcomes, spec, c.max), spec+" (SE)+(ME)", nil, NNAnchorIsP)
	}
}

// Seed 001, Theorem 2.1 with Theorem 2.3: every NN(n,k) with
// ceil(n/2) <= k <= n-1 by merging the middle heaps into the anchor.
func TestSeed001NNReduction(t *testing.T) {
	for n := 3; n <= 7; n++ {
		for k := (n + 1) / 2; k <= n-1; k++ {
			max := map[int]int{3: 14, 4: 9, 5: 6, 6: 4, 7: 3}[n]
			if heavy {
				max++
			}
			spec := name("NN(%d,%d)", n, k)
			agree(t, table(t, solve.KindOutcomes, spec, max), spec+" via Theorem 2.1", nil, func(p games.Pos) bool {
				isP, err := NNIsP(n, k, p)
				if err != nil {
					t.Fatal(err)
				}
				return isP
			})
		}
	}
	if _, err := NNIsP(6, 2, make([]int, 6)); err == nil {
		t.Error("NN(6,2) is unsolved; NNIsP must say so")
	}
}

// Seed 001, section 3 (quoting Kadam, Dufour and Heubach): PN(n,k)
// P-positions are (a_1..a_u, 0^(k-1), b_1..b_v) with equal side sums. The
// tables show this is exactly the P-set for k < n <= 2k.
func TestSeed001PathNimZeroGap(t *testing.T) {
	for _, c := range []struct{ n, k, max int }{
		{3, 2, bound(20, 40)}, {4, 2, bound(10, 16)}, {4, 3, bound(10, 16)}, {5, 3, bound(7, 10)}, {6, 3, bound(5, 6)}, {5, 4, bound(7, 10)}, {6, 4, bound(5, 6)}, {7, 4, bound(3, 4)}, {8, 4, bound(2, 3)},
	} {
		spec := name("PN(%d,%d)", c.n, c.k)
		agree(t, table(t, solve.KindOutcomes, spec, c.max), spec+" zero gap, equal sides", nil, func(p games.Pos) bool { return PNZeroGapIsP(c.k, p) })
	}
}

// For n = 2k+1 the zero-gap set is not the P-set: documented counterexamples.
func TestSeed001PathNimZeroGapFailsBeyond2k(t *testing.T) {
	tb := table(t, solve.KindOutcomes, "PN(5,2)", 3)
	inSetButN := []int{1, 0, 1, 0, 2} // sides (1) and (1,0,2): the right side needs two moves
	pNotInSet := []int{1, 0, 2, 1, 2}
	if !PNZeroGapIsP(2, inSetButN) || tb.IsP(inSetButN...) {
		t.Errorf("PN(5,2) heaps<=3: expected %v in the zero-gap set and N", inSetButN)
	}
	if PNZeroGapIsP(2, pNotInSet) || !tb.IsP(pNotInSet...) {
		t.Errorf("PN(5,2) heaps<=3: expected %v outside the zero-gap set and P", pNotInSet)
	}
}
