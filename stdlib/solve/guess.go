package solve

import (
	"cmp"
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"

	"grundy/stdlib/human"
	"grundy/stdlib/progress"
)

// Guesses is what a formula search found on a face or a line: the smallest
// formulas, in Go expression syntax over the pattern's letters, that equal
// the table at every cell, or how far the search looked when none fits.
type Guesses struct {
	Game     string
	Kind     Kind
	Pattern  string
	Letters  []string
	Cells    int      // positions on the pattern
	Formulas []string // the formulas that fit, smallest first
	Size     int      // their size (leaves and operators), 0 when none fits
	// Complete is the largest size searched in full; Kept counts the
	// distinct expressions (by their values) kept to build larger ones.
	Complete int
	Kept     int
	// Stopped says why the search ended early ("" when it ran to MaxSize).
	Stopped string
}

// Found reports whether some formula fits.
func (g *Guesses) Found() bool { return g != nil && len(g.Formulas) > 0 }

// Limits of the formula search: expressions up to guessMaxSize nodes, with
// the constants 0..guessConstants-1, at most guessBudget cell evaluations
// (about a second) and guessKeepBytes of kept expressions' values.
const (
	guessMaxSize   = 9
	guessConstants = 6
	guessBudget    = 250_000_000
	maxGuesses     = 10
)

// guessKeepBytes is a variable so that a test can reach it quickly.
var guessKeepBytes = 64 << 20

// guessOp is a binary operator of Go syntax (or the builtins min, max).
// cell computes it at one cell, false when there is no value (a division
// by zero, a negative or huge shift, a result past 32 bits).
type guessOp struct {
	sym         string
	commutative bool
	call        bool // printed as sym(l, r)
	cell        func(a, b int64) (int64, bool)
}

// fits keeps values within int32, so that no formula overflows in Go.
func fits(v int64) (int64, bool) { return v, v < 1<<31 && v >= -(1<<31) }

var guessOps = []guessOp{
	{"+", true, false, func(a, b int64) (int64, bool) { return fits(a + b) }},
	{"-", false, false, func(a, b int64) (int64, bool) { return fits(a - b) }},
	{"*", true, false, func(a, b int64) (int64, bool) { return fits(a * b) }},
	{"/", false, false, func(a, b int64) (int64, bool) {
		if b == 0 {
			return 0, false
		}
		return a / b, true
	}},
	{"%", false, false, func(a, b int64) (int64, bool) {
		if b == 0 {
			return 0, false
		}
		return a % b, true
	}},
	{"^", true, false, func(a, b int64) (int64, bool) { return a ^ b, true }},
	{"&", true, false, func(a, b int64) (int64, bool) { return a & b, true }},
	{"|", true, false, func(a, b int64) (int64, bool) { return a | b, true }},
	{"<<", false, false, func(a, b int64) (int64, bool) {
		if b < 0 || b > 31 {
			return 0, false
		}
		return fits(a << b)
	}},
	{">>", false, false, func(a, b int64) (int64, bool) {
		if b < 0 || b > 62 {
			return 0, false
		}
		return a >> b, true
	}},
	{"min", true, true, func(a, b int64) (int64, bool) { return min(a, b), true }},
	{"max", true, true, func(a, b int64) (int64, bool) { return max(a, b), true }},
}

// eval fills out with op over a and b at every cell.
func (op *guessOp) eval(a, b, out []int64) bool {
	for i := range out {
		v, ok := op.cell(a[i], b[i])
		if !ok {
			return false
		}
		out[i] = v
	}
	return true
}

// matches reports whether op over a and b equals want at every cell,
// stopping at the first cell that differs (most candidates fail at once).
func (op *guessOp) matches(a, b, want []int64) bool {
	for i := range want {
		if v, ok := op.cell(a[i], b[i]); !ok || v != want[i] {
			return false
		}
	}
	return true
}

// guessExpr is one expression: its text, whether it is a binary operator
// (so a parent parenthesises it), and its values at every cell.
type guessExpr struct {
	text   string
	binary bool
	vals   []int64
}

func (e *guessExpr) operand() string {
	if e.binary {
		return "(" + e.text + ")"
	}
	return e.text
}

// Guess searches for the smallest formulas that equal the table on a
// pattern with one to three free letters (a face "0 a b 0 2 1", a line "a 1
// 0"), bottom-up by size: letters and the constants 0..5, then every
// operator of + - * / % ^ & | << >> min max on smaller formulas. Two
// formulas that agree on every cell are the same to the search, so only the
// first is kept; commutative operators are tried in one order. On CN(6,2)
// the face "0 a b 0 2 1" gives (a+b)^3.
func (t *Table) Guess(pattern string) (*Guesses, error) {
	if err := t.noTable("Guess"); err != nil {
		return nil, err
	}
	p, err := t.parsePattern(pattern, -1, "guess", t.example(2))
	if err != nil {
		return nil, err
	}
	if len(p.letters) < 1 || len(p.letters) > 3 {
		return nil, fmt.Errorf("guess pattern %q has %d free letters; give one to three, e.g. %q", pattern, len(p.letters), t.example(2))
	}
	g := &Guesses{Game: t.name, Kind: t.kind, Pattern: pattern, Letters: p.letters}
	// The cells and the letters' values at each.
	var target []int64
	letterVals := make([][]int64, len(p.letters))
	t.assignments(p, func(vals []int, idx int) bool {
		target = append(target, int64(t.get(idx)))
		for i, v := range vals {
			letterVals[i] = append(letterVals[i], int64(v))
		}
		return true
	})
	g.Cells = len(target)
	s := newGuessSearch(target)
	for i, l := range p.letters {
		s.add(1, &guessExpr{text: l, vals: letterVals[i]})
	}
	for c := range guessConstants {
		v := make([]int64, g.Cells)
		for i := range v {
			v[i] = int64(c)
		}
		s.add(1, &guessExpr{text: strconv.Itoa(c), vals: v})
	}
	g.Complete = 1
	// A size can be searched in full while every smaller size is kept.
	for size := 3; size <= guessMaxSize && len(s.found) == 0 && s.stored >= size-2; size += 2 {
		if !s.level(size) {
			break
		}
		g.Complete = size
	}
	if s.stopped == "" && len(s.found) == 0 && g.Complete < guessMaxSize {
		s.stopped = fmt.Sprintf("size %d needs the formulas of size %d kept, more than the memory budget (%s expressions)", g.Complete+2, g.Complete, human.Count(s.kept))
	}
	if len(s.found) > 0 {
		g.Size = s.foundSize
		slices.SortFunc(s.found, func(a, b string) int { return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(a, b)) })
		g.Formulas = slices.Compact(s.found)
		if len(g.Formulas) > maxGuesses {
			g.Formulas = g.Formulas[:maxGuesses]
		}
	}
	g.Kept, g.Stopped = s.kept, s.stopped
	return g, nil
}

// guessSearch holds the expressions found so far, by size, deduplicated by
// their values.
type guessSearch struct {
	target    []int64
	bySize    map[int][]*guessExpr
	seen      map[uint64][]*guessExpr
	kept      int
	work      int
	found     []string
	foundSize int
	stopped   string
	stored    int // the largest size whose expressions are all kept
}

func newGuessSearch(target []int64) *guessSearch {
	return &guessSearch{target: target, bySize: map[int][]*guessExpr{}, seen: map[uint64][]*guessExpr{}, stored: 1}
}

// hash mixes the values (FNV-1a over the 64-bit words); equal hashes are
// compared in full.
func (s *guessSearch) hash(v []int64) uint64 {
	h := uint64(14695981039346656037)
	for _, x := range v {
		h = (h ^ uint64(x)) * 1099511628211
	}
	return h
}

// add keeps e unless an expression with the same values is known; a match
// with the target is recorded (all matches of the first size are kept).
func (s *guessSearch) add(size int, e *guessExpr) { s.addHashed(size, s.hash(e.vals), e) }

func (s *guessSearch) addHashed(size int, h uint64, e *guessExpr) {
	if slices.Equal(e.vals, s.target) {
		s.record(size, e.text)
	}
	if s.knownAt(h, e.vals) {
		return
	}
	s.seen[h] = append(s.seen[h], e)
	s.bySize[size] = append(s.bySize[size], e)
	s.kept++
}

// level tries every expression of the given size built from smaller ones,
// keeping the new ones while memory allows and, past that, only checking
// them against the target. It reports whether the size was searched in
// full (false: the time budget ran out, or the search was cancelled).
func (s *guessSearch) level(size int) bool {
	n := len(s.target)
	buf := make([]int64, n)
	store := true
	tried := 0
	for ls := size - 2; ls >= 1; ls -= 2 {
		rs := size - 1 - ls
		for oi := range guessOps {
			op := &guessOps[oi]
			if op.commutative && ls < rs {
				continue // the larger operand goes left: (a+b)^3, not 3^(a+b)
			}
			for i, l := range s.bySize[ls] {
				for j, r := range s.bySize[rs] {
					if op.commutative && ls == rs && j < i {
						continue
					}
					// Work is counted in cells, as if every candidate were
					// evaluated in full: a deterministic bound on time.
					if s.work += n; s.work > guessBudget {
						s.stopped = fmt.Sprintf("stopped in size %d after %s of that size (the time budget)", size, human.Quantity(tried, "formula"))
						return false
					}
					tried++
					if s.work%(1<<22) < n {
						if err := progress.Err(); err != nil {
							s.stopped = err.Error()
							return false
						}
					}
					if store && s.kept*n*8 >= guessKeepBytes {
						store = false
					}
					if !store {
						if op.matches(l.vals, r.vals, s.target) {
							s.record(size, s.text(op, l, r))
						}
						continue
					}
					if !op.eval(l.vals, r.vals, buf) {
						continue
					}
					h := s.hash(buf)
					if s.knownAt(h, buf) && !slices.Equal(buf, s.target) {
						continue
					}
					s.addHashed(size, h, &guessExpr{text: s.text(op, l, r), binary: !op.call, vals: slices.Clone(buf)})
				}
			}
		}
	}
	if store {
		s.stored = size
	}
	return true
}

func (s *guessSearch) text(op *guessOp, l, r *guessExpr) string {
	if op.call {
		return op.sym + "(" + l.text + ", " + r.text + ")"
	}
	return l.operand() + op.sym + r.operand()
}

// record keeps a formula that fits, if it is of the first size found.
func (s *guessSearch) record(size int, text string) {
	if s.foundSize == 0 || s.foundSize == size {
		s.foundSize = size
		s.found = append(s.found, text)
	}
}

// knownAt reports whether an expression with these values (hash h) is
// kept already.
func (s *guessSearch) knownAt(h uint64, v []int64) bool {
	for _, o := range s.seen[h] {
		if slices.Equal(o.vals, v) {
			return true
		}
	}
	return false
}

func (g *Guesses) where() string {
	return fmt.Sprintf("%s %s on %q, %s", g.Game, g.Kind, g.Pattern, human.Quantity(g.Cells, "cell"))
}

// String lists the formulas, or says how far the search looked.
func (g *Guesses) String() string {
	if g == nil {
		return "<nil guesses>"
	}
	if !g.Found() {
		s := fmt.Sprintf("no formula of size <= %d fits %s (searched every formula up to size %d over %s; %s distinct expressions kept)",
			g.Complete, g.where(), g.Complete, strings.Join(g.Letters, ", "), human.Count(g.Kept))
		if g.Stopped != "" {
			s += "; " + g.Stopped
		}
		return s
	}
	return fmt.Sprintf("%s: %s (size %d; %s)", human.Quantity(len(g.Formulas), "formula fits", "formulas fit"), strings.Join(g.Formulas, "   "), g.Size, g.where())
}

// HTML lists the formulas in code type.
func (g *Guesses) HTML() string {
	if g == nil {
		return "<div>&lt;nil guesses&gt;</div>"
	}
	if !g.Found() {
		return "<div>" + html.EscapeString(g.String()) + "</div>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<div>%s on <small>%s</small>:<ul>", human.Quantity(len(g.Formulas), "formula fits", "formulas fit"), html.EscapeString(g.where()))
	for _, f := range g.Formulas {
		fmt.Fprintf(&b, "<li><code>%s</code></li>", html.EscapeString(f))
	}
	b.WriteString("</ul></div>")
	return b.String()
}
