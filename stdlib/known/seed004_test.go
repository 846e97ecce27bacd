package known

import (
	"grundy/stdlib/games"
	"grundy/stdlib/solve"
	"testing"
)

// Seed 004: in Exact Slow NIM(k+1,k) every M-move lowers Smith's
// remoteness by exactly one, so M = R, and x is P iff R is even.
func TestSeed004MRule(t *testing.T) {
	for _, c := range []struct{ k, max int }{{2, bound(60, 100)}, {3, bound(20, 30)}, {4, bound(10, 14)}} {
		spec := name("SlowExact(%d,%d)", c.k+1, c.k)
		t.Run(name("%s heaps<=%d", spec, c.max), func(t *testing.T) {
			rt := table(t, solve.KindRemoteness, spec, c.max)
			ot := table(t, solve.KindOutcomes, spec, c.max)
			moves := 0
			forBox(rt, func(p games.Pos) {
				r := rt.At(p...)
				if ot.IsP(p...) != (r%2 == 0) {
					t.Fatalf("%v: remoteness %d but outcome %s", p, r, pn(ot.IsP(p...)))
				}
				if m := M(p); m != r {
					t.Fatalf("M%v = %d, remoteness %d", p, m, r)
				}
				q, ok := MMove(p)
				if !ok {
					if r != 0 {
						t.Fatalf("%v: no M-move but remoteness %d", p, r)
					}
					return
				}
				moves++
				if rq := rt.At(q...); rq != r-1 {
					t.Fatalf("M-move %v -> %v: remoteness %d -> %d", p, q, r, rq)
				}
			})
			t.Logf("%d M-moves each lower remoteness by one; M = R and P iff R even everywhere", moves)
		})
	}
	rt := table(t, solve.KindRemoteness, "SlowExact(3,2)", 5)
	for _, c := range []struct {
		x []int
		r int
	}{{[]int{3, 3, 3}, 4}, {[]int{3, 5, 5}, 6}} {
		if got := rt.At(c.x...); got != c.r {
			t.Errorf("SlowExact(3,2): R%v = %d, seed 004 says M = %d", c.x, got, c.r)
		}
	}
}

// Seed 004's simple properties of NIM(n,k): every even position is P; every
// position with exactly k odd heaps is N.
func TestSeed004EvenAndKOdd(t *testing.T) {
	for _, c := range []struct{ n, k, max int }{{3, 2, 30}, {4, 2, bound(12, 20)}, {4, 3, bound(12, 20)}, {5, 2, bound(8, 10)}, {5, 3, bound(8, 10)}} {
		spec := name("SlowExact(%d,%d)", c.n, c.k)
		tb := table(t, solve.KindOutcomes, spec, c.max)
		forBox(tb, func(p games.Pos) {
			odd := 0
			for _, x := range p {
				odd += x & 1
			}
			if odd == 0 && !tb.IsP(p...) {
				t.Fatalf("%s heaps<=%d: even position %v is N", spec, c.max, p)
			}
			if odd == c.k && tb.IsP(p...) {
				t.Fatalf("%s heaps<=%d: %v has exactly k odd heaps but is P", spec, c.max, p)
			}
		})
	}
}
