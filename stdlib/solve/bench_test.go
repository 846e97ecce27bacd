package solve

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"grundy/stdlib/games"
)

// Benchmarks of every solver path. Compare paths within one run, e.g.
//
//	go test -run '^$' -bench 'CN62' -benchtime 1x ./stdlib/solve
//
// BenchmarkCN62/max11 runs the plain reference and the fast paths on the
// same 3.0M-position table, so the ratios come from one run.

func benchSolve(b *testing.B, g games.Game, kind Kind, method string, workers int, max ...int) {
	Workers = workers
	defer func() { Workers = 0 }()
	bb, err := bounds(g, kind, max)
	if err != nil {
		b.Fatal(err)
	}
	var t *Table
	cpu0 := cpuTime()
	for b.Loop() {
		t, err = run(g, kind, bb, solverNamed(b, g, kind, method))
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(t.Len())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mpos/s")
	// The machine is shared: CPU time per op is steadier than wall time.
	b.ReportMetric((cpuTime()-cpu0).Seconds()*1e3/float64(b.N), "cpu-ms/op")
}

// solverNamed is "plain", the reference, or the fast solver, which must be
// the one named: a benchmark that silently measured another path would lie.
func solverNamed(tb testing.TB, g games.Game, kind Kind, name string) solver {
	if name == "plain" || name == "heap" {
		return plainFor(g, kind)
	}
	s := choose(g, kind)
	if s.name() != name {
		tb.Fatalf("%s %s: the fast solver is %q, not %q", g.Name(), kind, s.name(), name)
	}
	return s
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkCN62(b *testing.B) {
	for _, m := range []int{8, 11} {
		g := games.CN(6, 2)
		b.Run(fmt.Sprintf("max%d/values/plain", m), func(b *testing.B) { benchSolve(b, g, KindValues, "plain", 1, m) })
		b.Run(fmt.Sprintf("max%d/values/box1", m), func(b *testing.B) { benchSolve(b, g, KindValues, "box", 1, m) })
		b.Run(fmt.Sprintf("max%d/values/box", m), func(b *testing.B) { benchSolve(b, g, KindValues, "box", 0, m) })
		b.Run(fmt.Sprintf("max%d/outcomes/box1", m), func(b *testing.B) { benchSolve(b, g, KindOutcomes, "box", 1, m) })
		b.Run(fmt.Sprintf("max%d/outcomes/box", m), func(b *testing.B) { benchSolve(b, g, KindOutcomes, "box", 0, m) })
		b.Run(fmt.Sprintf("max%d/remoteness/box", m), func(b *testing.B) { benchSolve(b, g, KindRemoteness, "box", 0, m) })
	}
}

// BenchmarkPaths covers every solver path on a small table, the plain
// reference beside each fast one.
func BenchmarkPaths(b *testing.B) {
	cases := []struct {
		g     games.Game
		kind  Kind
		max   int
		paths []string
	}{
		{games.CN(6, 2), KindValues, 6, []string{"plain", "box"}},
		{games.CN(6, 2), KindOutcomes, 6, []string{"plain", "box"}},
		{games.CN(6, 2), KindRemoteness, 6, []string{"plain", "box"}},
		{games.NN(7, 4, 3), KindValues, 4, []string{"plain", "box"}},
		{games.Moore(4, 2), KindValues, 8, []string{"plain", "box"}},
		{games.ExactNim(4, 2), KindValues, 8, []string{"plain", "box"}},
		{games.ExactNim(4, 2), KindOutcomes, 8, []string{"plain", "box"}},
		{games.SlowMoore(5, 2), KindValues, 8, []string{"plain", "slow"}},
		{games.SlowExact(4, 3), KindRemoteness, 12, []string{"plain", "slow"}},
		{games.Sum(games.CN(4, 2), games.Nim(2)), KindValues, 5, []string{"plain", "sum"}},
		{games.ConjunctiveCompound(games.SlowExact(3, 2), games.Nim(2)), KindRemoteness, 5, []string{"plain", "conjunctive"}},
		{games.Wythoff(), KindValues, 300, []string{"plain", "wythoff"}},
		{games.Wythoff(), KindOutcomes, 300, []string{"plain", "wythoff"}},
		{games.Func("CN(4,2) as a function", 4, games.CN(4, 2).Followers), KindValues, 6, []string{"plain"}},
		{games.Slow(games.CN(5, 2)), KindValues, 8, []string{"plain", "slow"}},
		{games.Subtract(games.CN(4, 2), 1, 2), KindValues, 10, []string{"plain", "offsets"}},
		{games.Octal("0.77"), KindValues, 5000, []string{"heap", "rare values"}},
		{games.Subtraction(1, 3, 4), KindValues, 100000, []string{"heap"}},
	}
	for _, c := range cases {
		for _, p := range c.paths {
			b.Run(fmt.Sprintf("%s/%s/max%d/%s", c.g.Name(), c.kind, c.max, p), func(b *testing.B) {
				benchSolve(b, c.g, c.kind, p, 0, c.max)
			})
		}
	}
}

// BenchmarkRatioCN62Max11 measures the targets in one run: the
// plain solver's values for CN(6,2) with heaps 0..11 (3.0M positions) once,
// then the box solver's values and outcomes 5 times each (median), and
// reports the speed-ups by wall clock and by CPU time:
//
//	go test -run '^$' -bench RatioCN62 -benchtime 1x ./stdlib/solve
func BenchmarkRatioCN62Max11(b *testing.B) {
	g := games.CN(6, 2)
	bb, _ := bounds(g, KindValues, []int{11})
	measure := func(kind Kind, method string) (wall, cpu time.Duration) {
		c0, w0 := cpuTime(), time.Now()
		if _, err := run(g, kind, bb, solverNamed(b, g, kind, method)); err != nil {
			b.Fatal(err)
		}
		return time.Since(w0), cpuTime() - c0
	}
	median := func(kind Kind) (time.Duration, time.Duration) {
		var ws, cs []time.Duration
		for range 5 {
			w, c := measure(kind, "box")
			ws, cs = append(ws, w), append(cs, c)
		}
		slices.Sort(ws)
		slices.Sort(cs)
		return ws[2], cs[2]
	}
	for b.Loop() {
		pw, pc := measure(KindValues, "plain")
		vw, vc := median(KindValues)
		ow, oc := median(KindOutcomes)
		b.ReportMetric(pw.Seconds(), "plain-s")
		b.ReportMetric(vw.Seconds()*1e3, "values-ms")
		b.ReportMetric(ow.Seconds()*1e3, "outcomes-ms")
		b.ReportMetric(float64(pw)/float64(vw), "values-x")
		b.ReportMetric(float64(pc)/float64(vc), "values-x-cpu")
		b.ReportMetric(float64(pw)/float64(ow), "outcomes-x")
		b.ReportMetric(float64(pc)/float64(oc), "outcomes-x-cpu")
	}
}

// BenchmarkOctal06 measures the rare-value method on the open octal game
// 0.6 beside the plain O(n^2) sequence, heaps 0..20,000 and 0..60,000,
// three runs each (medians), after checking that the two agree on every
// value:
//
//	go test -run '^$' -bench Octal06 -benchtime 1x ./stdlib/solve
//
// With GRUNDY_BIG=1 it also solves heaps 0..1,000,000 with the rare-value
// method (the target: under two minutes on 2 shared cores) and
// checks that it begins with the plain 20,000.
func BenchmarkOctal06(b *testing.B) {
	g := games.Octal("0.6")
	measure := func(s solver, n int) (*Table, time.Duration, time.Duration) {
		c0, w0 := cpuTime(), time.Now()
		t, err := run(g, KindValues, []int{n}, s)
		if err != nil {
			b.Fatal(err)
		}
		return t, time.Since(w0), cpuTime() - c0
	}
	median := func(s solver, n int) (*Table, time.Duration, time.Duration) {
		var t *Table
		var ws, cs []time.Duration
		for range 3 {
			var w, c time.Duration
			t, w, c = measure(s, n)
			ws, cs = append(ws, w), append(cs, c)
		}
		slices.Sort(ws)
		slices.Sort(cs)
		return t, ws[1], cs[1]
	}
	for b.Loop() {
		var first *Table
		for _, n := range []int{20000, 60000} {
			ref, pw, pc := median(solverNamed(b, g, KindValues, "heap"), n)
			fast, fw, fc := median(solverNamed(b, g, KindValues, "rare values"), n)
			if !slices.Equal(ref.vals, fast.vals) {
				b.Fatalf("0.6: the rare-value method and the plain sequence differ below %d", n)
			}
			if first == nil {
				first = ref
			}
			k := fmt.Sprintf("%dk", n/1000)
			b.ReportMetric(pc.Seconds(), "plain-cpu-s-"+k)
			b.ReportMetric(fc.Seconds(), "rare-cpu-s-"+k)
			b.ReportMetric(float64(pc)/float64(fc), "x-cpu-"+k)
			b.ReportMetric(float64(pw)/float64(fw), "x-wall-"+k)
		}
		if os.Getenv("GRUNDY_BIG") == "1" {
			big, w, c := measure(solverNamed(b, g, KindValues, "rare values"), 1000000)
			if !slices.Equal(big.vals[:20001], first.vals) {
				b.Fatal("0.6: heaps 0..1,000,000 do not begin with the plain 20,000")
			}
			b.ReportMetric(w.Seconds(), "1M-wall-s")
			b.ReportMetric(c.Seconds(), "1M-cpu-s")
			b.ReportMetric(float64(big.MaxValue()), "1M-max-value")
		}
	}
}

// BenchmarkKaylesProvedPeriod: Kayles (0.77), heaps 0..100,000, with and
// without the proved period's shortcut (periodShortcut), three runs each
// (medians), after checking that the two agree on every value:
//
//	go test -run '^$' -bench KaylesProvedPeriod -benchtime 1x ./stdlib/solve
func BenchmarkKaylesProvedPeriod(b *testing.B) {
	g := games.Octal("0.77")
	const n = 100000
	median := func(from int) (*Table, time.Duration, time.Duration) {
		defer func(f int) { checkFrom = f }(checkFrom)
		checkFrom = from
		var t *Table
		var ws, cs []time.Duration
		for range 3 {
			c0, w0 := cpuTime(), time.Now()
			var err error
			if t, err = run(g, KindValues, []int{n}, choose(g, KindValues)); err != nil {
				b.Fatal(err)
			}
			ws, cs = append(ws, time.Since(w0)), append(cs, cpuTime()-c0)
		}
		slices.Sort(ws)
		slices.Sort(cs)
		return t, ws[1], cs[1]
	}
	for b.Loop() {
		full, fw, fc := median(math.MaxInt)
		short, sw, sc := median(checkFrom)
		if !slices.Equal(full.vals, short.vals) || !strings.Contains(short.Method(), "then its period") {
			b.Fatalf("Kayles to %d: the shortcut (%s) and the full sequence differ", n, short.Method())
		}
		b.ReportMetric(fc.Seconds(), "full-cpu-s")
		b.ReportMetric(sc.Seconds(), "shortcut-cpu-s")
		b.ReportMetric(float64(fc)/float64(sc), "x-cpu")
		b.ReportMetric(float64(fw)/float64(sw), "x-wall")
	}
}

// BenchmarkValueOfKayles: ValueOf and WinningMoves of one Kayles heap of
// 40 and of 50, by the search over rows (what they did before they read
// the heap sequence) once, and as they are now, solving the sequence
// afresh each time (five runs, medians), after checking that the answers
// agree:
//
//	go test -run '^$' -bench ValueOfKayles -benchtime 1x ./stdlib/solve
func BenchmarkValueOfKayles(b *testing.B) {
	g := games.Octal("0.77")
	type answer struct {
		v     int
		moves []games.Pos
	}
	search := func(p games.Pos) (a answer) {
		var err error
		if a.v, err = newMemo(g, KindValues).solve(p); err != nil {
			b.Fatal(err)
		}
		m := newMemo(g, KindOutcomes)
		for _, q := range g.Followers(p) {
			if v, err := m.solve(q); err != nil {
				b.Fatal(err)
			} else if v == 0 {
				a.moves = append(a.moves, q)
			}
		}
		return a
	}
	bySequence := func(p games.Pos) (a answer) {
		ClearCache()
		var err error
		if a.v, err = ValueOf(g, p); err != nil {
			b.Fatal(err)
		}
		if a.moves, err = WinningMoves(g, p); err != nil {
			b.Fatal(err)
		}
		return a
	}
	timed := func(f func(games.Pos) answer, p games.Pos) (answer, time.Duration) {
		c0 := cpuTime()
		a := f(p)
		return a, cpuTime() - c0
	}
	for b.Loop() {
		for _, n := range []int{40, 50} {
			p := games.Pos{n}
			want, sc := timed(search, p)
			var cs []time.Duration
			for range 5 {
				got, c := timed(bySequence, p)
				if got.v != want.v || !slices.EqualFunc(got.moves, want.moves, slices.Equal) {
					b.Fatalf("Kayles (%d): %v by the sequence, %v by the search", n, got, want)
				}
				cs = append(cs, c)
			}
			slices.Sort(cs)
			k := strconv.Itoa(n)
			b.ReportMetric(sc.Seconds(), "search-cpu-s-"+k)
			b.ReportMetric(cs[2].Seconds()*1e3, "sequence-cpu-ms-"+k)
			b.ReportMetric(float64(sc)/float64(cs[2]), "x-cpu-"+k)
		}
	}
}
