package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"grundy/stdlib/games"
	"grundy/stdlib/solve"
)

// funcGameCell is a 3-heap game written as a cell would: a games.Func whose
// rule (lower one or both heaps of a circular pair, each by 1 or 2) runs in
// the interpreter. The library declares the same game as
// Subtract(CN(3,2), 1, 2).
const funcGameCell = `
g := games.Func("pairs by 1 or 2", 3, func(p games.Pos) []games.Pos {
	var out []games.Pos
	for i := 0; i < 3; i++ {
		j := (i + 1) % 3
		for a := 0; a <= 2; a++ {
			for b := 0; b <= 2; b++ {
				if a+b == 0 || a > p[i] || b > p[j] {
					continue
				}
				q := p.Clone()
				q[i] -= a
				q[j] -= b
				out = append(out, q)
			}
		}
	}
	return out
})
t, err := solve.Values(g, MAX)
if err != nil {
	panic(err)
}
fmt.Println(t.Count(0), t.Count(1), t.MaxValue())
`

// BenchmarkFuncVsDeclared solves the same 3-heap game, heaps 0..30
// (29,791 positions), as a cell-defined games.Func in the interpreter and
// as the declared Subtract(CN(3,2), 1, 2), three times each (medians), and
// reports positions per second and the ratio:
//
//	go test -run '^$' -bench FuncVsDeclared -benchtime 1x ./engine
func BenchmarkFuncVsDeclared(b *testing.B) {
	const max = 30
	s, err := New()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	declared := games.Subtract(games.CN(3, 2), 1, 2)
	median := func(f func() string) (time.Duration, string) {
		var ds []time.Duration
		var out string
		for range 3 {
			solve.ClearCache()
			start := time.Now()
			out = f()
			ds = append(ds, time.Since(start))
		}
		slices.Sort(ds)
		return ds[1], out
	}
	for b.Loop() {
		fd, fout := median(func() string {
			// A frontend: the progress bars go when the cell ends, and the
			// cell's output is sent again.
			d := recorder{frontend: true}
			if _, err := s.Execute(context.Background(), strings.Replace(funcGameCell, "MAX", fmt.Sprint(max), 1), &d); err != nil {
				b.Fatal(err)
			}
			return strings.TrimSpace(d.out())
		})
		dd, dout := median(func() string {
			t, err := solve.Values(declared, max)
			if err != nil {
				b.Fatal(err)
			}
			return fmt.Sprint(t.Count(0), t.Count(1), t.MaxValue())
		})
		if fout != dout {
			b.Fatalf("the Func game and %s differ: %q vs %q", declared.Name(), fout, dout)
		}
		n := float64((max + 1) * (max + 1) * (max + 1))
		b.ReportMetric(n/fd.Seconds(), "func-pos/s")
		b.ReportMetric(n/dd.Seconds(), "declared-pos/s")
		b.ReportMetric(float64(fd)/float64(dd), "x")
	}
}
