package solve

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"grundy/stdlib/games"
)

// A certificate's rows checked against the plain solver's table and the
// game's own follower lists, not against the table that built it.
func checkAgainstPlain(t *testing.T, c *Certificate, g games.Game, kind Kind, max ...int) {
	t.Helper()
	ref, err := Plain(g, kind, max...)
	if err != nil {
		t.Fatal(err)
	}
	isP := func(p games.Pos) bool { e, ok := ref.entry(p); return ok && ref.isPEntry(e) }
	if c.IsP() != isP(c.Pos) {
		t.Fatalf("%v: certificate says P=%t, plain table %t", c.Pos, c.IsP(), isP(c.Pos))
	}
	if !c.IsP() && (!isP(c.Win) || !slices.ContainsFunc(g.Followers(c.Pos), func(q games.Pos) bool { return slices.Equal(q, c.Win) })) {
		t.Fatalf("%v: winning move %v is not a move to P", c.Pos, c.Win)
	}
	fs := map[string]bool{}
	for _, y := range g.Followers(c.Of) {
		fs[y.String()] = true
	}
	if len(fs) != len(c.Rows) {
		t.Fatalf("%v: %d rows for %d distinct moves", c.Of, len(c.Rows), len(fs))
	}
	for _, r := range c.Rows {
		if !fs[r.Move.String()] || !isP(r.Reply) || !slices.ContainsFunc(g.Followers(r.Move), func(q games.Pos) bool { return slices.Equal(q, r.Reply) }) {
			t.Fatalf("row %v -> %v does not hold", r.Move, r.Reply)
		}
	}
}

func TestCertificateOfSeed000Position(t *testing.T) {
	g := games.CN(6, 2)
	tab, err := Values(g, 3)
	if err != nil {
		t.Fatal(err)
	}
	c, err := tab.Certificate(games.Pos{1, 1, 1, 2, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if !c.IsP() || len(c.Rows) != 18 {
		t.Fatalf("want 18 rows of a P-position:\n%v", c)
	}
	checkAgainstPlain(t, c, g, KindValues, 3)
	for _, r := range c.Rows[1:] {
		if slices.Compare(r.Move, c.Rows[0].Move) < 0 {
			t.Fatal("rows not in lexicographic order")
		}
	}
	// An N-position: a winning move, then the certificate below it.
	n, err := tab.Certificate(games.Pos{0, 1, 2, 0, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if n.IsP() || n.Win == nil {
		t.Fatalf("(0,1,2,0,2,3) is N: %v", n)
	}
	checkAgainstPlain(t, n, g, KindValues, 3)
	var rows []map[string][]int
	data, _ := json.Marshal(n)
	if err := json.Unmarshal(data, &rows); err != nil || len(rows) != len(n.Rows)+1 || rows[0]["reply"] != nil || !slices.Equal(rows[0]["move"], n.Win) {
		t.Errorf("JSON: %s", data)
	}
	for _, s := range []string{c.String(), c.Markdown(), c.HTML(), c.LaTeX()} {
		if !strings.Contains(s, "(0,0,1,2,1,2)") || !strings.Contains(s, "(0,0,1,1,0,2)") && !strings.Contains(s, "reply") {
			t.Errorf("rendering lacks the first row:\n%s", s)
		}
	}
	if !strings.HasPrefix(c.LaTeX(), "$$\\begin{array}{ll}") || !strings.HasPrefix(n.LaTeX(), "$$(0,1,2,0,2,3) \\to ") {
		t.Errorf("LaTeX: %s", n.LaTeX())
	}
}

func TestCertificateVerifyCatchesMistakes(t *testing.T) {
	tab, _ := Values(games.CN(6, 2), 3)
	fresh := func() *Certificate {
		c, err := tab.Certificate(games.Pos{1, 1, 1, 2, 1, 2})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := fresh()
	c.Rows = c.Rows[1:]
	if err := c.Verify(); err == nil || !strings.Contains(err.Error(), "not answered") {
		t.Errorf("a missing row: %v", err)
	}
	c = fresh()
	c.Rows[3].Reply = c.Rows[3].Move.Clone()
	if err := c.Verify(); err == nil {
		t.Error("a reply that is no move passed")
	}
	c = fresh()
	c.Rows[0].Reply = games.Pos{0, 0, 1, 2, 1, 1} // a move, but to an N-position
	if err := c.Verify(); err == nil || !strings.Contains(err.Error(), "does not win") {
		t.Errorf("a losing reply: %v", err)
	}
	c = fresh()
	c.Rows = append(c.Rows, c.Rows[0])
	if err := c.Verify(); err == nil || !strings.Contains(err.Error(), "repeats") {
		t.Errorf("a repeated row: %v", err)
	}
}

// Heap games (a move may split a heap, so rows change length), remoteness
// tables (replies must win fastest) and compounds.
func TestCertificatesOfOtherGames(t *testing.T) {
	cases := []struct {
		g    games.Game
		kind Kind
		max  []int
		p    games.Pos
	}{
		{games.Octal("0.77"), KindValues, []int{12, 12}, games.Pos{5, 5}},
		{games.Octal("0.77"), KindValues, []int{20}, games.Pos{11}},
		{games.Grundy(), KindOutcomes, []int{9, 9}, games.Pos{7, 4}},
		{games.SlowExact(3, 2), KindRemoteness, []int{6}, games.Pos{3, 5, 5}},
		{games.SlowExact(3, 2), KindRemoteness, []int{6}, games.Pos{3, 3, 3}},
		{games.Sum(games.CN(3, 2), games.Nim(2)), KindValues, []int{3}, games.Pos{1, 2, 3, 1, 1}},
		{games.Subtract(games.CN(4, 2), 1, 2), KindOutcomes, []int{4}, games.Pos{2, 3, 1, 4}},
	}
	for _, c := range cases {
		tab, err := Solve(c.g, c.kind, c.max...)
		if err != nil {
			t.Fatal(err)
		}
		cert, err := tab.Certificate(c.p)
		if err != nil {
			t.Fatalf("%s %v: %v", c.g.Name(), c.p, err)
		}
		checkAgainstPlain(t, cert, c.g, c.kind, c.max...)
		if c.kind == KindRemoteness {
			for _, r := range cert.Rows {
				rm, _ := tab.Value(r.Move)
				rr, _ := tab.Value(r.Reply)
				if rr != rm-1 {
					t.Errorf("%s: reply %v (R=%d) to %v (R=%d) is not the fastest win", c.g.Name(), r.Reply, rr, r.Move, rm)
				}
			}
		}
	}
	tab, _ := Values(games.CN(3, 2), 3)
	if _, err := tab.Certificate(games.Pos{1, 9, 1}); err == nil || !strings.Contains(err.Error(), "beyond") {
		t.Errorf("outside the table: %v", err)
	}
}
