package known

import (
	"grundy/stdlib/games"

	"fmt"
	"slices"
)

// ParityVector returns p(x) of seed 002: x sorted nondecreasing, then each
// coordinate replaced by its parity (0 even, 1 odd).
func ParityVector(x games.Pos) []int {
	s := slices.Clone(x)
	slices.Sort(s)
	for i, v := range s {
		s[i] = v & 1
	}
	return s
}

// SlowMooreValue is Proposition 2 of seed 002: in slow Moore Nim (lower
// between 1 and k heaps by exactly one each), the Sprague-Grundy value for
// n = k = 2 and for n = 3, k = 2 depends only on the parity vector:
//
//	n=k=2:      (0,0)->0  (0,1)->1  (1,1)->2  (1,0)->3
//	n=3, k=2:   (0,0,0),(1,1,1)->0  (0,0,1),(1,1,0)->1
//	            (0,1,1),(1,0,0)->2  (0,1,0),(1,0,1)->3
func SlowMooreValue(k int, x games.Pos) (int, error) {
	pv := ParityVector(x)
	switch {
	case len(x) == 2 && k == 2:
		return map[[2]int]int{{0, 0}: 0, {0, 1}: 1, {1, 1}: 2, {1, 0}: 3}[[2]int(pv)], nil
	case len(x) == 3 && k == 2:
		return map[[3]int]int{
			{0, 0, 0}: 0, {1, 1, 1}: 0, {0, 0, 1}: 1, {1, 1, 0}: 1,
			{0, 1, 1}: 2, {1, 0, 0}: 2, {0, 1, 0}: 3, {1, 0, 1}: 3,
		}[[3]int(pv)], nil
	}
	return 0, fmt.Errorf("seed 002 Proposition 2 covers slow Moore Nim with n=k=2 or n=3,k=2, not n=%d, k=%d", len(x), k)
}

// SlowMooreIsP is Proposition 3 of seed 002: for slow Moore Nim with
// n <= k+2 or n = k+3 <= 6, x is P exactly when its parity vector is
//
//	n = k:        (0,...,0)
//	n = k+1:      (0,...,0) or (1,...,1)
//	n = k+2:      (0,...,0) or (0,1,...,1)     (k >= 2; see below)
//	n=5, k=2:     (0,0,0,0,0) (0,0,1,1,1) (1,1,0,0,1) (1,1,1,1,0)
//	n=6, k=3:     (0,0,0,0,0,0) (0,0,1,1,1,1) (1,1,0,0,1,1) (1,1,1,1,0,0)
//
// Correction forced by the tables: case n = k+2 fails for k = 1 (slow Nim
// on 3 heaps, where x is P iff the total is even): (1,1,2) has parity
// vector (1,1,0) yet is P. It holds for k >= 2, so this function reports
// (3, k=1) as not covered; SlowMooreIsPAsPrinted applies the printed case.
// n=4, k=1 also satisfies n = k+3 <= 6 but the proposition lists no vectors
// for it, so it is not covered either.
func SlowMooreIsP(k int, x games.Pos) (bool, error) {
	if len(x) == k+2 && k == 1 {
		return false, fmt.Errorf("seed 002 Proposition 3 (3) fails for n=3, k=1 (e.g. (1,1,2) is P); slow Nim with k=1 is P iff the total is even")
	}
	return slowMooreIsP(k, x)
}

// SlowMooreIsPAsPrinted is Proposition 3 of seed 002 exactly as printed,
// including case n = k+2 for k = 1, which the tables refute (see
// SlowMooreIsP).
func SlowMooreIsPAsPrinted(k int, x games.Pos) (bool, error) { return slowMooreIsP(k, x) }

func slowMooreIsP(k int, x []int) (bool, error) {
	n := len(x)
	pv := ParityVector(x)
	all := func(v int, from int) bool {
		for _, b := range pv[from:] {
			if b != v {
				return false
			}
		}
		return true
	}
	oneOf := func(vs ...[]int) bool {
		for _, v := range vs {
			if slices.Equal(pv, v) {
				return true
			}
		}
		return false
	}
	switch {
	case k < 1 || k > n:
		return false, fmt.Errorf("slow Moore Nim needs 1 <= k <= n, got n=%d, k=%d", n, k)
	case n == k:
		return all(0, 0), nil
	case n == k+1:
		return all(0, 0) || all(1, 0), nil
	case n == k+2:
		return all(0, 0) || (pv[0] == 0 && all(1, 1)), nil
	case n == 5 && k == 2:
		return oneOf([]int{0, 0, 0, 0, 0}, []int{0, 0, 1, 1, 1}, []int{1, 1, 0, 0, 1}, []int{1, 1, 1, 1, 0}), nil
	case n == 6 && k == 3:
		return oneOf([]int{0, 0, 0, 0, 0, 0}, []int{0, 0, 1, 1, 1, 1}, []int{1, 1, 0, 0, 1, 1}, []int{1, 1, 1, 1, 0, 0}), nil
	}
	return false, fmt.Errorf("seed 002 Proposition 3 covers slow Moore Nim with n <= k+2, or n=5,k=2, or n=6,k=3; not n=%d, k=%d", n, k)
}

// SlowExact32Value is Proposition 4 of seed 002, as corrected by the
// tables: the Sprague-Grundy value of slow exact Nim with n = 3, k = 2
// (lower exactly two heaps by one each; the Exact Slow NIM(3,2) of seed
// 004). For x sorted, x = (x1, x2, x3), the value is given by the parities
// of x1 and x2, with exceptional sets:
//
//	x1, x2 even:  0, but 1 on B
//	x1 even, x2 odd: 1, but 0 on A
//	x1, x2 odd:   2, but 0 on C0 and 1 on C1
//	x1 odd, x2 even: 3, but 0 on D0 and 1 on D1
//
// with, over integers a, b, i >= 0 and 0 <= i < a:
//
//	A  = {(2a, 2b-1, 2(b+i))   | a < b,  a+i odd}
//	B  = {(2a, 2b, 2(b+i)+1)   | a <= b, a+i odd}
//	C0 = {(2a-1, 2b-1, 2(b+i)-1) | a <= b, a+i even}
//	C1 = {(2a-1, 2b-1, 2(b+i)-1) | a <= b, a+i odd}
//	D0 = {(2a-1, 2b, 2(b+i))   | a <= b, a+i odd}
//	D1 = {(2a-1, 2b, 2(b+i))   | a <= b, a+i even}
//
// Two corrections to the printed text, both forced by the tables: C and D
// are C0 u C1 and D0 u D1 (the text writes C1 u C2, D1 u D2, and C2, D2 are
// never defined), and D0, D1 need a <= b where the text has a < b: as
// printed, (1,2,2) (a = b = 1) is outside D and gets 3, but its value is 0.
// SlowExact32ValueAsPrinted keeps the printed a < b.
func SlowExact32Value(x games.Pos) (int, error) { return slowExact32(x, false) }

// SlowExact32ValueAsPrinted is Proposition 4 of seed 002 with D0 and D1
// restricted to a < b as printed (and C = C0 u C1, D = D0 u D1, the only
// reading that assigns every position one value). It is wrong at (1,2,2),
// (3,4,4), (3,4,6), ...; kept so that the tests document the misprint.
func SlowExact32ValueAsPrinted(x games.Pos) (int, error) { return slowExact32(x, true) }

func slowExact32(x []int, printedD bool) (int, error) {
	if len(x) != 3 {
		return 0, fmt.Errorf("slow exact Nim n=3, k=2 needs 3 heaps, got %d", len(x))
	}
	s := slices.Clone(x)
	slices.Sort(s)
	if s[0] < 0 {
		return 0, fmt.Errorf("negative heap in %v", x)
	}
	x1, x2, x3 := s[0], s[1], s[2]
	// inFamily reports whether (x1,x2,x3) = (2a+o1, 2b+o2, 2(b+i)+o3) for
	// some admissible a, b, i, and then the parity of a+i.
	inFamily := func(o1, o2, o3 int, strict bool) (ok bool, parity int) {
		if (x1-o1)%2 != 0 || (x2-o2)%2 != 0 || (x3-o3)%2 != 0 {
			return false, 0
		}
		a, b := (x1-o1)/2, (x2-o2)/2
		i := (x3-o3)/2 - b
		if a < 0 || i < 0 || i >= a || a > b || (strict && a == b) {
			return false, 0
		}
		return true, (a + i) % 2
	}
	switch {
	case x1%2 == 0 && x2%2 == 0:
		if ok, par := inFamily(0, 0, 1, false); ok && par == 1 {
			return 1, nil // B
		}
		return 0, nil
	case x1%2 == 0:
		if ok, par := inFamily(0, -1, 0, true); ok && par == 1 {
			return 0, nil // A
		}
		return 1, nil
	case x2%2 == 1:
		if ok, par := inFamily(-1, -1, -1, false); ok {
			return par, nil // C0 (a+i even) -> 0, C1 (odd) -> 1
		}
		return 2, nil
	default:
		if ok, par := inFamily(-1, 0, 0, printedD); ok {
			return 1 - par, nil // D0 (a+i odd) -> 0, D1 (even) -> 1
		}
		return 3, nil
	}
}
