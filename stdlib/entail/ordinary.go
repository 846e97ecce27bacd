package entail

import (
	"fmt"
	"strconv"
	"strings"
)

// OrdinaryGrundy returns the Grundy values of heaps 0..n of g computed as if
// no move compelled anything (the "ordinary theory"): the mex over each
// move's result, a move that leaves several heaps worth the nim-sum of their
// values. For Top Entails heaps 1..6 the text gives 1, 2, 0, 2, 0, 2.
func OrdinaryGrundy(g *Game, n int) ([]int, error) {
	if g == nil {
		return nil, fmt.Errorf("entail: OrdinaryGrundy: a nil game")
	}
	if n < 0 {
		return nil, fmt.Errorf("entail: OrdinaryGrundy(%s, %d): give the largest heap, >= 0", g.Name(), n)
	}
	gv := make([]int, n+1)
	for h := 1; h <= n; h++ {
		ms, err := g.Moves(h)
		if err != nil {
			return nil, err
		}
		seen := map[int]bool{}
		for _, m := range ms {
			x := 0
			for _, k := range m.Heaps {
				if k >= h {
					return nil, fmt.Errorf("entail: OrdinaryGrundy: %s has a move from %d to a heap of %d; the heap-by-heap recursion needs every move to leave smaller heaps", g.Name(), h, k)
				}
				x ^= gv[k]
			}
			seen[x] = true
		}
		for seen[gv[h]] {
			gv[h]++
		}
	}
	return gv, nil
}

// Misread is a two-heap position the ordinary theory gets wrong: it predicts
// Predicted from the nim-sum of the heaps' ordinary Grundy values, and the
// search (honouring compulsion) finds Actual.
type Misread struct {
	A, B      int
	Predicted Outcome
	Actual    Outcome
}

func (m Misread) String() string {
	return fmt.Sprintf("(%d, %d): ordinary theory says %s, search says %s", m.A, m.B, m.Predicted, m.Actual)
}

// Misreads is a list of misread positions; it prints one per line.
type Misreads []Misread

func (ms Misreads) String() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(ms)) + " misread")
	for _, m := range ms {
		b.WriteString("\n  " + m.String())
	}
	return b.String()
}

// OrdinaryMisreads compares the ordinary theory with the search on every
// two-heap position (a, b) of g with 1 <= a, b <= maxHeap, counted as
// ordered pairs as the text does (6 x 6 = 36 for heaps 1..6), and returns
// the pairs it gets wrong together with how many it judged.
func OrdinaryMisreads(g *Game, maxHeap int) (Misreads, int, error) {
	if maxHeap < 1 {
		return nil, 0, fmt.Errorf("entail: OrdinaryMisreads: give the largest heap, >= 1")
	}
	gv, err := OrdinaryGrundy(g, maxHeap)
	if err != nil {
		return nil, 0, err
	}
	var out Misreads
	for a := 1; a <= maxHeap; a++ {
		for b := 1; b <= maxHeap; b++ {
			actual, err := Sum(g.Heap(a), g.Heap(b)).Outcome()
			if err != nil {
				return nil, 0, err
			}
			pred := outcomeOf(gv[a]^gv[b] != 0)
			if pred != actual {
				out = append(out, Misread{A: a, B: b, Predicted: pred, Actual: actual})
			}
		}
	}
	return out, maxHeap * maxHeap, nil
}

// ValueRuleMex is the text's value rule for a heap: the mex of its options'
// values, leaving out options that are loony ("Nim's rule with one
// exclusion: a move to a loony position does not count"). An option is
// what the move leaves, read as a free position (the text reads the top-coin
// take of Top Entails as "leaving" the smaller heap); an option of several
// heaps is valued directly by pairing, not through the sum rule. The rule
// says nothing about which heaps are loony: it predicts the nimber of a heap
// that is not.
func ValueRuleMex(h Heap) (int, error) {
	if err := h.check(); err != nil {
		return 0, err
	}
	ms, err := h.Game.Moves(h.Size)
	if err != nil {
		return 0, err
	}
	seen := map[int]bool{}
	for _, m := range ms {
		parts := make([]Heap, len(m.Heaps))
		for i, k := range m.Heaps {
			parts[i] = h.Game.Heap(k)
		}
		v, err := Sum(parts...).Value()
		if err != nil {
			return 0, err
		}
		if !v.Loony {
			seen[v.Nimber] = true
		}
	}
	k := 0
	for seen[k] {
		k++
	}
	return k, nil
}
