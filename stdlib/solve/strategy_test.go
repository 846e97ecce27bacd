package solve

import (
	"slices"
	"strings"
	"testing"

	"grundy/stdlib/games"
)

// "Take one from the first nonempty heap" in Nim(2), against a direct
// count: it fails exactly at the N-positions where that move leaves a
// nonzero xor.
func TestCheckStrategyFindsFailuresSmallestFirst(t *testing.T) {
	tab, _ := Values(games.Nim(2), 6)
	takeOne := func(p games.Pos) games.Pos {
		for i, x := range p {
			if x > 0 {
				q := p.Clone()
				q[i]--
				return q
			}
		}
		return nil
	}
	c := tab.CheckStrategy("take one", takeOne)
	var fails []games.Pos
	for a := 0; a <= 6; a++ {
		for b := 0; b <= 6; b++ {
			if a^b == 0 || a == 0 && b == 0 {
				continue
			}
			q := takeOne(games.Pos{a, b})
			if q[0]^q[1] != 0 {
				fails = append(fails, games.Pos{a, b})
			}
		}
	}
	if c.OK() || c.Failed != len(fails) || c.Illegal != 0 || c.Declined != 1 || c.Moved != 48 {
		t.Fatalf("%v\nwant %d failures", c, len(fails))
	}
	slices.SortFunc(fails, func(a, b games.Pos) int {
		if d := a.Total() - b.Total(); d != 0 {
			return d
		}
		return slices.Compare(a, b)
	})
	for i, e := range c.Problems {
		if !slices.Equal(e.Pos, fails[i]) || e.Why != "from an N-position to an N-position" {
			t.Fatalf("problem %d: %v, want %v", i, e, fails[i])
		}
	}
	if !strings.HasPrefix(c.String(), "take one: moves at 48 of 49 positions, passes at 1; illegal at 0, fails at ") {
		t.Errorf("String: %s", c)
	}
}

func TestCheckStrategyIllegalAndPanicking(t *testing.T) {
	tab, _ := Values(games.CN(3, 2), 2)
	stay := tab.CheckStrategy("stay", func(p games.Pos) games.Pos { return p })
	if stay.Illegal != tab.Len() || stay.Problems[0].Why != "not a move" {
		t.Errorf("%v", stay)
	}
	boom := tab.CheckStrategy("boom", func(p games.Pos) games.Pos {
		if p[0] == 2 {
			panic("no")
		}
		return nil
	})
	if boom.Illegal != 9 || !strings.Contains(boom.Problems[0].Why, "panicked: no") {
		t.Errorf("%v", boom)
	}
	// A winning strategy: move to any P-position (the table's own answer).
	win := tab.CheckStrategy("table", func(p games.Pos) games.Pos {
		if w, _ := tab.WinningMoves(p); len(w) > 0 {
			return w[0]
		}
		return nil
	})
	if !win.OK() || win.Moved != tab.Len()-tab.Count(0) {
		t.Errorf("%v", win)
	}
}

// On a remoteness table only optimal moves pass: the loser too must move
// to remoteness one less. Kayles rows are compared as multisets of heaps.
func TestCheckStrategyOnRemotenessAndHeapGames(t *testing.T) {
	r, _ := Remoteness(games.Nim(1), 5)
	// From n, take everything: optimal (remoteness 1 -> 0) for the winner.
	all := r.CheckStrategy("take all", func(p games.Pos) games.Pos {
		if p[0] == 0 {
			return nil
		}
		return games.Pos{0}
	})
	if !all.OK() {
		t.Errorf("%v", all)
	}
	r2, _ := Remoteness(games.Nim(2), 3)
	one := r2.CheckStrategy("take one from the larger", func(p games.Pos) games.Pos {
		q := p.Clone()
		i := 0
		if q[1] > q[0] {
			i = 1
		}
		if q[i] == 0 {
			return nil
		}
		q[i]--
		return q
	})
	if one.OK() || !strings.Contains(one.Problems[0].Why, "optimal play goes to") {
		t.Errorf("%v", one)
	}
	k, _ := Values(games.Octal("0.77"), 8, 8)
	sorted := k.CheckStrategy("knock one pin off the end, sorted", func(p games.Pos) games.Pos {
		for i, x := range p {
			if x > 0 {
				q := append(p[:i:i], append(games.Pos{x - 1}, p[i+1:]...)...)
				return games.Pos{max(q[0], q[1]), min(q[0], q[1])}
			}
		}
		return nil
	})
	if sorted.Illegal != 0 {
		t.Errorf("sorted rows of Kayles judged illegal: %v", sorted)
	}
}

func TestCompareP(t *testing.T) {
	a, _ := Outcomes(games.Moore(3, 2), 4)
	b, _ := Values(games.Nim(3), 5)
	c, err := a.CompareP(b)
	if err != nil {
		t.Fatal(err)
	}
	// Independently: positions of the common box 0..4, P in each by its own
	// rule (Moore's Nim_2: every binary digit sum divisible by 3; Nim: xor 0).
	both, onlyA, onlyB := 0, 0, 0
	var firstA games.Pos
	for x := 0; x <= 4; x++ {
		for y := 0; y <= 4; y++ {
			for z := 0; z <= 4; z++ {
				pa := true
				for bit := 0; bit < 3; bit++ {
					if (x>>bit&1+y>>bit&1+z>>bit&1)%3 != 0 {
						pa = false
					}
				}
				pb := x^y^z == 0
				switch {
				case pa && pb:
					both++
				case pa:
					onlyA++
					if firstA == nil || (games.Pos{x, y, z}).Total() < firstA.Total() {
						firstA = games.Pos{x, y, z}
					}
				case pb:
					onlyB++
				}
			}
		}
	}
	if c.Checked != 125 || c.BothP != both || c.OnlyA != onlyA || c.OnlyB != onlyB || !slices.Equal(c.OnlyInA[0], firstA) {
		t.Errorf("%v\nwant both %d, only A %d (first %v), only B %d", c, both, onlyA, firstA, onlyB)
	}
	if h := c.HTML(); !strings.Contains(h, "P only in the first") || !strings.Contains(h, firstA.String()) || !strings.Contains(h, "#cf222e") {
		t.Errorf("HTML: %s", h)
	}
	s, _ := Outcomes(games.Slow(games.Moore(4, 2)), 4)
	m, _ := Remoteness(games.SlowMoore(4, 2), 4)
	if same, _ := s.CompareP(m); !same.Same() || strings.Contains(same.HTML(), "<table>") {
		t.Errorf("Slow(Moore(4,2)) vs SlowMoore(4,2): %v", same)
	}
	if _, err := a.CompareP(s); err == nil {
		t.Error("3 heaps against 4 accepted")
	}
}
