package games

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"grundy/stdlib/human"
)

// Rule says how a move uses one move set A of a hypergraph game.
type Rule int

const (
	// RuleSubset: lower any nonempty subset of the heaps of A, each by any
	// positive amount (SetNim; Boros-Gurvich hypergraph Nim of A's closure).
	RuleSubset Rule = iota
	// RuleExact: lower every heap of A, each by any positive amount.
	RuleExact
	// RuleSlow: lower any nonempty subset of the heaps of A by exactly one each.
	RuleSlow
	// RuleSlowExact: lower every heap of A by exactly one.
	RuleSlowExact
)

func (r Rule) String() string {
	switch r {
	case RuleSubset:
		return "subset"
	case RuleExact:
		return "exact"
	case RuleSlow:
		return "slow"
	case RuleSlowExact:
		return "slow exact"
	}
	return "Rule(" + strconv.Itoa(int(r)) + ")"
}

// SetGame is a game on N heaps whose moves act inside one move set at a
// time. Every named Nim relative of the papers is one: Nim, Moore's Nim,
// CN, PN, NN, proper Nim (RuleSubset); exact k-Nim (RuleExact); slow Moore Nim
// (RuleSlowExact over all sets of 1..k heaps); Exact Slow NIM (RuleSlowExact).
type SetGame struct {
	name string
	// N is the number of heaps.
	N int
	// Sets are the move sets, heaps numbered from 0 (the constructors take
	// them numbered from 1, as the papers do).
	Sets [][]int
	// Rule says how a move lowers the heaps of its move set.
	Rule Rule
	// Amounts, when not nil, are the only amounts by which a move may lower
	// a heap (a per-heap subtraction set, ascending; see Subtract).
	Amounts []int
	// given are the distinct move sets as built, when a subset rule
	// dropped some of them from Sets for adding no moves: a set inside
	// another becomes a move of its own again under Exact.
	given [][]int
}

// Name is the game as the papers write it, e.g. "CN(6,2)".
func (g *SetGame) Name() string { return g.name }

// Heaps is the number of heaps, N.
func (g *SetGame) Heaps() int { return g.N }

// Err is nil: a SetGame is only built from valid parameters.
func (g *SetGame) Err() error { return nil }

// String is the game's name.
func (g *SetGame) String() string {
	return g.name
}

// Describe lists the move sets, numbered from 1 as in the papers.
func (g *SetGame) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d %s, rule %s", g.name, g.N, human.Plural(g.N, "heap"), g.Rule)
	if g.Amounts != nil {
		fmt.Fprintf(&b, ", amounts %v", g.Amounts)
	}
	b.WriteString(", move sets")
	for _, a := range g.Sets {
		b.WriteString(" {")
		for i, x := range a {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(x + 1))
		}
		b.WriteByte('}')
	}
	return b.String()
}

// Followers lists the distinct positions reachable from p in one move.
func (g *SetGame) Followers(p Pos) []Pos {
	if len(p) != g.N {
		return nil
	}
	var out []Pos
	seen := map[string]bool{}
	g.VisitFollowers(p, func(q Pos) bool {
		k := q.String()
		if !seen[k] {
			seen[k] = true
			out = append(out, q.Clone())
		}
		return true
	})
	return out
}

// VisitFollowers enumerates followers move set by move set; a position
// reachable through two overlapping sets is visited twice.
func (g *SetGame) VisitFollowers(p Pos, f func(q Pos) bool) {
	if len(p) != g.N {
		return
	}
	q := p.Clone()
	for _, a := range g.Sets {
		if !g.visitSet(p, q, a, f) {
			return
		}
	}
}

func (g *SetGame) visitSet(p, q Pos, a []int, f func(Pos) bool) bool {
	exact, amounts := g.Lowering()
	if amounts != nil {
		return visitAmounts(p, q, a, exact, amounts, f)
	}
	// Odometer over the box below p on a (shifted by one for exact moves).
	top := 0
	if exact {
		top = 1
		for _, i := range a {
			if p[i] == 0 {
				return true
			}
		}
	}
	for _, i := range a {
		q[i] = 0
	}
	defer func() {
		for _, i := range a {
			q[i] = p[i]
		}
	}()
	for {
		same := !exact
		if same {
			for _, i := range a {
				if q[i] != p[i] {
					same = false
					break
				}
			}
		}
		if !same && !f(q) {
			return false
		}
		j := 0
		for ; j < len(a); j++ {
			i := a[j]
			if q[i] < p[i]-top {
				q[i]++
				break
			}
			q[i] = 0
		}
		if j == len(a) {
			return true
		}
	}
}

// visitAmounts lowers heaps of a by amounts from a finite set: each heap
// stays (unless exact) or drops by one of the amounts it can afford, and at
// least one heap drops.
func visitAmounts(p, q Pos, a []int, exact bool, amounts []int, f func(Pos) bool) bool {
	var rec func(j int, lowered bool) bool
	rec = func(j int, lowered bool) bool {
		if j == len(a) {
			if !lowered {
				return true
			}
			return f(q)
		}
		i := a[j]
		if !exact && !rec(j+1, lowered) {
			return false
		}
		for _, s := range amounts {
			if s > p[i] {
				break
			}
			q[i] = p[i] - s
			ok := rec(j+1, true)
			q[i] = p[i]
			if !ok {
				return false
			}
		}
		return true
	}
	return rec(0, false)
}

// Lowering says how a move lowers the heaps of its move set: exact when it
// must lower every heap of the set (otherwise any nonempty part of it), and
// by which amounts (nil: any positive amount; slow rules: {1}).
func (g *SetGame) Lowering() (exact bool, amounts []int) {
	exact = g.Rule == RuleExact || g.Rule == RuleSlowExact
	switch {
	case g.Rule == RuleSlow || g.Rule == RuleSlowExact:
		amounts = []int{1}
	case g.Amounts != nil:
		amounts = g.Amounts
	}
	return exact, amounts
}

// NewSetNim builds the game on n heaps with the given move sets (heaps
// numbered 1..n, as in the papers) and rule. Duplicate sets are dropped;
// under RuleSubset a set inside another adds no moves and is dropped too.
func NewSetNim(name string, n int, rule Rule, sets ...[]int) Game {
	if name == "" {
		name = setNimName(n, rule, sets)
	}
	if n < 1 {
		return badf(name, "needs at least one heap (n=%d)", n)
	}
	if len(sets) == 0 {
		return badf(name, "give at least one move set, e.g. []int{1, 2}")
	}
	if len(sets) > MaxMoveSets {
		return badf(name, "has %d move sets; at most %d are supported", len(sets), MaxMoveSets)
	}
	var norm [][]int
	for _, s := range sets {
		if len(s) == 0 {
			return badf(name, "a move set is empty; every move set needs at least one heap")
		}
		var a []int
		for _, x := range s {
			if x < 1 || x > n {
				return badf(name, "move set %v names heap %d; heaps are numbered 1..%d", s, x, n)
			}
			if !slices.Contains(a, x-1) {
				a = append(a, x-1)
			}
		}
		slices.Sort(a)
		if !slices.ContainsFunc(norm, func(b []int) bool { return slices.Equal(a, b) }) {
			norm = append(norm, a)
		}
	}
	given := norm
	if rule == RuleSubset {
		var maximal [][]int
		for i, a := range norm {
			inside := false
			for j, b := range norm {
				if i != j && len(b) > len(a) && isSubset(a, b) {
					inside = true
					break
				}
			}
			if !inside {
				maximal = append(maximal, a)
			}
		}
		norm = maximal
	}
	g := &SetGame{name: name, N: n, Sets: norm, Rule: rule}
	if len(given) != len(norm) {
		g.given = given
	}
	return g
}

func isSubset(a, b []int) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

func setNimName(n int, rule Rule, sets [][]int) string {
	var b strings.Builder
	switch rule {
	case RuleSubset:
		b.WriteString("SetNim(")
	case RuleExact:
		b.WriteString("ExactSetNim(")
	case RuleSlow:
		b.WriteString("SlowSetNim(")
	case RuleSlowExact:
		b.WriteString("SlowExactSetNim(")
	default:
		b.WriteString("SetNim[" + rule.String() + "](")
	}
	b.WriteString(strconv.Itoa(n))
	b.WriteByte(':')
	for _, s := range sets {
		b.WriteByte(' ')
		for i, x := range s {
			if n > 9 && i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(x))
		}
	}
	b.WriteByte(')')
	return b.String()
}

// SetNim is SN(n, A): heaps numbered 1..n, a move lowers any nonempty
// subset of the heaps of one move set, each by any positive amount.
// Example: games.SetNim(4, []int{1, 2}, []int{2, 3}, []int{3, 4}, []int{4, 1}).
func SetNim(n int, sets ...[]int) Game { return NewSetNim("", n, RuleSubset, sets...) }

func ksubsets(n, k int) [][]int {
	var out [][]int
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) == k {
			out = append(out, slices.Clone(cur))
			return
		}
		for x := start; x <= n; x++ {
			rec(x+1, append(cur, x))
		}
	}
	rec(1, nil)
	return out
}

// MaxMoveSets bounds how many move sets a game may have. A family larger
// than this could not be solved at any useful bound, and merely building it
// (Moore(40,20) has 1.4e11 sets) would stall a cell.
const MaxMoveSets = 20000

// checkSubsets refuses families of k-subsets (k in lo..hi) too large to build.
func checkSubsets(name string, n, lo, hi int) Game {
	if binomialSum(n, lo, hi) > MaxMoveSets {
		return badf(name, "has more than %d move sets (subsets of %d heaps); use fewer heaps", MaxMoveSets, n)
	}
	return nil
}

func checkNK(name string, n, k int) Game {
	if n < 1 {
		return badf(name, "needs n >= 1 heaps (got n=%d)", n)
	}
	if k < 1 {
		return badf(name, "k=%d: a move uses at least one heap; use 1 <= k <= n", k)
	}
	if k > n {
		return badf(name, "k=%d > n=%d: a move cannot use more heaps than there are; use 1 <= k <= %d", k, n, n)
	}
	return nil
}

func nk(family string, n, k int) string { return fmt.Sprintf("%s(%d,%d)", family, n, k) }

// Nim is Bouton's Nim on n heaps: lower one heap by any positive amount.
func Nim(n int) Game {
	name := fmt.Sprintf("Nim(%d)", n)
	if n < 1 {
		return badf(name, "needs n >= 1 heaps")
	}
	sets := make([][]int, n)
	for i := range sets {
		sets[i] = []int{i + 1}
	}
	return NewSetNim(name, n, RuleSubset, sets...)
}

// Moore is Moore's Nim_k on n heaps: lower at most k heaps (at least one),
// each by any positive amount.
func Moore(n, k int) Game {
	name := nk("Moore", n, k)
	if b := checkNK(name, n, k); b != nil {
		return b
	}
	if b := checkSubsets(name, n, k, k); b != nil {
		return b
	}
	return NewSetNim(name, n, RuleSubset, ksubsets(n, k)...)
}

// CircularNim is CN(n,k): n heaps on a circle (zero heaps keep their
// places); a move lowers heaps among k consecutive places.
func CircularNim(n, k int) Game {
	name := nk("CN", n, k)
	if b := checkNK(name, n, k); b != nil {
		return b
	}
	var sets [][]int
	for i := 0; i < n; i++ {
		var a []int
		for j := 0; j < k; j++ {
			a = append(a, (i+j)%n+1)
		}
		sets = append(sets, a)
	}
	return NewSetNim(name, n, RuleSubset, sets...)
}

// CN is CircularNim, as the papers abbreviate it.
func CN(n, k int) Game { return CircularNim(n, k) }

func pathSets(n, k int) [][]int {
	var sets [][]int
	for i := 1; i+k-1 <= n; i++ {
		var a []int
		for j := i; j < i+k; j++ {
			a = append(a, j)
		}
		sets = append(sets, a)
	}
	return sets
}

// PathNim is PN(n,k): n heaps on a path; a move lowers heaps among k
// consecutive places.
func PathNim(n, k int) Game {
	name := nk("PN", n, k)
	if b := checkNK(name, n, k); b != nil {
		return b
	}
	return NewSetNim(name, n, RuleSubset, pathSets(n, k)...)
}

// PN is PathNim.
func PN(n, k int) Game { return PathNim(n, k) }

// NecklaceNim is NN(n,k) (seed 001): Path Nim PN(n,k) plus the move set
// {1, n} on the two end heaps. NecklaceNim(n, k, c) is the broader clasp of
// the paper's section 6: instead of {1, n} the windows of c consecutive
// heaps across the clasp (n-c+2 ... n, 1 ... c-1), i.e. the sets
// {n-j+1..n} u {1..c-j} for j = 1..c-1; it is the sub-game of CN(n+k-c, k)
// on positions with k-c consecutive zeros, and NN(n,k,2) = NN(n,k).
func NecklaceNim(n, k int, c ...int) Game {
	if len(c) > 1 {
		return badf(fmt.Sprintf("NN(%d,%d,...)", n, k), "takes at most one clasp width c; got %d values", len(c))
	}
	cl := 2
	name := nk("NN", n, k)
	if len(c) == 1 {
		cl = c[0]
		name = fmt.Sprintf("NN(%d,%d,%d)", n, k, cl)
	}
	if b := checkNK(name, n, k); b != nil {
		return b
	}
	if n < 2 {
		return badf(name, "needs n >= 2 heaps for the clasp")
	}
	if cl < 2 || cl > k {
		return badf(name, "clasp width c=%d; use 2 <= c <= k=%d", cl, k)
	}
	sets := pathSets(n, k)
	for j := 1; j <= cl-1; j++ {
		var a []int
		for x := n - j + 1; x <= n; x++ {
			a = append(a, x)
		}
		for x := 1; x <= cl-j; x++ {
			a = append(a, x)
		}
		sets = append(sets, a)
	}
	return NewSetNim(name, n, RuleSubset, sets...)
}

// NN is NecklaceNim.
func NN(n, k int, c ...int) Game { return NecklaceNim(n, k, c...) }

// Proper is proper Nim on n heaps (seed 002): lower any nonempty proper
// subset of the heaps (1 to n-1 of them), each by any positive amount.
func Proper(n int) Game {
	name := fmt.Sprintf("Proper(%d)", n)
	if n < 2 {
		return badf(name, "needs n >= 2 heaps (a proper nonempty subset of 1 heap does not exist)")
	}
	if b := checkSubsets(name, n, n-1, n-1); b != nil {
		return b
	}
	return NewSetNim(name, n, RuleSubset, ksubsets(n, n-1)...)
}

// ExactNim is exact k-Nim: lower exactly k heaps, each by any positive amount.
func ExactNim(n, k int) Game {
	name := nk("Exact", n, k)
	if b := checkNK(name, n, k); b != nil {
		return b
	}
	if b := checkSubsets(name, n, k, k); b != nil {
		return b
	}
	return NewSetNim(name, n, RuleExact, ksubsets(n, k)...)
}

// SlowMoore is slow Moore Nim (seed 002): lower 1 to k heaps by exactly one each.
func SlowMoore(n, k int) Game {
	name := nk("SlowMoore", n, k)
	if b := checkNK(name, n, k); b != nil {
		return b
	}
	if b := checkSubsets(name, n, 1, k); b != nil {
		return b
	}
	var sets [][]int
	for j := 1; j <= k; j++ {
		sets = append(sets, ksubsets(n, j)...)
	}
	return NewSetNim(name, n, RuleSlowExact, sets...)
}

// SlowExact is Exact Slow NIM(n,k) (seeds 002, 004): lower exactly k heaps
// by exactly one each.
func SlowExact(n, k int) Game {
	name := nk("SlowExact", n, k)
	if b := checkNK(name, n, k); b != nil {
		return b
	}
	if b := checkSubsets(name, n, k, k); b != nil {
		return b
	}
	return NewSetNim(name, n, RuleSlowExact, ksubsets(n, k)...)
}
