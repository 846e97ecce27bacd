package solve

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"grundy/stdlib/human"
)

// Kind says what a table (or a face of one) holds.
type Kind int

const (
	// KindValues: Sprague-Grundy values (0 means P). (The short names
	// Values, Outcomes, Remoteness are the functions that compute tables.)
	KindValues Kind = iota
	// KindOutcomes: 0 for a P-position, 1 for an N-position.
	KindOutcomes
	// KindRemoteness: Smith's remoteness (even means P).
	KindRemoteness
)

func (k Kind) String() string {
	switch k {
	case KindValues:
		return "values"
	case KindOutcomes:
		return "outcomes"
	case KindRemoteness:
		return "remoteness"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Face is a 2-D slice of a table: the positions matching a pattern such as
// "0 a b 0 2 1", with letter X running across (0..W-1) and letter Y down
// (0..H-1). It is what plots draw; it carries its own description so a
// figure can title itself.
type Face struct {
	Game    string // the game's name, e.g. "CN(6,2)"
	Pattern string // the face pattern as given, e.g. "0 a b 0 2 1"
	Kind    Kind
	X, Y    string // the free letters: X across, Y down
	W, H    int
	Cells   []int // row-major: Cells[y*W+x]
}

// At returns the entry at x across, y down.
func (f *Face) At(x, y int) int { return f.Cells[y*f.W+x] }

// IsP reports whether the entry at (x, y) is a P-position, whatever the kind.
func (f *Face) IsP(x, y int) bool {
	v := f.At(x, y)
	if f.Kind == KindRemoteness {
		return v%2 == 0
	}
	return v == 0
}

// String draws the face as a grid of numbers, X across and Y down, under a
// line that says what it is. A face more than 100 cells a side shows its
// corner of 40 x 40 cells and says so (a notebook keeps the text form of
// every output: a 3001 x 3001 face was 18 MB of it); all cells are in
// Cells.
func (f *Face) String() string {
	if f == nil {
		return "<nil face>"
	}
	w, h := f.W, f.H
	if w > maxTextSide || h > maxTextSide {
		w, h = min(w, textCorner), min(h, textCorner)
	}
	width := 1
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			width = max(width, len(strconv.Itoa(f.At(x, y))))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s on %q: %s across 0..%d, %s down 0..%d", f.Game, f.Kind, f.Pattern, f.X, f.W-1, f.Y, f.H-1)
	if w < f.W || h < f.H {
		fmt.Fprintf(&b, "\n(the corner %s = 0..%d, %s = 0..%d of %d x %d %s; every cell is in Cells, plots.HeatmapOf draws it)", f.X, w-1, f.Y, h-1, f.W, f.H, human.Plural(f.W*f.H, "cell"))
	}
	for y := 0; y < h; y++ {
		b.WriteByte('\n')
		for x := 0; x < w; x++ {
			if x > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%*d", width, f.At(x, y))
		}
	}
	return b.String()
}

// Past maxTextSide cells a side, String shows a corner of textCorner.
const (
	maxTextSide = 100
	textCorner  = 40
)

// maxHTMLCells bounds the faces HTML draws cell by cell: beyond it a table
// is unreadable and heavy in a notebook, and a heatmap serves better.
const maxHTMLCells = 64 * 64

// HTML draws the face as a small table, X across and Y down with their
// values as headers, under a caption that says what it is; P-positions are
// shaded so the pattern of P cells stands out.
func (f *Face) HTML() string {
	if f == nil {
		return "<div>&lt;nil face&gt;</div>"
	}
	const cell = "padding:1px 5px;text-align:right"
	var b strings.Builder
	fmt.Fprintf(&b, "<table style=\"border-collapse:collapse;font-family:monospace\"><caption style=\"text-align:left\">%s %s on %s: <b>%s</b> across, <b>%s</b> down; P-positions shaded</caption>",
		html.EscapeString(f.Game), f.Kind, html.EscapeString(strconv.Quote(f.Pattern)), html.EscapeString(f.X), html.EscapeString(f.Y))
	if f.W*f.H > maxHTMLCells {
		fmt.Fprintf(&b, "<tr><td>%d × %d cells are too many for a readable table: draw it with plots.HeatmapOf, or take a smaller bound</td></tr></table>", f.W, f.H)
		return b.String()
	}
	fmt.Fprintf(&b, "<tr><th style=\"%s\">%s\\%s</th>", cell, html.EscapeString(f.Y), html.EscapeString(f.X))
	for x := 0; x < f.W; x++ {
		fmt.Fprintf(&b, "<th style=\"%s\">%d</th>", cell, x)
	}
	b.WriteString("</tr>")
	for y := 0; y < f.H; y++ {
		fmt.Fprintf(&b, "<tr><th style=\"%s\">%d</th>", cell, y)
		for x := 0; x < f.W; x++ {
			if f.IsP(x, y) {
				fmt.Fprintf(&b, "<td class=\"p\" style=\"%s;background:#f5c542;font-weight:bold\">%d</td>", cell, f.At(x, y))
			} else {
				fmt.Fprintf(&b, "<td style=\"%s\">%d</td>", cell, f.At(x, y))
			}
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>")
	return b.String()
}
