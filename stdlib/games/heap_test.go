package games

import (
	"slices"
	"strings"
	"testing"
)

// What one heap may become, as sorted rows, for a few codes checked by
// hand against their rules.
func TestHeapMovesFollowTheCode(t *testing.T) {
	cases := []struct {
		g    Game
		n    int
		want string
	}{
		// Kayles: take 1 or 2 (two adjacent pins) from a row, leaving 0, 1 or 2 rows.
		{Octal("0.77"), 4, "(3) (1,2) (2) (1,1)"},
		// Dawson's Kayles: take exactly 2, leaving 0, 1 or 2 rows.
		{Octal("0.07"), 4, "(2) (1,1)"},
		{Octal("0.07"), 2, "()"},
		// 0.6: take 1, leaving one or two rows but never none.
		{Octal("0.6"), 1, ""},
		{Octal("0.6"), 4, "(3) (1,2)"},
		// A hexadecimal digit 8: take 1 and leave three nonempty heaps.
		{Octal("0.8"), 5, "(1,1,2)"},
		{Octal("4.0"), 4, "(1,3) (2,2)"},
		{Subtraction(1, 3, 4), 4, "(3) (1) ()"},
		{Grundy(), 6, "(1,5) (2,4)"},
		{Grundy(), 2, ""},
	}
	for _, c := range cases {
		g := c.g.(*TakeBreak)
		var got []string
		g.HeapMoves(c.n, func(parts []int) bool {
			got = append(got, Pos(parts).String())
			return true
		})
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s, heap %d: moves %q, want %q", g.Name(), c.n, strings.Join(got, " "), c.want)
		}
	}
}

func TestTakeBreakFollowersReplaceOneHeap(t *testing.T) {
	g := Octal("0.07")
	got := followerKeys(g, Pos{4, 2})
	want := []string{"(1,1,2)", "(2,2)", "(4)"}
	if !slices.Equal(got, want) {
		t.Errorf("0.07 from (4,2): %v, want %v", got, want)
	}
	if c := g.(*TakeBreak).Canonical(Pos{3, 0, 1, 2}); !slices.Equal(c, Pos{1, 2, 3}) {
		t.Errorf("Canonical: %v", c)
	}
}

func TestCodes(t *testing.T) {
	cases := []struct {
		code, name string
		t, parts   int
	}{
		{"0.77", "Octal(0.77)", 2, 2},
		{".137", "Octal(0.137)", 3, 2},
		{"0.3300", "Octal(0.33)", 2, 1},
		{"0.F", "Octal(0.F)", 1, 3},
		{"4.07", "Octal(4.07)", 2, 2},
	}
	for _, c := range cases {
		g := Octal(c.code)
		if err := g.Err(); err != nil {
			t.Fatal(err)
		}
		tb := g.(*TakeBreak)
		if tb.Name() != c.name || tb.CodeLength() != c.t || tb.MaxParts() != c.parts {
			t.Errorf("Octal(%q): name %s, t %d, parts %d; want %s, %d, %d", c.code, tb.Name(), tb.CodeLength(), tb.MaxParts(), c.name, c.t, c.parts)
		}
	}
	if s := Subtraction(4, 1, 3).(*TakeBreak); s.Code() != "0.3033" || s.CodeLength() != 4 || s.MaxParts() != 1 {
		t.Errorf("Subtraction(1,3,4): code %s, t %d", s.Code(), s.CodeLength())
	}
	for code, want := range map[string]string{"": "empty", "077": "point", "1.7": "d_0", "0.": "at least one digit", "0.7g": "not an octal"} {
		if err := Octal(code).Err(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Octal(%q): %v, want an error about %q", code, err, want)
		}
	}
	for _, g := range []Game{Subtraction(), Subtraction(0, 2)} {
		if g.Err() == nil {
			t.Errorf("%s accepted", g.Name())
		}
	}
}

// The modifiers rebuild the named slow and exact families from the plain
// ones: the same followers everywhere in a small box.
func TestModifiersRebuildTheNamedFamilies(t *testing.T) {
	cases := []struct{ a, b Game }{
		{Slow(Moore(4, 2)), SlowMoore(4, 2)},
		{Slow(Exact(Moore(3, 2))), SlowExact(3, 2)},
		{Exact(Slow(Moore(3, 2))), SlowExact(3, 2)},
		{Exact(Moore(4, 3)), ExactNim(4, 3)},
		{Subtract(CN(5, 2), 1), Slow(CN(5, 2))},
		{Subtract(Subtract(CN(4, 2), 1, 2, 3), 2, 3, 5), Subtract(CN(4, 2), 2, 3)},
	}
	for _, c := range cases {
		n := c.a.Heaps()
		p := make(Pos, n)
		for {
			if got, want := followerKeys(c.a, p), followerKeys(c.b, p); !slices.Equal(got, want) {
				t.Fatalf("%s vs %s at %v: %v, want %v", c.a.Name(), c.b.Name(), p, got, want)
			}
			i := 0
			for ; i < n; i++ {
				if p[i] < 3 {
					p[i]++
					break
				}
				p[i] = 0
			}
			if i == n {
				break
			}
		}
	}
	// Per-heap amounts: from (3,1) in Subtract(CN(2,2), 2), only heap 1 can drop by 2.
	if got := followerKeys(Subtract(CN(2, 2), 2), Pos{3, 1}); !slices.Equal(got, []string{"(1,1)"}) {
		t.Errorf("Subtract(CN(2,2), 2) from (3,1): %v", got)
	}
	for _, g := range []Game{Slow(Wythoff()), Exact(Octal("0.77")), Subtract(CN(3, 2)), Subtract(Slow(CN(3, 2)), 2)} {
		if g.Err() == nil {
			t.Errorf("%s accepted", g.Name())
		}
	}
}
