package solve

import (
	"encoding/binary"
	"fmt"
	"slices"

	"grundy/stdlib/games"
	"grundy/stdlib/human"
	"grundy/stdlib/progress"
)

// chunk is how many positions a solver does between progress reports and
// cancellation checks: small enough to stop within milliseconds.
const chunk = 1 << 14

// maxEntry is the largest value a table stores (entries are uint16).
const maxEntry = 1<<16 - 2

// folder accumulates follower entries into a position's entry by the rule
// of the table's kind: mex for values, "no P follower" for outcomes,
// Smith's min-even / max rule for remoteness.
type folder struct {
	kind    Kind
	stamp   int32
	seen    []int32 // seen[v] == stamp: some follower has value v
	anyP    bool
	minEven int
	maxAll  int
}

func (f *folder) reset() {
	f.stamp++
	if f.stamp == 0 {
		clear(f.seen)
		f.stamp = 1
	}
	f.anyP = false
	f.minEven = -1
	f.maxAll = -1
}

func (f *folder) add(v int) {
	switch f.kind {
	case KindValues:
		for v >= len(f.seen) {
			f.seen = append(f.seen, make([]int32, len(f.seen)+64)...)
		}
		f.seen[v] = f.stamp
	case KindOutcomes:
		if v == 0 {
			f.anyP = true
		}
	case KindRemoteness:
		if v%2 == 0 && (f.minEven < 0 || v < f.minEven) {
			f.minEven = v
		}
		f.maxAll = max(f.maxAll, v)
	}
}

// done reports whether more followers cannot change the entry.
func (f *folder) done() bool { return f.kind == KindOutcomes && f.anyP }

func (f *folder) result() int {
	switch f.kind {
	case KindValues:
		v := 0
		for v < len(f.seen) && f.seen[v] == f.stamp {
			v++
		}
		return v
	case KindOutcomes:
		if f.anyP {
			return 1
		}
		return 0
	default:
		switch {
		case f.minEven >= 0:
			return f.minEven + 1
		case f.maxAll >= 0:
			return f.maxAll + 1
		}
		return 0
	}
}

// solvePlain is the reference solver for games whose followers stay in the
// box at smaller indices: positions in index order, every follower looked up.
func solvePlain(t *Table, task *progress.Task) error {
	f := &folder{kind: t.kind}
	p := make(games.Pos, len(t.max))
	var bad error
	for idx := 0; idx < t.size; idx++ {
		if idx%chunk == 0 && idx > 0 {
			if err := task.Add(chunk); err != nil {
				return err
			}
		}
		f.reset()
		games.Visit(t.game, p, func(q games.Pos) bool {
			j := 0
			for i, x := range q {
				j += x * t.strides[i]
			}
			if j >= idx {
				bad = fmt.Errorf("%s: follower %v of %v does not come before it; the plain solver needs heaps that only shrink", t.name, q, p)
				return false
			}
			f.add(t.get(j))
			return !f.done()
		})
		if bad != nil {
			return bad
		}
		v := f.result()
		if v > maxEntry {
			return fmt.Errorf("%s: entry %d at %v exceeds the table's limit %d", t.name, v, p, maxEntry)
		}
		t.set(idx, v)
		t.advance(p)
	}
	return task.Add(int64(t.size % chunk))
}

// memo solves any acyclic game by depth-first search over the positions
// reachable from the ones asked about, remembering each entry.
type memo struct {
	g     games.Game
	kind  Kind
	entry map[string]int32 // -1 while a position is being solved
	n     int64
	// canon, when set, is the form positions are searched and remembered
	// in (see rowCanon).
	canon func(games.Pos) games.Pos
}

// maxDepth bounds the search's stack: a rule that makes some heap grow
// forever never reaches a cycle, and without a bound the search overflowed
// the stack and took the process (the kernel) down with it.
var maxDepth = 1 << 20 // a variable so that tests can reach it quickly

func newMemo(g games.Game, kind Kind) *memo {
	m := &memo{g: g, kind: kind, entry: map[string]int32{}}
	if tb, ok := g.(*games.TakeBreak); ok {
		m.canon = rowCanon(tb)
	}
	return m
}

// rowCanon is the form a take-and-break position is searched in: its live
// heaps, sorted. A row is a multiset of heaps, and a heap with no move
// (heap 1 of Dawson's Kayles) never takes part in play, so dropping it
// changes no entry of any kind, remoteness included (no move is ever made
// there). Without this the search met every ordering of every row: Kayles'
// remoteness to heap 30 took 38 s and 220 MB.
func rowCanon(g *games.TakeBreak) func(games.Pos) games.Pos {
	var dead []int8 // dead[n]: 0 unknown, 1 heap n has no move, 2 it has one
	isDead := func(n int) bool {
		for n >= len(dead) {
			dead = append(dead, make([]int8, len(dead)+16)...)
		}
		if dead[n] == 0 {
			dead[n] = 1
			g.HeapMoves(n, func([]int) bool { dead[n] = 2; return false })
		}
		return dead[n] == 1
	}
	return func(p games.Pos) games.Pos {
		q := make(games.Pos, 0, len(p))
		for _, x := range p {
			if x > 0 && !isDead(x) {
				q = append(q, x)
			}
		}
		slices.Sort(q)
		return q
	}
}

func (m *memo) canonical(p games.Pos) games.Pos {
	if m.canon == nil {
		return p
	}
	return m.canon(p)
}

func key(p games.Pos) string {
	b := make([]byte, 0, len(p)*2)
	for _, x := range p {
		b = binary.AppendVarint(b, int64(x))
	}
	return string(b)
}

// frame is one position on the search's explicit stack: its followers and
// the entries of those solved so far.
type frame struct {
	key  string
	pos  games.Pos
	fs   []games.Pos
	next int
	vals []int
}

// solve searches depth-first with an explicit stack, not recursion: a
// finite game can be a million moves deep (take-one from a heap of 10^6),
// which overflowed the goroutine stack and killed the process.
//
// It polls for an interrupt as it goes: ValueOf of a function game can
// search for minutes. A search that stops leaves no position marked as
// being solved, so that the memo (a table keeps one) still answers.
func (m *memo) solve(p games.Pos) (_ int, err error) {
	p = m.canonical(p)
	k := key(p)
	if v, ok := m.entry[k]; ok {
		if v < 0 {
			return 0, m.cycle(p)
		}
		return int(v), nil
	}
	stack := []*frame{m.enter(k, p)}
	defer func() {
		if err != nil {
			for _, fr := range stack {
				delete(m.entry, fr.key)
			}
		}
	}()
	for len(stack) > 0 {
		fr := stack[len(stack)-1]
		if fr.next < len(fr.fs) {
			q := fr.fs[fr.next]
			if err := m.checkFollower(q, fr.pos); err != nil {
				return 0, err
			}
			q = m.canonical(q)
			kq := key(q)
			if v, ok := m.entry[kq]; ok {
				if v < 0 {
					return 0, m.cycle(q)
				}
				fr.vals = append(fr.vals, int(v))
				fr.next++
				continue
			}
			if len(stack) >= maxDepth {
				return 0, fmt.Errorf("%s: play from %v goes on for more than %d moves without ending (reached %v); only finite games can be solved: does a move make a heap larger?", m.g.Name(), p, maxDepth, q)
			}
			if len(stack)%1024 == 0 {
				// A long descent solves nothing, so the check below would
				// never run; Ctrl-C must still stop it.
				if err := progress.Err(); err != nil {
					return 0, err
				}
			}
			stack = append(stack, m.enter(kq, q))
			continue
		}
		f := &folder{kind: m.kind}
		f.reset()
		for _, v := range fr.vals {
			f.add(v)
		}
		v := f.result()
		m.entry[fr.key] = int32(v)
		m.n++
		if m.n%1024 == 0 {
			if err := progress.Err(); err != nil {
				return 0, err
			}
		}
		stack = stack[:len(stack)-1]
		if len(stack) > 0 {
			top := stack[len(stack)-1]
			top.vals = append(top.vals, v)
			top.next++
		}
	}
	return int(m.entry[k]), nil
}

// enter marks p as being solved and asks the game for its followers.
func (m *memo) enter(k string, p games.Pos) *frame {
	m.entry[k] = -1
	fs := m.g.Followers(p)
	return &frame{key: k, pos: p, fs: fs, vals: make([]int, 0, len(fs))}
}

func (m *memo) cycle(p games.Pos) error {
	return fmt.Errorf("%s: position %v can be reached from itself; only games without cycles can be solved", m.g.Name(), p)
}

func (m *memo) checkFollower(q, p games.Pos) error {
	for i, x := range q {
		if x < 0 {
			return fmt.Errorf("%s: the rule's follower %v of %v has heap %d = %d: a heap cannot go below 0", m.g.Name(), q, p, i+1, x)
		}
	}
	if n := m.g.Heaps(); n > 0 && len(q) != n {
		return fmt.Errorf("%s: the rule's follower %v of %v has %s, not %d: a move keeps the number of heaps (games.Func(name, 0, f) allows any)",
			m.g.Name(), q, p, human.Quantity(len(q), "heap"), n)
	}
	return nil
}

// solveMemo fills a table of a game whose followers may leave the box (a
// function game) by searching from each position of the box.
func solveMemo(t *Table, task *progress.Task) error {
	m := newMemo(t.game, t.kind)
	for idx := 0; idx < t.size; idx++ {
		p := t.pos(idx)
		if err := games.CheckPos(t.game, p); err != nil {
			return err
		}
		v, err := m.solve(p)
		if err != nil {
			return err
		}
		if v > maxEntry {
			return fmt.Errorf("%s: entry %d at %v exceeds the table's limit %d", t.name, v, p, maxEntry)
		}
		t.set(idx, v)
		if err := task.Add(1); err != nil {
			return err
		}
	}
	return nil
}

func errTooRemote(t *Table, idx int) error {
	return fmt.Errorf("%s: remoteness at %v exceeds the table's limit %d", t.name, t.pos(idx), maxEntry)
}
