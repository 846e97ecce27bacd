package solve

import (
	"fmt"
	"html"
	"strings"

	"grundy/stdlib/human"

	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// MaxCounterexamples is how many counterexamples a Comparison keeps (the
// smallest, by total number of tokens and then lexicographically); Disagree
// counts all of them.
const MaxCounterexamples = 8

// Comparison is the verdict of comparing a formula with every position of a
// table (or of one pattern of it): what was checked, how much agrees, and the
// smallest counterexamples. It shows itself as a sentence (String) or a small
// table (HTML); in code, use OK and the fields.
type Comparison struct {
	Name    string // the formula's name as given, e.g. "(a+b) xor (c+d)"
	Game    string // the table's game, e.g. "CN(6,2)"
	Kind    Kind   // the table's kind
	Pattern string // the pattern checked on, "" for the whole table
	Max     []int  // the table's bound per heap
	// P is true for CheckP: Table and Formula of each counterexample are then
	// outcomes, 0 for P and 1 for N.
	P               bool
	Checked         int              // positions compared
	Agree           int              // positions where formula and table agree
	Disagree        int              // positions where they differ
	Counterexamples []Counterexample // the smallest MaxCounterexamples of them
	// Err is set when the comparison stopped early (cancelled); the counts
	// then cover only the positions compared so far.
	Err error
}

// Counterexample is one position where a formula and the table differ.
type Counterexample struct {
	Pos     games.Pos
	Table   int // the table's entry (for CheckP: 0 for P, 1 for N)
	Formula int // the formula's answer, in the same terms
}

// OK reports whether the formula agrees with the table at every position
// checked and the whole range was checked.
func (c *Comparison) OK() bool { return c != nil && c.Err == nil && c.Disagree == 0 }

// Check compares a value formula with the table's entry (Grundy value,
// outcome or remoteness, whatever the table holds) at every position.
//
//	t.Check("(a+b) xor (c+d)", func(p games.Pos) int { return (p[1] + p[2]) ^ (p[4] + p[5]) })
func (t *Table) Check(name string, formula func(p games.Pos) int) *Comparison {
	t.need("Check")
	c := t.newComparison(name, "", false)
	t.compare(c, t.allIndices, func(p games.Pos, idx int) (int, int) { return t.get(idx), formula(p) })
	return c
}

// CheckP compares a P-position formula (true for P) with the table's
// outcomes at every position; it works with tables of any kind.
//
//	t.CheckP("all heaps equal", known.CN32IsP)
func (t *Table) CheckP(name string, isP func(p games.Pos) bool) *Comparison {
	t.need("CheckP")
	c := t.newComparison(name, "", true)
	t.compare(c, t.allIndices, t.outcomePair(isP))
	return c
}

// CheckOn is Check restricted to the positions matching a pattern, written
// as for Face but with any number of free letters: "0 a b 0 c d" checks
// every position with heaps 1 and 4 empty; a repeated letter makes heaps
// equal ("a b c a b c"). The formula still receives the whole position.
func (t *Table) CheckOn(pattern, name string, formula func(p games.Pos) int) (*Comparison, error) {
	if err := t.noTable("CheckOn"); err != nil {
		return nil, err
	}
	each, err := t.patternIndices(pattern)
	if err != nil {
		return nil, err
	}
	c := t.newComparison(name, pattern, false)
	t.compare(c, each, func(p games.Pos, idx int) (int, int) { return t.get(idx), formula(p) })
	return c, nil
}

// CheckPOn is CheckP restricted to the positions matching a pattern (see
// CheckOn).
func (t *Table) CheckPOn(pattern, name string, isP func(p games.Pos) bool) (*Comparison, error) {
	if err := t.noTable("CheckPOn"); err != nil {
		return nil, err
	}
	each, err := t.patternIndices(pattern)
	if err != nil {
		return nil, err
	}
	c := t.newComparison(name, pattern, true)
	t.compare(c, each, t.outcomePair(isP))
	return c, nil
}

func (t *Table) newComparison(name, pattern string, p bool) *Comparison {
	return &Comparison{Name: name, Game: t.name, Kind: t.kind, Pattern: pattern, Max: t.Max(), P: p}
}

func (t *Table) outcomePair(isP func(games.Pos) bool) func(games.Pos, int) (int, int) {
	return func(p games.Pos, idx int) (int, int) {
		table, formula := 1, 1
		if t.isPAt(idx) {
			table = 0
		}
		if isP(p) {
			formula = 0
		}
		return table, formula
	}
}

func (t *Table) isPAt(idx int) bool {
	v := t.get(idx)
	if t.kind == KindRemoteness {
		return v%2 == 0
	}
	return v == 0
}

// allIndices yields every index of the table; yield returns false to stop.
func (t *Table) allIndices(yield func(idx int) bool) {
	for idx := 0; idx < t.size; idx++ {
		if !yield(idx) {
			return
		}
	}
}

// patternIndices parses a pattern with any number of free letters and
// returns an iterator over the indices of the positions matching it.
func (t *Table) patternIndices(spec string) (func(yield func(idx int) bool), error) {
	p, err := t.parsePattern(spec, -1, "check", t.example(2))
	if err != nil {
		return nil, err
	}
	return func(yield func(idx int) bool) {
		t.assignments(p, func(_ []int, idx int) bool { return yield(idx) })
	}, nil
}

// assignments calls yield with every assignment of the pattern's letters
// (the last letter fastest) and the index of the position it names.
func (t *Table) assignments(p *pattern, yield func(vals []int, idx int) bool) {
	vals := make([]int, len(p.letters))
	for {
		if !yield(vals, t.patternIndex(p, vals)) {
			return
		}
		i := len(vals) - 1
		for ; i >= 0; i-- {
			if vals[i] < p.limit[i] {
				vals[i]++
				break
			}
			vals[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

func (t *Table) compare(c *Comparison, each func(yield func(idx int) bool), pair func(p games.Pos, idx int) (table, formula int)) {
	const poll = 1 << 12
	each(func(idx int) bool {
		if c.Checked%poll == poll-1 {
			if err := progress.Err(); err != nil {
				c.Err = err
				return false
			}
		}
		p := t.pos(idx)
		table, formula := pair(p, idx)
		c.Checked++
		if table == formula {
			c.Agree++
			return true
		}
		c.Disagree++
		c.keep(Counterexample{Pos: p, Table: table, Formula: formula})
		return true
	})
}

// keep inserts e among the smallest MaxCounterexamples, smallest first.
func (c *Comparison) keep(e Counterexample) {
	c.Counterexamples = keepSmallest(c.Counterexamples, e, func(e Counterexample) games.Pos { return e.Pos })
}

// verdictHTML opens a verdict's div: the name in bold, the verdict in green
// when it holds and red when not, what was checked in small type.
func verdictHTML(name string, ok bool, verdict, where string) string {
	color := "#1a7f37"
	if !ok {
		color = "#cf222e"
	}
	return fmt.Sprintf("<div><b>%s</b>: <span style=\"color:%s\">%s</span> <small>(%s)</small>",
		html.EscapeString(name), color, html.EscapeString(verdict), html.EscapeString(where))
}

// entry writes a table entry or formula answer in the comparison's terms.
func (c *Comparison) entry(v int) string {
	if c.P {
		return [2]string{"P", "N"}[min(max(v, 0), 1)]
	}
	return fmt.Sprint(v)
}

// where says what was compared, e.g. `CN(6,2) values on "0 a b 0 c d", heaps 0..8`.
func (c *Comparison) where() string {
	what := c.Kind.String()
	if c.P {
		what = "outcomes"
	}
	s := c.Game + " " + what
	if c.Pattern != "" {
		s += fmt.Sprintf(" on %q", c.Pattern)
	}
	return s + ", " + (&Table{max: c.Max}).boundText()
}

func (c *Comparison) verdict() string {
	switch {
	case c.Disagree > 0:
		return fmt.Sprintf("disagrees at %s of %s (agrees at %s)", human.Count(c.Disagree), human.Quantity(c.Checked, "position"), human.Count(c.Agree))
	case c.Err != nil:
		return fmt.Sprintf("agrees at the %s checked before it stopped (%v)", human.Quantity(c.Checked, "position"), c.Err)
	}
	if c.Checked == 1 {
		return "agrees at the one position"
	}
	return fmt.Sprintf("agrees at all %s", human.Quantity(c.Checked, "position"))
}

// String is one line when the formula agrees; otherwise it also lists the
// smallest counterexamples with the table's entry and the formula's.
func (c *Comparison) String() string {
	if c == nil {
		return "<nil comparison>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s (%s)", c.Name, c.verdict(), c.where())
	for _, e := range c.Counterexamples {
		fmt.Fprintf(&b, "\n  %v: table %s, formula %s", e.Pos, c.entry(e.Table), c.entry(e.Formula))
	}
	if more := c.Disagree - len(c.Counterexamples); more > 0 {
		fmt.Fprintf(&b, "\n  ... and %s more", human.Count(more))
	}
	return b.String()
}

// HTML shows the verdict in green or red, and the counterexamples as a table.
func (c *Comparison) HTML() string {
	if c == nil {
		return "<div>&lt;nil comparison&gt;</div>"
	}
	var b strings.Builder
	b.WriteString(verdictHTML(c.Name, c.OK(), c.verdict(), c.where()))
	if len(c.Counterexamples) > 0 {
		b.WriteString("<table><tr><th>position</th><th>table</th><th>formula</th></tr>")
		for _, e := range c.Counterexamples {
			fmt.Fprintf(&b, "<tr><td>%s</td><td style=\"text-align:right\">%s</td><td style=\"text-align:right\">%s</td></tr>",
				html.EscapeString(e.Pos.String()), c.entry(e.Table), c.entry(e.Formula))
		}
		if more := c.Disagree - len(c.Counterexamples); more > 0 {
			fmt.Fprintf(&b, "<tr><td colspan=\"3\">… and %s more</td></tr>", human.Count(more))
		}
		b.WriteString("</table>")
	}
	b.WriteString("</div>")
	return b.String()
}
