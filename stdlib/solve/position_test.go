package solve

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// searchWinningMoves is WinningMoves as it was before take-and-break games
// read their heap sequence: every follower the game generates, kept when
// the search over rows finds it a P-position.
func searchWinningMoves(t *testing.T, m *memo, p games.Pos) []games.Pos {
	var out []games.Pos
	for _, q := range m.g.Followers(p) {
		v, err := m.solve(q)
		if err != nil {
			t.Fatal(err)
		}
		if v == 0 {
			out = append(out, q)
		}
	}
	return out
}

// rows calls f with every row of up to three heaps, heap i of at most
// top[i] (ordered rows: the queries must not care how a row is written).
func rows(top [3]int, f func(p games.Pos)) {
	f(games.Pos{})
	for a := 0; a <= top[0]; a++ {
		f(games.Pos{a})
		for b := 0; b <= top[1]; b++ {
			f(games.Pos{a, b})
			for c := 0; c <= top[2]; c++ {
				f(games.Pos{a, b, c})
			}
		}
	}
}

// ValueOf and WinningMoves read the heap sequence for take-and-break games;
// the search over rows, which knows nothing of xor, must agree with them on
// every small row: heaps to 16 alone, 10 in pairs, (7, 7, 5) in threes, for
// octal games that split (Kayles, Dawson's Kayles, 0.137, 4.07 which splits
// without taking), one that only splits (0.6), a hexadecimal game (0.F,
// three heaps), a subtraction game and Grundy's game.
func TestRowQueriesEqualTheSearchHeaps0to16(t *testing.T) {
	for _, code := range []string{"0.77", "0.07", "0.137", "4.07", "0.6", "0.F"} {
		testRowQueries(t, games.Octal(code))
	}
	testRowQueries(t, games.Subtraction(1, 3, 4))
	testRowQueries(t, games.Grundy())
}

func testRowQueries(t *testing.T, g games.Game) {
	values, outcomes := newMemo(g, KindValues), newMemo(g, KindOutcomes)
	n, wins := 0, 0
	check := func(p games.Pos) {
		n++
		want, err := values.solve(p)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := ValueOf(g, p); err != nil || got != want {
			t.Fatalf("%s: ValueOf(%v) = %d, %v; the search finds %d", g.Name(), p, got, err, want)
		}
		wantMoves := searchWinningMoves(t, outcomes, p)
		got, err := WinningMoves(g, p)
		if err != nil || !slices.EqualFunc(got, wantMoves, slices.Equal) {
			t.Fatalf("%s: WinningMoves(%v) = %v, %v; the search finds %v", g.Name(), p, got, err, wantMoves)
		}
		wins += len(got)
	}
	rows([3]int{16, 10, 0}, check)
	rows([3]int{7, 7, 5}, func(p games.Pos) {
		if len(p) == 3 {
			check(p)
		}
	})
	if wins == 0 {
		t.Fatalf("%s: no winning move among %d rows", g.Name(), n)
	}
}

// Kayles' heap of 100 and the row (7, 100, 3): the search over rows from
// them ran for hours (heap 60 took a minute); reading the sequence takes
// milliseconds. So does a heap of a million, whose sequence ends by its
// proved period (12 from 71). The values are checked against the plain
// sequence to 300 (the oracle tests check it against the published one)
// and that period.
func TestKaylesHeap100AndAMillionByTheSequence(t *testing.T) {
	ClearCache() // solve the sequence here, not read one another test left
	kayles := games.Octal("0.77")
	G := make([]uint16, 301)
	if err := plainSequence(kayles.(*games.TakeBreak), G, 0, &ticker{report: func(int) error { return nil }}); err != nil {
		t.Fatal(err)
	}
	seq := func(n int) int {
		if n > 300 {
			n = 289 + (n-289)%12
		}
		return int(G[n])
	}
	value := func(p games.Pos) int {
		x := 0
		for _, h := range p {
			x ^= seq(h)
		}
		return x
	}
	cpu0, wall0 := cpuTime(), time.Now()
	for _, p := range []games.Pos{{100}, {7, 100, 3}, {1000000}, {999999, 5}} {
		v, err := ValueOf(kayles, p)
		if err != nil || v != value(p) {
			t.Errorf("ValueOf(Kayles, %v) = %d, %v; want %d", p, v, err, value(p))
		}
		moves, err := WinningMoves(kayles, p)
		if err != nil {
			t.Fatalf("WinningMoves(Kayles, %v): %v", p, err)
		}
		var want []games.Pos
		if value(p) != 0 {
			games.Visit(kayles, p, func(q games.Pos) bool {
				if value(q) == 0 {
					want = append(want, q.Clone())
				}
				return true
			})
		}
		if !slices.EqualFunc(moves, want, slices.Equal) {
			t.Errorf("WinningMoves(Kayles, %v): %d moves, want %d: %.5v", p, len(moves), len(want), moves)
		}
		if value(p) != 0 && len(moves) == 0 {
			t.Errorf("WinningMoves(Kayles, %v): none from an N-position", p)
		}
	}
	// The work is milliseconds; the bound leaves room for a loaded machine
	// and a race detector, and the search it replaces took hours.
	if cpu := cpuTime() - cpu0; cpu > 3*time.Second {
		t.Errorf("took %v of CPU (%v wall)", cpu, time.Since(wall0))
	}
}

// Asking about heap after growing heap solves a logarithmic number of
// sequences, and keeps only those.
func TestRowQueriesKeepFewSequences(t *testing.T) {
	ClearCache()
	g := games.Octal("0.137")
	for n := range 1000 {
		if _, err := WinningMoves(g, games.Pos{n}); err != nil {
			t.Fatal(err)
		}
	}
	kept := 0
	cacheMu.Lock()
	for k := range cache {
		if k.name == fingerprint(g) {
			kept++
		}
	}
	cacheMu.Unlock()
	if kept == 0 || kept > 5 { // 0..63, 127, 255, 511, 1023
		t.Errorf("%d sequences kept for heaps 0..999", kept)
	}
}

// An interrupt stops ValueOf and WinningMoves while they compute a heap
// sequence, as it stops the solvers.
func TestRowQueriesStopWhenCancelled(t *testing.T) {
	ClearCache()
	ctx, cancel := context.WithCancel(context.Background())
	restore := progress.Install(ctx, nil)
	defer restore()
	time.AfterFunc(100*time.Millisecond, cancel)
	// 0.6 has no proved period to end its sequence early: to heap
	// 500,000 it takes seconds.
	start := time.Now()
	_, err := ValueOf(games.Octal("0.6"), games.Pos{3, 500000})
	if !errors.Is(err, progress.ErrCancelled) || time.Since(start) > 2*time.Second {
		t.Errorf("ValueOf after %v: %v, want a cancellation", time.Since(start), err)
	}
	_, err = WinningMoves(games.Octal("0.6"), games.Pos{500000})
	if !errors.Is(err, progress.ErrCancelled) {
		t.Errorf("WinningMoves once cancelled: %v, want a cancellation", err)
	}
}

// An interrupt stops ValueOf's search of a game given by a function, which
// has no sequence to read.
func TestValueOfSearchStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	restore := progress.Install(ctx, nil)
	defer restore()
	time.AfterFunc(100*time.Millisecond, cancel)
	// Every position reachable from (40,40,40) by taking from one heap:
	// 68,921 positions, each with about a hundred followers.
	slow := games.Func("slow nim", 3, games.Nim(3).Followers)
	start := time.Now()
	_, err := ValueOf(slow, games.Pos{40, 40, 40})
	if !errors.Is(err, progress.ErrCancelled) || time.Since(start) > 2*time.Second {
		t.Errorf("after %v: %v, want a cancellation", time.Since(start), err)
	}
}

// A search that stops leaves its memo as it found it: a remoteness table
// keeps one for the rows it does not hold, and positions left marked as
// being solved read as a cycle to the next question.
func TestStoppedSearchLeavesNoCycle(t *testing.T) {
	kayles := games.Octal("0.77")
	m := newMemo(kayles, KindRemoteness)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	restore := progress.Install(ctx, nil)
	_, err := m.solve(games.Pos{30})
	restore()
	if !errors.Is(err, progress.ErrCancelled) {
		t.Fatalf("cancelled search: %v", err)
	}
	got, err := m.solve(games.Pos{30})
	want, werr := newMemo(kayles, KindRemoteness).solve(games.Pos{30})
	if err != nil || werr != nil || got != want {
		t.Errorf("after a stop: %d, %v; a fresh search %d, %v", got, err, want, werr)
	}
	if err != nil && strings.Contains(err.Error(), "reached from itself") {
		t.Errorf("a stopped search left a cycle behind: %v", err)
	}
}

// A remoteness table of a take-and-break game searches the rows it does
// not hold; an interrupt there is reported as one, not as a row outside
// the table or a strategy's illegal move, and the table answers afterwards.
func TestTableRowSearchStopsAsAnInterrupt(t *testing.T) {
	kayles := games.Octal("0.77")
	tab, err := Solve(kayles, KindRemoteness, 30)
	if err != nil {
		t.Fatal(err)
	}
	// Each copy has a search of its own, which starts empty.
	fresh := func() *Table {
		return &Table{game: tab.game, name: tab.name, kind: tab.kind, max: tab.max, dims: tab.dims, strides: tab.strides, size: tab.size, vals: tab.vals}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	restore := progress.Install(ctx, nil)
	tab = fresh()
	_, err = tab.WinningMoves(games.Pos{30})
	// From (30), take one from the middle: (1, 28), a row the table does
	// not hold, whose search meets thousands of rows.
	check := fresh().CheckStrategy("split", func(p games.Pos) games.Pos {
		if p[0] != 30 {
			return nil
		}
		return games.Pos{1, 28}
	})
	restore()
	if !errors.Is(err, progress.ErrCancelled) {
		t.Errorf("WinningMoves((30)) while interrupted: %v", err)
	}
	if !errors.Is(check.Err, progress.ErrCancelled) || len(check.Problems) > 0 {
		t.Errorf("CheckStrategy while interrupted: %v", check)
	}
	got, err := tab.WinningMoves(games.Pos{30})
	want, werr := fresh().WinningMoves(games.Pos{30})
	if err != nil || werr != nil || !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("after the interrupt: %v, %v; a fresh table %v, %v", got, err, want, werr)
	}
}
