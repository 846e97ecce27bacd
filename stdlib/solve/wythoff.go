package solve

import (
	"math/bits"

	"grundy/stdlib/progress"
)

// solveWythoff: a Wythoff move goes down a column, along a row or down a
// diagonal, so the followers of (x, y) are three prefixes; keeping each
// prefix's accumulated entries (value bitsets, "has a P", min-even/max
// remoteness) per column, row and diagonal makes a position cost O(1) words
// per 64 possible values instead of O(x + y) lookups.
func solveWythoff(t *Table, task *progress.Task) error {
	mx, my := t.max[0], t.max[1]
	switch t.kind {
	case KindValues:
		W := (mx+my)/64 + 1 // a value never exceeds x + y
		col := make([]uint64, (my+1)*W)
		diag := make([]uint64, (mx+my+1)*W)
		row := make([]uint64, W)
		for x := 0; x <= mx; x++ {
			clear(row)
			for y := 0; y <= my; y++ {
				np := (x+y)/64 + 1
				c := col[y*W : y*W+np]
				d := diag[(y-x+mx)*W : (y-x+mx)*W+np]
				v := 0
				for k := 0; k < np; k++ {
					if r := row[k] | c[k] | d[k]; r != ^uint64(0) {
						v = 64*k + bits.TrailingZeros64(^r)
						break
					}
				}
				t.vals[x*t.strides[0]+y] = uint16(v)
				row[v>>6] |= 1 << (v & 63)
				c[v>>6] |= 1 << (v & 63)
				d[v>>6] |= 1 << (v & 63)
			}
			if err := task.Add(int64(my + 1)); err != nil {
				return err
			}
		}
	case KindOutcomes:
		col := make([]bool, my+1)
		diag := make([]bool, mx+my+1)
		for x := 0; x <= mx; x++ {
			row := false
			for y := 0; y <= my; y++ {
				if row || col[y] || diag[y-x+mx] {
					t.set(x*t.strides[0]+y, 1)
					continue
				}
				row, col[y], diag[y-x+mx] = true, true, true
			}
			if err := task.Add(int64(my + 1)); err != nil {
				return err
			}
		}
	case KindRemoteness:
		type acc struct{ even, top uint16 } // min even, max + 1
		none := acc{noEven, 0}
		col := make([]acc, my+1)
		diag := make([]acc, mx+my+1)
		for i := range col {
			col[i] = none
		}
		for i := range diag {
			diag[i] = none
		}
		for x := 0; x <= mx; x++ {
			row := none
			for y := 0; y <= my; y++ {
				c, d := &col[y], &diag[y-x+mx]
				e, m := min(row.even, c.even, d.even), max(row.top, c.top, d.top)
				var v uint16
				switch {
				case e != noEven:
					v = e + 1
				case m > 0:
					v = m
				}
				if v >= noEven-1 {
					return errTooRemote(t, x*t.strides[0]+y)
				}
				t.vals[x*t.strides[0]+y] = v
				for _, a := range []*acc{&row, c, d} {
					if v%2 == 0 {
						a.even = min(a.even, v)
					}
					a.top = max(a.top, v+1)
				}
			}
			if err := task.Add(int64(my + 1)); err != nil {
				return err
			}
		}
	}
	return nil
}
