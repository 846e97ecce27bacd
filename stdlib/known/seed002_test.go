package known

import (
	"grundy/stdlib/games"
	"grundy/stdlib/solve"
	"testing"
)

// Seed 002, Proposition 2: slow Moore Nim values for n=k=2 and n=3, k=2 by
// sorted parity vectors.
func TestSeed002Prop2(t *testing.T) {
	for _, c := range []struct{ n, k, max int }{{2, 2, bound(80, 200)}, {3, 2, bound(30, 50)}} {
		spec := name("SlowMoore(%d,%d)", c.n, c.k)
		tb := table(t, solve.KindValues, spec, c.max)
		checked := 0
		forBox(tb, func(p games.Pos) {
			want, err := SlowMooreValue(c.k, p)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			if got := tb.At(p...); got != want {
				t.Fatalf("%s heaps<=%d: g%v = %d, Proposition 2 says %d", spec, c.max, p, got, want)
			}
		})
		t.Logf("%s heaps<=%d: Proposition 2 holds at %d positions", spec, c.max, checked)
	}
}

// Seed 002, Proposition 3: P-positions of slow Moore Nim for n <= k+2 and
// n = k+3 <= 6, by sorted parity vectors.
func TestSeed002Prop3(t *testing.T) {
	for _, c := range []struct{ n, k, max int }{
		{1, 1, 100}, {2, 2, 40}, {3, 3, 16}, {4, 4, bound(8, 12)},
		{2, 1, 40}, {3, 2, 16}, {4, 3, bound(8, 12)}, {5, 4, bound(6, 8)},
		{4, 2, bound(8, 12)}, {5, 3, bound(6, 8)}, {6, 4, bound(4, 5)},
		{5, 2, bound(7, 9)}, {6, 3, bound(5, 6)},
	} {
		spec := name("SlowMoore(%d,%d)", c.n, c.k)
		agree(t, table(t, solve.KindOutcomes, spec, c.max), spec+" Proposition 3", nil, func(p games.Pos) bool {
			isP, err := SlowMooreIsP(c.k, p)
			if err != nil {
				t.Fatal(err)
			}
			return isP
		})
	}
}

// Seed 002, Proposition 3 case (3) as printed includes k = 1, where it
// fails: slow Nim with k = 1 is P iff the total is even.
func TestSeed002Prop3AsPrintedFailsForK1(t *testing.T) {
	tb := table(t, solve.KindOutcomes, "SlowMoore(3,1)", 12)
	bad := 0
	var first []int
	forBox(tb, func(p games.Pos) {
		printed, err := SlowMooreIsPAsPrinted(1, p)
		if err != nil {
			t.Fatal(err)
		}
		if printed != tb.IsP(p...) {
			if bad == 0 {
				first = append([]int(nil), p...)
			}
			bad++
		}
		total := p[0] + p[1] + p[2]
		if tb.IsP(p...) != (total%2 == 0) {
			t.Fatalf("SlowMoore(3,1): %v is %s but its total is %d", p, pn(tb.IsP(p...)), total)
		}
	})
	if bad == 0 {
		t.Fatal("SlowMoore(3,1) heaps<=12: printed Proposition 3 (3) agrees everywhere; update SlowMooreIsP")
	}
	if _, err := SlowMooreIsP(1, []int{1, 1, 2}); err == nil {
		t.Error("SlowMooreIsP must refuse n=3, k=1")
	}
	t.Logf("SlowMoore(3,1) heaps<=12: printed Proposition 3 (3) wrong at %d of %d positions, first %v (P, parity vector %v)", bad, tb.Len(), first, ParityVector(first))
}

// Seed 002, Proposition 4, corrected: slow exact Nim n=3, k=2 values with
// C = C0 u C1, D = D0 u D1 and D0, D1 over a <= b.
func TestSeed002Prop4Corrected(t *testing.T) {
	N := bound(90, 200)
	tb := table(t, solve.KindValues, "SlowExact(3,2)", N)
	checked := 0
	forBox(tb, func(p games.Pos) {
		want, err := SlowExact32Value(p)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		if got := tb.At(p...); got != want {
			t.Fatalf("SlowExact(3,2) heaps<=%d: g%v = %d, corrected Proposition 4 says %d", N, p, got, want)
		}
	})
	t.Logf("SlowExact(3,2) heaps<=%d: corrected Proposition 4 holds at %d positions", N, checked)
}

// Seed 002, Proposition 4 as printed (D0, D1 with a < b) is wrong: the
// table shows the counterexamples, starting with (1,2,2).
func TestSeed002Prop4AsPrintedFails(t *testing.T) {
	tb := table(t, solve.KindValues, "SlowExact(3,2)", 12)
	var wrong [][]int
	forBox(tb, func(p games.Pos) {
		if p[0] > p[1] || p[1] > p[2] {
			return
		}
		if v, _ := SlowExact32ValueAsPrinted(p); v != tb.At(p...) {
			wrong = append(wrong, append([]int(nil), p...))
		}
	})
	if len(wrong) == 0 {
		t.Fatal("SlowExact(3,2) heaps<=12: the printed Proposition 4 agrees everywhere; update the note in SlowExact32Value")
	}
	first := wrong[0]
	printed, _ := SlowExact32ValueAsPrinted(first)
	if first[0] != 1 || first[1] != 2 || first[2] != 2 {
		t.Errorf("first counterexample %v, expected (1,2,2)", first)
	}
	t.Logf("SlowExact(3,2) heaps<=12: printed Proposition 4 wrong at %d sorted positions, first %v: printed %d, table %d", len(wrong), first, printed, tb.At(first...))
}
