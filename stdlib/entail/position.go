package entail

import (
	"fmt"
	"strconv"
	"strings"
)

// Heap is one component of a sum: a heap of Size in Game.
type Heap struct {
	Game *Game
	Size int
}

func (h Heap) String() string { return h.Game.Name() + " " + strconv.Itoa(h.Size) }

func (h Heap) check() error {
	if h.Game == nil {
		return fmt.Errorf("entail: a heap of %d has no game; build heaps with entail.TopEntails(n), entail.EntailingNim(n), entail.Nim(n) or g.Heap(n)", h.Size)
	}
	if h.Size < 0 {
		return fmt.Errorf("entail: %s heap of %d: heap sizes must be >= 0", h.Game.name, h.Size)
	}
	if h.Size > maxHeapSize {
		return fmt.Errorf("entail: %s heap of %d is above the limit %d", h.Game.name, h.Size, maxHeapSize)
	}
	if h.Game.id >= maxGames {
		return fmt.Errorf("entail: too many games defined in this session (limit %d); restart the kernel", maxGames)
	}
	return nil
}

// Position is a sum of heaps, each of its own game, together with the heap
// the player to move is compelled into, if any. Build it with Sum (free) and
// Compel. The parts keep the order they were given in; the search works on
// a canonical form (heaps of one game sorted), so order never matters to an
// answer.
type Position struct {
	parts     []Heap
	compelled int // index into parts, or -1 when free
	err       error
}

// Sum is the free position made of the given heaps (the disjunctive sum, the
// player to move free to move in any of them). Heaps of size 0 are allowed
// and play no part.
func Sum(heaps ...Heap) Position {
	p := Position{parts: append([]Heap(nil), heaps...), compelled: -1}
	for _, h := range heaps {
		if err := h.check(); err != nil {
			p.err = err
			break
		}
	}
	return p
}

// Compel returns the position with the player to move compelled to move in
// part i (0-based, in the order the parts were given): the position just
// after an entailing move in that heap.
func (p Position) Compel(i int) Position {
	q := p
	q.parts = append([]Heap(nil), p.parts...)
	q.compelled = i
	if q.err == nil {
		switch {
		case i < 0 || i >= len(p.parts):
			q.err = fmt.Errorf("entail: Compel(%d): the position has parts 0..%d; a compulsion must name one of them", i, len(p.parts)-1)
		case p.parts[i].Size == 0:
			q.err = fmt.Errorf("entail: Compel(%d): part %d (%s) is empty, and a move that empties a heap compels nothing; use the free position", i, i, p.parts[i])
		}
	}
	return q
}

// Free returns the position with any compulsion lifted.
func (p Position) Free() Position {
	q := p
	q.parts = append([]Heap(nil), p.parts...)
	q.compelled = -1
	return q
}

// Parts returns the heaps of the sum, in the order given.
func (p Position) Parts() []Heap { return append([]Heap(nil), p.parts...) }

// Compelled returns the part the player to move must move in, and false when
// the position is free.
func (p Position) Compelled() (int, bool) { return p.compelled, p.compelled >= 0 }

// Err is the error the position was built with (a negative heap, a
// compulsion naming no part), or nil.
func (p Position) Err() error { return p.err }

// String writes the sum as "Top Entails 3 + Nim 1", marking the compelled
// heap with a leading "!" (e.g. "!entailing Nim 6 + Nim 2").
func (p Position) String() string {
	if len(p.parts) == 0 {
		return "0 (the empty sum)"
	}
	var b strings.Builder
	for i, h := range p.parts {
		if i > 0 {
			b.WriteString(" + ")
		}
		if i == p.compelled {
			b.WriteString("!")
		}
		b.WriteString(h.String())
	}
	if p.compelled >= 0 {
		b.WriteString("  (compelled into part " + strconv.Itoa(p.compelled) + ")")
	}
	return b.String()
}

// state is the canonical form the search works on: one word per non-empty
// heap, game<<22 | size<<1 | compelled, sorted ascending, so that heaps of
// one game sort by size and the compelled heap is told apart from a free one
// of the same size.
type state []uint32

const (
	sizeShift = 1
	gameShift = 22
	sizeMask  = 1<<21 - 1
)

func word(g *Game, size int, compelled bool) uint32 {
	w := g.id<<gameShift | uint32(size)<<sizeShift
	if compelled {
		w |= 1
	}
	return w
}

func wordGame(w uint32) uint32 { return w >> gameShift }
func wordSize(w uint32) int    { return int(w >> sizeShift & sizeMask) }

// canon builds the canonical state of p and registers its games with s.
func (s *solver) canon(p Position) (state, error) {
	if p.err != nil {
		return nil, p.err
	}
	st := make(state, 0, len(p.parts))
	for i, h := range p.parts {
		if h.Size == 0 {
			continue
		}
		s.register(h.Game)
		st = append(st, word(h.Game, h.Size, i == p.compelled))
	}
	sortWords(st)
	return st, nil
}

func sortWords(st state) {
	// Positions have few heaps: insertion sort beats sort.Slice here.
	for i := 1; i < len(st); i++ {
		for j := i; j > 0 && st[j] < st[j-1]; j-- {
			st[j], st[j-1] = st[j-1], st[j]
		}
	}
}
