package known

import (
	"fmt"
	"grundy/stdlib/games"
	"grundy/stdlib/solve"
	"os"
	"testing"
)

// heavy reports whether GRUNDY_KNOWN_HEAVY is set: the table checks then
// run at larger bounds (minutes rather than seconds).
var heavy = os.Getenv("GRUNDY_KNOWN_HEAVY") != ""

// bound is light in the default run and heavyBound with GRUNDY_KNOWN_HEAVY.
func bound(light, heavyBound int) int {
	if heavy {
		return heavyBound
	}
	return light
}

// table solves spec (parsed by games.Parse, so the specs here are also
// tests of the parser) with heaps 0..max.
func table(t *testing.T, kind solve.Kind, spec string, max int) *solve.Table {
	t.Helper()
	g, err := games.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := solve.Solve(g, kind, max)
	if err != nil {
		t.Fatalf("%s heaps<=%d: %v", spec, max, err)
	}
	return tb
}

// forBox calls f on every position of the table, in index order. f must
// not keep p.
func forBox(tb *solve.Table, f func(p games.Pos)) {
	m := tb.Max()
	p := make([]int, len(m))
	for {
		f(p)
		i := len(p) - 1
		for ; i >= 0; i-- {
			if p[i] < m[i] {
				p[i]++
				break
			}
			p[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

// agree checks that a predicate matches the table's P-positions exactly on
// the positions where applies holds, and reports the first few
// disagreements with the bound. It returns the number of positions checked
// and, of those, P-positions.
func agree(t *testing.T, tb *solve.Table, what string, applies, isP func(p games.Pos) bool) (checked, pCount int) {
	t.Helper()
	bad := 0
	forBox(tb, func(p games.Pos) {
		if applies != nil && !applies(p) {
			return
		}
		checked++
		want := tb.IsP(p...)
		if want {
			pCount++
		}
		if got := isP(p); got != want {
			bad++
			if bad <= 5 {
				t.Errorf("%s heaps<=%d: %v is %s by the table but the statement says %s", what, tb.Max()[0], p, pn(want), pn(got))
			}
		}
	})
	if bad > 0 {
		t.Errorf("%s heaps<=%d: %d of %d positions disagree", what, tb.Max()[0], bad, checked)
	} else {
		t.Logf("%s heaps<=%d: agrees on %d positions (%d P)", what, tb.Max()[0], checked, pCount)
	}
	if checked == 0 {
		t.Errorf("%s heaps<=%d: no position checked", what, tb.Max()[0])
	}
	return checked, pCount
}

func name(format string, args ...any) string { return fmt.Sprintf(format, args...) }
