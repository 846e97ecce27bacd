package known

import (
	"fmt"
	"testing"

	"grundy/stdlib/games"
	"grundy/stdlib/solve"
)

// The published sequences against both heap solvers (the plain sequence
// and the rare-value method), over every printed value.
func TestPublishedSequences(t *testing.T) {
	for _, s := range Sequences() {
		t.Run(fmt.Sprintf("%s/heaps0to%d", s.Name, len(s.Values)-1), func(t *testing.T) {
			g, err := games.Parse(s.Game)
			if err != nil {
				t.Fatal(err)
			}
			for _, plain := range []bool{false, true} {
				var tab *solve.Table
				if plain {
					tab, err = solve.Plain(g, solve.KindValues, len(s.Values)-1)
				} else {
					tab, err = solve.Values(g, len(s.Values)-1)
				}
				if err != nil {
					t.Fatal(err)
				}
				for n, want := range s.Values {
					if got := tab.At(n); got != want {
						t.Fatalf("%s (%s): G(%d) = %d, published %d", s.Game, tab.Method(), n, got, want)
					}
				}
			}
		})
	}
}

// The published periods, proved by the octal periodicity theorem from a
// table that reaches 2*n0 + 2p + t: Kayles p = 12, n0 = 71; Dawson's
// Kayles p = 34, n0 = 53; Dawson's chess p = 34, n0 = 52.
func TestPublishedPeriodsProvedHeaps0to400(t *testing.T) {
	for _, s := range []Sequence{Kayles, DawsonsKayles, DawsonsChess} {
		g, _ := games.Parse(s.Game)
		tab, err := solve.Values(g, 400)
		if err != nil {
			t.Fatal(err)
		}
		per, err := tab.Period("a")
		if err != nil {
			t.Fatal(err)
		}
		tb := g.(*games.TakeBreak)
		if !per.Proved || per.Period != s.Period || per.Preperiod() != s.Preperiod ||
			per.ProvedAt != 2*s.Preperiod+2*s.Period+tb.CodeLength() {
			t.Errorf("%s: %v; want period %d from %d, proved", s.Name, per, s.Period, s.Preperiod)
		}
		// One entry short of what the theorem needs: observed, not proved.
		short, _ := solve.Values(g, per.ProvedAt-2)
		if per, _ := short.Period("a"); per.Proved || !per.Found || per.Period != s.Period {
			t.Errorf("%s heaps 0..%d: %v", s.Name, per.ProvedAt-2, per)
		}
	}
}

// Beyond the printed values the proved periods give every value: the
// rare-value method (used past the first 2,048 heaps) must follow them.
func TestPublishedPeriodsExtendHeaps0to6000(t *testing.T) {
	for _, s := range []Sequence{Kayles, DawsonsKayles, DawsonsChess} {
		g, _ := games.Parse(s.Game)
		tab, err := solve.Values(g, 6000)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n <= 6000; n++ {
			m := n
			if n >= s.Preperiod {
				m = s.Preperiod + (n-s.Preperiod)%s.Period
			}
			if got := tab.At(n); got != s.Values[m] {
				t.Fatalf("%s (%s): G(%d) = %d; the published period gives %d", s.Name, tab.Method(), n, got, s.Values[m])
			}
		}
	}
}
