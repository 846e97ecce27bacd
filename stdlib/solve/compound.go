package solve

import (
	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// A compound's table is assembled from its parts' tables, never searched:
// a sum's value is the xor of its parts' values (Sprague-Grundy), and a
// conjunctive compound's remoteness is the least of its parts' (Smith).

func compoundMethod(c *games.Compound, kind Kind) string {
	switch {
	case c.Kind == games.Disjunctive && kind != KindRemoteness:
		return "sum"
	case c.Kind == games.Conjunctive && kind == KindRemoteness:
		return "conjunctive"
	}
	return "plain"
}

func solveCompound(t *Table, task *progress.Task) error {
	c := t.game.(*games.Compound)
	partKind := KindValues
	if c.Kind == games.Conjunctive {
		partKind = KindRemoteness
	}
	parts := make([]*Table, len(c.Parts))
	off := 0
	for i, g := range c.Parts {
		pt, err := Solve(g, partKind, t.max[off:off+g.Heaps()]...)
		if err != nil {
			return err
		}
		parts[i] = pt
		off += g.Heaps()
	}
	p := make([]int, len(t.max))
	for idx := 0; idx < t.size; idx++ {
		if idx%chunk == 0 && idx > 0 {
			if err := task.Add(chunk); err != nil {
				return err
			}
		}
		v, off := 0, 0
		for i, pt := range parts {
			w := pt.At(p[off : off+pt.n()]...)
			off += pt.n()
			switch {
			case c.Kind == games.Conjunctive:
				if i == 0 || w < v {
					v = w
				}
			default:
				v ^= w
			}
		}
		if t.kind == KindOutcomes && v != 0 {
			v = 1
		}
		t.set(idx, v)
		for i := len(p) - 1; i >= 0; i-- {
			if p[i] < t.max[i] {
				p[i]++
				break
			}
			p[i] = 0
		}
	}
	return nil
}

func (t *Table) n() int { return len(t.max) }
