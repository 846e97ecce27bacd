package known

import (
	"fmt"

	"grundy/stdlib/games"
)

// CNSeparated is the theorem "a solved family of invariant faces" of seed 000
// (Circular Nim CN(n,2), n >= 4): if the circle has at least one zero heap
// and every maximal block of consecutive positive heaps has length at most
// two, then g(p) = T_1 xor ... xor T_r where T_j are the block sums. Zero
// heaps stay zero forever, so they separate independent components, and a
// block of one or two heaps has value equal to its sum.
//
// ok is false when the hypothesis fails (no zero heap, a positive block of
// three or more, or n < 4), and value is then meaningless.
func CNSeparated(p games.Pos) (value int, ok bool) {
	n := len(p)
	if n < 4 {
		return 0, false
	}
	start := -1
	for i, x := range p {
		if x == 0 {
			start = i
			break
		}
	}
	if start < 0 {
		return 0, false
	}
	// Walk once round the circle from a zero, closing a block at each zero.
	sum, length := 0, 0
	for j := 1; j <= n; j++ {
		x := p[(start+j)%n]
		if x == 0 {
			value ^= sum
			sum, length = 0, 0
			continue
		}
		sum += x
		length++
		if length > 2 {
			return 0, false
		}
	}
	return value, true
}

// CN62ZeroFace is the face formula of seed 000: in CN(6,2),
// g(0,a,b,0,c,d) = (a+b) xor (c+d). Rotations hold equally (see
// CNSeparated, of which this is the special case with opposite zeros).
func CN62ZeroFace(a, b, c, d int) int { return (a + b) ^ (c + d) }

// IsAntipodal reports whether p = (a_1..a_m, a_1..a_m): the "antipodal copy
// strategy" theorem of seed 000 says every such position of CN(2m,k) with
// 1 <= k <= m is a P-position (the second player copies each move onto the
// antipodal block, which is disjoint from it).
func IsAntipodal(p games.Pos) bool {
	n := len(p)
	if n%2 != 0 {
		return false
	}
	for i := 0; i < n/2; i++ {
		if p[i] != p[i+n/2] {
			return false
		}
	}
	return true
}

// CN62ProvedP reports whether p is a P-position of CN(n,2) by one of the two
// theorems of seed 000 that its 18-row certificate relies on: p is
// antipodally equal, or it is separated (CNSeparated) with xor zero.
func CN62ProvedP(p games.Pos) bool {
	if IsAntipodal(p) {
		return true
	}
	v, ok := CNSeparated(p)
	return ok && v == 0
}

// pathStart returns the first of three circularly consecutive positions
// holding every positive heap of p, or -1 when there is none.
func pathStart(p []int) int {
	n := len(p)
	for s := 0; s < n; s++ {
		outside := false
		for j := 3; j < n; j++ {
			if p[(s+j)%n] != 0 {
				outside = true
				break
			}
		}
		if !outside {
			return s
		}
	}
	return -1
}

// CNThreeHeapPath is the "single three-heap path" proposition of seed 000,
// stated there for CN(6,2); the proof only needs the two end heaps of the
// path to share no move set, so it holds for CN(n,2) with n >= 4:
// when the only possibly nonzero heaps are three consecutive positions
// (a,b,c), the position is P exactly when b = 0 and a = c.
//
// ok is false when p is not of that shape (or n < 4). When several windows
// contain the support (at most two positive heaps), any choice gives the
// same answer.
func CNThreeHeapPath(p games.Pos) (isP, ok bool) {
	n := len(p)
	if n < 4 {
		return false, false
	}
	s := pathStart(p)
	if s < 0 {
		return false, false
	}
	a, b, c := p[s], p[(s+1)%n], p[(s+2)%n]
	return b == 0 && a == c, true
}

// CNThreeHeapPathMove is the winning move of the same proposition: set the
// middle heap to zero and lower the larger end to the smaller, using the
// adjacent pair that contains the larger end. ok is false when p is not a
// three-heap path position or is already P.
func CNThreeHeapPathMove(p games.Pos) (next games.Pos, ok bool) {
	isP, shaped := CNThreeHeapPath(p)
	if !shaped || isP {
		return nil, false
	}
	n := len(p)
	s := pathStart(p)
	next = append([]int(nil), p...)
	a, c := p[s], p[(s+2)%n]
	next[(s+1)%n] = 0
	if a >= c {
		next[s] = c
	} else {
		next[(s+2)%n] = a
	}
	return next, true
}

// CN32IsP: the P-positions of CN(3,2) are those with all heaps equal
// (Dufour and Heubach, Theorem 2.1; quoted in seed 001 section 3).
func CN32IsP(p games.Pos) bool {
	return len(p) == 3 && p[0] == p[1] && p[1] == p[2]
}

// CN42IsP: the P-positions of CN(4,2) are (a,b,a,b) (Dufour and Heubach,
// Theorem 2.2; quoted in seed 001 section 3).
func CN42IsP(p games.Pos) bool {
	return len(p) == 4 && p[0] == p[2] && p[1] == p[3]
}

func checkLen(p []int, n int, what string) error {
	if len(p) != n {
		return fmt.Errorf("%s needs %d heaps, got %d (%v)", what, n, len(p), p)
	}
	return nil
}

// CNSeparatedMove is the winning move of seed 000's separated theorem:
// with X the xor of the block sums, pick a block whose sum T has the
// highest bit of X set and lower it to T xor X (lowering its first heap
// first, then its second). ok is false when the theorem does not apply or
// X = 0 (a P-position).
func CNSeparatedMove(p games.Pos) (next games.Pos, ok bool) {
	x, applies := CNSeparated(p)
	if !applies || x == 0 {
		return nil, false
	}
	n := len(p)
	top := 1
	for top*2 <= x {
		top *= 2
	}
	for i := 0; i < n; i++ {
		// A block starts at a positive heap after a zero.
		if p[i] == 0 || p[(i+n-1)%n] != 0 {
			continue
		}
		block := []int{i}
		if j := (i + 1) % n; p[j] != 0 {
			block = append(block, j)
		}
		t := 0
		for _, j := range block {
			t += p[j]
		}
		if t&top == 0 {
			continue
		}
		want := t ^ x
		next = append([]int(nil), p...)
		cut := t - want
		for _, j := range block {
			d := min(cut, next[j])
			next[j] -= d
			cut -= d
		}
		return next, true
	}
	return nil, false // unreachable: some block has the top bit of x
}

// AntipodalReply is the copy strategy of seed 000's antipodal theorem: after
// the opponent moves from an antipodal position before to after, copy every
// reduction onto the antipodal heap, restoring antipodal equality. ok is
// false when before is not antipodal or after is not below before.
func AntipodalReply(before, after games.Pos) (reply games.Pos, ok bool) {
	n := len(before)
	if !IsAntipodal(before) || len(after) != n {
		return nil, false
	}
	reply = append([]int(nil), after...)
	for i := range before {
		if after[i] > before[i] {
			return nil, false
		}
		if after[i] < before[i] {
			reply[(i+n/2)%n] = after[i]
		}
	}
	return reply, true
}
