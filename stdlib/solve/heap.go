package solve

import (
	"errors"
	"fmt"
	"math/bits"

	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// A take-and-break game (octal, hexadecimal, subtraction, Grundy's) is
// played on a row of heaps and a move changes one heap, so a row's value is
// the xor of its heaps' values (Sprague-Grundy). heapSolver computes the
// sequence G(0..M) of one heap and fills the table of rows from it.
//
// The plain sequence takes the mex over every way to play in a heap of n,
// O(n) per heap for octal games. The fast one is the rare-value method of
// the octal-game literature (Winning Ways, "sparse space spells speed"):
// for a mask m, call a heap rare or common by the parity of the masked
// bits of its value (optionally xored with the heap's parity). A split's
// value xors its parts' values, so the parity of its masked bits is fixed
// by the parts' classes: a split into two common heaps can only give values
// of one parity class. Splits involving a rare heap are few and enumerated
// in full; a candidate value of the other class is then settled without
// looking at common pairs, and one of the class common pairs can reach is
// found (or ruled out) by scanning pairs until it turns up. The answer is
// exact for any mask; a good mask (few rare heaps) makes it fast.
type heapSolver struct {
	g    *games.TakeBreak
	fast bool
	// used is how the fast path computed, once it has: the plain way for
	// a short sequence or when it finds no sparse space (Dawson's Kayles),
	// which Table.Method must not hide.
	used string
}

func (s *heapSolver) name() string {
	switch {
	case s.used != "":
		return s.used
	case s.fast && s.g.MaxParts() == 2:
		return "rare values"
	}
	return "heap"
}

// workBytes: the sequence, and for the fast path its rare list and marks.
func (s *heapSolver) workBytes(t *Table) int64 {
	m := int64(maxBound(t)) + 1
	if s.fast {
		return m * 8
	}
	return m * 4
}

func maxBound(t *Table) int {
	m := 0
	for _, x := range t.max {
		m = max(m, x)
	}
	return m
}

func (s *heapSolver) solve(t *Table, task *progress.Task) error {
	M := maxBound(t)
	one := len(t.max) == 1 && t.kind == KindValues
	seq := make([]uint16, M+1)
	if one {
		seq = t.vals
	}
	// A one-heap table is the sequence: report progress heap by heap.
	// Otherwise the sequence is small beside the table; just poll.
	short := periodShortcut{seq: seq}
	short.rule, short.proves = periodTheorem(s.g)
	done := 0
	tk := &ticker{report: func(n int) error {
		if done += n; short.check(done) {
			return errPeriodic
		}
		if one {
			return task.Add(int64(n))
		}
		return progress.Err()
	}}
	var err error
	s.used = "heap"
	if s.fast && s.g.MaxParts() == 2 {
		s.used, err = rareValueSequence(s.g, seq, tk)
	} else {
		err = plainSequence(s.g, seq, 0, tk)
	}
	if err == errPeriodic {
		s.used += short.fill()
		err = nil
		if one {
			err = task.Add(int64(len(seq) - short.from))
		}
	}
	if err != nil {
		return err
	}
	t.seq = seq
	if one {
		return nil
	}
	return fillXor(t, seq, task)
}

// errPeriodic stops a sequence's computation once its period is proved.
var errPeriodic = errors.New("the sequence's period is proved")

// periodShortcut ends a sequence's computation early: once the periodicity
// theorem (see Periodicity) proves the period of the values computed so
// far, every later value is the one a period before it, which is exact
// for all n, and the rest of the sequence is filled in O(1) per heap.
// Kayles (period 12 from 71, proved at heap 167) to a million heaps thus
// takes milliseconds rather than minutes. It looks at powers of two from
// checkFrom on, so the look costs O(n) in all.
type periodShortcut struct {
	seq    []uint16
	rule   periodRule
	proves bool
	next   int // the next heap count to look at
	from   int // where the values began to come from the period
	found  Periodicity
}

// checkFrom is the first heap count looked at (a variable for tests).
var checkFrom = 1 << 12

// check reports whether the period of seq[:n] is proved.
func (s *periodShortcut) check(n int) bool {
	if !s.proves || n >= len(s.seq) || n < max(s.next, checkFrom) {
		return false
	}
	s.next = 2 * n
	vals := make([]int, n)
	for i, v := range s.seq[:n] {
		vals[i] = int(v)
	}
	var res Periodicity
	if s.rule.find(vals, &res); !res.Proved {
		return false
	}
	s.found, s.from = res, n
	return true
}

// fill completes the sequence from its proved period and says so, for
// Table.Method.
func (s *periodShortcut) fill() string {
	p := s.found.Period
	for n := s.from; n < len(s.seq); n++ {
		s.seq[n] = s.seq[n-p]
	}
	return fmt.Sprintf(" to heap %d, then its period %d from %d (proved: checked to %d)", s.from-1, p, s.found.Pre, s.found.ProvedAt-1)
}

// fillXor sets every row's entry to the xor of its heaps' values (for
// outcomes: N when that is not 0).
func fillXor(t *Table, seq []uint16, task *progress.Task) error {
	return t.fillFrom(task, func(p []int) int { return rowValue(seq, p) })
}

// heapSequence is G(0..top) of one heap of g, from a table of g the
// session holds when one has it that far, else from the one-heap table
// Values(g, n), cached, with progress and interrupt as every solve. n is
// top rounded up to 2^k - 1, so that asking about heap after growing heap
// (WinningMoves in a loop) solves and keeps a logarithmic number of
// sequences, not one per heap.
func heapSequence(g *games.TakeBreak, top int) ([]uint16, error) {
	name := fingerprint(g)
	cacheMu.Lock()
	for k, t := range cache {
		if seq := t.heapSeq(); k.name == name && len(seq) > top {
			cacheMu.Unlock()
			return seq[:top+1], nil
		}
	}
	cacheMu.Unlock()
	n := max(1<<bits.Len(uint(top))-1, 63)
	t, err := Values(g, n)
	if err != nil && !errors.Is(err, progress.ErrCancelled) {
		// The larger bound may pass a limit (memory, the largest value)
		// that top does not, and the error should name the heap asked for.
		t, err = Values(g, top)
	}
	if err != nil {
		return nil, err
	}
	return t.vals[:top+1], nil
}

// heapSeq is the one-heap sequence a table of a take-and-break game
// holds: the one its solve computed, or a loaded one-heap values table's
// entries (nil when it holds none).
func (t *Table) heapSeq() []uint16 {
	if t.seq == nil && t.kind == KindValues && len(t.max) == 1 {
		return t.vals
	}
	return t.seq
}

// marker is a set of table values (below 1<<16), emptied in O(1) by a new
// stamp.
type marker struct {
	stamp int32
	seen  []int32
}

func newMarker() *marker { return &marker{seen: make([]int32, 1<<16)} }

func (m *marker) reset() {
	m.stamp++
	if m.stamp == 0 {
		clear(m.seen)
		m.stamp = 1
	}
}

func (m *marker) mark(v uint16) { m.seen[v] = m.stamp }

func (m *marker) has(v int) bool { return v < len(m.seen) && m.seen[v] == m.stamp }

// mexFrom is the least value >= v not marked.
func (m *marker) mexFrom(v int) int {
	for m.has(v) {
		v++
	}
	return v
}

// ticker reports progress heap by heap, every tickEvery heaps.
type ticker struct {
	report func(n int) error
	done   int
}

// tickEvery is how often the sequence is reported (a variable for tests).
var tickEvery = 1 << 12

// to reports that heaps 0..n-1 are done.
func (t *ticker) to(n int) error {
	d := n - t.done
	t.done = n
	return t.report(d)
}

// plainSequence fills G[from:] by the definition: the mex over every way
// to play in a heap of n tokens, each a xor of the parts' values.
func plainSequence(g *games.TakeBreak, G []uint16, from int, tk *ticker) error {
	t := g.CodeLength()
	unequal := g.UnequalSplits()
	m := newMarker()
	for n := from; n < len(G); n++ {
		if n%tickEvery == 0 {
			if err := tk.to(n); err != nil {
				return err
			}
		}
		m.reset()
		for k := 0; k <= min(t, n); k++ {
			d, r := g.Digit(k), n-k
			if d&1 != 0 && r == 0 && k > 0 {
				m.mark(0)
			}
			if d&2 != 0 && r >= 1 && k > 0 {
				m.mark(G[r])
			}
			if d&4 != 0 {
				for a := 1; 2*a <= r; a++ {
					if !unequal || 2*a != r {
						m.mark(G[a] ^ G[r-a])
					}
				}
			}
			if d&8 != 0 {
				for a := 1; 3*a <= r; a++ {
					for b := a; a+2*b <= r; b++ {
						m.mark(G[a] ^ G[b] ^ G[r-a-b])
					}
				}
			}
		}
		if err := store(g, G, n, m.mexFrom(0)); err != nil {
			return err
		}
	}
	return tk.to(len(G))
}

func store(g games.Game, G []uint16, n, v int) error {
	if v > maxEntry {
		return fmt.Errorf("%s: G(%d) = %d exceeds the table's limit %d", g.Name(), n, v, maxEntry)
	}
	G[n] = uint16(v)
	return nil
}

// sparseSpace is the mask of the rare-value method: heap a (a >= 1) is rare
// when parity(G(a) & mask) xor (heapParity ? a&1 : 0) == rare.
type sparseSpace struct {
	mask       int
	heapParity bool
	rare       int
}

func (s sparseSpace) class(a int, v uint16) int {
	c := bits.OnesCount(uint(int(v)&s.mask)) & 1
	if s.heapParity {
		c ^= a & 1
	}
	return c
}

// count is how many of the heaps from..len(G)-1 are rare.
func (s sparseSpace) count(G []uint16, from int) int {
	n := 0
	for a := from; a < len(G); a++ {
		if s.class(a, G[a]) == s.rare {
			n++
		}
	}
	return n
}

// rareHeaps lists the rare heaps among 1..len(G)-1.
func (s sparseSpace) rareHeaps(G []uint16) []int32 {
	var rare []int32
	for a := 1; a < len(G); a++ {
		if s.class(a, G[a]) == s.rare {
			rare = append(rare, int32(a))
		}
	}
	return rare
}

// recheckWindow is how many recent heaps a mask is judged on when the
// method reconsiders it (at every power of two): values grow, and a mask
// chosen from small values can miss the bits that later separate them.
const recheckWindow = 1 << 14

// warmUp is how many values the plain method computes before the mask is
// chosen from them.
const warmUp = 1 << 11

// chooseSpace picks the mask (and heap-parity twist) under which the
// fewest of the heaps 1..len(G)-1 are rare. The rare class is not free: it
// must be the class that splits into two common heaps produce, or common
// candidates could never be settled without a scan. Without the twist that
// is even parity; with it, class k&1 for the split digits k, which must
// then all have one parity.
//
// Only heaps from..len(G)-1 are counted: rare heaps die out, so the recent
// ones tell the mask that will serve from here on.
func chooseSpace(G []uint16, from int, splits []int) (best sparseSpace, rare int) {
	from = max(from, 1)
	top := 0
	for _, v := range G[from:] {
		top = max(top, int(v))
	}
	twist := len(splits) > 0
	for _, k := range splits {
		twist = twist && k&1 == splits[0]&1
	}
	rare = len(G)
	// Masks over the low 12 bits at most: 8,192 trials of the warm-up.
	for mask := 1; mask < 1<<min(bits.Len(uint(top)), 12); mask++ {
		for _, hp := range []bool{false, true} {
			if hp && !twist {
				continue
			}
			s := sparseSpace{mask: mask, heapParity: hp}
			if hp {
				s.rare = splits[0] & 1
			}
			if n := s.count(G, from); n < rare {
				best, rare = s, n
			}
		}
	}
	return best, rare
}

// rareValueSequence fills G for an octal game (splits into at most two
// heaps) by the rare-value method; see heapSolver. method says how it
// went: "rare values", or the plain way ("heap") for a sequence that ends
// within the warm-up or has no sparse space.
func rareValueSequence(g *games.TakeBreak, G []uint16, tk *ticker) (method string, err error) {
	w := min(len(G), warmUp)
	if err := plainSequence(g, G[:w], 0, tk); err != nil || w == len(G) {
		return "heap", err
	}
	t := g.CodeLength()
	unequal := g.UnequalSplits()
	var splits []int // k whose digit allows two heaps
	for k := 0; k <= t; k++ {
		if g.Digit(k)&4 != 0 {
			splits = append(splits, k)
		}
	}
	sp, rareCount := chooseSpace(G[:w], 1, splits)
	if rareCount > w/4 {
		// No sparse space: the method would scan nearly every pair anyway.
		return "heap (no sparse space for rare values)", plainSequence(g, G, w, tk)
	}
	rare := sp.rareHeaps(G[:w])
	cursor := make([]int, len(splits))
	m := newMarker()
	for n := w; n < len(G); n++ {
		if n%tickEvery == 0 {
			if err := tk.to(n); err != nil {
				return "rare values", err
			}
			if n&(n-1) == 0 {
				from := n - min(n/2, recheckWindow)
				if c, r := chooseSpace(G[:n], from, splits); 2*r < sp.count(G[:n], from) {
					sp, rare = c, c.rareHeaps(G[:n])
				}
			}
		}
		m.reset()
		for k := 1; k <= min(t, n); k++ {
			d, r := g.Digit(k), n-k
			if d&1 != 0 && r == 0 {
				m.mark(0)
			}
			if d&2 != 0 && r >= 1 {
				m.mark(G[r])
			}
		}
		// Every split with a rare part.
		for i, k := range splits {
			r := n - k
			cursor[i] = 1
			seen, stamp := m.seen, m.stamp
			for _, a32 := range rare {
				a := int(a32)
				if a >= r {
					break
				}
				if !unequal || 2*a != r {
					seen[G[a]^G[r-a]] = stamp
				}
			}
		}
		v := 0
		for {
			v = m.mexFrom(v)
			// Splits whose common pairs give values of v's class, and
			// whose pairs are not all marked yet.
			par := bits.OnesCount(uint(v&sp.mask)) & 1
			found, open := false, false
			for i, k := range splits {
				r := n - k
				if r < 2 || cursor[i] > r/2 {
					continue
				}
				if sp.heapParity && par != r&1 || !sp.heapParity && par != 0 {
					continue
				}
				open = true
				// The hot loop: locals, so the compiler keeps them in registers.
				a, half, seen, stamp, want := cursor[i], r/2, m.seen, m.stamp, uint16(v)
				for ; a <= half; a++ {
					if unequal && 2*a == r {
						continue
					}
					x := G[a] ^ G[r-a]
					seen[x] = stamp
					if x == want {
						found = true
						a++
						break
					}
				}
				cursor[i] = a
				if found {
					break
				}
			}
			if !open || !found {
				break
			}
		}
		if err := store(g, G, n, v); err != nil {
			return "rare values", err
		}
		if sp.class(n, G[n]) == sp.rare {
			rare = append(rare, int32(n))
		}
	}
	return "rare values", tk.to(len(G))
}
