package solve

import (
	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// A compound's table is assembled from its parts' tables, never searched:
// a sum's value is the xor of its parts' values (Sprague-Grundy), and a
// conjunctive compound's remoteness is the least of its parts' (Smith).

// compoundSolver assembles a compound's table from its parts' tables:
// "sum" xors values, "conjunctive" takes the least remoteness.
type compoundSolver struct{ label string }

func (s compoundSolver) name() string                            { return s.label }
func (compoundSolver) workBytes(*Table) int64                    { return 0 }
func (compoundSolver) solve(t *Table, task *progress.Task) error { return solveCompound(t, task) }

// compoundSolverFor is nil when no rule assembles the compound's table.
func compoundSolverFor(c *games.Compound, kind Kind) solver {
	switch {
	case c.Kind == games.Disjunctive && kind != KindRemoteness:
		return compoundSolver{"sum"}
	case c.Kind == games.Conjunctive && kind == KindRemoteness:
		return compoundSolver{"conjunctive"}
	}
	return nil
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
	return t.fillFrom(task, func(p []int) int {
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
		return v
	})
}

func (t *Table) n() int { return len(t.max) }
