package known

import (
	"testing"

	"grundy/stdlib/games"
	"grundy/stdlib/solve"
)

// Seed 004: every M-move lowers the remoteness by exactly one, from every
// position, for NIM(3,2) heaps 0..12 and NIM(4,3) heaps 0..7.
func TestMRuleIsOptimalNIM32Heaps0to12NIM43Heaps0to7(t *testing.T) {
	for _, c := range []struct {
		n, k, max int
	}{{3, 2, 12}, {4, 3, 7}} {
		r, err := solve.Remoteness(games.SlowExact(c.n, c.k), c.max)
		if err != nil {
			t.Fatal(err)
		}
		s := r.CheckStrategy("M-rule", MRule)
		if !s.OK() || s.Moved == 0 || s.Moved+s.Declined != r.Len() {
			t.Errorf("%v", s)
		}
		// Terminal positions are exactly those of remoteness 0.
		if s.Declined != r.Count(0) {
			t.Errorf("M-rule passes at %d positions; %d are terminal", s.Declined, r.Count(0))
		}
	}
}

// Seed 000: the copy strategy wins from every position it answers in
// CN(6,2) and CN(6,3) (k <= m = 3), heaps 0..5; in CN(4,3) (k > m) the
// antipodal (1,0,1,0) is N, and the check says so.
func TestAntipodalStrategyCN62CN63Heaps0to5(t *testing.T) {
	for _, k := range []int{2, 3} {
		tb, err := solve.Outcomes(games.CN(6, k), 5)
		if err != nil {
			t.Fatal(err)
		}
		s := tb.CheckStrategy("antipodal reply", AntipodalStrategy(k))
		if !s.OK() || s.Moved == 0 {
			t.Errorf("CN(6,%d): %v", k, s)
		}
		for p := range tb.Positions(1) {
			if q := AntipodalStrategy(k)(p); q != nil && !IsAntipodal(q) {
				t.Fatalf("CN(6,%d): reply %v to %v is not antipodal", k, q, p)
			}
		}
	}
	tb, _ := solve.Outcomes(games.CN(4, 3), 2)
	if s := tb.CheckStrategy("antipodal reply", AntipodalStrategy(3)); s.OK() {
		t.Errorf("CN(4,3): %v", s)
	}
}
