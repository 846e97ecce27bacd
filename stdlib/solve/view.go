package solve

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"slices"
	"strconv"
	"strings"

	"grundy/stdlib/games"
	"grundy/stdlib/human"
)

// pattern is a parsed face or line pattern: per heap either a fixed size
// or the index of a free letter.
type pattern struct {
	fixed   []int // -1 where a letter stands
	letter  []int // index into letters, -1 where fixed
	letters []string
	limit   []int // per letter: the largest size every heap it names allows
}

func (t *Table) parsePattern(spec string, want int, what, example string) (*pattern, error) {
	fields := strings.FieldsFunc(spec, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '(' || r == ')' })
	if len(fields) != len(t.max) {
		heaps := human.Quantity(len(t.max), "heap")
		if _, ok := t.game.(*games.TakeBreak); ok {
			// Its positions are rows of any length, but a table holds one.
			return nil, fmt.Errorf("%s pattern %q has %s; this %s table holds rows of %s (e.g. %q): for rows of %d, solve with one bound per heap, e.g. --max %s or solve.Values(g, %s)",
				what, spec, human.Quantity(len(fields), "entry"), t.name, heaps, example, len(fields), boundsText(t, len(fields), ","), boundsText(t, len(fields), ", "))
		}
		return nil, fmt.Errorf("%s pattern %q has %s; %s positions have %s, e.g. %q", what, spec, human.Quantity(len(fields), "entry"), t.name, heaps, example)
	}
	p := &pattern{fixed: make([]int, len(fields)), letter: make([]int, len(fields))}
	for i, f := range fields {
		if n, err := strconv.Atoi(f); err == nil {
			if n < 0 || n > t.max[i] {
				return nil, fmt.Errorf("%s pattern %q: heap %d is fixed at %d, outside this table's 0..%d", what, spec, i+1, n, t.max[i])
			}
			p.fixed[i], p.letter[i] = n, -1
			continue
		}
		if !isWord(f) {
			return nil, fmt.Errorf("%s pattern %q: entry %q is neither a heap size nor a letter", what, spec, f)
		}
		j := -1
		for k, l := range p.letters {
			if l == f {
				j = k
			}
		}
		if j < 0 {
			j = len(p.letters)
			p.letters = append(p.letters, f)
			p.limit = append(p.limit, t.max[i])
		}
		p.limit[j] = min(p.limit[j], t.max[i])
		p.fixed[i], p.letter[i] = -1, j
	}
	if want == 2 && len(t.max) == 1 {
		// The generic example would be "a", which is itself refused.
		return nil, fmt.Errorf("%s has one heap, so its table has no 2-D faces; take the line %q with Line (plots.Line) or the values with List", t.name, "a")
	}
	if want >= 0 && len(p.letters) != want {
		return nil, fmt.Errorf("%s pattern %q has %d free letters %v; a %s needs exactly %d (a repeated letter means equal heaps), e.g. %q",
			what, spec, len(p.letters), p.letters, what, want, example)
	}
	return p, nil
}

func isWord(s string) bool {
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

func (t *Table) patternIndex(p *pattern, vals []int) int {
	idx := 0
	for i := range p.fixed {
		x := p.fixed[i]
		if x < 0 {
			x = vals[p.letter[i]]
		}
		idx += x * t.strides[i]
	}
	return idx
}

// Face is the 2-D slice of the table matching a pattern such as
// "0 a b 0 2 1": integers fix heaps, the first letter runs across, the
// second down, and a repeated letter makes heaps equal.
func (t *Table) Face(spec string) (*Face, error) {
	if err := t.noTable("Face"); err != nil {
		return nil, err
	}
	p, err := t.parsePattern(spec, 2, "face", t.example(2))
	if err != nil {
		return nil, err
	}
	f := &Face{Game: t.name, Pattern: spec, Kind: t.kind, X: p.letters[0], Y: p.letters[1], W: p.limit[0] + 1, H: p.limit[1] + 1}
	f.Cells = make([]int, f.W*f.H)
	for y := 0; y < f.H; y++ {
		for x := 0; x < f.W; x++ {
			f.Cells[y*f.W+x] = t.get(t.patternIndex(p, []int{x, y}))
		}
	}
	return f, nil
}

// Line is the 1-D slice along one free letter, e.g. "a 0 0 a 1 1" gives
// the entries at (a,0,0,a,1,1) for a = 0, 1, ...
func (t *Table) Line(spec string) ([]int, error) {
	if err := t.noTable("Line"); err != nil {
		return nil, err
	}
	p, err := t.parsePattern(spec, 1, "line", t.example(1))
	if err != nil {
		return nil, err
	}
	out := make([]int, p.limit[0]+1)
	for a := range out {
		out[a] = t.get(t.patternIndex(p, []int{a}))
	}
	return out, nil
}

func (t *Table) example(letters int) string {
	parts := make([]string, len(t.max))
	for i := range parts {
		parts[i] = "0"
	}
	for i := 0; i < letters && i < len(parts); i++ {
		parts[i] = string(rune('a' + i))
	}
	return strings.Join(parts, " ")
}

// WriteCSV writes one row per position: the heaps, then the entry, with a
// header row h1,...,hn,<kind>.
func (t *Table) WriteCSV(w io.Writer) error {
	if err := t.noTable("WriteCSV"); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for i := range t.max {
		fmt.Fprintf(bw, "h%d,", i+1)
	}
	bw.WriteString(t.kind.String() + "\n")
	p := make([]int, len(t.max))
	buf := make([]byte, 0, 64)
	for idx := 0; idx < t.size; idx++ {
		buf = buf[:0]
		for _, x := range p {
			buf = strconv.AppendInt(buf, int64(x), 10)
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(t.get(idx)), 10)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
		for i := len(p) - 1; i >= 0; i-- {
			if p[i] < t.max[i] {
				p[i]++
				break
			}
			p[i] = 0
		}
	}
	return bw.Flush()
}

func (t *Table) summary() (head string, rows [][2]string) {
	head = fmt.Sprintf("%s %s, %s: %s", t.name, t.kind, t.boundText(), human.Quantity(t.size, "position"))
	c := t.Counts()
	switch t.kind {
	case KindOutcomes:
		rows = append(rows, [2]string{"P", human.Count(c[0])}, [2]string{"N", human.Count(c[1])})
	default:
		label := "value"
		if t.kind == KindRemoteness {
			label = "remoteness"
			rows = append(rows, [2]string{"P (even)", human.Count(t.CountP())})
		}
		shown := 0
		for v, n := range c {
			if n == 0 {
				continue
			}
			if shown == 8 {
				rows = append(rows, [2]string{"...", fmt.Sprintf("up to %s %d", label, t.MaxValue())})
				break
			}
			rows = append(rows, [2]string{fmt.Sprintf("%s %d", label, v), human.Count(n)})
			shown++
		}
	}
	return head, rows
}

// String is a short summary: size, the counts of the first values, the
// largest value; not a dump (use WriteCSV or Positions for that).
func (t *Table) String() string {
	if t == nil {
		return ErrNoTable.Error()
	}
	head, rows := t.summary()
	var b strings.Builder
	b.WriteString(head)
	for _, r := range rows {
		fmt.Fprintf(&b, "\n  %-14s %s", r[0], r[1])
	}
	if t.kind != KindOutcomes {
		fmt.Fprintf(&b, "\n  largest %s %d", map[Kind]string{KindValues: "value", KindRemoteness: "remoteness"}[t.kind], t.MaxValue())
	}
	if t.method != "" {
		// The solver, not the time it took: a notebook shows the same
		// summary on every machine (t.Seconds() has the time).
		fmt.Fprintf(&b, "\n  solved by %s", t.method)
	}
	return b.String()
}

// HTML is the same summary as a small table for notebooks.
func (t *Table) HTML() string {
	if t == nil {
		return "<div>" + html.EscapeString(ErrNoTable.Error()) + "</div>"
	}
	head, rows := t.summary()
	var b strings.Builder
	b.WriteString("<div><b>" + html.EscapeString(head) + "</b>")
	if t.method != "" {
		fmt.Fprintf(&b, " <small>(solved by %s)</small>", t.method)
	}
	b.WriteString("<table>")
	for _, r := range rows {
		fmt.Fprintf(&b, "<tr><td>%s</td><td style=\"text-align:right\">%s</td></tr>", html.EscapeString(r[0]), html.EscapeString(r[1]))
	}
	b.WriteString("</table></div>")
	return b.String()
}

// boundsText repeats the table's largest bound n times: "30,30".
func boundsText(t *Table, n int, sep string) string {
	b := make([]string, n)
	for i := range b {
		b[i] = strconv.Itoa(slices.Max(t.max))
	}
	return strings.Join(b, sep)
}
