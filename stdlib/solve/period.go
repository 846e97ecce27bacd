package solve

import (
	"fmt"
	"html"
	"strings"

	"grundy/stdlib/games"
)

// Periodicity is what Period found along a line of a table: the least
// period p and, for it, the least preperiod n0 with G(n+p) = G(n) for every
// n0 <= n < Length-p, and whether that is proved for all n.
//
// For a take-and-break game with a finite code of length t whose moves
// leave at most h heaps of one, the periodicity theorem of octal games
// (Guy and Smith; Winning Ways ch. 4) proves the period once it holds for
// n0 <= n < h*n0 + (h-1)*p + t (for h = 2 the classic 2*n0 + p + t; for
// subtraction games, h = 1, n0 + t, or max(n0, 1) + t when d_t is 1 or
// 2). When a move may split a heap, n0 >= 1,
// so that a part shortened by p stays nonempty. Elsewhere a period is only
// observed, never proved.
type Periodicity struct {
	Game    string // the table's game, e.g. "Octal(0.77)"
	Kind    Kind
	Line    string // the line pattern, e.g. "a"
	Length  int    // entries examined: the line at 0..Length-1
	Found   bool   // proved, or holds over three periods and the last quarter of the line
	Period  int    // p, when Found
	Pre     int    // n0, when Found
	Proved  bool   // by the periodicity theorem
	Theorem string // the theorem that applies ("" when none does)
	// ProvedAt is how many entries the proof needs (0..ProvedAt-1): more
	// than Length when the period is observed but not yet proved.
	ProvedAt int
}

// Preperiod is n0, the first entry from which the line repeats.
func (p *Periodicity) Preperiod() int { return p.Pre }

// Period finds the least period of the entries along a line (one free
// letter, e.g. "a" for a one-heap table or "a 1 0"). On a take-and-break
// game's values, with the letter in one heap, the period is proved by the
// octal periodicity theorem when the table reaches far enough; otherwise it
// is reported as observed, not proved.
func (t *Table) Period(line string) (*Periodicity, error) {
	if err := t.noTable("Period"); err != nil {
		return nil, err
	}
	p, err := t.parsePattern(line, 1, "line", t.example(1))
	if err != nil {
		return nil, err
	}
	seq, err := t.Line(line)
	if err != nil {
		return nil, err
	}
	res := &Periodicity{Game: t.name, Kind: t.kind, Line: line, Length: len(seq)}
	uses := 0
	for _, l := range p.letter {
		if l == 0 {
			uses++
		}
	}
	th, ok := periodTheorem(t.game)
	if ok && t.kind == KindValues && uses == 1 {
		res.Theorem = th.text
		th.find(seq, res)
	} else {
		(periodRule{}).find(seq, res)
	}
	return res, nil
}

// periodRule is what a proof needs: with h parts and code length t,
// equality on n0 <= n < h*n0 + (h-1)*p + t; minPre is the least n0 allowed.
//
// For h = 1 the induction starts at n = n0 + t, and with n0 = 0 that is
// n = t, where taking all t tokens is a move of heap t (bit 1 of d_t)
// but leaving p tokens of heap t+p is another (bit 2): unless d_t allows
// both, the two heaps' options differ and n = t must be checked too
// (0.31 is 0 1 2 0 1 0 1 ..., periodic only from 3, though its first five
// values repeat with period 3). takeAll is that floor on the induction's
// start.
type periodRule struct {
	proves  bool
	h, t    int
	minPre  int
	takeAll int
	text    string
}

func periodTheorem(g games.Game) (periodRule, bool) {
	tb, ok := g.(*games.TakeBreak)
	if !ok || tb.UnequalSplits() {
		// Grundy's game: shortening one part by p may make the parts equal,
		// which the theorem's argument cannot allow.
		return periodRule{}, false
	}
	r := periodRule{proves: true, h: tb.MaxParts(), t: tb.CodeLength()}
	if r.h > 1 {
		r.minPre = 1
	}
	if r.h == 1 && tb.Digit(r.t)&3 != 3 {
		r.takeAll = 1
	}
	switch r.h {
	case 1:
		r.text = fmt.Sprintf("subtraction-game periodicity: G(n+p) = G(n) for n0 <= n < n0 + t, t = %d", r.t)
		if r.takeAll > 0 {
			r.text = fmt.Sprintf("subtraction-game periodicity: G(n+p) = G(n) for n0 <= n < max(n0, 1) + t, t = %d (d_t = %d: heaps t and t+p move differently)", r.t, tb.Digit(r.t))
		}
	case 2:
		r.text = fmt.Sprintf("octal periodicity theorem: G(n+p) = G(n) for n0 <= n < 2 n0 + p + t, t = %d", r.t)
	default:
		r.text = fmt.Sprintf("periodicity theorem for three-heap splits: G(n+p) = G(n) for n0 <= n < 3 n0 + 2p + t, t = %d", r.t)
	}
	return r, true
}

// needs is the number of entries a proof of (n0, p) must see: every
// n < h*n0 + (h-1)*p + t, and n + p with it.
func (r periodRule) needs(n0, p int) int {
	return r.h*max(n0, r.takeAll) + (r.h-1)*p + r.t + p
}

// find fills res with the least proved period, or else the least period
// observed over at least three periods and the last quarter of the line
// (and what its proof would need). The quarter keeps a run of equal values
// at the end of a growing line from passing for a period: hexadecimal 0.8
// ends 999 999 999 at heap 3000, and grows by one every three heaps.
func (r periodRule) find(seq []int, res *Periodicity) {
	N := len(seq)
	observed := false
	for p := 1; p < N; p++ {
		n := N - 1 - p
		for n >= 0 && seq[n+p] == seq[n] {
			n--
		}
		n0 := max(n+1, r.minPre)
		if r.proves && r.needs(n0, p) <= N {
			res.Found, res.Period, res.Pre, res.Proved, res.ProvedAt = true, p, n0, true, r.needs(n0, p)
			return
		}
		if !observed && N-n0 >= 3*p && 4*(N-n0) >= N {
			observed = true
			res.Found, res.Period, res.Pre = true, p, n0
			if !r.proves {
				return
			}
			res.ProvedAt = r.needs(n0, p)
		}
	}
}

// String says what was found in one sentence.
func (p *Periodicity) String() string {
	if p == nil {
		return "<nil periodicity>"
	}
	where := fmt.Sprintf("%s %s along %q, entries 0..%d", p.Game, p.Kind, p.Line, p.Length-1)
	switch {
	case !p.Found && p.Theorem == "":
		return fmt.Sprintf("no period found: %s (a period must repeat at least three times, over the last quarter of the line, to be reported; no periodicity theorem applies here)", where)
	case !p.Found:
		return fmt.Sprintf("no period found: %s (a period must be proved, or repeat at least three times over the last quarter of the line, to be reported)", where)
	case p.Proved:
		return fmt.Sprintf("period %d from %d, proved for all n (%s; checked to %d): %s", p.Period, p.Pre, p.Theorem, p.ProvedAt-1, where)
	case p.ProvedAt > 0:
		return fmt.Sprintf("period %d from %d, observed, not proved: %s; the %s needs entries 0..%d", p.Period, p.Pre, where, strings.SplitN(p.Theorem, ":", 2)[0], p.ProvedAt-1)
	}
	return fmt.Sprintf("period %d from %d, observed, not proved (no periodicity theorem applies): %s", p.Period, p.Pre, where)
}

// HTML is the sentence, with the verdict in colour.
func (p *Periodicity) HTML() string {
	if p == nil {
		return "<div>&lt;nil periodicity&gt;</div>"
	}
	color := "#9a6700"
	if p.Proved {
		color = "#1a7f37"
	}
	return fmt.Sprintf("<div style=\"color:%s\">%s</div>", color, html.EscapeString(p.String()))
}
