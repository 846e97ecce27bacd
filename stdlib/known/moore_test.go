package known

import (
	"grundy/stdlib/games"
	"grundy/stdlib/solve"
	"testing"
)

// Moore's theorem: P iff every binary digit column sums to a multiple of k+1.
func TestMooreNim(t *testing.T) {
	for _, c := range []struct{ n, k, max int }{
		{3, 1, 15}, {3, 2, 15}, {3, 3, 7}, {4, 1, 7}, {4, 2, 7}, {4, 3, 7},
		{5, 2, bound(7, 9)}, {5, 3, bound(7, 9)}, {6, 4, bound(4, 5)},
	} {
		spec := name("Moore(%d,%d)", c.n, c.k)
		agree(t, table(t, solve.KindOutcomes, spec, c.max), spec, nil, func(p games.Pos) bool { return MooreIsP(c.k, p) })
	}
}

// Wythoff's P-positions are the golden-ratio pairs.
func TestWythoff(t *testing.T) {
	N := bound(300, 1000)
	tb := table(t, solve.KindOutcomes, "Wythoff", N)
	agree(t, tb, "Wythoff", nil, func(p games.Pos) bool { return WythoffIsP(p[0], p[1]) })
}
