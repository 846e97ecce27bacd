package solve

import (
	"cmp"
	"encoding/json"
	"fmt"
	"html"
	"slices"
	"strings"

	"grundy/stdlib/games"
	"grundy/stdlib/human"
)

// Certificate is the evidence a paper prints for the outcome of a
// position, checkable by hand without trusting the search: for a
// P-position, every move with a reply back to a P-position (seed 000 prints
// such an 18-row table for (1,1,1,2,1,2) of CN(6,2)); for an N-position, a
// winning move and the certificate of the P-position it reaches. On a
// remoteness table the replies are the fastest wins.
type Certificate struct {
	Game string
	Pos  games.Pos
	// Win is the winning move from an N-position (nil for a P-position).
	Win games.Pos
	// Of is the P-position the rows answer for: Pos, or Win.
	Of   games.Pos
	Rows []CertificateRow
	t    *Table
}

// CertificateRow is one move from the P-position and the reply to it.
type CertificateRow struct {
	Move, Reply games.Pos
}

// IsP reports whether the certified position is a P-position.
func (c *Certificate) IsP() bool { return c.Win == nil }

// Certificate builds and verifies the certificate of p. Rows come in
// lexicographic order of the moves, as the papers print them; each reply is
// the winning answer that removes the fewest tokens (lexicographically
// first among equals).
func (t *Table) Certificate(p games.Pos) (*Certificate, error) {
	if err := t.noTable("Certificate"); err != nil {
		return nil, err
	}
	if err := t.checkRow(p); err != nil {
		return nil, err
	}
	c := &Certificate{Game: t.name, Pos: p.Clone(), Of: p.Clone(), t: t}
	e, _, err := t.entry(p)
	if err != nil {
		return nil, err
	}
	if !t.isPEntry(e) {
		wins, err := t.WinningMoves(p)
		if err != nil {
			return nil, err
		}
		if len(wins) == 0 {
			return nil, fmt.Errorf("%s: %v is N in the table but has no winning move inside it", t.name, p)
		}
		c.Win = fewestTaken(wins)
		c.Of = c.Win
	}
	moves, err := t.followers(c.Of)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(moves, func(a, b games.Pos) int { return slices.Compare(a, b) })
	for _, y := range moves {
		replies, err := t.WinningMoves(y)
		if err != nil {
			return nil, err
		}
		if len(replies) == 0 {
			return nil, fmt.Errorf("%s: the move %v -> %v has no reply back to a P-position; the table is not consistent", t.name, c.Of, y)
		}
		c.Rows = append(c.Rows, CertificateRow{Move: y, Reply: fewestTaken(replies)})
	}
	if err := c.Verify(); err != nil {
		return nil, err
	}
	return c, nil
}

// fewestTaken is the position with the most tokens left, lexicographically
// first among equals.
func fewestTaken(ps []games.Pos) games.Pos {
	return slices.MinFunc(ps, func(a, b games.Pos) int {
		return cmp.Or(cmp.Compare(b.Total(), a.Total()), slices.Compare(a, b))
	})
}

// Verify checks the certificate against its table and the game's rules:
// the rows list every move from the P-position exactly once, each reply is
// a legal move from its row's position to a P-position (on a remoteness
// table, one of remoteness one less), and an N-position's winning move is
// legal and reaches that P-position. nil means the certificate holds.
func (c *Certificate) Verify() error {
	t := c.t
	if t == nil {
		return fmt.Errorf("certificate of %v: no table to verify against", c.Pos)
	}
	if c.Win != nil {
		if !t.isMove(c.Pos, c.Win) {
			return fmt.Errorf("%s: %v -> %v is not a move", t.name, c.Pos, c.Win)
		}
		if !slices.Equal(c.Of, c.Win) {
			return fmt.Errorf("%s: the rows answer for %v, not for the winning move's %v", t.name, c.Of, c.Win)
		}
	}
	if e, ok, err := t.entry(c.Of); err != nil {
		return err
	} else if !ok || !t.isPEntry(e) {
		return fmt.Errorf("%s: %v is not a P-position in the table", t.name, c.Of)
	}
	moves, err := t.followers(c.Of)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, y := range moves {
		want[y.String()] = true
	}
	seen := map[string]int{}
	for i, r := range c.Rows {
		k := r.Move.String()
		if j, dup := seen[k]; dup {
			return fmt.Errorf("%s: row %d repeats the move to %v of row %d", t.name, i+1, r.Move, j)
		}
		seen[k] = i + 1
		if !want[k] {
			return fmt.Errorf("%s: row %d: %v -> %v is not a move", t.name, i+1, c.Of, r.Move)
		}
		if !t.isMove(r.Move, r.Reply) {
			return fmt.Errorf("%s: row %d: the reply %v -> %v is not a move", t.name, i+1, r.Move, r.Reply)
		}
		if wins, err := t.wins(r.Move, r.Reply); err != nil {
			return err
		} else if !wins {
			return fmt.Errorf("%s: row %d: the reply %v does not win from %v", t.name, i+1, r.Reply, r.Move)
		}
	}
	if len(seen) != len(want) {
		for _, y := range moves {
			if seen[y.String()] == 0 {
				return fmt.Errorf("%s: the move %v -> %v is not answered", t.name, c.Of, y)
			}
		}
	}
	return nil
}

// isMove reports whether q is a follower of p. For a take-and-break game
// rows are compared as multisets of nonempty heaps: (1,3) and (3,1,0)
// are one position.
func (t *Table) isMove(p, q games.Pos) bool {
	same := slices.Equal[games.Pos]
	if tb, ok := t.game.(*games.TakeBreak); ok {
		cq := tb.Canonical(q)
		same = func(r, _ games.Pos) bool { return slices.Equal(tb.Canonical(r), cq) }
	}
	found := false
	games.Visit(t.game, p, func(r games.Pos) bool {
		found = same(r, q)
		return !found
	})
	return found
}

// wins reports whether moving from p to q wins: q is P (on a remoteness
// table, q has remoteness R(p) - 1).
func (t *Table) wins(p, q games.Pos) (bool, error) {
	eq, ok, err := t.entry(q)
	if err != nil || !ok || !t.isPEntry(eq) {
		return false, err
	}
	if t.kind == KindRemoteness {
		ep, ok, err := t.entry(p)
		return ok && eq == ep-1, err
	}
	return true, nil
}

func (t *Table) isPEntry(v int) bool {
	if t.kind == KindRemoteness {
		return v%2 == 0
	}
	return v == 0
}

func (c *Certificate) head() string {
	moves := human.Quantity(len(c.Rows), "move")
	switch {
	case c.Win == nil && len(c.Rows) == 0:
		return fmt.Sprintf("%v is a P-position of %s: it has no move, so the player to move loses", c.Pos, c.Game)
	case c.Win == nil:
		return fmt.Sprintf("%v is a P-position of %s: every move has a reply back to a P-position (%s)", c.Pos, c.Game, moves)
	case len(c.Rows) == 0:
		return fmt.Sprintf("%v is an N-position of %s: move to %v, which has no move", c.Pos, c.Game, c.Win)
	}
	return fmt.Sprintf("%v is an N-position of %s: move to %v, a P-position: every move from it has a reply back to a P-position (%s)", c.Pos, c.Game, c.Win, moves)
}

// String is the certificate as two columns of positions.
func (c *Certificate) String() string {
	if c == nil {
		return "<nil certificate>"
	}
	var b strings.Builder
	b.WriteString(c.head())
	if len(c.Rows) == 0 {
		return b.String()
	}
	w := len("move")
	for _, r := range c.Rows {
		w = max(w, len(r.Move.String()))
	}
	fmt.Fprintf(&b, "\n  %-*s  %s", w, "move", "reply")
	for _, r := range c.Rows {
		fmt.Fprintf(&b, "\n  %-*s  %s", w, r.Move, r.Reply)
	}
	return b.String()
}

// Markdown is the certificate as the papers' two-column table.
func (c *Certificate) Markdown() string {
	if c == nil {
		return "<nil certificate>"
	}
	if len(c.Rows) == 0 {
		return c.head() + "\n"
	}
	var b strings.Builder
	b.WriteString(c.head() + "\n\n| move | reply |\n|---|---|\n")
	for _, r := range c.Rows {
		fmt.Fprintf(&b, "| %v | %v |\n", r.Move, r.Reply)
	}
	return b.String()
}

// HTML is the certificate as a small table under its sentence.
func (c *Certificate) HTML() string {
	if c == nil {
		return "<div>&lt;nil certificate&gt;</div>"
	}
	if len(c.Rows) == 0 {
		return "<div><b>" + html.EscapeString(c.head()) + "</b></div>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<div><b>%s</b><table style=\"font-family:monospace\"><tr><th>move</th><th>reply</th></tr>", html.EscapeString(c.head()))
	for _, r := range c.Rows {
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td></tr>", r.Move, r.Reply)
	}
	b.WriteString("</table></div>")
	return b.String()
}

// LaTeX is the certificate as an array in display math, which notebooks
// render and papers can paste.
func (c *Certificate) LaTeX() string {
	if c == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("$$")
	if c.Win != nil {
		fmt.Fprintf(&b, "%s \\to %s \\qquad ", c.Pos, c.Win)
	}
	if len(c.Rows) == 0 {
		return b.String() + "\\text{no move}$$"
	}
	b.WriteString("\\begin{array}{ll}\n")
	b.WriteString("\\text{move} & \\text{reply} \\\\ \\hline\n")
	for _, r := range c.Rows {
		fmt.Fprintf(&b, "%s & %s \\\\\n", r.Move, r.Reply)
	}
	b.WriteString("\\end{array}$$")
	return b.String()
}

// MarshalJSON writes the certificate as a list: for an N-position first
// {"move": [...]}, then one {"move": [...], "reply": [...]} per row.
func (c *Certificate) MarshalJSON() ([]byte, error) {
	// A row of a heap game may be empty, "()": it must print as [], not null.
	list := func(p games.Pos) []int { return append([]int{}, p...) }
	out := []map[string][]int{}
	if c.Win != nil {
		out = append(out, map[string][]int{"move": list(c.Win)})
	}
	for _, r := range c.Rows {
		out = append(out, map[string][]int{"move": list(r.Move), "reply": list(r.Reply)})
	}
	return json.Marshal(out)
}
