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
// follower when there is one, else 1 + the largest. Rows go in two passes
// as in boxValues.
func boxRemoteness(t *Table, g *games.SetGame, task *progress.Task) error {
	b := newBoxPlan(t, g)
	L := b.L
	nsets := len(b.sets)
	evenRings, maxRings := ringsFor[uint16](b, 1), ringsFor[uint16](b, 1)
	var along []int // sets through the last heap: they run along the row
	for a, s := range b.sets {
		if s.hasLast {
			along = append(along, a)
		}
	}
	return b.run(task, func(w int) func(r *rowState, idx int) error {
		ringE, ringM := evenRings(w), maxRings(w)
		TE := make([][]uint16, nsets) // per set along the row: min even of neighbours' boxes
		TM := make([][]uint16, nsets) // and max (+1)
		for a := range TE {
			TE[a], TM[a] = make([]uint16, L), make([]uint16, L)
		}
		EE, EM := make([]uint16, L), make([]uint16, L) // exact rule: the shifted boxes
		runE, runM := make([]uint16, nsets), make([]uint16, nsets)
		return func(r *rowState, idx int) error {
			for x := range EE {
				EE[x], EM[x] = noEven, 0
			}
			for a := range b.sets {
				s := &b.sets[a]
				te, tm := TE[a], TM[a]
				for x := range te {
					te[x], tm[x] = noEven, 0
				}
				for _, ns := range r.nbr[a] {
					se, sm := ringE[a][ns*L:ns*L+L], ringM[a][ns*L:ns*L+L]
					for x := range te {
						te[x] = min(te[x], se[x])
						tm[x] = max(tm[x], sm[x])
					}
				}
				if !b.exact && !s.hasLast {
					for x := range EE {
						EE[x], EM[x] = min(EE[x], te[x]), max(EM[x], tm[x])
					}
				}
				if b.exact && r.exactOK[a] && s.j < b.last {
					o := r.exSlot[a] * L
					se, sm := ringE[a][o:o+L], ringM[a][o:o+L]
					if s.hasLast {
						for x := 1; x < L; x++ {
							EE[x], EM[x] = min(EE[x], se[x-1]), max(EM[x], sm[x-1])
						}
					} else {
						for x := range EE {
							EE[x], EM[x] = min(EE[x], se[x]), max(EM[x], sm[x])
						}
					}
				}
				runE[a], runM[a] = noEven, 0
			}
			for x := 0; x < L; x++ {
				re, rm := EE[x], EM[x]
				for _, a := range along {
					switch {
					case !b.exact:
						re, rm = min(re, TE[a][x], runE[a]), max(rm, TM[a][x], runM[a])
					case b.sets[a].j == b.last: // the set {last}: exact is the same move
						re, rm = min(re, runE[a]), max(rm, runM[a])
					}
				}
				var v uint16
				switch {
				case re != noEven:
					v = re + 1
				case rm > 0:
					v = rm // the largest + 1 is stored
				}
				if v >= noEven-1 {
					return errTooRemote(t, idx+x)
				}
				t.vals[idx+x] = v
				own := uint16(noEven)
				if v%2 == 0 {
					own = v
				}
				for _, a := range along {
					e, m := min(TE[a][x], own, runE[a]), max(TM[a][x], v+1, runM[a])
					runE[a], runM[a] = e, m
					TE[a][x], TM[a][x] = e, m
				}
			}
			// acc_A goes to the rings; sets off the last heap take in each
			// position's own remoteness here, in bulk.
			vals := t.vals[idx : idx+L]
			for a := range b.sets {
				o := r.slot[a] * L
				de, dm := ringE[a][o:o+L], ringM[a][o:o+L]
				if b.sets[a].hasLast {
					copy(de, TE[a])
					copy(dm, TM[a])
					continue
				}
				te, tm := TE[a], TM[a]
				for x, v := range vals {
					e := te[x]
					if v%2 == 0 {
						e = min(e, v)
					}
					de[x], dm[x] = e, max(tm[x], v+1)
				}
			}
			return nil
		}
	})
}
