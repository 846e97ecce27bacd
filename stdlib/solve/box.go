package solve

import (
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// The box solvers work on games whose moves act inside move sets
// (games.SetGame with RuleSubset or RuleExact). For a move set A, the
// followers of p inside A are the box below p on A (less p itself; for an
// exact move, the box below p-1 on A). Whatever is accumulated over that box
// (the set of values, "some P-position", min-even and max remoteness) obeys
// the prefix rule acc_A(p) = own(p) + sum over i in A of acc_A(p - e_i), so
// each position costs O(sum |A|) word operations instead of one per
// follower.
//
// Positions are visited row by row: a row fixes every heap but the last,
// which runs along the row. acc_A is kept only for two slabs of A's
// slowest-varying heap j (a ring indexed by the parity of p_j), which keeps
// memory near the table's own size. Slabs of heap 0 are handed to workers
// in turn; a worker on slab x follows the worker on slab x-1 a few rows
// behind (a wavefront), so all cores work on one table.

type boxSet struct {
	coords  []int // heaps of the move set, ascending
	j       int   // slowest heap of the set
	hasLast bool  // the set contains the last heap
	shared  bool  // j == 0: one ring for all workers (slabs of heap 0 chain)
	slab    int   // rows per slab of heap j (0 when j is the last heap)
	rows    int   // rows in the ring
}

type boxPlan struct {
	t        *Table
	g        *games.SetGame
	n, last  int
	L        int // row length: dims[last]
	rowDim   []int
	rowStr   []int // stride of heap i counted in rows (i < last)
	sets     []boxSet
	exact    bool
	slabRows int // rows per slab of heap 0 (all rows when n == 1)
	nslabs   int
	margin   int // rows a follower worker must trail by
	workers  int
}

func newBoxPlan(t *Table, g *games.SetGame) *boxPlan {
	n := len(t.max)
	b := &boxPlan{t: t, g: g, n: n, last: n - 1, L: t.dims[n-1], exact: g.Rule == games.RuleExact}
	b.rowStr = make([]int, n)
	for i := 0; i < n-1; i++ {
		b.rowStr[i] = t.strides[i] / b.L
	}
	if n >= 2 {
		b.slabRows = b.rowStr[0]
		b.nslabs = t.dims[0]
	} else {
		b.slabRows, b.nslabs = 1, 1
	}
	for _, a := range g.Sets {
		s := boxSet{coords: a, j: a[0], hasLast: a[len(a)-1] == b.last}
		if s.j < b.last {
			s.slab = b.rowStr[s.j]
			s.rows = 2 * s.slab
			s.shared = s.j == 0
		} else {
			s.rows = 1
		}
		b.sets = append(b.sets, s)
	}
	for i := 1; i < b.last; i++ {
		b.margin += b.rowStr[i]
	}
	b.margin++
	b.workers = Workers
	if b.workers <= 0 {
		b.workers = runtime.GOMAXPROCS(0)
	}
	if n < 2 || b.nslabs < 2 {
		b.workers = 1
	}
	b.workers = min(b.workers, b.nslabs)
	return b
}

// ringSlots is how many slots the rings need in all: shared rings once,
// the others once per worker.
func (b *boxPlan) ringSlots() int64 {
	var n int64
	for _, s := range b.sets {
		k := int64(s.rows)
		if !s.shared {
			k *= int64(b.workers)
		}
		n += k
	}
	return n
}

// rowState is one worker's view of the current row: the ring row slot of
// each set for the row itself, for each lower neighbour, and for the exact
// shift.
type rowState struct {
	p       []int // current heaps except the last
	slot    []int // per set: ring row of the current row
	nbr     [][]int
	exactOK []bool
	exSlot  []int
}

func (b *boxPlan) newRowState() *rowState {
	r := &rowState{p: make([]int, b.n), slot: make([]int, len(b.sets)), nbr: make([][]int, len(b.sets)),
		exactOK: make([]bool, len(b.sets)), exSlot: make([]int, len(b.sets))}
	return r
}

// fill computes the ring slots for the row whose heaps are r.p.
func (b *boxPlan) fill(r *rowState) {
	for a, s := range b.sets {
		r.nbr[a] = r.nbr[a][:0]
		if s.j == b.last {
			r.slot[a] = 0
			r.exactOK[a] = true
			r.exSlot[a] = 0
			continue
		}
		slot := (r.p[s.j] & 1) * s.slab
		for i := s.j + 1; i < b.last; i++ {
			slot += r.p[i] * b.rowStr[i]
		}
		r.slot[a] = slot
		ex := slot
		ok := true
		for _, i := range s.coords {
			if i == b.last {
				continue
			}
			d := -b.rowStr[i]
			if i == s.j {
				if r.p[i]&1 == 1 {
					d = -s.slab
				} else {
					d = s.slab
				}
			}
			if r.p[i] > 0 {
				r.nbr[a] = append(r.nbr[a], slot+d)
				ex += d
			} else {
				ok = false
			}
		}
		r.exactOK[a] = ok
		r.exSlot[a] = ex
	}
}

// run drives rowFn over every row, slabs of heap 0 spread over workers.
// rowFn gets the worker number, the row state and the table index of the
// row's first position.
func (b *boxPlan) run(task *progress.Task, newWorker func(w int) func(r *rowState, idx int) error) error {
	progressRows := make([]atomic.Int64, b.nslabs)
	var stop atomic.Bool
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	var errMu sync.Mutex
	var firstErr error
	fail := func(err error) {
		errMu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		errMu.Unlock()
		stop.Store(true)
		mu.Lock()
		cond.Broadcast()
		mu.Unlock()
	}
	publishEvery := max(1, chunk/b.L)
	var wg sync.WaitGroup
	for w := 0; w < b.workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rowFn := newWorker(w)
			r := b.newRowState()
			pending := 0
			for x := w; x < b.nslabs; x += b.workers {
				for i := range r.p {
					r.p[i] = 0
				}
				if b.n >= 2 {
					r.p[0] = x
				}
				for row := 0; row < b.slabRows; row++ {
					if x > 0 && b.workers > 1 {
						// Block (not spin) until the slab below is far enough
						// ahead: on a shared machine a spinning waiter would
						// take the very core the worker it waits for needs.
						need := int64(min(b.slabRows, row+1+b.margin))
						if progressRows[x-1].Load() < need {
							mu.Lock()
							for progressRows[x-1].Load() < need && !stop.Load() {
								cond.Wait()
							}
							mu.Unlock()
							if stop.Load() {
								return
							}
						}
					}
					b.fill(r)
					if err := rowFn(r, (x*b.slabRows+row)*b.L); err != nil {
						fail(err)
						return
					}
					// odometer over heaps 1..last-1
					for i := b.last - 1; i >= 1; i-- {
						if r.p[i] < b.t.max[i] {
							r.p[i]++
							break
						}
						r.p[i] = 0
					}
					pending++
					if pending >= publishEvery || row == b.slabRows-1 {
						progressRows[x].Store(int64(row + 1))
						if b.workers > 1 {
							mu.Lock()
							cond.Broadcast()
							mu.Unlock()
						}
						if err := task.Add(int64(pending * b.L)); err != nil {
							fail(err)
							return
						}
						pending = 0
						if stop.Load() {
							return
						}
					}
				}
			}
		}(w)
	}
	wg.Wait()
	return firstErr
}

// ringFor returns the ring of set a for worker w: shared rings are
// allocated once.
func ringsFor[T any](b *boxPlan, per int) func(w int) [][]T {
	shared := make([][]T, len(b.sets))
	for a, s := range b.sets {
		if s.shared {
			shared[a] = make([]T, s.rows*b.L*per)
		}
	}
	return func(w int) [][]T {
		out := make([][]T, len(b.sets))
		for a, s := range b.sets {
			if s.shared {
				out[a] = shared[a]
			} else {
				out[a] = make([]T, s.rows*b.L*per)
			}
		}
		return out
	}
}

// errWidth reports that values outgrew the bitsets; the caller retries wider.
type errWidth struct{ w int }

func (e errWidth) Error() string { return fmt.Sprintf("values need more than %d bits", 64*e.w) }

// boxValues: acc_A is the bitset of values in the box below p on A, held
// as W planes of 64 values each. A value never exceeds the number of tokens
// (every move removes one), so plane k is only read and written at
// positions with at least 64k tokens; below that it is known to be zero.
// That keeps memory traffic to what the values need.
//
// A row is done in two passes: first, per move set, the OR of the
// neighbouring rows (streaming, no dependence along the row); then one pass
// along the row that carries each set's prefix-OR through the last heap and
// takes the mex.
func boxValues(t *Table, g *games.SetGame, task *progress.Task, W int) error {
	b := newBoxPlan(t, g)
	L := b.L
	nsets := len(b.sets)
	planes := make([]func(w int) [][]uint64, W)
	for k := range planes {
		planes[k] = ringsFor[uint64](b, 1)
	}
	// active(total) is how many planes a position with that many tokens uses.
	active := func(total int) int { return max(0, min(W, total/64+1)) }
	cnt := make([]int, nsets) // heaps of the set other than the last
	hasLast := make([]bool, nsets)
	for a, s := range b.sets {
		hasLast[a] = s.hasLast
		cnt[a] = len(s.coords)
		if s.hasLast {
			cnt[a]--
		}
	}
	// Sets through the last heap carry a prefix along the row; the others
	// only need their neighbours' OR, which the first pass computes in bulk.
	var along []int
	for a, s := range b.sets {
		if s.hasLast {
			along = append(along, a)
		}
	}
	return b.run(task, func(w int) func(r *rowState, idx int) error {
		ring := make([][][]uint64, W) // ring[k][a]
		for k := range ring {
			ring[k] = planes[k](w)
		}
		T := make([][]uint64, W*nsets) // T[k*nsets+a][x]: OR of neighbour rows
		for i := range T {
			T[i] = make([]uint64, L)
		}
		X := make([][]uint64, W) // X[k][x]: reach that does not depend on the row
		for k := range X {
			X[k] = make([]uint64, L)
		}
		run := make([]uint64, W*nsets)
		reach := make([]uint64, W)
		vals := t.vals
		return func(r *rowState, idx int) error {
			T0 := 0
			for i := 0; i < b.last; i++ {
				T0 += r.p[i]
			}
			rowPlanes := active(T0 + L - 1)
			clear(run)
			for k := 0; k < rowPlanes; k++ {
				Xk := X[k]
				clear(Xk)
				// Positions x >= from have a neighbour with plane k in use.
				from := max(0, 64*k-(T0-1))
				for a := range b.sets {
					s := &b.sets[a]
					Ta := T[k*nsets+a]
					clear(Ta)
					rg := ring[k][a]
					for _, ns := range r.nbr[a] {
						src := rg[ns*L : ns*L+L]
						for x := from; x < L; x++ {
							Ta[x] |= src[x]
						}
					}
					switch {
					case b.exact:
						if r.exactOK[a] && s.j < b.last {
							src := rg[r.exSlot[a]*L : r.exSlot[a]*L+L]
							base := T0 - cnt[a]
							if s.hasLast {
								for x := max(1, 64*k-base+1); x < L; x++ {
									Xk[x] |= src[x-1]
								}
							} else {
								for x := max(0, 64*k-base); x < L; x++ {
									Xk[x] |= src[x]
								}
							}
						}
					case !s.hasLast:
						for x := from; x < L; x++ {
							Xk[x] |= Ta[x]
						}
					}
				}
			}
			for x := 0; x < L; x++ {
				np := min(W, (T0+x)/64+1)
				for k := 0; k < np; k++ {
					rk := X[k][x]
					for _, a := range along {
						switch {
						case !b.exact:
							rk |= T[k*nsets+a][x] | run[k*nsets+a]
						case b.sets[a].j == b.last: // {last}: exact is the same move
							rk |= run[k*nsets+a]
						}
					}
					reach[k] = rk
				}
				v := -1
				for k := 0; k < np; k++ {
					if reach[k] != ^uint64(0) {
						v = 64*k + bits.TrailingZeros64(^reach[k])
						break
					}
				}
				if v < 0 {
					return errWidth{W}
				}
				vals[idx+x] = uint16(v)
				// The prefix through the last heap takes in this position.
				k := v >> 6
				own := uint64(1) << (v & 63)
				for _, a := range along {
					for kk := 0; kk < np; kk++ {
						acc := T[kk*nsets+a][x] | run[kk*nsets+a]
						if kk == k {
							acc |= own
						}
						run[kk*nsets+a] = acc
						T[kk*nsets+a][x] = acc
					}
				}
			}
			// acc_A along the row goes to the rings; sets off the last heap
			// add each position's own value here, in bulk.
			for k := 0; k < rowPlanes; k++ {
				for a := range b.sets {
					dst := ring[k][a][r.slot[a]*L : r.slot[a]*L+L]
					Ta := T[k*nsets+a]
					if hasLast[a] {
						copy(dst, Ta)
						continue
					}
					for x := range dst {
						acc := Ta[x]
						if v := int(vals[idx+x]); v>>6 == k {
							acc |= 1 << (v & 63)
						}
						dst[x] = acc
					}
				}
			}
			return nil
		}
	})
}
