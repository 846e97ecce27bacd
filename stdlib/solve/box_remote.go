package solve

import (
	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// noEven marks "no even remoteness in the box".
const noEven = 0xFFFF

// boxRemoteness computes Smith's remoteness with acc_A = (smallest even
// remoteness, largest remoteness + 1) over the box below p on A: a prefix-min
// and a prefix-max. R(p) is 0 with no follower, 1 + the smallest even
// follower when there is one, else 1 + the largest.
func boxRemoteness(t *Table, g *games.SetGame, task *progress.Task) error {
	b := newBoxPlan(t, g)
	L := b.L
	rings := ringsFor[uint16](b, 2)
	return b.run(task, func(w int) func(r *rowState, idx int) error {
		ring := rings(w)
		tmp := make([]uint16, 2*len(b.sets))
		return func(r *rowState, idx int) error {
			for x := 0; x < L; x++ {
				reachEven, reachMax := uint16(noEven), uint16(0)
				for a := range b.sets {
					s := &b.sets[a]
					rg := ring[a]
					e, m := uint16(noEven), uint16(0)
					for _, ns := range r.nbr[a] {
						o := (ns*L + x) * 2
						e, m = min(e, rg[o]), max(m, rg[o+1])
					}
					if s.hasLast && x > 0 {
						o := (r.slot[a]*L + x - 1) * 2
						e, m = min(e, rg[o]), max(m, rg[o+1])
					}
					tmp[2*a], tmp[2*a+1] = e, m
					if b.exact {
						if r.exactOK[a] && (!s.hasLast || x > 0) {
							xx := x
							if s.hasLast {
								xx--
							}
							o := (r.exSlot[a]*L + xx) * 2
							reachEven, reachMax = min(reachEven, rg[o]), max(reachMax, rg[o+1])
						}
					} else {
						reachEven, reachMax = min(reachEven, e), max(reachMax, m)
					}
				}
				var v uint16
				switch {
				case reachEven != noEven:
					v = reachEven + 1
				case reachMax > 0:
					v = reachMax // (largest + 1) is stored
				}
				if v >= noEven-1 {
					return errTooRemote(t, idx+x)
				}
				t.vals[idx+x] = v
				for a := range b.sets {
					e, m := tmp[2*a], tmp[2*a+1]
					if v%2 == 0 {
						e = min(e, v)
					}
					m = max(m, v+1)
					o := (r.slot[a]*L + x) * 2
					ring[a][o], ring[a][o+1] = e, m
				}
			}
			return nil
		}
	})
}
