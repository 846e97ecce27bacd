package slices_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	goslices "slices"
	"strings"
	"testing"

	"grundy/engine/prelude/std/slices"
)

// The engine's slices against Go's, compiled natively: same results, same
// effects on the slices passed in (what a Delete leaves behind, what an
// in-place Insert shifts), same capacities, and the comparison functions
// called on the same pairs in the same order.

type item struct{ key, id int }

func (it item) String() string { return fmt.Sprintf("%d.%d", it.key, it.id) }

// randomItems has many equal keys, so sorts have ties to order.
func randomItems(r *rand.Rand, n, keys int) []item {
	out := make([]item, n)
	for i := range out {
		out[i] = item{r.IntN(keys), i}
	}
	return out
}

// recorder is a comparison function that logs its calls.
type recorder struct{ calls strings.Builder }

func (rc *recorder) cmp(a, b item) int {
	fmt.Fprintf(&rc.calls, "%v:%v ", a, b)
	return a.key - b.key
}

func TestSortsAsGo(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 5, 12, 13, 40, 51, 200, 1000} {
		for _, keys := range []int{1, 3, 50, 1 << 20} {
			for _, pattern := range []string{"random", "sorted", "reversed", "sawtooth"} {
				in := randomItems(r, n, keys)
				switch pattern {
				case "sorted":
					goslices.SortStableFunc(in, func(a, b item) int { return a.key - b.key })
				case "reversed":
					goslices.SortStableFunc(in, func(a, b item) int { return b.key - a.key })
				case "sawtooth":
					for i := range in {
						in[i].key = i % 7
					}
				}
				name := fmt.Sprintf("n=%d keys=%d %s", n, keys, pattern)
				for _, sort := range []struct {
					name     string
					eng, std func([]item, func(a, b item) int)
				}{
					{"SortFunc", slices.SortFunc[[]item], goslices.SortFunc[[]item]},
					{"SortStableFunc", slices.SortStableFunc[[]item], goslices.SortStableFunc[[]item]},
				} {
					a, b := goslices.Clone(in), goslices.Clone(in)
					var ra, rb recorder
					sort.eng(a, ra.cmp)
					sort.std(b, rb.cmp)
					if !goslices.Equal(a, b) {
						t.Fatalf("%s %s: %v, Go %v", sort.name, name, a, b)
					}
					if ra.calls.String() != rb.calls.String() {
						t.Fatalf("%s %s: the comparisons differ from Go's", sort.name, name)
					}
				}
				keysOf := make([]float64, len(in))
				for i, it := range in {
					keysOf[i] = float64(it.key)
					if it.key%5 == 0 {
						keysOf[i] = math.Copysign(0, float64(it.id%2)-0.5) // -0 and +0
					}
					if it.key%11 == 0 && n > 20 {
						keysOf[i] = math.NaN()
					}
				}
				a, b := goslices.Clone(keysOf), goslices.Clone(keysOf)
				slices.Sort(a)
				goslices.Sort(b)
				if fmt.Sprint(a) != fmt.Sprint(b) || !signsEqual(a, b) {
					t.Fatalf("Sort %s: %v, Go %v", name, a, b)
				}
				// A named element type: not one of Sort's native cases.
				type level float64
				la, lb := make([]level, len(keysOf)), make([]level, len(keysOf))
				for i, k := range keysOf {
					la[i], lb[i] = level(k), level(k)
				}
				slices.Sort(la)
				goslices.Sort(lb)
				if fmt.Sprint(la) != fmt.Sprint(lb) {
					t.Fatalf("Sort of a named type %s: %v, Go %v", name, la, lb)
				}
				for i := range la {
					if math.Signbit(float64(la[i])) != math.Signbit(float64(lb[i])) {
						t.Fatalf("Sort of a named type %s: %v, Go %v (signs)", name, la, lb)
					}
				}
				if slices.IsSorted(keysOf) != goslices.IsSorted(keysOf) {
					t.Fatalf("IsSorted %s", name)
				}
			}
		}
	}
}

func signsEqual(a, b []float64) bool {
	for i := range a {
		if math.Signbit(a[i]) != math.Signbit(b[i]) {
			return false
		}
	}
	return true
}

func TestMinMaxSearchAsGo(t *testing.T) {
	nan := math.NaN()
	negZero := math.Copysign(0, -1)
	for _, xs := range [][]float64{{1, 2, 3}, {3, nan, 1}, {0, negZero}, {negZero, 0}, {2, 2, negZero, 0}, {nan}} {
		if got, want := slices.Min(xs), goslices.Min(xs); fmt.Sprint(got) != fmt.Sprint(want) || math.Signbit(got) != math.Signbit(want) {
			t.Errorf("Min(%v) = %v, Go %v", xs, got, want)
		}
		if got, want := slices.Max(xs), goslices.Max(xs); fmt.Sprint(got) != fmt.Sprint(want) || math.Signbit(got) != math.Signbit(want) {
			t.Errorf("Max(%v) = %v, Go %v", xs, got, want)
		}
	}
	sorted := []float64{nan, 1, 2, 2, 3}
	for _, target := range []float64{nan, 0, 2, 2.5, 4} {
		gi, gok := slices.BinarySearch(sorted, target)
		wi, wok := goslices.BinarySearch(sorted, target)
		if gi != wi || gok != wok {
			t.Errorf("BinarySearch(%v) = %d %v, Go %d %v", target, gi, gok, wi, wok)
		}
	}
	for _, ys := range [][]float64{{1, nan}, {nan, 1}, {1, 2}, {1}, {}} {
		if got, want := slices.Compare([]float64{1, nan}, ys), goslices.Compare([]float64{1, nan}, ys); got != want {
			t.Errorf("Compare(%v) = %d, Go %d", ys, got, want)
		}
	}
}

// state is what a call left: its result, the argument's backing array as
// it is now, and the result's capacity.
func state[E any](result, arg []E) string {
	return fmt.Sprintf("%v cap %d; arg now %v", result, cap(result), arg[:cap(arg)])
}

func TestEditsAsGo(t *testing.T) {
	base := func() []int {
		s := make([]int, 6, 10)
		for i := range s {
			s[i] = i + 1
		}
		return s
	}
	type edit struct {
		name     string
		eng, std func(s []int) []int
	}
	edits := []edit{
		{"Insert middle", func(s []int) []int { return slices.Insert(s, 2, 7, 8) }, func(s []int) []int { return goslices.Insert(s, 2, 7, 8) }},
		{"Insert grows", func(s []int) []int { return slices.Insert(s, 1, 1, 2, 3, 4, 5) }, func(s []int) []int { return goslices.Insert(s, 1, 1, 2, 3, 4, 5) }},
		{"Insert own tail", func(s []int) []int { return slices.Insert(s, 1, s[3:5]...) }, func(s []int) []int { return goslices.Insert(s, 1, s[3:5]...) }},
		{"Insert end", func(s []int) []int { return slices.Insert(s, 6, 9) }, func(s []int) []int { return goslices.Insert(s, 6, 9) }},
		{"Delete", func(s []int) []int { return slices.Delete(s, 1, 3) }, func(s []int) []int { return goslices.Delete(s, 1, 3) }},
		{"DeleteFunc", func(s []int) []int { return slices.DeleteFunc(s, func(x int) bool { return x%2 == 0 }) }, func(s []int) []int { return goslices.DeleteFunc(s, func(x int) bool { return x%2 == 0 }) }},
		{"Replace shrink", func(s []int) []int { return slices.Replace(s, 1, 4, 9) }, func(s []int) []int { return goslices.Replace(s, 1, 4, 9) }},
		{"Replace grow", func(s []int) []int { return slices.Replace(s, 1, 2, 7, 8, 9) }, func(s []int) []int { return goslices.Replace(s, 1, 2, 7, 8, 9) }},
		{"Replace grow past cap", func(s []int) []int { return slices.Replace(s, 1, 2, 1, 2, 3, 4, 5, 6) }, func(s []int) []int { return goslices.Replace(s, 1, 2, 1, 2, 3, 4, 5, 6) }},
		{"Replace with own tail", func(s []int) []int { return slices.Replace(s, 1, 2, s[3:6]...) }, func(s []int) []int { return goslices.Replace(s, 1, 2, s[3:6]...) }},
		{"Replace with own head", func(s []int) []int { return slices.Replace(s, 2, 3, s[0:3]...) }, func(s []int) []int { return goslices.Replace(s, 2, 3, s[0:3]...) }},
		{"Replace to end", func(s []int) []int { return slices.Replace(s, 4, 6, 9) }, func(s []int) []int { return goslices.Replace(s, 4, 6, 9) }},
		{"Compact", func(s []int) []int { s[2], s[3] = 2, 2; return slices.Compact(s) }, func(s []int) []int { s[2], s[3] = 2, 2; return goslices.Compact(s) }},
		{"CompactFunc not transitive", func(s []int) []int {
			return slices.CompactFunc(s, func(a, b int) bool { return a-b <= 1 && b-a <= 1 })
		}, func(s []int) []int {
			return goslices.CompactFunc(s, func(a, b int) bool { return a-b <= 1 && b-a <= 1 })
		}},
		{"Grow", func(s []int) []int { return slices.Grow(s, 9) }, func(s []int) []int { return goslices.Grow(s, 9) }},
		{"Clone", func(s []int) []int { return slices.Clone(s) }, func(s []int) []int { return goslices.Clone(s) }},
		{"Clip", func(s []int) []int { return slices.Clip(s) }, func(s []int) []int { return goslices.Clip(s) }},
		{"Concat", func(s []int) []int { return slices.Concat(s, s[:3], nil) }, func(s []int) []int { return goslices.Concat(s, s[:3], nil) }},
		{"Repeat", func(s []int) []int { return slices.Repeat(s[:2], 3) }, func(s []int) []int { return goslices.Repeat(s[:2], 3) }},
	}
	for _, e := range edits {
		a, b := base(), base()
		if got, want := state(e.eng(a), a), state(e.std(b), b); got != want {
			t.Errorf("%s: %s\nGo: %s", e.name, got, want)
		}
	}
}

func TestIteratorsAsGo(t *testing.T) {
	s := []int{3, 1, 2, 5, 4}
	var got, want []string
	slices.All(s)(func(i, v int) bool { got = append(got, fmt.Sprint(i, v)); return i < 3 })
	for i, v := range goslices.All(s) {
		want = append(want, fmt.Sprint(i, v))
		if i >= 3 {
			break
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("All: %v, Go %v", got, want)
	}
	chunks := func(seq func(func([]int) bool)) (out []string) {
		seq(func(c []int) bool { out = append(out, fmt.Sprint(c, cap(c))); return true })
		return out
	}
	if got, want := chunks(slices.Chunk(s, 2)), chunks(goslices.Chunk(s, 2)); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Chunk: %v, Go %v", got, want)
	}
	if got, want := slices.Sorted(slices.Values(s)), goslices.Sorted(goslices.Values(s)); !goslices.Equal(got, want) {
		t.Errorf("Sorted: %v, Go %v", got, want)
	}
	if got, want := slices.Collect(slices.Values(s[:0])), goslices.Collect(goslices.Values(s[:0])); (got == nil) != (want == nil) {
		t.Errorf("Collect of nothing: %#v, Go %#v", got, want)
	}
}
