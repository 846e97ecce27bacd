package solve

import (
	"fmt"
	"html"
	"strings"

	"grundy/stdlib/games"
	"grundy/stdlib/human"
)

// PSetComparison compares the P-positions of two tables with the same
// number of heaps on the box they share: how many positions are P in both,
// and, smallest first, those P in one and not the other.
type PSetComparison struct {
	A, B    string // what each table is, e.g. "CN(6,2) values, heaps 0..3"
	Box     []int  // the common bound per heap
	Checked int
	BothP   int
	OnlyA   int // P in A, N in B
	OnlyB   int
	// The smallest MaxCounterexamples positions of each difference.
	OnlyInA, OnlyInB []games.Pos
}

// Same reports whether the two P-sets agree on the common box.
func (c *PSetComparison) Same() bool { return c != nil && c.OnlyA == 0 && c.OnlyB == 0 }

// CompareP compares the P-positions of t and u (tables of any kinds) on the
// positions both contain.
//
//	a, _ := solve.Outcomes(games.Slow(games.CN(5, 2)), 4)
//	b, _ := solve.Outcomes(games.CN(5, 2), 4)
//	a.CompareP(b)
func (t *Table) CompareP(u *Table) (*PSetComparison, error) {
	if err := t.noTable("CompareP"); err != nil {
		return nil, err
	}
	if u == nil {
		return nil, fmt.Errorf("solve: t.CompareP(u): the other table u is missing (nil): the call that made it failed; print that call's error to see why")
	}
	if len(t.max) != len(u.max) {
		return nil, fmt.Errorf("CompareP: %s has positions of %d heaps, %s of %d; compare tables of the same shape", t.name, len(t.max), u.name, len(u.max))
	}
	c := &PSetComparison{A: t.describe(), B: u.describe(), Box: make([]int, len(t.max))}
	for i := range c.Box {
		c.Box[i] = min(t.max[i], u.max[i])
	}
	box := &Table{max: c.Box}
	box.layout()
	for idx := 0; idx < box.size; idx++ {
		p := box.pos(idx)
		i, _ := t.index(p)
		j, _ := u.index(p)
		a, b := t.isPAt(i), u.isPAt(j)
		c.Checked++
		switch {
		case a && b:
			c.BothP++
		case a:
			c.OnlyA++
			c.OnlyInA = keepSmallest(c.OnlyInA, p, func(p games.Pos) games.Pos { return p })
		case b:
			c.OnlyB++
			c.OnlyInB = keepSmallest(c.OnlyInB, p, func(p games.Pos) games.Pos { return p })
		}
	}
	return c, nil
}

func (t *Table) describe() string { return fmt.Sprintf("%s %s, %s", t.name, t.kind, t.boundText()) }

func (c *PSetComparison) verdict() string {
	box := (&Table{max: c.Box}).boundText()
	if c.Same() {
		return fmt.Sprintf("the same P-positions (%s of %s, %s)", human.Count(c.BothP), human.Count(c.Checked), box)
	}
	return fmt.Sprintf("P in both at %s of %s (%s); P only in the first at %s, only in the second at %s",
		human.Count(c.BothP), human.Quantity(c.Checked, "position"), box, human.Count(c.OnlyA), human.Count(c.OnlyB))
}

// String is the verdict, then the smallest differences on each side.
func (c *PSetComparison) String() string {
	if c == nil {
		return "<nil P-set comparison>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s vs %s: %s", c.A, c.B, c.verdict())
	for _, side := range []struct {
		name string
		n    int
		ps   []games.Pos
	}{{"P only in " + c.A, c.OnlyA, c.OnlyInA}, {"P only in " + c.B, c.OnlyB, c.OnlyInB}} {
		if side.n == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n  %s:", side.name)
		for _, p := range side.ps {
			fmt.Fprintf(&b, " %v", p)
		}
		if more := side.n - len(side.ps); more > 0 {
			fmt.Fprintf(&b, " ... and %s more", human.Count(more))
		}
	}
	return b.String()
}

// HTML is the verdict in colour, then the smallest differences of each
// side in a two-column table.
func (c *PSetComparison) HTML() string {
	if c == nil {
		return "<div>&lt;nil P-set comparison&gt;</div>"
	}
	var b strings.Builder
	b.WriteString(verdictHTML("P-sets", c.Same(), c.verdict(), c.A+" vs "+c.B))
	if !c.Same() {
		b.WriteString("<table><tr><th>P only in the first</th><th>P only in the second</th></tr><tr>")
		for _, side := range []struct {
			n  int
			ps []games.Pos
		}{{c.OnlyA, c.OnlyInA}, {c.OnlyB, c.OnlyInB}} {
			b.WriteString("<td style=\"font-family:monospace;vertical-align:top\">")
			for _, p := range side.ps {
				b.WriteString(html.EscapeString(p.String()) + "<br>")
			}
			if more := side.n - len(side.ps); more > 0 {
				fmt.Fprintf(&b, "… and %s more", human.Count(more))
			}
			b.WriteString("</td>")
		}
		b.WriteString("</tr></table>")
	}
	b.WriteString("</div>")
	return b.String()
}
