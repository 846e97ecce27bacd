package solve

import (
	"cmp"
	"slices"
	"strings"
	"testing"

	"grundy/stdlib/games"
)

func mustSolve(t *testing.T, g games.Game, kind Kind, max ...int) *Table {
	t.Helper()
	tb, err := Solve(g, kind, max...)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// bruteDisagreements enumerates the box independently of Check and returns
// every position where want differs from got, smallest total first.
func bruteDisagreements(max []int, match func(games.Pos) bool, differs func(games.Pos) bool) (checked int, bad []games.Pos) {
	p := make(games.Pos, len(max))
	for {
		if match(p) {
			checked++
			if differs(p) {
				bad = append(bad, p.Clone())
			}
		}
		i := len(p) - 1
		for ; i >= 0; i-- {
			if p[i] < max[i] {
				p[i]++
				break
			}
			p[i] = 0
		}
		if i < 0 {
			break
		}
	}
	slices.SortFunc(bad, func(a, b games.Pos) int { return cmp.Or(cmp.Compare(a.Total(), b.Total()), slices.Compare(a, b)) })
	return checked, bad
}

func TestCheckTrueFormulasAgreeEverywhere(t *testing.T) {
	nim := mustSolve(t, games.Nim(3), KindValues, 7, 5, 6)
	cn62 := mustSolve(t, games.CN(6, 2), KindValues, 5)
	cn32 := mustSolve(t, games.CN(3, 2), KindOutcomes, 9)
	cn32r := mustSolve(t, games.CN(3, 2), KindRemoteness, 6)
	face := func(p games.Pos) int { return (p[1] + p[2]) ^ (p[4] + p[5]) }
	allEqual := func(p games.Pos) bool { return p[0] == p[1] && p[1] == p[2] }
	onFace, err := cn62.CheckOn("0 a b 0 c d", "(a+b) xor (c+d)", face)
	if err != nil {
		t.Fatal(err)
	}
	mirror, err := cn62.CheckPOn("a b c a b c", "antipodal", func(games.Pos) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		got     *Comparison
		checked int
	}{
		{"Nim(3) 0..7 x 0..5 x 0..6: xor", nim.Check("xor", func(p games.Pos) int { return p[0] ^ p[1] ^ p[2] }), 8 * 6 * 7},
		{"CN(6,2) heaps<=5 zero face", onFace, 6 * 6 * 6 * 6},
		{"CN(6,2) heaps<=5 antipodal", mirror, 6 * 6 * 6},
		{"CN(3,2) outcomes heaps<=9", cn32.CheckP("all heaps equal", allEqual), 10 * 10 * 10},
		{"CN(3,2) remoteness heaps<=6", cn32r.CheckP("all heaps equal", allEqual), 7 * 7 * 7},
	} {
		if !c.got.OK() || c.got.Checked != c.checked || c.got.Agree != c.checked || len(c.got.Counterexamples) != 0 {
			t.Errorf("%s: want agreement at all %d positions, got\n%v", c.name, c.checked, c.got)
		}
		if !strings.Contains(c.got.String(), "agrees at all") || !strings.Contains(c.got.HTML(), "#1a7f37") {
			t.Errorf("%s: the display does not say it agrees:\n%s\n%s", c.name, c.got, c.got.HTML())
		}
	}
}

func TestCheckFalseFormulaListsSmallestCounterexamples(t *testing.T) {
	// a+b is the Nim value of (a, b) exactly when a and b share no bit.
	max := []int{9, 6}
	tb := mustSolve(t, games.Nim(2), KindValues, max...)
	c := tb.Check("a+b", func(p games.Pos) int { return p[0] + p[1] })
	checked, bad := bruteDisagreements(max, func(games.Pos) bool { return true }, func(p games.Pos) bool { return p[0]&p[1] != 0 })
	if c.OK() || c.Checked != checked || c.Disagree != len(bad) || c.Agree != checked-len(bad) {
		t.Fatalf("Nim(2) 0..9 x 0..6: want %d disagreements of %d, got %d of %d (agree %d)", len(bad), checked, c.Disagree, c.Checked, c.Agree)
	}
	if len(c.Counterexamples) != MaxCounterexamples {
		t.Fatalf("want the %d smallest counterexamples, got %d", MaxCounterexamples, len(c.Counterexamples))
	}
	for i, e := range c.Counterexamples {
		if !slices.Equal(e.Pos, bad[i]) || e.Table != e.Pos[0]^e.Pos[1] || e.Formula != e.Pos[0]+e.Pos[1] {
			t.Errorf("counterexample %d: want %v table %d formula %d, got %+v", i, bad[i], bad[i][0]^bad[i][1], bad[i][0]+bad[i][1], e)
		}
	}
	s := c.String()
	for _, want := range []string{"Nim(2) values, heaps 0..9 x 0..6", "disagrees at", "(1,1): table 0, formula 2", "more"} {
		if !strings.Contains(s, want) {
			t.Errorf("String lacks %q:\n%s", want, s)
		}
	}
	if h := c.HTML(); !strings.Contains(h, "<td>(1,1)</td>") || !strings.Contains(h, "#cf222e") {
		t.Errorf("HTML lacks the counterexample row or the red verdict:\n%s", h)
	}
}

func TestCheckPOnRespectsPatternAndBound(t *testing.T) {
	// "All heaps equal" is the P-set of CN(3,2), not of CN(4,2): on the face
	// (a, b, a, c) it is wrong exactly where b != c or b != a.
	tb := mustSolve(t, games.CN(4, 2), KindValues, 4, 4, 4, 3)
	c, err := tb.CheckPOn("a b a c", "all heaps equal", func(p games.Pos) bool { return p[0] == p[1] && p[1] == p[2] && p[2] == p[3] })
	if err != nil {
		t.Fatal(err)
	}
	onFace := func(p games.Pos) bool { return p[0] == p[2] }
	checked, bad := bruteDisagreements(tb.Max(), onFace, func(p games.Pos) bool {
		allEqual := p[0] == p[1] && p[1] == p[2] && p[2] == p[3]
		return allEqual != tb.IsP(p...)
	})
	if c.Checked != checked || c.Checked != 5*5*4 || c.Disagree != len(bad) || len(bad) == 0 {
		t.Fatalf("want %d disagreements among %d positions, got %d among %d", len(bad), checked, c.Disagree, c.Checked)
	}
	for i, e := range c.Counterexamples {
		if !slices.Equal(e.Pos, bad[i]) || !onFace(e.Pos) || e.Pos[3] > 3 {
			t.Errorf("counterexample %d: want %v, got %v", i, bad[i], e.Pos)
		}
		if (e.Table == 0) != tb.IsP(e.Pos...) || e.Table == e.Formula {
			t.Errorf("counterexample %v: table %d formula %d do not match the table's outcome", e.Pos, e.Table, e.Formula)
		}
	}
	if !strings.Contains(c.String(), `on "a b a c"`) || !strings.Contains(c.String(), "table P, formula N") {
		t.Errorf("String should name the pattern and show outcomes as P/N:\n%s", c)
	}
}

func TestCheckOnBadPatternsAreErrors(t *testing.T) {
	tb := mustSolve(t, games.Nim(3), KindValues, 3)
	for _, spec := range []string{"a b", "a b 4", "a b ?", "a b c d"} {
		if _, err := tb.CheckOn(spec, "xor", func(games.Pos) int { return 0 }); err == nil {
			t.Errorf("pattern %q on Nim(3) heaps 0..3: want an error", spec)
		}
	}
	// A fully fixed pattern checks one position.
	c, err := tb.CheckOn("1 2 3", "xor", func(p games.Pos) int { return p[0] ^ p[1] ^ p[2] })
	if err != nil || c.Checked != 1 || !c.OK() {
		t.Errorf("fixed pattern: want one agreeing position, got %v, %v", c, err)
	}
}

func TestFaceHTMLShadesPCells(t *testing.T) {
	tb := mustSolve(t, games.CN(6, 2), KindValues, 4)
	f, err := tb.Face("0 a b 0 2 1")
	if err != nil {
		t.Fatal(err)
	}
	h := f.HTML()
	p := 0
	for y := range f.H {
		for x := range f.W {
			if f.IsP(x, y) {
				p++
			}
		}
	}
	// (a+b) xor 3 = 0 on the anti-diagonal a+b = 3: four P cells with a, b <= 4.
	if got := strings.Count(h, `class="p"`); got != p || p != 4 {
		t.Errorf("want %d shaded P cells (4 on a+b = 3), got %d", p, got)
	}
	if got := strings.Count(h, "<td"); got != f.W*f.H {
		t.Errorf("want %d cells, got %d", f.W*f.H, got)
	}
	if !strings.Contains(h, "CN(6,2) values on &#34;0 a b 0 2 1&#34;") {
		t.Errorf("caption should name game, kind and pattern:\n%s", h)
	}
}

func TestFaceHTMLRefusesHugeFaces(t *testing.T) {
	tb := mustSolve(t, games.Nim(2), KindOutcomes, 70, 70)
	f, err := tb.Face("a b")
	if err != nil {
		t.Fatal(err)
	}
	if h := f.HTML(); strings.Contains(h, "<td class") || !strings.Contains(h, "plots.Heatmap") || len(h) > 1000 {
		t.Errorf("a 71 x 71 face should say to draw a heatmap, not list %d cells:\n%.300s", f.W*f.H, h)
	}
}
