package solve

import (
	"fmt"
	"math/bits"
	"sync/atomic"

	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// Slow moves lower each heap of a set by exactly one, and moves of a game
// with a per-heap subtraction set by one of a few amounts, so a position has
// few followers and the fast way is to enumerate them natively: each move
// is a fixed index offset, legal when its heaps hold at least what it
// takes. Rows and the slab wavefront are shared with the box solvers.

type slowMove struct {
	coords []int // heaps lowered, the last heap excluded
	need   []int // what the move takes from each of coords
	last   int   // what it takes from the last heap (0: nothing)
	off    int   // index offset
}

// maxOffsetMoves bounds the moves the offset solver enumerates per
// position; beyond it (many heaps per set, many amounts) the plain solver,
// which visits followers without listing the moves, is used.
const maxOffsetMoves = 1 << 14

// offsetSolver: every move is a fixed index offset (slow.go).
type offsetSolver struct {
	g     *games.SetGame
	label string
}

// newOffsetSolver applies to move-set games whose moves lower heaps by
// amounts from a finite set, when they have few enough moves.
func newOffsetSolver(g *games.SetGame) (solver, bool) {
	exact, amounts := g.Lowering()
	if amounts == nil {
		return nil, false
	}
	total := 0
	for _, a := range g.Sets {
		per := 1
		for range a {
			if per *= len(amounts) + 1; per > maxOffsetMoves {
				return nil, false
			}
		}
		if exact {
			per = 1
			for range a {
				per *= len(amounts)
			}
		}
		if total += per; total > maxOffsetMoves {
			return nil, false
		}
	}
	label := "slow"
	if len(amounts) > 1 || amounts[0] != 1 {
		label = "offsets"
	}
	return offsetSolver{g, label}, true
}

func (s offsetSolver) name() string                              { return s.label }
func (offsetSolver) workBytes(*Table) int64                      { return 0 }
func (s offsetSolver) solve(t *Table, task *progress.Task) error { return solveSlow(t, s.g, task) }

// slowMoves lists the distinct moves as offsets: per move set, every
// choice of heaps to lower (all of them when exact) and of amounts.
func slowMoves(t *Table, g *games.SetGame) []slowMove {
	exact, amounts := g.Lowering()
	seen := map[string]bool{}
	last := len(t.max) - 1
	var out []slowMove
	for _, a := range g.Sets {
		take := make([]int, len(a)) // 0: heap stays
		var rec func(j int)
		rec = func(j int) {
			if j == len(a) {
				m := slowMove{}
				for k, i := range a {
					if take[k] == 0 {
						continue
					}
					m.off += take[k] * t.strides[i]
					if i == last {
						m.last = take[k]
					} else {
						m.coords = append(m.coords, i)
						m.need = append(m.need, take[k])
					}
				}
				key := fmt.Sprint(m.coords, m.need, m.last)
				if m.off > 0 && !seen[key] {
					seen[key] = true
					out = append(out, m)
				}
				return
			}
			if !exact {
				take[j] = 0
				rec(j + 1)
			}
			for _, x := range amounts {
				take[j] = x
				rec(j + 1)
			}
			take[j] = 0
		}
		rec(0)
	}
	return out
}

func solveSlow(t *Table, g *games.SetGame, task *progress.Task) error {
	b := newBoxPlan(t, g)
	moves := slowMoves(t, g)
	// The wavefront must trail by the largest offset, in rows.
	for _, m := range moves {
		b.margin = max(b.margin, m.off/b.L+1)
	}
	L := b.L
	return b.run(task, func(w int) func(r *rowState, idx int) error {
		legal := make([]int, 0, len(moves)) // offsets of moves legal in this row
		needX := make([]int, 0, len(moves)) // what the move takes from the last heap
		var seen []int32
		stamp := int32(0)
		return func(r *rowState, idx int) error {
			legal, needX = legal[:0], needX[:0]
		next:
			for _, m := range moves {
				for k, i := range m.coords {
					if r.p[i] < m.need[k] {
						continue next
					}
				}
				legal = append(legal, m.off)
				needX = append(needX, m.last)
			}
			for x := 0; x < L; x++ {
				p := idx + x
				switch t.kind {
				case KindValues:
					var mask uint64
					stamp++
					for k, off := range legal {
						if x < needX[k] {
							continue
						}
						v := int(t.vals[p-off])
						if v < 64 {
							mask |= 1 << v
						} else {
							for v >= len(seen) {
								seen = append(seen, make([]int32, len(seen)+64)...)
							}
							seen[v] = stamp
						}
					}
					v := bits.TrailingZeros64(^mask)
					for v >= 64 && v < len(seen) && seen[v] == stamp {
						v++
					}
					t.vals[p] = uint16(v)
				case KindOutcomes:
					isN := false
					for k, off := range legal {
						if x < needX[k] {
							continue
						}
						q := p - off
						if atomic.LoadUint64(&t.bits[q>>6])>>(q&63)&1 == 0 {
							isN = true
							break
						}
					}
					if isN {
						storeBits(t.bits, p, 1, 1)
					}
				case KindRemoteness:
					minEven, maxAll := -1, -1
					for k, off := range legal {
						if x < needX[k] {
							continue
						}
						v := int(t.vals[p-off])
						if v%2 == 0 && (minEven < 0 || v < minEven) {
							minEven = v
						}
						maxAll = max(maxAll, v)
					}
					v := 0
					switch {
					case minEven >= 0:
						v = minEven + 1
					case maxAll >= 0:
						v = maxAll + 1
					}
					if v > maxEntry {
						return errTooRemote(t, p)
					}
					t.vals[p] = uint16(v)
				}
			}
			return nil
		}
	})
}
