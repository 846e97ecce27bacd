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
	isP := func(p games.Pos) bool { e, ok, err := ref.entry(p); return ok && err == nil && ref.isPEntry(e) }
	if c.IsP() != isP(c.Pos) {
		t.Fatalf("%v: certificate says P=%t, plain table %t", c.Pos, c.IsP(), isP(c.Pos))
	}
	// A take-and-break game's rows are multisets: (1,3) and (3,1) are one
	// position, and the certificate lists it once.
	same := slices.Equal[games.Pos]
	if tb, ok := g.(*games.TakeBreak); ok {
		same = func(a, b games.Pos) bool { return slices.Equal(tb.Canonical(a), tb.Canonical(b)) }
	}
	isFollower := func(p, q games.Pos) bool {
		return slices.ContainsFunc(g.Followers(p), func(r games.Pos) bool { return same(r, q) })
	}
	if !c.IsP() && (!isP(c.Win) || !isFollower(c.Pos, c.Win)) {
		t.Fatalf("%v: winning move %v is not a move to P", c.Pos, c.Win)
	}
	var fs []games.Pos
	for _, y := range g.Followers(c.Of) {
		if !slices.ContainsFunc(fs, func(f games.Pos) bool { return same(f, y) }) {
			fs = append(fs, y)
		}
	}
	if len(fs) != len(c.Rows) {
		t.Fatalf("%v: %d rows for %d distinct moves", c.Of, len(c.Rows), len(fs))
	}
	for _, r := range c.Rows {
		if !isFollower(c.Of, r.Move) || !isP(r.Reply) || !isFollower(r.Move, r.Reply) {
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

// A position without moves is P because there is no move, and says so in
// every form, without an empty table; one move is "1 move".
func TestCertificateOfTerminalAndOneMovePositions(t *testing.T) {
	tab, _ := Values(games.CN(6, 2), 2)
	c, err := tab.Certificate(games.Pos{0, 0, 0, 0, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{c.String(), c.Markdown(), c.HTML(), c.LaTeX()} {
		if !strings.Contains(s, "no move") || strings.Contains(s, "reply") {
			t.Errorf("terminal position:\n%s", s)
		}
	}
	n, err := tab.Certificate(games.Pos{0, 0, 0, 0, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(n.String(), "move to (0,0,0,0,0,0), which has no move") {
		t.Errorf("one token:\n%v", n)
	}
	one, _ := Values(games.Sum(games.Subtraction(1, 3, 4), games.Nim(1)), 6)
	c, _ = one.Certificate(games.Pos{2, 0})
	if !strings.Contains(c.String(), "(1 move)") {
		t.Errorf("S(1,3,4) heap 2:\n%v", c)
	}
}
