package solve

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"grundy/stdlib/games"
	"grundy/stdlib/human"
	"grundy/stdlib/progress"
)

// MemoryLimit is the most memory, in bytes, the session's tables and a
// solver at work may use together: a table is refused when it would not
// fit beside what the session already holds. It defaults to half the
// machine's memory (or of a container's cgroup limit, when less), not to
// what happens to be free; in the kernel and under grundy run it is the
// session's memory limit (GRUNDY_MEMORY_LIMIT).
var MemoryLimit int64 = defaultLimit()

// Workers is how many goroutines the fast solvers use (default: all cores).
var Workers = 0

// Values computes the Sprague-Grundy value of every position with heaps
// 0..max (one bound for all heaps, or one per heap).
func Values(g games.Game, max ...int) (*Table, error) { return solveCached(g, KindValues, max) }

// Outcomes computes only P (0) or N (1) for every position; much faster
// and smaller than Values.
func Outcomes(g games.Game, max ...int) (*Table, error) { return solveCached(g, KindOutcomes, max) }

// Remoteness computes Smith's remoteness of every position: 0 at the end,
// even exactly at P-positions, the number of moves the winner needs when
// both play optimally.
func Remoteness(g games.Game, max ...int) (*Table, error) {
	return solveCached(g, KindRemoteness, max)
}

// Solve computes a table of the given kind; Values, Outcomes and
// Remoteness are shorthands.
func Solve(g games.Game, kind Kind, max ...int) (*Table, error) { return solveCached(g, kind, max) }

// Plain computes the table with the reference solver: enumerate every
// follower of every position. It is slow; it exists to check the fast
// solvers and to measure them. It is never cached.
func Plain(g games.Game, kind Kind, max ...int) (*Table, error) {
	b, err := bounds(g, kind, max)
	if err != nil {
		return nil, err
	}
	return run(g, kind, b, plainFor(g, kind))
}

type cacheKey struct {
	name, kind, bounds string
}

// coveringTable finds a cached table of the same game and kind whose box
// contains the bounds b (the caller holds cacheMu). For a game whose moves
// only lower heaps, the smaller table is a corner of it.
func coveringTable(key cacheKey, b []int) *Table {
	for k, t := range cache {
		if k.name != key.name || k.kind != key.kind || len(t.max) != len(b) {
			continue
		}
		covers := true
		for i, m := range b {
			if m > t.max[i] {
				covers = false
			}
		}
		if covers {
			return t
		}
	}
	return nil
}

// cornerNote ends the Method of a table cut from a larger cached one.
const cornerNote = " (corner of a cached table)"

// sub copies the corner of t with bounds b into a new table.
func (t *Table) sub(g games.Game, b []int) *Table {
	s := newTable(g, t.kind, b)
	s.alloc()
	// t may itself be a corner of a larger table: say so once.
	s.method, s.seconds = strings.TrimSuffix(t.method, cornerNote)+cornerNote, 0
	p := make([]int, len(b))
	for idx := 0; idx < s.size; idx++ {
		j, _ := t.index(p)
		s.set(idx, t.get(j))
		for i := len(p) - 1; i >= 0; i-- {
			if p[i] < b[i] {
				p[i]++
				break
			}
			p[i] = 0
		}
	}
	return s
}

var (
	cacheMu sync.Mutex
	cache   = map[cacheKey]*Table{}
)

// ClearCache forgets every cached table (to free memory).
func ClearCache() {
	cacheMu.Lock()
	cache = map[cacheKey]*Table{}
	cacheMu.Unlock()
}

func solveCached(g games.Game, kind Kind, max []int) (*Table, error) {
	b, err := bounds(g, kind, max)
	if err != nil {
		return nil, err
	}
	cached := ruledByName(g)
	key := cacheKey{fingerprint(g), kind.String(), fmt.Sprint(b)}
	if cached {
		cacheMu.Lock()
		t := cache[key]
		var big *Table
		if t == nil && monotone(g) {
			big = coveringTable(key, b)
		}
		cacheMu.Unlock()
		if t != nil {
			return t, nil
		}
		if big != nil {
			t = big.sub(g, b)
			cacheMu.Lock()
			cache[key] = t
			cacheMu.Unlock()
			return t, nil
		}
	}
	if cached {
		if t := fromDiskCache(key, g); t != nil {
			cacheMu.Lock()
			cache[key] = t
			cacheMu.Unlock()
			return t, nil
		}
	}
	t, err := run(g, kind, b, choose(g, kind))
	if err != nil {
		return nil, err
	}
	if cached {
		cacheMu.Lock()
		cache[key] = t
		cacheMu.Unlock()
		toDiskCache(key, t)
	}
	return t, nil
}

// run solves the table with the solver s, within MemoryLimit.
func run(g games.Game, kind Kind, b []int, s solver) (*Table, error) {
	if n := positions(b); n > 1<<48 {
		return nil, fmt.Errorf("%s %s: %.3g positions is far beyond any memory; the largest bound that fits is heaps 0..%d",
			g.Name(), kind, n, largestFit(g, kind, len(b), s))
	}
	t := newTable(g, kind, b)
	need := t.bytes() + s.workBytes(t)
	if need > MemoryLimit {
		return nil, tooLarge(g, kind, b, s, need)
	}
	if err := roomFor(need, fmt.Sprintf("%s %s with %s", g.Name(), kind, t.boundText())); err != nil {
		return nil, err
	}
	t.alloc()
	task := progress.Start(fmt.Sprintf("%s %s, %s", g.Name(), kind, t.boundText()), int64(t.size))
	start := time.Now()
	err := s.solve(t, task)
	task.Done(err)
	if err != nil {
		return nil, err
	}
	t.method = s.name()
	t.seconds = time.Since(start).Seconds()
	return t, nil
}

func (t *Table) bytes() int64 {
	if t.kind == KindOutcomes {
		return int64(t.size+63) / 64 * 8
	}
	return int64(t.size) * 2
}

// positions is the number of positions within the bounds, as a float so
// that absurd bounds cannot overflow.
func positions(b []int) float64 {
	n := 1.0
	for _, m := range b {
		n *= float64(m + 1)
	}
	return n
}

// largestFit is the largest m such that heaps 0..m fit in MemoryLimit, or -1.
func largestFit(g games.Game, kind Kind, heaps int, s solver) int {
	fits := func(m int) bool {
		bb := make([]int, heaps)
		for i := range bb {
			bb[i] = m
		}
		if positions(bb) > 1<<48 {
			return false
		}
		t := newTable(g, kind, bb)
		return t.bytes()+s.workBytes(t) <= MemoryLimit
	}
	if !fits(0) {
		return -1
	}
	lo, hi := 0, 1
	for fits(hi) {
		lo, hi = hi, hi*2
	}
	for hi-lo > 1 { // fits(lo), !fits(hi)
		mid := (lo + hi) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

func tooLarge(g games.Game, kind Kind, b []int, s solver, need int64) error {
	fit := largestFit(g, kind, len(b), s)
	t := newTable(g, kind, b)
	msg := fmt.Sprintf("%s %s with %s: %s need %s of memory, more than the limit %s (solve.MemoryLimit)",
		g.Name(), kind, t.boundText(), human.Quantity(t.size, "position"), human.Bytes(need), human.Bytes(MemoryLimit))
	if fit >= 0 {
		msg += fmt.Sprintf("; the largest bound that fits is heaps 0..%d", fit)
	}
	if kind != KindOutcomes {
		msg += "; solve.Outcomes needs far less (one bit per position)"
	}
	return fmt.Errorf("%s", msg)
}

// defaultLimit is half the machine's memory, or of the cgroup's limit
// when that is less (see totalMemory): the same on every run on a
// machine, whatever else it is doing, and room left for the system, the
// browser and a second session.
func defaultLimit() int64 { return totalMemory() / 2 }

// bounds turns the user's max argument into one bound per heap.
func bounds(g games.Game, kind Kind, max []int) ([]int, error) {
	if g == nil {
		return nil, fmt.Errorf("no game given; pass one such as games.CN(6, 2)")
	}
	if err := g.Err(); err != nil {
		return nil, err
	}
	if kind < KindValues || kind > KindRemoteness {
		return nil, fmt.Errorf("unknown table kind %v; use solve.Values, solve.Outcomes or solve.Remoteness", kind)
	}
	n := g.Heaps()
	switch {
	case len(max) == 0:
		return nil, fmt.Errorf("%s: give the largest heap size, e.g. solve.%s(g, 11) for heaps 0..11", g.Name(), title(kind.String()))
	case len(max) == 1 && n > 0:
		b := make([]int, n)
		for i := range b {
			b[i] = max[0]
		}
		max = b
	case n == 0 && len(max) == 1:
		// A function game of any length with one bound: one heap.
	case n > 0 && len(max) != n:
		return nil, fmt.Errorf("%s: %s given for positions of %s; give one bound for all heaps or one per heap", g.Name(), human.Quantity(len(max), "bound"), human.Quantity(n, "heap"))
	}
	for i, m := range max {
		if m < 0 {
			return nil, fmt.Errorf("%s: bound %d for heap %d is negative; heaps run 0..bound", g.Name(), m, i+1)
		}
	}
	return append([]int(nil), max...), nil
}

// monotone games never raise a heap, so every follower of a position in the
// box lies in the box at a smaller index.
func monotone(g games.Game) bool {
	switch g := g.(type) {
	case *games.SetGame:
		return true
	case *games.Compound:
		for _, p := range g.Parts {
			if !monotone(p) {
				return false
			}
		}
		return true
	case games.WythoffGame:
		return true
	}
	return false
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// ruledByName reports whether g's fingerprint says all of its rules, so
// that its tables may be cached: true of the library's own games, whose
// names (or descriptions) carry their parameters, and of compounds of
// them. A game given by a function, or a type of the caller's own
// (`type Take struct{ S []int }` whose Name is "Take"), may share its
// name with other rules: with another value of the same type, or with
// the same type after a notebook redefines its Followers. Caching those
// gave the first table's values for every later game of the name.
func ruledByName(g games.Game) bool {
	switch g := g.(type) {
	case *games.SetGame, *games.TakeBreak, games.WythoffGame, *games.WythoffGame:
		return true
	case *games.Compound:
		for _, p := range g.Parts {
			if !ruledByName(p) {
				return false
			}
		}
		return true
	}
	return false
}

// fingerprint identifies a game's rules for the cache: two games that
// share a name but not their move sets must not share tables.
func fingerprint(g games.Game) string {
	switch g := g.(type) {
	case *games.SetGame:
		return g.Describe()
	case *games.Compound:
		s := g.Kind.String() + "("
		for i, p := range g.Parts {
			if i > 0 {
				s += "; "
			}
			s += fingerprint(p)
		}
		return s + ")"
	}
	return fmt.Sprintf("%T %s", g, g.Name())
}
