package solve

import (
	"sync/atomic"

	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// boxOutcomes computes P/N a whole row at a time: acc_A is one bit per
// position ("the box below holds a P-position"), and a row of them is a
// bitmask over the last heap. Along the row, a move set containing the last
// heap turns acc_A into a prefix-OR, and since any two positions of a row
// are one such move apart, a row holds at most one P-position: the first
// position no move reaches. So a row costs O(sum |A|) word operations, not
// O(L sum |A|).
func boxOutcomes(t *Table, g *games.SetGame, task *progress.Task) error {
	b := newBoxPlan(t, g)
	L := b.L
	Wr := (L + 63) / 64
	rings := ringsFor[uint64](b, Wr)
	// A subset-rule set through the last heap links the whole row; so does
	// the exact set {last}, which is the same move.
	linked := false
	for _, s := range b.sets {
		if s.hasLast && (!b.exact || s.j == b.last) {
			linked = true
		}
	}
	mask := make([]uint64, Wr)
	for x := 0; x < L; x++ {
		mask[x>>6] |= 1 << (x & 63)
	}
	return b.run(task, func(w int) func(r *rowState, idx int) error {
		ring := rings(w)
		Y := make([]uint64, len(b.sets)*Wr)
		C := make([]uint64, Wr)
		isP := make([]uint64, Wr)
		return func(r *rowState, idx int) error {
			clear(C)
			for a := range b.sets {
				s := &b.sets[a]
				rg := ring[a]
				y := Y[a*Wr : a*Wr+Wr]
				clear(y)
				for _, ns := range r.nbr[a] {
					o := ns * Wr
					for k := range Wr {
						y[k] |= rg[o+k]
					}
				}
				switch {
				case b.exact && s.j < b.last:
					if r.exactOK[a] {
						o := r.exSlot[a] * Wr
						if s.hasLast {
							var carry uint64
							for k := range Wr {
								v := rg[o+k]
								C[k] |= v<<1 | carry
								carry = v >> 63
							}
						} else {
							for k := range Wr {
								C[k] |= rg[o+k]
							}
						}
					}
				case s.hasLast:
					prefixOr(C, y)
				default:
					for k := range Wr {
						C[k] |= y[k]
					}
				}
			}
			clear(isP)
			if linked {
				for k := range Wr {
					if z := ^C[k] & mask[k]; z != 0 {
						isP[k] = z & -z
						break
					}
				}
			} else {
				for k := range Wr {
					isP[k] = ^C[k] & mask[k]
				}
			}
			for a := range b.sets {
				s := &b.sets[a]
				y := Y[a*Wr : a*Wr+Wr]
				out := ring[a][r.slot[a]*Wr : r.slot[a]*Wr+Wr]
				for k := range Wr {
					y[k] |= isP[k]
				}
				if s.hasLast {
					clear(out)
					prefixOr(out, y)
				} else {
					copy(out, y)
				}
			}
			for k := range Wr {
				storeBits(t.bits, idx+64*k, ^isP[k]&mask[k], min(64, L-64*k))
			}
			return nil
		}
	})
}

// prefixOr ors into dst the inclusive prefix-OR of src along the row.
func prefixOr(dst, src []uint64) {
	seen := false
	for k := range src {
		switch {
		case seen:
			dst[k] = ^uint64(0)
		case src[k] != 0:
			dst[k] |= ^(src[k]&-src[k] - 1)
			seen = true
		}
	}
}

// storeBits ors the low n bits of v into the bitset at bit offset off.
// Rows of neighbouring slabs may share a word, so the or is atomic.
func storeBits(bs []uint64, off int, v uint64, n int) {
	if n < 64 {
		v &= 1<<n - 1
	}
	if v == 0 {
		return
	}
	w, sh := off>>6, uint(off&63)
	atomic.OrUint64(&bs[w], v<<sh)
	if sh != 0 && sh+uint(n) > 64 {
		atomic.OrUint64(&bs[w+1], v>>(64-sh))
	}
}
