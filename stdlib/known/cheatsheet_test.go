package known

import (
	"grundy/stdlib/games"
	"grundy/stdlib/solve"
	"testing"
)

// Seed 001, section 5.2, Case 1 of the cheat sheet as a move rule: from
// every N-position of an anchor game with m >= s*, the rule's move is a
// legal move of NN(n,k) into a P-position. Case 2 is counted, not played.
func TestSeed001CheatSheetCase1(t *testing.T) {
	for _, c := range []struct{ n, k, max int }{
		{4, 2, bound(12, 20)}, {5, 3, bound(8, 12)}, {6, 3, bound(8, 11)}, {7, 4, bound(5, 7)}, {8, 4, bound(4, 5)},
	} {
		spec := name("NN(%d,%d)", c.n, c.k)
		t.Run(name("%s heaps<=%d", spec, c.max), func(t *testing.T) {
			tb := table(t, solve.KindOutcomes, spec, c.max)
			sets := necklaceSets(c.n, c.k)
			case1, case2 := 0, 0
			forBox(tb, func(p games.Pos) {
				if tb.IsP(p...) {
					if _, ok := NNCheatSheetMove(p); ok {
						t.Fatalf("rule moves from the P-position %v", p)
					}
					return
				}
				if min(p[0], p[c.n-1]) < minOf(NNWindowSums(p)) {
					case2++
					return
				}
				case1++
				q, ok := NNCheatSheetMove(p)
				if !ok {
					t.Fatalf("Case 1 position %v: the rule finds no move", p)
				}
				if !legalMove(p, q, sets) {
					t.Fatalf("Case 1 position %v: rule's move to %v is not a move of %s", p, q, spec)
				}
				if !tb.IsP(q...) {
					t.Fatalf("Case 1 position %v: rule's move to %v reaches an N-position", p, q)
				}
			})
			t.Logf("rule wins from all %d Case 1 N-positions (%d Case 2 N-positions not covered)", case1, case2)
		})
	}
}
