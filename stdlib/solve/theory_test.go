package solve

import (
	"math"
	"testing"

	"grundy/stdlib/games"
)

// Known theory the tables must reproduce, whichever solver runs. (The
// formulas of the seed papers live in stdlib/known; these few pin the
// solvers to mathematics, not only to each other.)

func TestNimIsXor(t *testing.T) {
	tab, err := Values(games.Nim(3), 15)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < tab.Len(); i++ {
		p := tab.pos(i)
		if tab.get(i) != p[0]^p[1]^p[2] {
			t.Fatalf("Nim %v: %d, want %d", p, tab.get(i), p[0]^p[1]^p[2])
		}
	}
}

// Moore's theorem: P iff in every binary digit the number of heaps with
// that bit set is divisible by k+1. Heaps 0..9 on 4 heaps, k = 1, 2, 3.
func TestMooreTheorem(t *testing.T) {
	for k := 1; k <= 3; k++ {
		tab, err := Outcomes(games.Moore(4, k), 9)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < tab.Len(); i++ {
			p := tab.pos(i)
			want := true
			for bit := 0; bit < 4; bit++ {
				c := 0
				for _, x := range p {
					c += x >> bit & 1
				}
				if c%(k+1) != 0 {
					want = false
				}
			}
			if (tab.get(i) == 0) != want {
				t.Fatalf("Moore(4,%d) %v: P=%v, Moore's theorem says %v", k, p, tab.get(i) == 0, want)
			}
		}
	}
}

// Wythoff's P-positions are (floor(n phi), floor(n phi^2)) and mirrors.
func TestWythoffGoldenPairs(t *testing.T) {
	const m = 200
	tab, err := Outcomes(games.Wythoff(), m)
	if err != nil {
		t.Fatal(err)
	}
	phi := (1 + math.Sqrt(5)) / 2
	want := map[[2]int]bool{}
	for n := 0; float64(n)*phi <= m; n++ {
		a, b := int(float64(n)*phi), int(float64(n)*phi*phi)
		want[[2]int{a, b}], want[[2]int{b, a}] = true, true
	}
	for x := 0; x <= m; x++ {
		for y := 0; y <= m; y++ {
			if tab.IsP(x, y) != want[[2]int{x, y}] {
				t.Fatalf("Wythoff (%d,%d): P=%v", x, y, tab.IsP(x, y))
			}
		}
	}
}

// Seed 004: in NIM(3,2) (Exact Slow), M(3,3,3) = 4 and M(3,5,5) = 6, and
// P-positions are exactly those of even remoteness.
func TestSeed004Remoteness(t *testing.T) {
	r, err := Remoteness(games.SlowExact(3, 2), 8)
	if err != nil {
		t.Fatal(err)
	}
	if r.At(3, 3, 3) != 4 || r.At(3, 5, 5) != 6 {
		t.Fatalf("R(3,3,3) = %d, R(3,5,5) = %d; seed 004 says 4 and 6", r.At(3, 3, 3), r.At(3, 5, 5))
	}
	v, _ := Values(games.SlowExact(3, 2), 8)
	for i := 0; i < r.Len(); i++ {
		if (r.get(i)%2 == 0) != (v.get(i) == 0) {
			t.Fatalf("%v: remoteness %d but value %d", r.pos(i), r.get(i), v.get(i))
		}
	}
}

// Seed 001 quoting Dufour-Heubach: CN(3,2) P iff all heaps equal; CN(4,2)
// P iff (a,b,a,b).
func TestCN32AndCN42(t *testing.T) {
	t3, _ := Outcomes(games.CN(3, 2), 12)
	for i := 0; i < t3.Len(); i++ {
		p := t3.pos(i)
		if (t3.get(i) == 0) != (p[0] == p[1] && p[1] == p[2]) {
			t.Fatalf("CN(3,2) %v: P=%v", p, t3.get(i) == 0)
		}
	}
	t4, _ := Outcomes(games.CN(4, 2), 10)
	for i := 0; i < t4.Len(); i++ {
		p := t4.pos(i)
		if (t4.get(i) == 0) != (p[0] == p[2] && p[1] == p[3]) {
			t.Fatalf("CN(4,2) %v: P=%v", p, t4.get(i) == 0)
		}
	}
}
