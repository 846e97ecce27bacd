package known

import (
	"fmt"
	"slices"
	"strings"

	"grundy/stdlib/games"
	"grundy/stdlib/human"
)

// CertRow is one row of a P-position certificate: a follower of the
// certified position and the reply that answers it.
type CertRow struct {
	Follower, Reply games.Pos
}

// Certificate claims that X is a P-position of Circular Nim CN(N,K) by
// listing every follower of X with one reply each; the replies must be
// P-positions by some already proved statement. This is the form of the
// 18-row table of seed 000, which can be checked without trusting a search
// program.
type Certificate struct {
	N, K int
	X    games.Pos
	Rows []CertRow
}

// Seed000Certificate returns the 18-row certificate of seed 000 ("a
// positive nonmirror certificate") that (1,1,1,2,1,2) is a P-position of
// CN(6,2). Every reply is antipodally equal or separated with equal block
// totals, so CN62ProvedP recognises it. A fresh copy each call, so a caller
// may alter it.
func Seed000Certificate() Certificate {
	rows := [][2][6]int{
		{{0, 0, 1, 2, 1, 2}, {0, 0, 1, 1, 0, 2}},
		{{0, 1, 1, 2, 1, 0}, {0, 1, 0, 0, 1, 0}},
		{{0, 1, 1, 2, 1, 1}, {0, 1, 1, 0, 1, 1}},
		{{0, 1, 1, 2, 1, 2}, {0, 1, 1, 0, 0, 2}},
		{{1, 0, 0, 2, 1, 2}, {1, 0, 0, 2, 0, 1}},
		{{1, 0, 1, 2, 1, 2}, {1, 0, 1, 2, 0, 2}},
		{{1, 1, 0, 0, 1, 2}, {0, 1, 0, 0, 1, 0}},
		{{1, 1, 0, 1, 1, 2}, {1, 1, 0, 1, 1, 0}},
		{{1, 1, 0, 2, 1, 2}, {1, 1, 0, 2, 0, 0}},
		{{1, 1, 1, 0, 0, 2}, {0, 1, 1, 0, 0, 2}},
		{{1, 1, 1, 0, 1, 2}, {0, 1, 1, 0, 1, 1}},
		{{1, 1, 1, 1, 0, 2}, {0, 0, 1, 1, 0, 2}},
		{{1, 1, 1, 1, 1, 2}, {1, 1, 1, 1, 1, 1}},
		{{1, 1, 1, 2, 0, 0}, {1, 1, 0, 2, 0, 0}},
		{{1, 1, 1, 2, 0, 1}, {1, 0, 0, 2, 0, 1}},
		{{1, 1, 1, 2, 0, 2}, {1, 0, 1, 2, 0, 2}},
		{{1, 1, 1, 2, 1, 0}, {1, 1, 0, 1, 1, 0}},
		{{1, 1, 1, 2, 1, 1}, {1, 1, 1, 1, 1, 1}},
	}
	c := Certificate{N: 6, K: 2, X: []int{1, 1, 1, 2, 1, 2}}
	for _, r := range rows {
		c.Rows = append(c.Rows, CertRow{Follower: slices.Clone(r[0][:]), Reply: slices.Clone(r[1][:])})
	}
	return c
}

// Check verifies the certificate: the followers listed are exactly the
// distinct followers of X in CN(N,K) (none missing, none repeated, none
// illegal), each reply is a legal move from its follower, and provedP
// accepts each reply. It returns nil when X is thereby proved a P-position,
// or an error naming the first row that fails.
func (c Certificate) Check(provedP func(games.Pos) bool) error {
	if c.N < 1 || c.K < 1 || c.K > c.N {
		return fmt.Errorf("certificate for CN(%d,%d): need 1 <= k <= n", c.N, c.K)
	}
	if err := checkLen(c.X, c.N, fmt.Sprintf("certificate position of CN(%d,%d)", c.N, c.K)); err != nil {
		return err
	}
	sets := circularSets(c.N, c.K)
	want := map[string]bool{}
	for _, y := range followers(c.X, sets) {
		want[games.Pos(y).String()] = true
	}
	seen := map[string]int{}
	for i, r := range c.Rows {
		row := i + 1
		if len(r.Follower) != c.N || len(r.Reply) != c.N {
			return fmt.Errorf("row %d: positions need %s", row, human.Quantity(c.N, "heap"))
		}
		key := r.Follower.String()
		if prev, dup := seen[key]; dup {
			return fmt.Errorf("row %d: follower %v already listed in row %d", row, r.Follower, prev)
		}
		seen[key] = row
		if !want[key] {
			return fmt.Errorf("row %d: %v is not a move from %v in CN(%d,%d)", row, r.Follower, c.X, c.N, c.K)
		}
		if !legalMove(r.Follower, r.Reply, sets) {
			return fmt.Errorf("row %d: reply %v is not a move from %v in CN(%d,%d)", row, r.Reply, r.Follower, c.N, c.K)
		}
		if !provedP(r.Reply) {
			return fmt.Errorf("row %d: reply %v is not a proved P-position", row, r.Reply)
		}
	}
	var missing []string
	for y := range want {
		if _, ok := seen[y]; !ok {
			missing = append(missing, y)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		return fmt.Errorf("%s of %v not listed: %s", human.Quantity(len(missing), "follower"), c.X, strings.Join(missing, " "))
	}
	return nil
}

// Markdown shows the certificate as the two-column table of the paper.
func (c Certificate) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Certificate that %v is P in CN(%d,%d)\n\n| y (follower) | z (reply) |\n|---|---|\n", c.X, c.N, c.K)
	for _, r := range c.Rows {
		fmt.Fprintf(&b, "| %v | %v |\n", r.Follower, r.Reply)
	}
	return b.String()
}

func (c Certificate) String() string {
	return fmt.Sprintf("Certificate{CN(%d,%d) %v, %s}", c.N, c.K, c.X, human.Quantity(len(c.Rows), "row"))
}

// circularSets lists the move sets of CN(n,k): the k consecutive positions
// starting at each i (one set when k = n).
func circularSets(n, k int) [][]int {
	if k >= n {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return [][]int{all}
	}
	var sets [][]int
	for i := 0; i < n; i++ {
		s := make([]int, k)
		for j := range s {
			s[j] = (i + j) % n
		}
		sets = append(sets, s)
	}
	return sets
}

// followers enumerates the distinct followers of x in the SetNim game with
// the given move sets: lower any nonempty part of one set. Only for small
// checks; the solvers live in stdlib/solve.
func followers(x []int, sets [][]int) [][]int {
	seen := map[string]bool{}
	var out [][]int
	for _, s := range sets {
		y := slices.Clone(x)
		var rec func(j int, lowered bool)
		rec = func(j int, lowered bool) {
			if j == len(s) {
				if lowered {
					if key := fmt.Sprint(y); !seen[key] {
						seen[key] = true
						out = append(out, slices.Clone(y))
					}
				}
				return
			}
			i := s[j]
			for v := x[i]; v >= 0; v-- {
				y[i] = v
				rec(j+1, lowered || v < x[i])
			}
			y[i] = x[i]
		}
		rec(0, false)
	}
	return out
}

// legalMove reports whether x -> y is a SetNim move for the given sets.
func legalMove(x, y []int, sets [][]int) bool {
	if len(x) != len(y) {
		return false
	}
	var changed []int
	for i := range x {
		if y[i] > x[i] || y[i] < 0 {
			return false
		}
		if y[i] < x[i] {
			changed = append(changed, i)
		}
	}
	if len(changed) == 0 {
		return false
	}
	for _, s := range sets {
		if subset(changed, s) {
			return true
		}
	}
	return false
}

func subset(a, b []int) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
