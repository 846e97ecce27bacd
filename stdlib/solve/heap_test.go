package solve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

var heapGames = []games.Game{
	games.Octal("0.77"), games.Octal("0.07"), games.Octal("0.137"), games.Octal("0.6"),
	games.Octal("4.07"), games.Octal("0.F"), games.Octal("0.8"), games.Octal("0.16"),
	games.Subtraction(1, 3, 4), games.Subtraction(2, 5), games.Grundy(),
}

// The heap solvers against the definition itself: the memo search over
// rows of heaps (which knows nothing of xor) at every one- and two-heap
// position with heaps up to 9.
func TestHeapSolversEqualTheSearchHeaps0to9(t *testing.T) {
	for _, g := range heapGames {
		search := newMemo(g, KindValues) // not ValueOf, which reads the sequence
		for _, plain := range []bool{true, false} {
			var tab *Table
			var err error
			if plain {
				tab, err = Plain(g, KindValues, 9, 9)
			} else {
				tab, err = Values(g, 9, 9)
			}
			if err != nil {
				t.Fatal(err)
			}
			for a := 0; a <= 9; a++ {
				for b := 0; b <= 9; b++ {
					want, err := search.solve(games.Pos{a, b})
					if err != nil {
						t.Fatal(err)
					}
					if got := tab.At(a, b); got != want {
						t.Fatalf("%s (%s) at (%d,%d): %d, search %d", g.Name(), tab.Method(), a, b, got, want)
					}
				}
			}
		}
		out, err := Outcomes(g, 6, 6, 6)
		if err != nil {
			t.Fatal(err)
		}
		for idx := 0; idx < out.Len(); idx++ {
			v, _ := search.solve(out.pos(idx))
			if (v != 0) != (out.get(idx) == 1) {
				t.Fatalf("%s outcomes at %v: %d, value %d", g.Name(), out.pos(idx), out.get(idx), v)
			}
		}
	}
}

// The rare-value method against the plain O(n^2) sequence on the named
// games and on random octal codes, heaps 0..5000 (the first 20,000 values
// of 0.6 are compared in BenchmarkOctal06).
func TestRareValuesEqualPlainHeaps0to5000(t *testing.T) {
	gs := []games.Game{games.Octal("0.6"), games.Octal("0.77"), games.Octal("0.07"), games.Octal("0.137"),
		games.Octal("0.16"), games.Octal("0.56"), games.Octal("4.07"), games.Grundy()}
	rng := rand.New(rand.NewPCG(11, 0))
	for range 12 {
		code := "0."
		for range 1 + rng.IntN(3) {
			code += fmt.Sprint(rng.IntN(8))
		}
		gs = append(gs, games.Octal(code))
	}
	for _, g := range gs {
		n := 5000
		if g.Name() != "Octal(0.6)" && g.Name() != "Grundy" {
			n = 2500
		}
		fast, err := Values(g, n)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := Plain(g, KindValues, n)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ref.vals {
			if fast.vals[i] != ref.vals[i] {
				t.Fatalf("%s heap %d: %s %d, plain %d", g.Name(), i, fast.Method(), fast.vals[i], ref.vals[i])
			}
		}
	}
}

// Subtraction games S(1..k) have G(n) = n mod (k+1): an independent
// formula, and its period proved from the first 2k+2 values.
func TestSubtractionOneToK(t *testing.T) {
	for k := 1; k <= 6; k++ {
		set := make([]int, k)
		for i := range set {
			set[i] = i + 1
		}
		g := games.Subtraction(set...)
		tab, err := Values(g, 200)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n <= 200; n++ {
			if tab.At(n) != n%(k+1) {
				t.Fatalf("%s: G(%d) = %d, want %d", g.Name(), n, tab.At(n), n%(k+1))
			}
		}
		per, err := tab.Period("a")
		if err != nil {
			t.Fatal(err)
		}
		if !per.Proved || per.Period != k+1 || per.Pre != 0 {
			t.Errorf("%s: %v", g.Name(), per)
		}
	}
}

// S(1,3,4): values 0 1 0 1 2 3 2 repeating from 0, period 7 (Winning Ways).
func TestSubtraction134Period7(t *testing.T) {
	tab, err := Values(games.Subtraction(1, 3, 4), 30)
	if err != nil {
		t.Fatal(err)
	}
	want := []int{0, 1, 0, 1, 2, 3, 2}
	for n := 0; n <= 30; n++ {
		if tab.At(n) != want[n%7] {
			t.Fatalf("G(%d) = %d, want %d", n, tab.At(n), want[n%7])
		}
	}
	per, _ := tab.Period("a")
	if !per.Proved || per.Period != 7 || per.Pre != 0 || per.ProvedAt != 11 {
		t.Errorf("%v", per)
	}
	// Eleven values prove it; ten do not.
	short, _ := Values(games.Subtraction(1, 3, 4), 9)
	if per, _ := short.Period("a"); per.Proved {
		t.Errorf("proved from ten values: %v", per)
	}
}

func TestPeriodOfOtherLines(t *testing.T) {
	// Nim(2) along (a, 3): a xor 3 has no period; along (a, a) it is 0.
	tab, _ := Values(games.Nim(2), 40)
	per, err := tab.Period("a 3")
	if err != nil {
		t.Fatal(err)
	}
	if per.Found {
		t.Errorf("a xor 3: %v", per)
	}
	per, _ = tab.Period("a a")
	if !per.Found || per.Proved || per.Period != 1 || per.Pre != 0 {
		t.Errorf("a xor a: %v", per)
	}
	if s := per.String(); s != `period 1 from 0, observed, not proved (no periodicity theorem applies): Nim(2) values along "a a", entries 0..40` {
		t.Errorf("String: %s", s)
	}
	if _, err := tab.Period("a b"); err == nil {
		t.Error("two letters accepted")
	}
	// Grundy's game: no theorem, and no period in sight.
	g, _ := Values(games.Grundy(), 3000)
	if per, _ := g.Period("a"); per.Found || per.Theorem != "" {
		t.Errorf("Grundy: %v", per)
	}
}

func TestHeapSolveStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	restore := progress.Install(ctx, nil)
	defer restore()
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	start := time.Now()
	_, err := Plain(games.Octal("0.6"), KindValues, 400000)
	if err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("not stopped: %v after %v", err, time.Since(start))
	}
}

// A saved table of a new game comes back with its game (the name parses),
// so moves work: a Kayles row splits into rows of another length.
func TestSavedTablesOfNewGamesKeepTheirMoves(t *testing.T) {
	dir := t.TempDir()
	for _, g := range []games.Game{games.Octal("0.77"), games.Subtract(games.CN(4, 2), 1, 2), games.Sum(games.CN(3, 2), games.Nim(1)),
		games.Sum(games.Subtraction(1, 3, 4), games.Nim(1), games.Subtraction(2), games.Nim(1))} {
		tab, err := Values(g, 4, 4, 4, 4)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "t.tbl")
		if err := tab.Save(path); err != nil {
			t.Fatal(err)
		}
		ClearCache()
		back, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if back.Game() == nil || back.GameName() != g.Name() {
			t.Fatalf("%s: loaded without its game", g.Name())
		}
		p := games.Pos{4, 3, 2, 1}
		want, _ := tab.WinningMoves(p)
		got, err := back.WinningMoves(p)
		if err != nil || len(got) != len(want) {
			t.Errorf("%s: winning moves from %v after Load: %v, %v; before: %v", g.Name(), p, got, err, want)
		}
	}
}

// The search behind take-and-break remoteness tables meets each multiset
// of live heaps once: for Kayles from a heap of 20, at most the 2,714 rows
// of total <= 20 (before, every ordering of every row was a position of
// its own, and heap 30 took 38 s). For Dawson's Kayles, heaps of 1 are
// dead and never part of a key.
func TestTakeBreakSearchKeysMultisetsHeap20(t *testing.T) {
	// rows[s][m]: multisets of total s with parts <= m.
	const n = 20
	var rows [n + 1][n + 1]int
	for m := 0; m <= n; m++ {
		rows[0][m] = 1
	}
	for s := 1; s <= n; s++ {
		for m := 1; m <= n; m++ {
			rows[s][m] = rows[s][m-1]
			if m <= s {
				rows[s][m] += rows[s-m][m]
			}
		}
	}
	total := 0
	for s := 0; s <= n; s++ {
		total += rows[s][n]
	}
	if total != 2714 {
		t.Fatalf("multisets of total <= %d: %d", n, total)
	}
	m := newMemo(games.Octal("0.77"), KindRemoteness)
	if _, err := m.solve(games.Pos{n}); err != nil {
		t.Fatal(err)
	}
	if m.n > int64(total) {
		t.Errorf("Kayles from (%d): %d positions searched, more than the %d multisets", n, m.n, total)
	}
	d := newMemo(games.Octal("0.07"), KindRemoteness)
	d.solve(games.Pos{n})
	for k := range d.entry {
		for _, x := range []byte(k) {
			if x == 2 { // varint of heap 1
				t.Fatalf("Dawson's Kayles: a dead heap of 1 in a key %q", k)
			}
		}
	}
}

// The memory a take-and-break remoteness search needs is known before it
// starts: the bound on its rows counts what the search meets, and a table
// whose search could not fit says so instead of running out of memory.
func TestTakeBreakRemotenessMemoryBoundHeaps0to20(t *testing.T) {
	kayles := games.Octal("0.77").(*games.TakeBreak)
	if n := searchRows(kayles, []int{20}); n != 2714 {
		t.Errorf("Kayles rows to 20: %d, want 2,714 (partitions of 0..20)", n)
	}
	if n := searchRows(games.Subtraction(1, 3, 4).(*games.TakeBreak), []int{20, 20, 20}); n != 1771 {
		t.Errorf("S(1,3,4) rows of three heaps to 20: %d, want C(23,3) = 1,771", n)
	}
	for _, g := range []games.Game{games.Octal("0.77"), games.Subtraction(1, 3, 4)} {
		m := newMemo(g, KindRemoteness)
		tab, err := Remoteness(g, 8, 6, 4)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < tab.Len(); i++ {
			if _, err := m.solve(tab.pos(i)); err != nil {
				t.Fatal(err)
			}
		}
		if bound := searchRows(g.(*games.TakeBreak), []int{8, 6, 4}); m.n > bound {
			t.Errorf("%s: the search met %d rows, more than its bound %d", g.Name(), m.n, bound)
		}
	}
	old := MemoryLimit
	MemoryLimit = 64 << 20
	defer func() { MemoryLimit = old }()
	_, err := Remoteness(games.Octal("0.77"), 90)
	if err == nil || !strings.Contains(err.Error(), "largest bound that fits is heaps 0..") {
		t.Errorf("Kayles remoteness to 90 under 64 MiB: %v", err)
	}
}

// An observed period needs three periods over the last quarter of the line:
// hexadecimal 0.8 grows by one every three heaps (0 0 0 0 1 1 1 2 2 2 ...,
// checked here against that formula), so a table ending in a run of three
// equal values does not have "period 1"; Kayles to heap 150 shows its
// period 12 from 71, observed, not yet proved (the proof needs 168 values).
func TestObservedPeriodsNeedTheLastQuarterHeaps0to3000(t *testing.T) {
	tab, err := Values(games.Octal("0.8"), 3000)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 3000; n++ {
		if tab.At(n) != (n-1)/3 {
			t.Fatalf("0.8: G(%d) = %d, want %d", n, tab.At(n), (n-1)/3)
		}
	}
	if per, _ := tab.Period("a"); per.Found {
		t.Errorf("0.8 to 3000: %v", per)
	}
	k, _ := Values(games.Octal("0.77"), 150)
	per, _ := k.Period("a")
	if !per.Found || per.Proved || per.Period != 12 || per.Pre != 71 || per.ProvedAt != 168 {
		t.Errorf("Kayles to 150: %v", per)
	}
}

// A face of two heaps asked of a one-heap table of a take-and-break game
// says how to get rows of two.
func TestTakeBreakFaceOfTheWrongLengthSaysHowHeaps0to30(t *testing.T) {
	k, _ := Values(games.Octal("0.77"), 30)
	_, err := k.Face("a b")
	if err == nil || !strings.Contains(err.Error(), "solve.Values(g, 30, 30)") || !strings.Contains(err.Error(), "rows of 1 heap ") {
		t.Errorf("%v", err)
	}
}

// Table.Method names the way the sequence was computed: the rare-value
// method needs a warm-up of 2,048 plain values and a sparse space, which
// Kayles has (9 rare heaps of the first 2,048) and Dawson's Kayles lacks.
func TestHeapMethodSaysWhatRanHeaps0to10000(t *testing.T) {
	for _, c := range []struct {
		code string
		n    int
		want string
	}{
		{"0.77", 1000, "heap"},
		{"0.77", 10000, "rare values to heap 4095, then its period 12 from 71 (proved: checked to 167)"},
		{"0.07", 10000, "heap (no sparse space for rare values) to heap 4095, then its period 34 from 53 (proved: checked to 175)"},
		{"0.6", 10000, "rare values"},
	} {
		tab, err := Values(games.Octal(c.code), c.n)
		if err != nil {
			t.Fatal(err)
		}
		if tab.Method() != c.want {
			t.Errorf("Octal(%s) to %d: method %q, want %q", c.code, c.n, tab.Method(), c.want)
		}
	}
}

// Once the periodicity theorem proves a sequence's period, the solver
// fills the rest from it (periodShortcut): that must equal the plain mex
// heap by heap, on the named games and random octal and subtraction
// codes, past two of the shortcut's looks (4,096 and 8,192 heaps); and on
// games that split into three heaps (their plain mex is O(n^2) a heap),
// with looks from 16 heaps on. The games named with a period must take
// the shortcut, or this tests nothing.
func TestPeriodShortcutEqualsPlainHeaps0to9000(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 0))
	random := func(digits string) games.Game {
		code := "0."
		for range 2 + rng.IntN(3) {
			code += string(digits[rng.IntN(len(digits))])
		}
		return games.Octal(code)
	}
	two := []games.Game{games.Octal("0.77"), games.Octal("0.07"), games.Octal("0.137"), games.Octal("4.07"),
		games.Octal("0.6"), games.Subtraction(1, 3, 4), games.Subtraction(2, 5, 7)}
	three := []games.Game{games.Octal("0.F"), games.Octal("0.B"), games.Octal("0.8")}
	for range 8 {
		two = append(two, random("01234567"))
		three = append(three, random("0123456789ABCDEF"))
	}
	mustShortcut := map[string]bool{"Octal(0.77)": true, "Octal(0.07)": true, "Octal(0.137)": true,
		"Subtraction(1,3,4)": true, "Subtraction(2,5,7)": true, "Octal(0.F)": true, "Octal(0.B)": true}
	check := func(gs []games.Game, n int) {
		for _, g := range gs {
			tab, err := Values(g, n)
			if err != nil {
				t.Fatal(err)
			}
			ref := make([]uint16, n+1)
			if err := plainSequence(g.(*games.TakeBreak), ref, 0, &ticker{report: func(int) error { return nil }}); err != nil {
				t.Fatal(err)
			}
			for i := range ref {
				if tab.vals[i] != ref[i] {
					t.Fatalf("%s heap %d: %s gives %d, plain %d", g.Name(), i, tab.Method(), tab.vals[i], ref[i])
				}
			}
			took := strings.Contains(tab.Method(), "then its period")
			if mustShortcut[g.Name()] && !took {
				t.Errorf("%s: method %q, want the proved period's shortcut", g.Name(), tab.Method())
			}
			t.Logf("%s: %s", g.Name(), tab.Method())
		}
	}
	check(two, 9000)
	defer func(e, f int) { tickEvery, checkFrom = e, f }(tickEvery, checkFrom)
	tickEvery, checkFrom = 16, 16
	check(three, 600)
}
