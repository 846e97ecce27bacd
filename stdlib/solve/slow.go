package solve

import (
	"math/bits"
	"slices"
	"sync/atomic"

	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// Slow moves lower each heap of a set by exactly one, so a position has few
// followers and the fast way is to enumerate them natively: each move is a
// fixed index offset, legal when its heaps are nonzero. Rows and the slab
// wavefront are shared with the box solvers.

type slowMove struct {
	coords []int // heaps lowered, the last heap excluded
	last   bool  // the move lowers the last heap too
	off    int   // index offset
}

func slowMoves(t *Table, g *games.SetGame) []slowMove {
	var sets [][]int
	add := func(a []int) {
		if !slices.ContainsFunc(sets, func(b []int) bool { return slices.Equal(a, b) }) {
			sets = append(sets, a)
		}
	}
	for _, a := range g.Sets {
		if g.Rule == games.RuleSlowExact {
			add(a)
			continue
		}
		for mask := 1; mask < 1<<len(a); mask++ {
			var s []int
			for j, i := range a {
				if mask>>j&1 == 1 {
					s = append(s, i)
				}
			}
			add(s)
		}
	}
	last := len(t.max) - 1
	var out []slowMove
	for _, a := range sets {
		m := slowMove{}
		for _, i := range a {
			m.off += t.strides[i]
			if i == last {
				m.last = true
			} else {
				m.coords = append(m.coords, i)
			}
		}
		out = append(out, m)
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
		needX := make([]int, 0, len(moves)) // 1 when the move needs x >= 1
		var seen []int32
		stamp := int32(0)
		return func(r *rowState, idx int) error {
			legal, needX = legal[:0], needX[:0]
		next:
			for _, m := range moves {
				for _, i := range m.coords {
					if r.p[i] == 0 {
						continue next
					}
				}
				legal = append(legal, m.off)
				if m.last {
					needX = append(needX, 1)
				} else {
					needX = append(needX, 0)
				}
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
