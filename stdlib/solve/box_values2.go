package solve

import (
	"math/bits"

	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// boxValues128 is boxValues for values below 128, the common case (every
// CN(6,2) position with heaps up to 20): a bitset is two words. A row is
// done in two passes: first, per move set, the OR of the neighbouring rows
// (streaming, no dependence along the row); then one pass along the row
// that keeps each set's prefix-OR through the last heap in registers-worth
// of locals and takes the mex.
func boxValues128(t *Table, g *games.SetGame, task *progress.Task) error {
	b := newBoxPlan(t, g)
	L := b.L
	rings := ringsFor[[2]uint64](b, 1)
	nsets := len(b.sets)
	return b.run(task, func(w int) func(r *rowState, idx int) error {
		ring := rings(w)
		T := make([][]([2]uint64), nsets) // per set: OR of neighbour rows
		for a := range T {
			T[a] = make([][2]uint64, L)
		}
		E := make([][2]uint64, L) // exact rule: reach from shifted boxes
		run := make([][2]uint64, nsets)
		vals := t.vals
		return func(r *rowState, idx int) error {
			if b.exact {
				clear(E)
			}
			for a := range b.sets {
				s := &b.sets[a]
				Ta := T[a]
				clear(Ta)
				rg := ring[a]
				for _, ns := range r.nbr[a] {
					src := rg[ns*L : ns*L+L]
					for x := range Ta {
						Ta[x][0] |= src[x][0]
						Ta[x][1] |= src[x][1]
					}
				}
				if b.exact && r.exactOK[a] && s.j < b.last {
					src := rg[r.exSlot[a]*L : r.exSlot[a]*L+L]
					if s.hasLast {
						for x := 1; x < L; x++ {
							E[x][0] |= src[x-1][0]
							E[x][1] |= src[x-1][1]
						}
					} else {
						for x := range E {
							E[x][0] |= src[x][0]
							E[x][1] |= src[x][1]
						}
					}
				}
				run[a] = [2]uint64{}
			}
			for x := 0; x < L; x++ {
				var r0, r1 uint64
				if b.exact {
					r0, r1 = E[x][0], E[x][1]
				}
				for a := 0; a < nsets; a++ {
					ta := T[a][x]
					if b.sets[a].hasLast {
						// run[a] is the inclusive prefix at x-1.
						if b.exact {
							if b.sets[a].j == b.last {
								r0 |= run[a][0]
								r1 |= run[a][1]
							}
						} else {
							r0 |= ta[0] | run[a][0]
							r1 |= ta[1] | run[a][1]
						}
					} else if !b.exact {
						r0 |= ta[0]
						r1 |= ta[1]
					}
				}
				var v int
				switch {
				case r0 != ^uint64(0):
					v = bits.TrailingZeros64(^r0)
				case r1 != ^uint64(0):
					v = 64 + bits.TrailingZeros64(^r1)
				default:
					return errWidth{2}
				}
				vals[idx+x] = uint16(v)
				var b0, b1 uint64
				if v < 64 {
					b0 = 1 << v
				} else {
					b1 = 1 << (v - 64)
				}
				for a := 0; a < nsets; a++ {
					ta := T[a][x]
					acc := [2]uint64{ta[0] | b0, ta[1] | b1}
					if b.sets[a].hasLast {
						acc[0] |= run[a][0]
						acc[1] |= run[a][1]
						run[a] = acc
					}
					ring[a][r.slot[a]*L+x] = acc
				}
			}
			return nil
		}
	})
}
