package known

import (
	"slices"
	"strings"
	"testing"

	"grundy/stdlib/games"
)

// These checks need no solver: they test the statements' own arithmetic
// and the certificate checker. The table checks are in seeds_test.go.

func TestSeed000CertificateChecks(t *testing.T) {
	c := Seed000Certificate()
	if err := c.Check(CN62ProvedP); err != nil {
		t.Fatalf("seed 000 certificate for (1,1,1,2,1,2) rejected: %v", err)
	}
	if len(c.Rows) != 18 {
		t.Errorf("seed 000 certificate has %d rows, the paper 18", len(c.Rows))
	}
}

func TestCertificateRejectsBrokenTables(t *testing.T) {
	cases := []struct {
		name  string
		alter func(c *Certificate)
		want  string
	}{
		{"missing row", func(c *Certificate) { c.Rows = c.Rows[1:] }, "not listed"},
		{"repeated row", func(c *Certificate) { c.Rows = append(c.Rows, c.Rows[0]) }, "already listed"},
		{"follower not a move", func(c *Certificate) { c.Rows[0].Follower = []int{1, 1, 1, 2, 1, 3} }, "is not a move from"},
		{"two-edge follower", func(c *Certificate) { c.Rows[0].Follower = []int{0, 1, 0, 2, 1, 2} }, "is not a move from"},
		{"reply raises a heap", func(c *Certificate) { c.Rows[0].Reply = []int{0, 0, 1, 2, 1, 3} }, "reply"},
		{"reply not proved P", func(c *Certificate) { c.Rows[12].Reply = []int{1, 1, 1, 1, 1, 0} }, "not a proved P-position"},
		{"reply changes non-adjacent heaps", func(c *Certificate) { c.Rows[12].Reply = []int{1, 1, 0, 1, 1, 1} }, "is not a move from"},
		{"wrong length", func(c *Certificate) { c.X = []int{1, 1, 1, 2, 1} }, "needs 6 heaps"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Seed000Certificate()
			tc.alter(&c)
			err := c.Check(CN62ProvedP)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want error containing %q, got %v", tc.want, err)
			}
		})
	}
}

func TestSeed000CertificateFollowerCount(t *testing.T) {
	// The paper counts 8 single-heap followers and 10 two-heap ones.
	got := followers([]int{1, 1, 1, 2, 1, 2}, circularSets(6, 2))
	if len(got) != 18 {
		t.Fatalf("(1,1,1,2,1,2) has %d followers in CN(6,2), the paper says 18", len(got))
	}
}

func TestMRuleExamples(t *testing.T) {
	// Seed 004's worked examples in NIM(3,2).
	for _, tc := range []struct {
		x    []int
		m    int
		path [][]int
	}{
		{[]int{3, 3, 3}, 4, [][]int{{3, 3, 3}, {2, 2, 3}, {1, 2, 2}, {0, 1, 2}, {0, 0, 1}}},
		{[]int{3, 5, 5}, 6, [][]int{{3, 5, 5}, {2, 4, 5}, {2, 3, 4}, {2, 2, 3}, {1, 2, 2}, {0, 1, 2}, {0, 0, 1}}},
	} {
		if got := M(tc.x); got != tc.m {
			t.Errorf("M%v = %d, seed 004 says %d", tc.x, got, tc.m)
		}
		path := MPath(tc.x)
		for i := range path {
			slices.Sort(path[i])
		}
		if !slices.EqualFunc(path, tc.path, func(a games.Pos, b []int) bool { return slices.Equal(a, b) }) {
			t.Errorf("M-moves from %v: %v, seed 004 prints %v", tc.x, path, tc.path)
		}
	}
	// "In positions (1,1,2) and (1,1,3) the M-move reduces 1,1 to 0,0."
	for _, x := range [][]int{{1, 1, 2}, {1, 1, 3}} {
		next, _ := MMove(x)
		if next[0] != 0 || next[1] != 0 {
			t.Errorf("M-move from %v gives %v, seed 004 says it empties both 1s", x, next)
		}
	}
	if _, ok := MMove([]int{0, 0, 7}); ok {
		t.Error("(0,0,7) is terminal in NIM(3,2) but MMove found a move")
	}
}

func TestWythoffFirstPairs(t *testing.T) {
	want := [][2]int{{0, 0}, {1, 2}, {3, 5}, {4, 7}, {6, 10}, {8, 13}, {9, 15}, {11, 18}, {12, 20}}
	for j, w := range want {
		a, b := WythoffPair(j)
		if a != w[0] || b != w[1] {
			t.Errorf("Wythoff pair %d = (%d,%d), want (%d,%d)", j, a, b, w[0], w[1])
		}
	}
	// Every integer appears exactly once among a_j, b_j (j >= 1): Beatty.
	seen := map[int]int{}
	for j := 1; j <= 1000; j++ {
		a, b := WythoffPair(j)
		seen[a]++
		seen[b]++
	}
	for v := 1; v <= 1000; v++ {
		if seen[v] != 1 {
			t.Fatalf("%d appears %d times among Wythoff pairs 1..1000", v, seen[v])
		}
	}
}

func TestNN53FormIsNNn2Formula(t *testing.T) {
	// Seed 001 derives NN(n,n-2) from NN(5,3) = (a+b,c,a,b,a+c); the two
	// statements and the anchor theorem must agree on NN(5,3).
	for a := 0; a < 5; a++ {
		for b := 0; b < 5; b++ {
			for c := 0; c < 5; c++ {
				p := NN53Position(a, b, c)
				if !NNn2IsP(p) || !NNAnchorIsP(p) {
					t.Errorf("%v = NN53Position(%d,%d,%d): NNn2IsP=%v NNAnchorIsP=%v", p, a, b, c, NNn2IsP(p), NNAnchorIsP(p))
				}
			}
		}
	}
}

func TestZeroFaceIsSeparatedTheorem(t *testing.T) {
	for a := 0; a < 6; a++ {
		for b := 0; b < 6; b++ {
			for c := 0; c < 6; c++ {
				for d := 0; d < 6; d++ {
					v, ok := CNSeparated([]int{0, a, b, 0, c, d})
					if !ok || v != CN62ZeroFace(a, b, c, d) {
						t.Fatalf("CNSeparated(0,%d,%d,0,%d,%d) = %d,%v; face formula %d", a, b, c, d, v, ok, CN62ZeroFace(a, b, c, d))
					}
				}
			}
		}
	}
	if _, ok := CNSeparated([]int{0, 1, 1, 1, 0, 0}); ok {
		t.Error("a positive block of three heaps is outside the separated theorem")
	}
	if _, ok := CNSeparated([]int{1, 1, 2, 1, 1, 1}); ok {
		t.Error("a circle without a zero is outside the separated theorem")
	}
}

func TestMooreIsPSmall(t *testing.T) {
	cases := []struct {
		k    int
		p    []int
		want bool
	}{
		{1, []int{1, 2, 3}, true}, // Bouton: 1^2^3 = 0
		{1, []int{1, 2, 4}, false},
		{2, []int{1, 1, 1}, true},
		{2, []int{1, 1}, false},
		{2, []int{5, 6, 3}, false}, // 101,110,011: every column sums to 2
		{2, []int{5, 6, 3, 7, 7, 7}, false},
		{2, []int{5, 6, 3, 5, 6, 3, 5, 6, 3}, true}, // every column sums to 6
		{3, []int{7, 7, 7, 7}, true},
		{3, []int{7, 7, 7, 6}, false},
	}
	for _, tc := range cases {
		if got := MooreIsP(tc.k, tc.p); got != tc.want {
			t.Errorf("MooreIsP(%d, %v) = %v, want %v", tc.k, tc.p, got, tc.want)
		}
	}
}
