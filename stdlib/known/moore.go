package known

import "grundy/stdlib/games"

// MooreIsP is Moore's theorem (1910; quoted in seeds 001 and 004): in
// Moore's Nim, where a move lowers between 1 and k heaps, a position is P
// exactly when, for every binary digit, the number of heaps with a 1 in
// that digit is divisible by k+1. k = 1 is Bouton's Nim.
func MooreIsP(k int, p games.Pos) bool {
	if k < 1 {
		return false
	}
	for bit := 0; bit < 63; bit++ {
		c, any := 0, false
		for _, x := range p {
			if x>>bit != 0 {
				any = true
			}
			c += (x >> bit) & 1
		}
		if c%(k+1) != 0 {
			return false
		}
		if !any {
			return true
		}
	}
	return true
}

// WythoffPair returns the j-th P-position (a_j, b_j) of Wythoff's game
// (Wythoff 1907, quoted in seed 004): a_j = floor(j*phi), b_j = a_j + j,
// with phi the golden ratio. Computed in integers:
// floor(j*phi) = floor((j + floor(j*sqrt 5)) / 2).
func WythoffPair(j int) (a, b int) {
	a = (j + isqrt(5*j*j)) / 2
	return a, a + j
}

// WythoffIsP reports whether (x, y) (in either order) is a P-position of
// Wythoff's game.
func WythoffIsP(x, y int) bool {
	if x > y {
		x, y = y, x
	}
	a, _ := WythoffPair(y - x)
	return a == x
}

func isqrt(n int) int {
	if n < 2 {
		return n
	}
	// Newton's iteration on integers; exact, unlike math.Sqrt for large n.
	x := n
	y := (x + 1) / 2
	for y < x {
		x = y
		y = (x + n/x) / 2
	}
	return x
}
