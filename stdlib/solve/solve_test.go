package solve

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"grundy/stdlib/games"
)

// Seed 000: "4^6 = 4096 positions with heaps <= 3, 214 zero nim-values".
func TestSeed000CN62HeapsUpTo3Has214P(t *testing.T) {
	tab, err := Values(games.CN(6, 2), 3)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Len() != 4096 || tab.Count(0) != 214 {
		t.Fatalf("CN(6,2) heaps 0..3: %d positions, %d P; the seed says 4096 and 214", tab.Len(), tab.Count(0))
	}
	for _, p := range []games.Pos{{1, 1, 1, 2, 1, 2}, {0, 2, 0, 0, 1, 1}} {
		if v, _ := tab.Value(p); v != 0 {
			t.Errorf("CN(6,2) %v has value %d; seed 000 says P", p, v)
		}
	}
}

func TestCacheReturnsSameTable(t *testing.T) {
	a, err := Values(games.CN(5, 2), 3)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Values(games.CN(5, 2), 3, 3, 3, 3, 3)
	if a != b {
		t.Fatal("same game, kind and bound gave two tables; want the cached one")
	}
	c, _ := Outcomes(games.CN(5, 2), 3)
	if c == a {
		t.Fatal("outcomes table is the values table")
	}
	// Same name, other rules: not the cached table.
	other := games.NewSetNim("CN(5,2)", 5, games.RuleSubset, []int{1}, []int{2}, []int{3}, []int{4}, []int{5})
	d, _ := Values(other, 3)
	if d == a || d.At(1, 1, 0, 0, 0) != 0 {
		t.Fatal("a different game named CN(5,2) got CN(5,2)'s table")
	}
}

// take is a game of a caller's own type whose name does not say its rules,
// as a notebook's type often is.
type take struct{ set []int }

func (take) Name() string { return "take" }
func (take) Heaps() int   { return 1 }
func (take) Err() error   { return nil }
func (g take) Followers(p games.Pos) []games.Pos {
	var out []games.Pos
	for _, s := range g.set {
		if s <= p[0] {
			out = append(out, games.Pos{p[0] - s})
		}
	}
	return out
}

func TestOwnGameTypesAreNotCachedByName(t *testing.T) {
	line := func(g games.Game) []int {
		tab, err := Values(g, 8)
		if err != nil {
			t.Fatal(err)
		}
		l, _ := tab.Line("a")
		return l
	}
	a := line(take{[]int{1, 2}})
	b := line(take{[]int{1, 3, 4}})
	if want := []int{0, 1, 0, 1, 2, 3, 2, 0, 1}; !slices.Equal(b, want) {
		t.Errorf("S(1,3,4) after S(1,2) under one type and name: %v (S(1,2) gave %v); want %v", b, a, want)
	}
	// Nor as a part of a compound.
	s1, _ := Values(games.Sum(games.Nim(1), take{[]int{1}}), 3, 3)
	s2, _ := Values(games.Sum(games.Nim(1), take{[]int{2}}), 3, 3)
	if s1.At(0, 2) != 0 || s2.At(0, 2) != 1 {
		t.Errorf("Nim(1) + take: at (0,2) %d and %d; want 0 (take 1) and 1 (take 2)", s1.At(0, 2), s2.At(0, 2))
	}
}

func TestErrorsSayWhatToChange(t *testing.T) {
	cases := []struct {
		name string
		run  func() error
		want string
	}{
		{"k>n", func() error { _, err := Values(games.CN(3, 5), 3); return err }, "use 1 <= k <= 3"},
		{"k<1", func() error { _, err := Values(games.PN(3, 0), 3); return err }, "k=0"},
		{"no bound", func() error { _, err := Values(games.Nim(3)); return err }, "give the largest heap size"},
		{"wrong bounds", func() error { _, err := Values(games.Nim(3), 1, 2); return err }, "one per heap"},
		{"negative", func() error { _, err := Values(games.Nim(3), -1); return err }, "negative"},
		{"too large", func() error { _, err := Values(games.CN(6, 2), 1000); return err }, "largest bound that fits is heaps 0.."},
		{"absurd", func() error { _, err := Outcomes(games.CN(6, 2), 1<<40); return err }, "largest bound that fits is heaps 0.."},
		{"nn clasp", func() error { _, err := Values(games.NN(7, 4, 5), 2); return err }, "2 <= c <= k=4"},
		// The generic advice was e.g. "a", itself refused.
		{"face of one heap", func() error {
			tab, err := Values(games.Nim(1), 5)
			if err != nil {
				return nil
			}
			_, err = tab.Face("a")
			return err
		}, "no 2-D faces; take the line \"a\""},
	}
	for _, c := range cases {
		err := c.run()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want one containing %q", c.name, err, c.want)
		}
	}
}

func TestFaceAndLine(t *testing.T) {
	tab, err := Values(games.CN(6, 2), 4)
	if err != nil {
		t.Fatal(err)
	}
	f, err := tab.Face("0 a b 0 2 1")
	if err != nil {
		t.Fatal(err)
	}
	if f.W != 5 || f.H != 5 || f.X != "a" || f.Y != "b" {
		t.Fatalf("face %dx%d %s/%s", f.W, f.H, f.X, f.Y)
	}
	for y := 0; y < f.H; y++ {
		for x := 0; x < f.W; x++ {
			if f.At(x, y) != tab.At(0, x, y, 0, 2, 1) {
				t.Fatalf("face (%d,%d) = %d, table %d", x, y, f.At(x, y), tab.At(0, x, y, 0, 2, 1))
			}
		}
	}
	d, err := tab.Face("a a b 1 1 b")
	if err != nil {
		t.Fatal(err)
	}
	if d.At(3, 2) != tab.At(3, 3, 2, 1, 1, 2) {
		t.Fatal("repeated letters must mean equal heaps")
	}
	line, err := tab.Line("a 0 0 a 1 1")
	if err != nil || len(line) != 5 || line[3] != tab.At(3, 0, 0, 3, 1, 1) {
		t.Fatalf("line %v %v", line, err)
	}
	for _, bad := range []string{"0 a b 0 2", "0 a b c 2 1", "0 a 0 0 2 1", "0 a b 0 9 1", "0 a b 0 ? 1"} {
		if _, err := tab.Face(bad); err == nil {
			t.Errorf("face %q: no error", bad)
		}
	}
}

func TestPositionsSortedByTotalThenLex(t *testing.T) {
	tab, err := Values(games.Moore(3, 2), 4)
	if err != nil {
		t.Fatal(err)
	}
	var got []games.Pos
	for p := range tab.Positions(0) {
		got = append(got, p)
	}
	if len(got) != tab.Count(0) {
		t.Fatalf("%d positions listed, Count(0) = %d", len(got), tab.Count(0))
	}
	for i := 1; i < len(got); i++ {
		a, b := got[i-1], got[i]
		if a.Total() > b.Total() || a.Total() == b.Total() && slices.Compare(a, b) >= 0 {
			t.Fatalf("%v listed before %v", a, b)
		}
	}
	if l := tab.List(0, 3); len(l) != 3 || !slices.Equal(l[0], got[0]) {
		t.Fatalf("List(0,3) = %v", l)
	}
}

func TestWinningMoves(t *testing.T) {
	g := games.Nim(3)
	tab, _ := Values(g, 7)
	moves, err := tab.WinningMoves(games.Pos{1, 2, 4})
	if err != nil {
		t.Fatal(err)
	}
	// Nim: the only winning moves from (1,2,4) lower the 4 to 3.
	if len(moves) != 1 || !slices.Equal(moves[0], games.Pos{1, 2, 3}) {
		t.Fatalf("winning moves from (1,2,4): %v", moves)
	}
	direct, err := WinningMoves(g, games.Pos{1, 2, 4})
	if err != nil || len(direct) != 1 || !slices.Equal(direct[0], moves[0]) {
		t.Fatalf("WinningMoves without a table: %v %v", direct, err)
	}
	if _, err := tab.WinningMoves(games.Pos{1, 2, 9}); err == nil {
		t.Fatal("position beyond the table: no error")
	}
}

func TestSaveLoadCSV(t *testing.T) {
	dir := t.TempDir()
	for _, k := range []Kind{KindValues, KindOutcomes, KindRemoteness} {
		tab, err := Solve(games.CN(4, 2), k, 5)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, k.String()+".grundy")
		if err := tab.Save(path); err != nil {
			t.Fatal(err)
		}
		back, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if back.Len() != tab.Len() || back.Kind() != k || !slices.Equal(back.Counts(), tab.Counts()) {
			t.Fatalf("%s: loaded %v", k, back)
		}
		if back.Game() == nil || back.Game().Name() != "CN(4,2)" {
			t.Fatalf("%s: loaded table has no game", k)
		}
		if m1, err := back.WinningMoves(games.Pos{1, 2, 3, 4}); err != nil || len(m1) == 0 {
			t.Fatalf("%s: winning moves from a loaded table: %v %v", k, m1, err)
		}
		for i := 0; i < tab.Len(); i++ {
			if back.get(i) != tab.get(i) {
				t.Fatalf("%s: entry %d differs after load", k, i)
			}
		}
		if err := os.WriteFile(path+".bad", []byte("not a table\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path + ".bad"); err == nil || !strings.Contains(err.Error(), "not a table") {
			t.Fatalf("loading garbage: %v", err)
		}
		var buf bytes.Buffer
		if err := tab.WriteCSV(&buf); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		if len(lines) != tab.Len()+1 || lines[0] != "h1,h2,h3,h4,"+k.String() {
			t.Fatalf("csv: %d lines, header %q", len(lines), lines[0])
		}
	}
}

func TestSummaryIsShort(t *testing.T) {
	tab, _ := Values(games.CN(6, 2), 5)
	s, h := tab.String(), tab.HTML()
	if !strings.Contains(s, "CN(6,2) values, heaps 0..5: 46,656 positions") || strings.Count(s, "\n") > 14 {
		t.Fatalf("summary:\n%s", s)
	}
	if !strings.Contains(h, "<table>") || len(h) > 2000 {
		t.Fatalf("html: %s", h)
	}
}

// A function game with CN(5,2)'s rules gives CN(5,2)'s table.
func TestFuncGameMatchesLibraryGame(t *testing.T) {
	ref := games.CN(5, 2)
	fg := games.Func("myCN", 5, func(p games.Pos) []games.Pos { return ref.Followers(p) })
	a, err := Values(fg, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Plain(ref, KindValues, 3)
	for i := 0; i < a.Len(); i++ {
		if a.get(i) != b.get(i) {
			t.Fatalf("position %v: func game %d, CN(5,2) %d", a.pos(i), a.get(i), b.get(i))
		}
	}
	loop := games.Func("loop", 1, func(p games.Pos) []games.Pos { return []games.Pos{{p[0]}} })
	if _, err := Values(loop, 2); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("cyclic game: %v", err)
	}
	// A game whose moves raise a heap: followers outside the box are solved too.
	up := games.Func("up", 1, func(p games.Pos) []games.Pos {
		if p[0] >= 10 {
			return nil
		}
		return []games.Pos{{p[0] + 1}}
	})
	u, err := Values(up, 3)
	if err != nil {
		t.Fatal(err)
	}
	if u.At(0) != 0 || u.At(1) != 1 || u.At(3) != 1 {
		t.Fatalf("up game: %v %v %v", u.At(0), u.At(1), u.At(3))
	}
}

// Sum values are the xor of the parts' values (Sprague-Grundy), checked
// against the plain solver on the compound itself.
func TestSumIsXor(t *testing.T) {
	a, b := games.CN(3, 2), games.Wythoff()
	s := games.Sum(a, b)
	ts, err := Plain(s, KindValues, 3)
	if err != nil {
		t.Fatal(err)
	}
	ta, _ := Values(a, 3)
	tb, _ := Values(b, 3)
	for i := 0; i < ts.Len(); i++ {
		p := ts.pos(i)
		if ts.get(i) != ta.At(p[:3]...)^tb.At(p[3:]...) {
			t.Fatalf("Sum at %v: %d, xor of parts %d", p, ts.get(i), ta.At(p[:3]...)^tb.At(p[3:]...))
		}
	}
}

// A smaller table of a game already solved larger is cut from the cache,
// and equals a fresh solve.
func TestSmallerTableCutFromCache(t *testing.T) {
	big, err := Values(games.PN(4, 2), 9)
	if err != nil {
		t.Fatal(err)
	}
	small, err := Values(games.PN(4, 2), 6, 9, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(small.Method(), "cached") {
		t.Errorf("method %q: not cut from the cached table", small.Method())
	}
	fresh, _ := Plain(games.PN(4, 2), KindValues, 6, 9, 3, 5)
	for i := 0; i < fresh.Len(); i++ {
		if small.get(i) != fresh.get(i) {
			t.Fatalf("at %v: cut %d, fresh %d", fresh.pos(i), small.get(i), fresh.get(i))
		}
	}
	if again, _ := Values(games.PN(4, 2), 6, 9, 3, 5); again != small {
		t.Error("the cut table was not cached")
	}
	// A corner of the corner (the cache may hold either to cut from)
	// names its origin once.
	ClearCache()
	Values(games.PN(4, 2), 9)
	Values(games.PN(4, 2), 6)
	delete(cache, cacheKey{fingerprint(games.PN(4, 2)), KindValues.String(), "[9 9 9 9]"})
	if c, _ := Values(games.PN(4, 2), 4); strings.Count(c.Method(), "cached") != 1 {
		t.Errorf("a corner of a corner: method %q", c.Method())
	}
	_ = big
}

// A rule that raises a heap forever has no cycle, yet play never ends: the
// search must say so instead of overflowing the stack (which killed the
// process, and with it the kernel). A long finite descent below the limit
// stays solvable (the search keeps its own stack; 10^6 moves deep takes ~4 s
// by hand: ValueOf of take-one from 1000000 is 0).
func TestEndlessGameIsAnErrorNotACrash(t *testing.T) {
	defer func(d int) { maxDepth = d }(maxDepth)
	maxDepth = 5000
	up := games.Func("up forever", 1, func(p games.Pos) []games.Pos { return []games.Pos{{p[0] + 1}} })
	for _, kind := range []Kind{KindValues, KindOutcomes, KindRemoteness} {
		_, err := Solve(up, kind, 3)
		if err == nil || !strings.Contains(err.Error(), "only finite games") || !strings.Contains(err.Error(), "5000 moves") {
			t.Fatalf("%v: %v", kind, err)
		}
	}
	if _, err := ValueOf(up, games.Pos{0}); err == nil || !strings.Contains(err.Error(), "only finite games") {
		t.Fatalf("ValueOf: %v", err)
	}
	down := games.Func("take one", 1, func(p games.Pos) []games.Pos {
		if p[0] == 0 {
			return nil
		}
		return []games.Pos{{p[0] - 1}}
	})
	v, err := ValueOf(down, games.Pos{4001})
	if err != nil || v != 1 {
		t.Fatalf("take one from 4001: %d, %v", v, err)
	}
	r, err := RemotenessOf(down, games.Pos{4001})
	if err != nil || r != 4001 {
		t.Fatalf("remoteness of 4001: %d, %v", r, err)
	}
}

// A notebook stores the text form of every output beside its HTML: the
// text of Wythoff's 3001 x 3001 outcome face was 18 MB. Past 100 cells a
// side String shows a corner and says where the rest is; small faces are
// drawn whole.
func TestBigFaceStringShowsACorner(t *testing.T) {
	tab, err := Outcomes(games.Wythoff(), 300)
	if err != nil {
		t.Fatal(err)
	}
	f, err := tab.Face("a b")
	if err != nil {
		t.Fatal(err)
	}
	s := f.String()
	lines := strings.Split(s, "\n")
	if len(s) > 10000 || len(lines) != 2+textCorner || !strings.Contains(lines[1], "of 301 x 301 cells") {
		t.Fatalf("%d bytes, %d lines: %.300s", len(s), len(lines), s)
	}
	// The corner is the face's own cells: row b = 2 starts 1 (N), 0 at a = 1.
	if !strings.HasPrefix(lines[4], "1 0 1") {
		t.Errorf("row b=2: %.40s", lines[4])
	}
	st, err := Outcomes(games.Wythoff(), 99)
	if err != nil {
		t.Fatal(err)
	}
	small, err := st.Face("a b")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(small.String(), "\n"); n != 100 {
		t.Errorf("100x100 face: %d rows", n)
	}
}

// A damaged file was read as wrong values (one flipped byte gave a
// remoteness of 65292), and a damaged header made Load allocate whatever
// bounds it named. Files saved before the checksum still load.
func TestLoadRefusesDamagedFiles(t *testing.T) {
	dir := t.TempDir()
	tab, err := Remoteness(games.SlowExact(3, 2), 9)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "r.tbl")
	if err := tab.Save(path); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	header := bytes.IndexByte(good, '\n') + 1
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flipped := bytes.Clone(good)
	flipped[header+100] ^= 0xff
	hugeHeader := append([]byte(`{"format":"grundy-table/1","game":"CN(6,2)","kind":"values","max":[90,90,90,90,90,90]}`+"\n"), good[header:]...)
	negHeader := append([]byte(`{"format":"grundy-table/1","game":"CN(6,2)","kind":"values","max":[3,-1]}`+"\n"), good[header:]...)
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"flipped entry", flipped, "checksum does not match"},
		{"trailing junk", append(bytes.Clone(good), "junk"...), "unexpected bytes"},
		{"truncated", good[:header+500], "truncated"},
		{"huge bounds in the header", hugeHeader, "truncated"},
		{"negative bound in the header", negHeader, "damaged header"},
	} {
		if _, err := Load(write(c.name, c.data)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
	// Format 1: the same header and entries, with a checksum of the
	// entries only, or none.
	entries := good[header : len(good)-len(crcMagic)-4]
	v1 := append([]byte(strings.Replace(string(good[:header]), fileMagic, fileMagicV1, 1)), entries...)
	for _, withSum := range []bool{false, true} {
		data := bytes.Clone(v1)
		if withSum {
			data = append(data, crcMagic...)
			data = binary.LittleEndian.AppendUint32(data, crc32.ChecksumIEEE(entries))
		}
		old, err := Load(write("old.tbl", data))
		if err != nil || old.At(3, 5, 5) != 6 {
			t.Fatalf("format 1 table (checksum %v): %v", withSum, err)
		}
	}
}

// Two function games may share a name and differ in rules, so no table of
// one may answer for the other, inside a compound either: S(1) + Nim(1)
// and S(1,2) + Nim(1), both written as Func "f", at (2,0) are 0 and 2.
func TestCompoundsOfFunctionGamesAreNotCachedHeaps0to5(t *testing.T) {
	take := func(amounts ...int) games.Game {
		return games.Func("f", 1, func(p games.Pos) []games.Pos {
			var out []games.Pos
			for _, s := range amounts {
				if s <= p[0] {
					out = append(out, games.Pos{p[0] - s})
				}
			}
			return out
		})
	}
	for _, kind := range []Kind{KindValues, KindOutcomes, KindRemoteness} {
		a, err := Solve(games.Sum(take(1), games.Nim(1)), kind, 5)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Solve(games.Sum(take(1, 2), games.Nim(1)), kind, 5)
		if err != nil {
			t.Fatal(err)
		}
		// S(1) heap 2 is P; S(1,2) heap 2 is N, of value 2 and remoteness 1.
		want := map[Kind][2]int{KindValues: {0, 2}, KindOutcomes: {0, 1}, KindRemoteness: {2, 1}}[kind]
		if a.At(2, 0) != want[0] || b.At(2, 0) != want[1] {
			t.Errorf("%s at (2,0): %d and %d, want %v", kind, a.At(2, 0), b.At(2, 0), want)
		}
	}
}

// A rule of one's own that returns a bad follower is told what is wrong
// with it in words, and what to change.
func TestFuncBadFollowers(t *testing.T) {
	for _, c := range []struct {
		g    games.Game
		want string
	}{
		{games.Func("short", 2, func(p games.Pos) []games.Pos { return []games.Pos{{0}} }),
			"short: the rule's follower (0) of (0,0) has 1 heap, not 2: a move keeps the number of heaps (games.Func(name, 0, f) allows any)"},
		{games.Func("below", 1, func(p games.Pos) []games.Pos { return []games.Pos{{p[0] - 1}} }),
			"below: the rule's follower (-1) of (0) has heap 1 = -1: a heap cannot go below 0"},
	} {
		if _, err := Values(c.g, 3); err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v\nwant %s", c.g.Name(), err, c.want)
		}
	}
}
