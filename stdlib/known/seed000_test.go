package known

import (
	"slices"
	"testing"

	"grundy/stdlib/games"
	"grundy/stdlib/solve"
)

// Seed 000: "A bounded dynamic-programming check of all 4^6 = 4096
// positions with heap sizes at most three ... found 214 zero nim-values."
func TestSeed000CN62Heaps3Has214P(t *testing.T) {
	tb := table(t, solve.KindValues, "CN(6,2)", 3)
	if tb.Len() != 4096 || tb.Count(0) != 214 {
		t.Fatalf("CN(6,2) heaps<=3: %d P-positions of %d; seed 000 says 214 of 4096", tb.Count(0), tb.Len())
	}
	t.Logf("CN(6,2) heaps<=3: 214 P-positions of 4096")
	// The count must not depend on which solver computed it.
	plain, err := solve.Plain(tb.Game(), solve.KindValues, 3)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Count(0) != 214 {
		t.Errorf("CN(6,2) heaps<=3: the plain solver finds %d P-positions", plain.Count(0))
	}
	for _, p := range [][]int{{1, 1, 1, 2, 1, 2}, {0, 2, 0, 0, 1, 1}} {
		if !tb.IsP(p...) {
			t.Errorf("CN(6,2): %v has value %d; seed 000 says it is P", p, tb.At(p...))
		}
	}
}

// Seed 000, equation (face): g(0,a,b,0,c,d) = (a+b) xor (c+d), and its
// rotations, checked as values (not only outcomes).
func TestSeed000ZeroFace(t *testing.T) {
	N := bound(10, 14)
	tb := table(t, solve.KindValues, "CN(6,2)", N)
	checked := 0
	for r := 0; r < 3; r++ { // zeros at r and r+3; other rotations repeat these
		for a := 0; a <= N; a++ {
			for b := 0; b <= N; b++ {
				for c := 0; c <= N; c++ {
					for d := 0; d <= N; d++ {
						face := []int{0, a, b, 0, c, d}
						p := make([]int, 6)
						for i := range p {
							p[(i+r)%6] = face[i]
						}
						checked++
						if got, want := tb.At(p...), CN62ZeroFace(a, b, c, d); got != want {
							t.Fatalf("CN(6,2) heaps<=%d: g%v = %d, face formula (a+b) xor (c+d) = %d", N, p, got, want)
						}
					}
				}
			}
		}
	}
	t.Logf("CN(6,2) heaps<=%d: face formula holds at %d positions (3 rotations)", N, checked)
}

// Seed 000, theorem "a solved family of invariant faces": in CN(n,2), n >= 4,
// with a zero heap and positive blocks of length <= 2, g = xor of block sums.
func TestSeed000SeparatedTheorem(t *testing.T) {
	for _, c := range []struct{ n, max int }{{4, bound(14, 20)}, {5, bound(9, 12)}, {6, bound(9, 12)}, {7, bound(6, 8)}} {
		t.Run(name("CN(%d,2) heaps<=%d", c.n, c.max), func(t *testing.T) {
			tb := table(t, solve.KindValues, name("CN(%d,2)", c.n), c.max)
			checked := 0
			forBox(tb, func(p games.Pos) {
				v, ok := CNSeparated(p)
				if !ok {
					return
				}
				checked++
				if got := tb.At(p...); got != v {
					t.Fatalf("g%v = %d, xor of block sums = %d", p, got, v)
				}
			})
			if checked == 0 {
				t.Fatal("no separated position in the table")
			}
			t.Logf("xor of block sums holds at all %d separated positions", checked)
			// The theorem's winning move: legal, and to value 0.
			sets := circularSets(c.n, 2)
			forBox(tb, func(p games.Pos) {
				v, ok := CNSeparated(p)
				if !ok || v == 0 {
					return
				}
				q, ok := CNSeparatedMove(p)
				if !ok || !legalMove(p, q, sets) || tb.At(q...) != 0 {
					t.Fatalf("stated winning move from %v (value %d) gives %v", p, v, q)
				}
			})
		})
	}
}

// Seed 000, theorem "antipodal copy strategy": every (a_1..a_m, a_1..a_m) is
// P in CN(2m,k) for 1 <= k <= m. The bound k <= m is needed: for k = m+1 a
// counterexample exists (checked below), so the test can fail.
func TestSeed000Antipodal(t *testing.T) {
	cases := []struct{ m, k, max int }{
		{2, 1, 12}, {2, 2, 12}, {3, 1, bound(4, 6)}, {3, 2, bound(10, 13)}, {3, 3, bound(8, 11)}, {4, 2, bound(2, 3)}, {4, 3, bound(2, 3)}, {4, 4, bound(2, 3)},
	}
	for _, c := range cases {
		t.Run(name("CN(%d,%d) heaps<=%d", 2*c.m, c.k, c.max), func(t *testing.T) {
			tb := table(t, solve.KindOutcomes, name("CN(%d,%d)", 2*c.m, c.k), c.max)
			n, replies := 0, 0
			sets := circularSets(2*c.m, c.k)
			forBox(tb, func(p games.Pos) {
				if !IsAntipodal(p) {
					return
				}
				n++
				if !tb.IsP(p...) {
					t.Fatalf("antipodal %v is N", p)
				}
				// The copy strategy answers every move legally.
				for _, y := range followers(p, sets) {
					z, ok := AntipodalReply(p, y)
					if !ok || !legalMove(y, z, sets) || !IsAntipodal(z) {
						t.Fatalf("copy reply to %v -> %v is %v", p, y, z)
					}
					replies++
				}
			})
			t.Logf("all %d antipodal positions are P; the copy strategy answers all %d moves from them", n, replies)
		})
	}
	t.Run("k=m+1 breaks it: CN(4,3) heaps<=2", func(t *testing.T) {
		tb := table(t, solve.KindOutcomes, "CN(4,3)", 2)
		if !IsAntipodal([]int{1, 0, 1, 0}) || tb.IsP(1, 0, 1, 0) {
			t.Fatal("expected the antipodal (1,0,1,0) to be N in CN(4,3), showing k <= m matters")
		}
	})
}

// Seed 000, proposition "a single three-heap path" (stated for CN(6,2)):
// support in three consecutive positions (a,b,c) is P iff b = 0 and a = c,
// and the stated move wins. Checked for CN(n,2), n = 4..7.
func TestSeed000ThreeHeapPath(t *testing.T) {
	for _, c := range []struct{ n, max int }{{4, bound(12, 20)}, {5, bound(8, 12)}, {6, bound(10, 13)}, {7, bound(6, 8)}} {
		t.Run(name("CN(%d,2) heaps<=%d", c.n, c.max), func(t *testing.T) {
			tb := table(t, solve.KindOutcomes, name("CN(%d,2)", c.n), c.max)
			checked := 0
			forBox(tb, func(p games.Pos) {
				isP, ok := CNThreeHeapPath(p)
				if !ok {
					return
				}
				checked++
				if isP != tb.IsP(p...) {
					t.Fatalf("%v: table %s, proposition %s", p, pn(tb.IsP(p...)), pn(isP))
				}
				if !isP {
					q, ok := CNThreeHeapPathMove(p)
					if !ok || !legalMove(p, q, circularSets(c.n, 2)) || !tb.IsP(q...) {
						t.Fatalf("stated winning move from %v gives %v (legal=%v, P=%v)", p, q, ok && legalMove(p, q, circularSets(c.n, 2)), ok && tb.IsP(q...))
					}
				}
			})
			t.Logf("classification and winning move hold at %d path positions", checked)
		})
	}
}

// Seed 000's 18-row certificate, checked against the table too: x is P,
// every listed follower is N and every reply P.
func TestSeed000CertificateAgainstTable(t *testing.T) {
	tb := table(t, solve.KindValues, "CN(6,2)", 3)
	c := Seed000Certificate()
	if !tb.IsP(c.X...) {
		t.Fatalf("CN(6,2) heaps<=3: %v has value %d", c.X, tb.At(c.X...))
	}
	for i, r := range c.Rows {
		if tb.IsP(r.Follower...) || !tb.IsP(r.Reply...) {
			t.Errorf("row %d: follower %v value %d, reply %v value %d", i+1, r.Follower, tb.At(r.Follower...), r.Reply, tb.At(r.Reply...))
		}
	}
	// The rows list exactly the followers the solver's game knows.
	listed := map[string]bool{}
	for _, r := range c.Rows {
		listed[r.Follower.String()] = true
	}
	fs := tb.Game().Followers(c.X)
	for _, q := range fs {
		if !listed[q.String()] {
			t.Errorf("follower %v of %v is missing from the certificate", q, c.X)
		}
	}
	if len(fs) != len(c.Rows) {
		t.Errorf("games.CN(6,2) lists %d followers of %v, the certificate %d", len(fs), c.X, len(c.Rows))
	}
}

// Seed 001 (quoting Dufour and Heubach): CN(3,2) P-positions have all heaps
// equal; CN(4,2) P-positions are (a,b,a,b).
func TestSeed001CN32AndCN42(t *testing.T) {
	agree(t, table(t, solve.KindOutcomes, "CN(3,2)", bound(30, 60)), "CN(3,2)", nil, CN32IsP)
	agree(t, table(t, solve.KindOutcomes, "CN(4,2)", bound(16, 25)), "CN(4,2)", nil, CN42IsP)
}

// The table's own certificate of (1,1,1,2,1,2) lists the same 18 moves as
// the paper's, and every reply the paper prints is a winning reply in the
// table too (CN(6,2), heaps 0..3).
func TestSeed000CertificateMatchesTheTableHeaps0to3(t *testing.T) {
	tb, err := solve.Values(games.CN(6, 2), 3)
	if err != nil {
		t.Fatal(err)
	}
	paper := Seed000Certificate()
	c, err := tb.Certificate(paper.X)
	if err != nil {
		t.Fatal(err)
	}
	if !c.IsP() || len(c.Rows) != len(paper.Rows) {
		t.Fatalf("table certificate:\n%v", c)
	}
	for i, r := range paper.Rows {
		if !slices.Equal(c.Rows[i].Move, r.Follower) {
			t.Errorf("row %d: table move %v, paper %v", i+1, c.Rows[i].Move, r.Follower)
		}
		if !tb.IsP(r.Reply...) {
			t.Errorf("row %d: the paper's reply %v is not P in the table", i+1, r.Reply)
		}
	}
}
