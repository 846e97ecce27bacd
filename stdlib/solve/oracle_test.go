package solve_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"grundy/stdlib/games"
	"grundy/stdlib/solve"
)

// An oracle for take-and-break games that shares nothing with the library:
// it reads the code string itself and takes the mex over every move the
// rules allow, with splits enumerated as ordered tuples (so each split is
// seen several times, which the mex does not mind).

// oracleDigits reads "d0.d1d2..." (hex digits allowed) by hand.
func oracleDigits(t testing.TB, code string) []int {
	before, after, ok := strings.Cut(code, ".")
	if !ok || len(before) > 1 {
		t.Fatalf("oracle: bad code %q", code)
	}
	var ds []int
	if before == "" {
		before = "0"
	}
	for _, c := range before + after {
		var d int
		if _, err := fmt.Sscanf(string(c), "%x", &d); err != nil {
			t.Fatalf("oracle: bad digit in %q", code)
		}
		ds = append(ds, d)
	}
	return ds
}

// oracleSequence is G(0..n) by the definition: taking k tokens from a heap
// of m may leave no heap (bit 1 of d_k, when k = m), one nonempty heap
// (bit 2), or two or three nonempty heaps (bits 4, 8), of different sizes
// when unequal (Grundy's game).
func oracleSequence(ds []int, n int, unequal bool) []int {
	G := make([]int, n+1)
	seenAt := make([]int, 1<<16) // seenAt[v] == m+1: v is an option's value at heap m
	for m := 0; m <= n; m++ {
		seen := func(v int) { seenAt[v] = m + 1 }
		for k, d := range ds {
			r := m - k
			if r < 0 {
				continue
			}
			if d&1 != 0 && k >= 1 && r == 0 {
				seen(0)
			}
			if d&2 != 0 && k >= 1 && r >= 1 {
				seen(G[r])
			}
			if d&4 != 0 {
				for a := 1; a < r; a++ {
					if !unequal || a != r-a {
						seen(G[a] ^ G[r-a])
					}
				}
			}
			if d&8 != 0 {
				for a := 1; a < r; a++ {
					for b := 1; a+b < r; b++ {
						seen(G[a] ^ G[b] ^ G[r-a-b])
					}
				}
			}
		}
		for seenAt[G[m]] == m+1 {
			G[m]++
		}
	}
	return G
}

// subtractionDigits is the code of S(set): digit 3 at each amount.
func subtractionDigits(set ...int) []int {
	top := 0
	for _, s := range set {
		top = max(top, s)
	}
	ds := make([]int, top+1)
	for _, s := range set {
		ds[s] = 3
	}
	return ds
}

func TestOracleAgreesWithThePublishedSequences(t *testing.T) {
	// The oracle itself against the first values of OEIS A002186 (Kayles),
	// A002187 (Dawson's chess, 0.137) and A002188 (Grundy's game), so that
	// the comparisons below rest on something outside this project.
	cases := []struct {
		code    string
		unequal bool
		want    string
	}{
		{"0.77", false, "0 1 2 3 1 4 3 2 1 4 2 6 4 1 2 7 1 4 3 2 1 4 6 7 4 1 2 8 5 4 7 2 1 8 6 7"},
		{"0.137", false, "0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 3 0 1 1 3 0 2 1 1 0 4 5 2 7 4"},
		{"4.0", true, "0 0 0 1 0 2 1 0 2 1 0 2 1 3 2 1 3 2 4 3 0 4 3 0 4 3 0 4 1 2 3 1 2 4"},
	}
	for _, c := range cases {
		want := strings.Fields(c.want)
		got := oracleSequence(oracleDigits(t, c.code), len(want)-1, c.unequal)
		if s := strings.Trim(fmt.Sprint(got), "[]"); s != strings.Join(want, " ") {
			t.Errorf("oracle %s: %s, published %s", c.code, s, c.want)
		}
	}
}

// oracleCodes: every code 0.d1d2 and 4.d1d2 with octal digits, the
// subtraction-like codes (digits 0..3) of length up to three, and random
// hexadecimal codes.
func oracleCodes() []string {
	var codes []string
	for _, d0 := range []string{"0", "4"} {
		for d1 := range 8 {
			for d2 := range 8 {
				codes = append(codes, fmt.Sprintf("%s.%d%d", d0, d1, d2))
			}
		}
	}
	for d1 := range 4 {
		for d2 := range 4 {
			for d3 := 1; d3 < 4; d3++ {
				codes = append(codes, fmt.Sprintf("0.%d%d%d", d1, d2, d3))
			}
		}
	}
	codes = append(codes, "0.8", "0.F", "4.8", "8.0", "C.0", "0.08", "0.0F", "4.F7")
	rng := rand.New(rand.NewPCG(5, 7))
	const hex = "0123456789ABCDEF"
	for range 24 {
		code := string(hex[rng.IntN(4)*4]) + "."
		for range 1 + rng.IntN(3) {
			code += string(hex[rng.IntN(16)])
		}
		codes = append(codes, code)
	}
	return codes
}

// Every code of oracleCodes, heaps 0..300 (0..120 with three-heap digits):
// the library's sequence equals the oracle's.
func TestTakeBreakValuesEqualTheOracleHeaps0to300(t *testing.T) {
	for _, code := range oracleCodes() {
		ds := oracleDigits(t, code)
		n := 300
		if strings.ContainsAny(code[2:], "89ABCDEF") {
			n = 120
		}
		want := oracleSequence(ds, n, false)
		tab, err := solve.Values(games.Octal(code), n)
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		for m := 0; m <= n; m++ {
			if tab.At(m) != want[m] {
				t.Fatalf("Octal(%s) heap %d: %d (%s), oracle %d", code, m, tab.At(m), tab.Method(), want[m])
			}
		}
	}
}

// checkPeriodClaim holds a Period answer on a short table to the oracle's
// long sequence: a proved period must hold over all of it, its preperiod
// must be the least (the entry before it breaks the period, unless the
// theorem's floor of 1 applies), and no smaller period may hold late in
// the long sequence.
func checkPeriodClaim(t *testing.T, what string, per *solve.Periodicity, long []int) {
	t.Helper()
	if !per.Proved {
		return
	}
	p, n0 := per.Period, per.Pre
	for n := n0; n+p < len(long); n++ {
		if long[n+p] != long[n] {
			t.Fatalf("%s: %v; but G(%d) = %d, G(%d) = %d", what, per, n, long[n], n+p, long[n+p])
		}
	}
	if n0 > 1 && long[n0-1+p] == long[n0-1] {
		t.Fatalf("%s: %v; but the period already holds from %d", what, per, n0-1)
	}
	for q := 1; q < p; q++ {
		holds := true
		for n := len(long) / 2; n+q < len(long); n++ {
			holds = holds && long[n+q] == long[n]
		}
		if holds {
			t.Fatalf("%s: %v; but period %d holds on %d..%d", what, per, q, len(long)/2, len(long)-1)
		}
	}
}

// A period reported as proved on a table of heaps 0..N, for every N up to
// 80, holds on the oracle's values to heap 1000 (to 400 for three-heap
// codes), with its least preperiod; and 1,000 values prove the periods of
// subtraction games and the published ones of Kayles and Dawson's games.
func TestProvedPeriodsHoldOnTheOracleToHeap1000(t *testing.T) {
	codes := append(oracleCodes(), "0.31", "0.32", "0.01", "0.21", "0.13", "0.0003")
	for _, code := range codes {
		ds := oracleDigits(t, code)
		L := 1000
		if strings.ContainsAny(code[2:], "89ABCDEF") {
			L = 400
		}
		long := oracleSequence(ds, L, false)
		for N := 0; N <= 80; N++ {
			tab, err := solve.Values(games.Octal(code), N)
			if err != nil {
				t.Fatal(err)
			}
			per, err := tab.Period("a")
			if err != nil {
				t.Fatal(err)
			}
			checkPeriodClaim(t, fmt.Sprintf("Octal(%s), heaps 0..%d", code, N), per, long)
		}
	}
	for _, set := range [][]int{{1, 3, 4}, {2, 5}, {1, 2, 4}, {3, 5, 9}, {2, 3, 7}, {1, 4, 5, 12}} {
		long := oracleSequence(subtractionDigits(set...), 1000, false)
		for N := 0; N <= 80; N++ {
			tab, _ := solve.Values(games.Subtraction(set...), N)
			per, _ := tab.Period("a")
			checkPeriodClaim(t, fmt.Sprintf("S%v, heaps 0..%d", set, N), per, long)
		}
		// A subtraction game is periodic, and 1,000 values prove these.
		tab, _ := solve.Values(games.Subtraction(set...), 999)
		if per, _ := tab.Period("a"); !per.Proved {
			t.Errorf("S%v to 999: %v", set, per)
		}
	}
	// And the published periods: Kayles 12 from 71, Dawson's Kayles and
	// chess 34 from 53 and 52 (OEIS A002186, A002187).
	for _, c := range []struct {
		code   string
		p, pre int
	}{{"0.77", 12, 71}, {"0.07", 34, 53}, {"0.137", 34, 52}} {
		tab, _ := solve.Values(games.Octal(c.code), 999)
		per, _ := tab.Period("a")
		checkPeriodClaim(t, "Octal("+c.code+") to 999", per, oracleSequence(oracleDigits(t, c.code), 1000, false))
		if !per.Proved || per.Period != c.p || per.Pre != c.pre {
			t.Errorf("Octal(%s) to 999: %v; published: period %d from %d", c.code, per, c.p, c.pre)
		}
	}
}

// The rare-value method starts after a warm-up of plain values: octal
// games that split, and Grundy's game, against the oracle to heap 20,000
// for 0.6 and Grundy's game, to 6,000 for the others.
func TestRareValuesEqualTheOracleHeaps0to20000(t *testing.T) {
	cases := []struct {
		code    string
		unequal bool
		n       int
	}{
		{"0.6", false, 20000}, {"4.0", true, 20000}, {"0.77", false, 6000}, {"0.07", false, 6000},
		{"0.137", false, 6000}, {"0.16", false, 6000}, {"0.56", false, 6000}, {"4.07", false, 6000},
		{"0.26", false, 6000}, {"0.36", false, 6000}, {"0.44", false, 6000}, {"0.64", false, 6000},
		{"0.164", false, 6000}, {"0.456", false, 6000}, {"4.7", false, 6000},
	}
	for _, c := range cases {
		g := games.Octal(c.code)
		if c.unequal {
			g = games.Grundy()
		}
		want := oracleSequence(oracleDigits(t, c.code), c.n, c.unequal)
		tab, err := solve.Values(g, c.n)
		if err != nil {
			t.Fatal(err)
		}
		for m, w := range want {
			if tab.At(m) != w {
				t.Fatalf("%s heap %d: %d (%s), oracle %d", g.Name(), m, tab.At(m), tab.Method(), w)
			}
		}
	}
}

// oracleRemoteness is Smith's remoteness of a row of heaps by its
// definition (0 with no move; else 1 + the least even follower remoteness
// if there is one, 1 + the largest otherwise), searched over sorted rows
// with every heap kept, dead or not.
type oracleRemoteness struct {
	ds   []int
	memo map[string]int
}

func (o *oracleRemoteness) of(row []int) int {
	row = slices.Clone(row)
	slices.Sort(row)
	k := fmt.Sprint(row)
	if r, ok := o.memo[k]; ok {
		return r
	}
	minEven, maxAll := -1, -1
	add := func(next []int) {
		r := o.of(next)
		if r%2 == 0 && (minEven < 0 || r < minEven) {
			minEven = r
		}
		maxAll = max(maxAll, r)
	}
	for i, m := range row {
		rest := slices.Concat(row[:i], row[i+1:])
		for k, d := range o.ds {
			r := m - k
			if r < 0 || m == 0 {
				continue
			}
			if d&1 != 0 && k >= 1 && r == 0 {
				add(rest)
			}
			if d&2 != 0 && k >= 1 && r >= 1 {
				add(append(slices.Clone(rest), r))
			}
			for a := 1; d&4 != 0 && a < r; a++ {
				add(append(slices.Clone(rest), a, r-a))
			}
		}
	}
	res := 0
	switch {
	case minEven >= 0:
		res = minEven + 1
	case maxAll >= 0:
		res = maxAll + 1
	}
	o.memo[k] = res
	return res
}

// Remoteness of take-and-break rows against the oracle's search: one heap
// to 22, two heaps to 9 each.
func TestTakeBreakRemotenessEqualsTheOracleHeaps0to22(t *testing.T) {
	for _, code := range []string{"0.77", "0.07", "0.137", "4.07", "0.6", "0.31", "0.3033", "0.16"} {
		o := &oracleRemoteness{ds: oracleDigits(t, code), memo: map[string]int{}}
		one, err := solve.Remoteness(games.Octal(code), 22)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n <= 22; n++ {
			if got, want := one.At(n), o.of([]int{n}); got != want {
				t.Fatalf("Octal(%s) remoteness of (%d): %d, oracle %d", code, n, got, want)
			}
		}
		two, err := solve.Remoteness(games.Octal(code), 9, 9)
		if err != nil {
			t.Fatal(err)
		}
		for a := 0; a <= 9; a++ {
			for b := 0; b <= 9; b++ {
				if got, want := two.At(a, b), o.of([]int{a, b}); got != want {
					t.Fatalf("Octal(%s) remoteness of (%d,%d): %d, oracle %d", code, a, b, got, want)
				}
			}
		}
	}
}

// Subtraction games inside compounds are one heap each: the sum, the
// selective and the conjunctive compound of S(1,3,4) and S(2,5) (and the
// sum with a Nim heap) against a search of their rules written here, heaps
// 0..12.
func TestSubtractionGamesInCompoundsHeaps0to12(t *testing.T) {
	s134, s25 := []int{1, 3, 4}, []int{2, 5}
	moves := func(set []int, n int) []int {
		var out []int
		for _, s := range set {
			if s <= n {
				out = append(out, n-s)
			}
		}
		return out
	}
	type pair struct{ a, b int }
	mex := func(vs []int) int {
		v := 0
		for slices.Contains(vs, v) {
			v++
		}
		return v
	}
	rules := map[string]func(p pair) []pair{
		"Sum(Subtraction(1,3,4), Subtraction(2,5))": func(p pair) []pair {
			var out []pair
			for _, a := range moves(s134, p.a) {
				out = append(out, pair{a, p.b})
			}
			for _, b := range moves(s25, p.b) {
				out = append(out, pair{p.a, b})
			}
			return out
		},
		"Selective(Subtraction(1,3,4), Subtraction(2,5))": func(p pair) []pair {
			as, bs := append(moves(s134, p.a), p.a), append(moves(s25, p.b), p.b)
			var out []pair
			for _, a := range as {
				for _, b := range bs {
					if a != p.a || b != p.b {
						out = append(out, pair{a, b})
					}
				}
			}
			return out
		},
		"Conjunctive(Subtraction(1,3,4), Subtraction(2,5))": func(p pair) []pair {
			var out []pair
			for _, a := range moves(s134, p.a) {
				for _, b := range moves(s25, p.b) {
					out = append(out, pair{a, b})
				}
			}
			return out
		},
		"Sum(Subtraction(1,3,4), Nim(1))": func(p pair) []pair {
			var out []pair
			for _, a := range moves(s134, p.a) {
				out = append(out, pair{a, p.b})
			}
			for b := range p.b {
				out = append(out, pair{p.a, b})
			}
			return out
		},
	}
	for spec, rule := range rules {
		g, err := games.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		tab, err := solve.Values(g, 12, 12)
		if err != nil {
			t.Fatal(err)
		}
		memo := map[pair]int{}
		var value func(p pair) int
		value = func(p pair) int {
			if v, ok := memo[p]; ok {
				return v
			}
			var vs []int
			for _, q := range rule(p) {
				vs = append(vs, value(q))
			}
			memo[p] = mex(vs)
			return memo[p]
		}
		for a := 0; a <= 12; a++ {
			for b := 0; b <= 12; b++ {
				if got, want := tab.At(a, b), value(pair{a, b}); got != want {
					t.Fatalf("%s at (%d,%d): %d (%s), rules %d", spec, a, b, got, tab.Method(), want)
				}
			}
		}
	}
}

// A take-and-break table answers for rows of any length with heaps up to
// its bound (a row's value is its heaps' xor; its remoteness is searched),
// lists each move once as a sorted row, and so certifies positions whose
// moves split heaps, on values and remoteness tables alike: Kayles, heaps
// 0..14, against the oracle.
func TestKaylesRowsAndCertificatesHeaps0to14(t *testing.T) {
	ds := oracleDigits(t, "0.77")
	G := oracleSequence(ds, 14, false)
	o := &oracleRemoteness{ds: ds, memo: map[string]int{}}
	k, err := solve.Values(games.Octal("0.77"), 14)
	if err != nil {
		t.Fatal(err)
	}
	r, err := solve.Remoteness(games.Octal("0.77"), 14)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range [][]int{{4, 4}, {1, 2, 3}, {14, 7, 7, 1}, {}, {5, 0, 9}} {
		want := 0
		for _, x := range row {
			want ^= G[x]
		}
		if got := k.At(row...); got != want {
			t.Errorf("Kayles values at %v: %d, oracle %d", row, got, want)
		}
		if len(row) <= 3 {
			if got, want := r.At(row...), o.of(row); got != want {
				t.Errorf("Kayles remoteness at %v: %d, oracle %d", row, got, want)
			}
		}
	}
	if _, err := k.Value(games.Pos{15, 1}); err == nil {
		t.Error("a heap beyond the bound was answered")
	}
	// From (4,4) Kayles has four distinct moves: take 1 or 2 from one heap,
	// leaving (3,4) (2,4) (1,2,4) (1,1,4).
	c, err := k.Certificate(games.Pos{4, 4})
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, row := range c.Rows {
		moves = append(moves, row.Move.String())
		if !slices.IsSorted(row.Reply) || o.of(row.Reply)%2 != 0 {
			t.Errorf("Kayles (4,4): reply %v", row.Reply)
		}
	}
	if got := strings.Join(moves, " "); got != "(1,1,4) (1,2,4) (2,4) (3,4)" {
		t.Errorf("Kayles (4,4): moves %s\n%v", got, c)
	}
	wins, _ := k.WinningMoves(games.Pos{4, 4, 1})
	if fmt.Sprint(wins) != "[(1,1,1,4) (4,4)]" {
		t.Errorf("Kayles (4,4,1) winning moves: %v", wins)
	}
	for n := 1; n <= 14; n++ {
		c, err := r.Certificate(games.Pos{n})
		if err != nil {
			t.Fatalf("Kayles remoteness certificate of (%d): %v", n, err)
		}
		if c.Win != nil && o.of(c.Win) != o.of([]int{n})-1 {
			t.Fatalf("(%d) -> %v: remoteness %d, oracle wants %d", n, c.Win, o.of(c.Win), o.of([]int{n})-1)
		}
		for _, row := range c.Rows {
			if rm, rr := o.of(row.Move), o.of(row.Reply); rr%2 != 0 || rr != rm-1 {
				t.Fatalf("(%d): reply %v (R=%d) to %v (R=%d) is not the fastest win", n, row.Reply, rr, row.Move, rm)
			}
		}
	}
}

// The modifiers against their rules written out here for circular windows:
// choose k consecutive heaps (cyclically), then lower a nonempty subset of
// them (every one of them, for Exact) by an allowed amount each (any
// positive amount; exactly one for Slow; one of S for Subtract(g, S...)),
// and the same on explicit move sets, some inside others.
func TestModifiersFollowTheirRulesHeaps0to4(t *testing.T) {
	type rule struct {
		spec    string
		n, k    int
		exact   bool
		amounts []int   // nil: any positive amount
		sets    [][]int // the move sets, heaps from 0, instead of windows
	}
	rules := []rule{
		{"Slow(CN(5,2))", 5, 2, false, []int{1}, nil},
		{"Exact(CN(6,3))", 6, 3, true, nil, nil},
		{"Subtract(CN(5,2), 1, 2)", 5, 2, false, []int{1, 2}, nil},
		{"Slow(Exact(CN(4,2)))", 4, 2, true, []int{1}, nil},
		{"Exact(Slow(CN(4,3)))", 4, 3, true, []int{1}, nil},
		{"Subtract(Exact(CN(5,3)), 2)", 5, 3, true, []int{2}, nil},
		{"Exact(Nim(3))", 3, 1, true, nil, nil},
		{"Subtract(Nim(2), 2, 3)", 2, 1, false, []int{2, 3}, nil},
		{"CN(5,2)", 5, 2, false, nil, nil},
		// A set inside another adds no move under the subset rule, but is a
		// move of its own when every heap of a set must drop.
		{"Exact(SetNim(3: 12 1 23))", 3, 0, true, nil, [][]int{{0, 1}, {0}, {1, 2}}},
		{"Slow(Exact(SetNim(3: 123 1)))", 3, 0, true, []int{1}, [][]int{{0, 1, 2}, {0}}},
		{"Exact(Slow(SetNim(3: 123 1)))", 3, 0, true, []int{1}, [][]int{{0, 1, 2}, {0}}},
		{"Subtract(Exact(SetNim(3: 12 2)), 1, 2)", 3, 0, true, []int{1, 2}, [][]int{{0, 1}, {1}}},
		{"Exact(Subtract(SetNim(3: 12 2 3), 2))", 3, 0, true, []int{2}, [][]int{{0, 1}, {1}, {2}}},
		{"Slow(SetNim(3: 12 1 23))", 3, 0, false, []int{1}, [][]int{{0, 1}, {1, 2}}},
	}
	const top = 4
	for _, r := range rules {
		g, err := games.Parse(r.spec)
		if err != nil {
			t.Fatal(err)
		}
		followers := func(p []int) [][]int {
			var out [][]int
			seen := map[string]bool{}
			sets := r.sets
			for start := range r.n {
				if r.sets != nil {
					break
				}
				win := make([]int, r.k)
				for j := range win {
					win[j] = (start + j) % r.n
				}
				sets = append(sets, win)
			}
			for _, win := range sets {
				// Each heap of the window: unchanged (not for exact) or
				// lowered by an allowed amount; at least one lowered.
				var rec func(j int, q []int, lowered bool)
				rec = func(j int, q []int, lowered bool) {
					if j == len(win) {
						if k := fmt.Sprint(q); lowered && !seen[k] {
							seen[k] = true
							out = append(out, slices.Clone(q))
						}
						return
					}
					i := win[j]
					if !r.exact {
						rec(j+1, q, lowered)
					}
					for s := 1; s <= p[i]; s++ {
						if r.amounts != nil && !slices.Contains(r.amounts, s) {
							continue
						}
						q[i] = p[i] - s
						rec(j+1, q, true)
						q[i] = p[i]
					}
				}
				rec(0, slices.Clone(p), false)
			}
			return out
		}
		memo := map[string]int{}
		var value func(p []int) int
		value = func(p []int) int {
			k := fmt.Sprint(p)
			if v, ok := memo[k]; ok {
				return v
			}
			seen := map[int]bool{}
			for _, q := range followers(p) {
				seen[value(q)] = true
			}
			v := 0
			for seen[v] {
				v++
			}
			memo[k] = v
			return v
		}
		tab, err := solve.Values(g, top)
		if err != nil {
			t.Fatal(err)
		}
		p := make([]int, r.n)
		for {
			if got, want := tab.At(p...), value(p); got != want {
				t.Fatalf("%s at %v: %d (%s), rules %d", r.spec, p, got, tab.Method(), want)
			}
			i := r.n - 1
			for i >= 0 && p[i] == top {
				p[i] = 0
				i--
			}
			if i < 0 {
				break
			}
			p[i]++
		}
	}
}
