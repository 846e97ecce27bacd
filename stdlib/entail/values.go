package entail

import (
	"fmt"
	"sort"

	"grundy/stdlib/progress"
)

// TextPairingRange is the largest Nim heap the text pairs a heap with
// ("pairing it with Nim heaps from nothing up to sixteen").
const TextPairingRange = 16

// Why a finite pairing range decides a value (the bound used by Value).
//
// Let X be a free position and j(X) the k with X + *k a loss for the mover,
// if any. At most one k works: from X + *k' with k' > k the mover takes the
// Nim heap down to k. So a free W + *j is a loss exactly when j = j(W).
//
// Let F(X) be the free positions reachable from X through compelled ones
// only (X's free options, and the free options of its compelled options,
// recursively), and V the set of their nimber values (loony ones have
// none). A compelled Z + *j is a loss iff all of Z's options win, so its
// outcome depends on j only through which W in F(Z) have j(W) = j; for j
// outside V it is one fixed answer c(Z). Now suppose X + *m is a loss.
//   - If some compelled option Z of X has c(Z) = loss, then Z + *m must win,
//     so m is in V.
//   - Otherwise each X + *j with j < m wins by a move inside X (the Nim
//     moves lead to X + *j', j' < m, which win), to a free W with j(W) = j
//     or to a compelled Z with Z + *j a loss, which needs j in V. So
//     0..m-1 all lie in V and m <= mex(V).
// Either way m <= B(X) = max(max V, mex V): pairing with 0..B(X) decides X,
// and if none of those pairs is a loss, X is loony — certified, not guessed.

// value returns the certified value of the free state st (no heap
// compelled), computing the values of its followers F(st) first.
func (s *solver) value(st state, depth int) (Value, int) {
	key := string(appendKey(nil, st))
	if v, ok := s.values[key]; ok {
		return v, -1
	}
	if depth >= maxDepth {
		s.fail(fmt.Errorf("entail: values nested %d deep; does a move rule let play cycle or a heap grow without end?", maxDepth))
		return Value{}, 0
	}
	if depth&0xff == 0xff {
		// A deep descent through values runs no search nodes, where
		// cancellation is otherwise checked.
		if err := progress.Err(); err != nil {
			s.fail(err)
			return Value{}, 0
		}
	}
	followers := s.freeFollowers(st)
	if s.err != nil {
		return Value{}, 0
	}
	seen := map[int]bool{}
	maxV := -1
	for _, f := range followers {
		v, _ := s.value(f, depth+1)
		if s.err != nil {
			return Value{}, 0
		}
		if !v.Loony {
			seen[v.Nimber] = true
			if v.Nimber > maxV {
				maxV = v.Nimber
			}
		}
	}
	mex := 0
	for seen[mex] {
		mex++
	}
	bound := max(maxV, mex)
	s.register(NimGame)
	v := Loony
	for k := 0; k <= bound; k++ {
		wins := s.win(withNim(st, k), 0)
		if s.err != nil {
			return Value{}, 0
		}
		if !wins {
			v = Nimber(k)
			break
		}
	}
	s.values[key] = v
	return v, bound
}

// withNim is st beside a Nim heap of k (a fresh state).
func withNim(st state, k int) state {
	out := make(state, len(st), len(st)+1)
	copy(out, st)
	if k == 0 {
		return out
	}
	w := word(NimGame, k, false)
	out = append(out, w)
	sortWords(out)
	return out
}

// freeFollowers lists F(st): the free states reachable from the free state
// st by one move, or by a move and then only compelled play. Compelled play
// stays inside the heap first moved in, so F(st) is st with one heap
// replaced by one of that heap's turn results (see turnResults).
func (s *solver) freeFollowers(st state) []state {
	var out []state
	for i, w := range st {
		if i > 0 && w == st[i-1] {
			continue
		}
		results := s.turnResults(w)
		if s.err != nil {
			return nil
		}
		for _, r := range results {
			out = append(out, child(make(state, 0, len(st)+len(r.Heaps)), st, i, wordGame(w), r))
		}
	}
	return out
}

// turnResults lists what a free heap can become in one turn of play inside
// it: the results of its non-entailing moves, and of the non-entailing
// moves that end a chain of compelled moves in it. Cached per heap.
func (s *solver) turnResults(w uint32) []Move {
	w &^= 1
	if r, ok := s.turns[w]; ok {
		return r
	}
	gid := wordGame(w)
	seen := map[string]bool{}
	visited := map[int]bool{}
	var out []Move
	var walk func(n int)
	walk = func(n int) {
		ms := s.movesOf(gid<<gameShift | uint32(n)<<sizeShift)
		if s.err != nil {
			return
		}
		for _, m := range ms {
			if m.Entails {
				k := m.Heaps[0]
				if !visited[k] {
					visited[k] = true
					if len(visited) > 1<<22 {
						s.fail(fmt.Errorf("entail: more than %d compelled heaps follow a heap of %d; does a move rule let play cycle?", 1<<22, wordSize(w)))
						return
					}
					walk(k)
				}
				continue
			}
			hs := append([]int(nil), m.Heaps...)
			sort.Ints(hs)
			key := fmt.Sprint(hs)
			if !seen[key] {
				seen[key] = true
				out = append(out, Move{Heaps: hs})
			}
		}
	}
	walk(wordSize(w))
	if s.err != nil {
		return nil
	}
	s.turns[w] = out
	return out
}

// valueOf is the certified value of a free position, with the lock held.
func (s *solver) valueOf(p Position) (Value, error) {
	if p.compelled >= 0 && p.err == nil {
		return Value{}, fmt.Errorf("entail: %v: a position in mid-compulsion has no value (the text's values describe free positions); use p.Free() or p.Outcome()", p)
	}
	st, err := s.canon(p)
	if err != nil {
		return Value{}, err
	}
	s.begin()
	v, _ := s.value(st, 0)
	return v, s.err
}

// Value is the value of the free position p read against Nim: *k if p + *k
// is a loss for the player to move, loony if the mover wins beside every Nim
// heap. The Nim heaps tried are 0..B, where B is a bound proved from the
// values of p's followers (see the comment in values.go), so a loony answer
// is certified, not a failure to find k.
func (p Position) Value() (Value, error) {
	def.mu.Lock()
	defer def.mu.Unlock()
	return def.valueOf(p)
}

// Value is the value of a single heap (see Position.Value).
func (h Heap) Value() (Value, error) { return Sum(h).Value() }

// PairingValue reads the value exactly as the text does: pair p with Nim
// heaps 0..maxNim; *k for the first k that makes the pair a loss for the
// mover, loony when the mover wins beside all of them. It is an error when
// the range is too small to decide: when no pair is a loss but the proved
// bound says a nimber above maxNim is still possible.
func (p Position) PairingValue(maxNim int) (Value, error) {
	if maxNim < 0 {
		return Value{}, fmt.Errorf("entail: PairingValue(%d): the Nim range 0..%d is empty; the text uses 0..%d", maxNim, maxNim, TextPairingRange)
	}
	def.mu.Lock()
	defer def.mu.Unlock()
	s := def
	if p.compelled >= 0 && p.err == nil {
		return Value{}, fmt.Errorf("entail: %v: a position in mid-compulsion has no value; use p.Free()", p)
	}
	st, err := s.canon(p)
	if err != nil {
		return Value{}, err
	}
	s.begin()
	s.register(NimGame)
	for k := 0; k <= maxNim; k++ {
		wins := s.win(withNim(st, k), 0)
		if s.err != nil {
			return Value{}, s.err
		}
		if !wins {
			return Nimber(k), nil
		}
	}
	v, bound := s.value(st, 0)
	if s.err != nil {
		return Value{}, s.err
	}
	if bound < 0 { // cached: recompute the bound from the followers
		bound = s.boundOf(st)
		if s.err != nil {
			return Value{}, s.err
		}
	}
	if !v.Loony {
		return Value{}, fmt.Errorf("entail: %v: pairing with Nim heaps 0..%d is too small: its value is %v; pair with at least 0..%d", p, maxNim, v, v.Nimber)
	}
	if bound > maxNim {
		return Value{}, fmt.Errorf("entail: %v: pairing with Nim heaps 0..%d cannot decide: the mover wins beside each, but a nimber up to *%d is not ruled out; pair with at least 0..%d (Value() picks the range itself)", p, maxNim, bound, bound)
	}
	return Loony, nil
}

// PairingValue of a single heap (see Position.PairingValue).
func (h Heap) PairingValue(maxNim int) (Value, error) { return Sum(h).PairingValue(maxNim) }

// boundOf is B(st) from the (cached) values of st's followers.
func (s *solver) boundOf(st state) int {
	seen := map[int]bool{}
	maxV := -1
	for _, f := range s.freeFollowers(st) {
		v, _ := s.value(f, 1)
		if s.err != nil {
			return 0
		}
		if !v.Loony {
			seen[v.Nimber] = true
			maxV = max(maxV, v.Nimber)
		}
	}
	mex := 0
	for seen[mex] {
		mex++
	}
	return max(maxV, mex)
}
