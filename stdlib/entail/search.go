package entail

import (
	"encoding/binary"
	"fmt"
	"sync"

	"grundy/stdlib/human"
	"grundy/stdlib/progress"
	"grundy/stdlib/solve"
)

// solver holds what every search shares: the outcome of each canonical
// state met so far, the certified value of each free state, and the moves
// of each heap. One solver serves the whole package (a notebook session
// runs one cell at a time); the mutex keeps tests and goroutines honest.
type solver struct {
	mu     sync.Mutex
	games  map[uint32]*Game
	moves  map[uint32][][]Move // game id -> size -> moves (nil: not fetched)
	memo   memoTable           // state -> the player to move wins
	values map[string]Value    // free state -> certified value
	turns  map[uint32][]Move   // free heap -> its results after one turn in it
	nodes  uint64
	err    error
	bufs   []state // child state per depth, reused
}

// maxDepth stops a search whose play runs longer than any terminating game
// here could: it means the rule lets play cycle.
const maxDepth = 1 << 16

var def = newSolver()

func newSolver() *solver {
	return &solver{
		games:  make(map[uint32]*Game),
		moves:  make(map[uint32][][]Move),
		values: make(map[string]Value),
		turns:  make(map[uint32][]Move),
	}
}

// ClearCache forgets every position solved so far (they are kept between
// calls so that later questions reuse earlier work). Call it to free memory
// after a large exploration.
func ClearCache() {
	def.mu.Lock()
	defer def.mu.Unlock()
	def.memo = memoTable{}
	def.values = make(map[string]Value)
	def.turns = make(map[uint32][]Move)
	def.moves = make(map[uint32][][]Move)
	def.games = make(map[uint32]*Game)
}

// CacheSize is how many positions the search currently remembers: outcomes
// and certified values.
func CacheSize() (outcomes, values int) {
	def.mu.Lock()
	defer def.mu.Unlock()
	return def.memo.count, len(def.values)
}

func (s *solver) register(g *Game) { s.games[g.id] = g }

// begin resets the per-query error; end returns it, wrapping a
// cancellation in what the caller was doing.
func (s *solver) begin() { s.err = nil }

func (s *solver) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// movesOf returns the moves of the heap a word stands for.
func (s *solver) movesOf(w uint32) []Move {
	gid, n := wordGame(w), wordSize(w)
	tab := s.moves[gid]
	if n < len(tab) && tab[n] != nil {
		return tab[n]
	}
	g := s.games[gid]
	ms, err := g.Moves(n)
	if err != nil {
		s.fail(err)
		return nil
	}
	if ms == nil {
		ms = []Move{}
	}
	for _, m := range ms {
		for _, h := range m.Heaps {
			if h > maxHeapSize {
				s.fail(fmt.Errorf("entail: %s: heap of %d too large", g.name, h))
				return nil
			}
		}
	}
	if n >= len(tab) {
		// Reslice within capacity; reallocating on every new size copied
		// the whole cache each time (quadratic: a rule whose heaps grow took
		// 51 s to reach the depth limit).
		if n < cap(tab) {
			tab = tab[:n+1]
		} else {
			grown := make([][]Move, n+1, 2*n+2)
			copy(grown, tab)
			tab = grown
		}
		s.moves[gid] = tab
	}
	tab[n] = ms
	return ms
}

func (s *solver) buf(depth int) state {
	for len(s.bufs) <= depth {
		s.bufs = append(s.bufs, make(state, 0, 16))
	}
	return s.bufs[depth][:0]
}

func appendKey(b []byte, st state) []byte {
	for _, w := range st {
		b = binary.LittleEndian.AppendUint32(b, w)
	}
	return b
}

// child writes into dst the state after move m in heap i of st: heap i
// replaced by m.Heaps, the compulsion (if any) on the heap an entailing move
// leaves, every other heap free (a move always honours or ends the previous
// compulsion, since it was made in the compelled heap).
func child(dst, st state, i int, g uint32, m Move) state {
	dst = dst[:0]
	for j, w := range st {
		if j != i {
			dst = append(dst, w&^1)
		}
	}
	for _, h := range m.Heaps {
		w := g<<gameShift | uint32(h)<<sizeShift
		if m.Entails {
			w |= 1
		}
		// insert keeping the state sorted
		dst = append(dst, w)
		k := len(dst) - 1
		for k > 0 && dst[k-1] > w {
			dst[k] = dst[k-1]
			k--
		}
		dst[k] = w
	}
	return dst
}

// compelledIndex is the index of the compelled heap of st, or -1.
func compelledIndex(st state) int {
	for i, w := range st {
		if w&1 != 0 {
			return i
		}
	}
	return -1
}

// win reports whether the player to move wins st, by exhaustive search
// honouring the compulsion. On error (cancellation, a bad rule) it sets
// s.err and its answer means nothing; nothing wrong is memoised.
func (s *solver) win(st state, depth int) bool {
	next := s.buf(depth)
	h := hashState(st)
	if v, ok := s.memo.get(st, h); ok {
		return v
	}
	s.nodes++
	if s.nodes&0xfff == 0 {
		if err := progress.Err(); err != nil {
			s.fail(err)
			return false
		}
	}
	if depth >= maxDepth {
		s.fail(fmt.Errorf("entail: play ran %d moves deep from a position; does a move rule let play cycle?", maxDepth))
		return false
	}
	ci := compelledIndex(st)
	result := false
search:
	for i, w := range st {
		if ci >= 0 && i != ci {
			continue
		}
		if ci < 0 && i > 0 && w == st[i-1] {
			continue // the same heap again: the same options
		}
		ms := s.movesOf(w)
		if s.err != nil {
			return false
		}
		for _, m := range ms {
			next = child(next, st, i, wordGame(w), m)
			s.bufs[depth] = next
			opp := s.win(next, depth+1)
			if s.err != nil {
				return false
			}
			if !opp {
				result = true
				break search
			}
			next = s.bufs[depth]
		}
	}
	s.memo.put(st, h, result)
	if s.memo.count&0xffff == 0 {
		// The process holds about four times the table's own bytes (the
		// value cache, the table's old slots while it grows, the garbage
		// collector's slack): 275 MiB of table ran at 1.07 GB.
		if b := 4 * s.memo.bytes(); b > solve.MemoryLimit || len(s.memo.arena) > 1<<31 {
			// Unchecked, HeroTable(200) grew past 10 GB with no end in
			// sight (and arena offsets are 32-bit). Forget what was learnt
			// so that the session lives on.
			n := s.memo.count
			s.memo = memoTable{}
			s.values = make(map[string]Value)
			s.fail(fmt.Errorf("entail: the search remembered %s, about %s of memory, more than the limit %s (solve.MemoryLimit), and forgot them; ask about smaller heaps or fewer parts, or raise solve.MemoryLimit", human.Quantity(n, "position"), human.Bytes(b), human.Bytes(solve.MemoryLimit)))
			return false
		}
	}
	return result
}

// outcome solves st from the top, with the lock held.
func (s *solver) outcome(st state) (bool, error) {
	s.begin()
	w := s.win(st, 0)
	return w, s.err
}
