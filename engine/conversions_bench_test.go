package engine

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// pointersSrc appends pointers to a []Game in a loop, the two ways
// Options methods do, and struct values from variables: the interpreter
// alone gets the first wrong (every element is the last pointer), and
// the engine copies where it must (compat's ifaceCopies). The structs'
// copies ([]Move{m}[0]) cost nothing measurable: engine/yaegi stays
// near 1, so a struct variable that keeps its value is copied all the
// same (leaving it alone was safe only into the cell's interfaces).
const pointersSrc = `type Game interface{ Options() []Game }

type Pos struct{ n int }

func (p *Pos) Options() []Game { return nil }

func literals(n int) int {
	var out []Game
	for i := 0; i < n; i++ {
		out = append(out, &Pos{i})
	}
	return out[n/2].(*Pos).n
}

func variables(n int) int {
	var out []Game
	for i := 0; i < n; i++ {
		p := &Pos{i}
		out = append(out, p)
	}
	return out[n/2].(*Pos).n
}

type Move struct{ n int }

func (m Move) Options() []Game { return nil }

func structs(n int) int {
	var out []Game
	for i := 0; i < n; i++ {
		m := Move{i}
		out = append(out, m)
	}
	return out[n/2].(Move).n
}`

// BenchmarkIfacePointers runs each loop of pointersSrc (200,000 appends)
// through a session and through a bare yaegi interpreter, alternately in
// one process (the machine is noisy), and reports the median ratio
// engine/yaegi of each: what the copies cost over the interpreter's own,
// wrong, conversion.
func BenchmarkIfacePointers(b *testing.B) {
	it := newTestInterp(b)
	if _, _, err := runCell(b, it, pointersSrc); err != nil {
		b.Fatal(err)
	}
	yi := interp.New(interp.Options{})
	if err := yi.Use(stdlib.Symbols); err != nil {
		b.Fatal(err)
	}
	if _, err := yi.Eval(pointersSrc); err != nil {
		b.Fatal(err)
	}
	const n = 200000
	ctx := context.Background()
	timed := func(f func() string, want string) time.Duration {
		start := time.Now()
		if got := f(); got != want {
			b.Fatalf("got %s, want %s", got, want)
		}
		return time.Since(start)
	}
	ratios := map[string][]float64{}
	for i := 0; b.Loop(); i++ {
		for _, fn := range []string{"literals", "variables", "structs"} {
			call := fmt.Sprintf("%s(%d)", fn, n)
			engine := func() string {
				res, err := it.Execute(ctx, call, discardOutput{})
				if err != nil {
					b.Fatal(err)
				}
				return fmt.Sprint(res.Value["text/plain"])
			}
			bare := func() string {
				v, err := yi.Eval(call)
				if err != nil {
					b.Fatal(err)
				}
				return fmt.Sprint(v.Int())
			}
			right := fmt.Sprint(n / 2)
			wrong := right // the interpreter's own answer
			if fn == "literals" {
				wrong = fmt.Sprint(n - 1)
			}
			var e, y time.Duration
			if i%2 == 0 { // each first in turn
				e, y = timed(engine, right), timed(bare, wrong)
			} else {
				y, e = timed(bare, wrong), timed(engine, right)
			}
			ratios[fn] = append(ratios[fn], float64(e)/float64(y))
		}
	}
	for fn, rs := range ratios {
		b.ReportMetric(median(rs), fn+"-engine/yaegi")
	}
}

// genericCallsSrc calls a generic function doing T(i) from a plain
// function and from a method of a generic type: compat's paramConv
// converts through reflect in the method's instance only.
const genericCallsSrc = `type Nimber int

func Scale[T ~int](xs []T, k int) T {
	var s T
	for _, x := range xs {
		s += x * T(k)
	}
	return s
}

type Table[T ~int] struct{ vals []T }

func (t *Table[T]) Scaled(k int) T { return Scale(t.vals, k) }

func plain(n int) (s Nimber) {
	xs := []Nimber{1, 2, 3}
	for i := 0; i < n; i++ {
		s += Scale(xs, 2)
	}
	return s
}

func method(n int) (s Nimber) {
	t := &Table[Nimber]{vals: []Nimber{1, 2, 3}}
	for i := 0; i < n; i++ {
		s += t.Scaled(2)
	}
	return s
}`

// BenchmarkGenericConversions reports the median times of 20,000 calls
// from each, made alternately, and the median ratio method/plain.
func BenchmarkGenericConversions(b *testing.B) {
	it := newTestInterp(b)
	if _, _, err := runCell(b, it, genericCallsSrc); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	run := func(fn string) time.Duration {
		start := time.Now()
		res, err := it.Execute(ctx, fn+"(20000)", discardOutput{})
		if err != nil || res.Value["text/plain"] != "240000" {
			b.Fatalf("%s(20000) = %v, %v", fn, res.Value, err)
		}
		return time.Since(start)
	}
	var plains, methods, ratios []float64
	for i := 0; b.Loop(); i++ {
		var p, m time.Duration
		if i%2 == 0 {
			p, m = run("plain"), run("method")
		} else {
			m, p = run("method"), run("plain")
		}
		plains, methods = append(plains, float64(p.Milliseconds())), append(methods, float64(m.Milliseconds()))
		ratios = append(ratios, float64(m)/float64(p))
	}
	b.ReportMetric(median(plains), "plain-ms")
	b.ReportMetric(median(methods), "method-ms")
	b.ReportMetric(median(ratios), "method/plain")
}
