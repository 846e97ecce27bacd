package plots

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"grundy/stdlib/human"
	"grundy/stdlib/solve"
)

// HeatmapOf draws a face already taken out of a table (t.Face(spec), or
// one built by hand), as Heatmap draws a table's.
func HeatmapOf(f *solve.Face, opts ...Option) (*Figure, error) {
	if err := checkFace(f); err != nil {
		return nil, err
	}
	switch f.Kind {
	case solve.KindOutcomes:
		return OutcomeMapOf(f, opts...)
	case solve.KindRemoteness:
		return RemotenessMapOf(f, opts...)
	case solve.KindValues:
	default:
		return nil, fmt.Errorf("plots: face of unknown kind %v", f.Kind)
	}
	cfg := newConfig(opts)
	if cfg.err != nil {
		return nil, cfg.err
	}
	maxV, nP := 0, 0
	for _, v := range f.Cells {
		maxV = max(maxV, v)
		if v == 0 {
			nP++
		}
	}
	s := valueScale(&cfg, maxV)
	desc := fmt.Sprintf("heatmap of %s Grundy values on %s: %s, values 0..%d, %s",
		gameName(f), patternText(f.Pattern), extent(f), maxV, human.Quantity(nP, "P-position"))
	return faceFigure(f, &cfg, s, "Grundy values", "value", strconv.Itoa, desc)
}

// OutcomeMapOf draws a face already taken out of a table as OutcomeMap
// draws a table's.
func OutcomeMapOf(f *solve.Face, opts ...Option) (*Figure, error) {
	if err := checkFace(f); err != nil {
		return nil, err
	}
	cfg := newConfig(opts)
	if cfg.err != nil {
		return nil, cfg.err
	}
	o := *f
	o.Kind = solve.KindOutcomes
	o.Cells = make([]int, len(f.Cells))
	nP := 0
	for y := 0; y < f.H; y++ {
		for x := 0; x < f.W; x++ {
			if f.IsP(x, y) {
				nP++
			} else {
				o.Cells[y*f.W+x] = 1
			}
		}
	}
	desc := fmt.Sprintf("outcome map of %s on %s: %s, %s, %s",
		gameName(f), patternText(f.Pattern), extent(f), human.Quantity(nP, "P-position"), human.Quantity(len(f.Cells)-nP, "N-position"))
	// Only P is printed: a field of N letters would hide the pattern.
	label := func(v int) string {
		if v == 0 {
			return "P"
		}
		return ""
	}
	return faceFigure(&o, &cfg, outcomeScale(&cfg), "outcomes", "outcome", label, desc)
}

// RemotenessMapOf draws a remoteness face already taken out of a table
// as RemotenessMap draws a table's.
func RemotenessMapOf(f *solve.Face, opts ...Option) (*Figure, error) {
	if err := checkFace(f); err != nil {
		return nil, err
	}
	if f.Kind != solve.KindRemoteness {
		return nil, fmt.Errorf("plots: RemotenessMap needs a remoteness face, got a %v face (compute remoteness first, or draw it with Heatmap)", f.Kind)
	}
	cfg := newConfig(opts)
	if cfg.err != nil {
		return nil, cfg.err
	}
	maxR, nP := 0, 0
	for _, v := range f.Cells {
		maxR = max(maxR, v)
		if v%2 == 0 {
			nP++
		}
	}
	desc := fmt.Sprintf("remoteness map of %s on %s: %s, remoteness 0..%d, %s",
		gameName(f), patternText(f.Pattern), extent(f), maxR, human.Quantity(nP, "P-position"))
	return faceFigure(f, &cfg, remotenessScale(&cfg, maxR), "remoteness", "remoteness", strconv.Itoa, desc)
}

func checkFace(f *solve.Face) error {
	switch {
	case f == nil:
		return errors.New("plots: no face to draw (nil)")
	case f.X == "" && f.Y == "":
		return fmt.Errorf("plots: face %q has no free letters; a heatmap needs two, e.g. \"0 a b 0 2 1\"", f.Pattern)
	case f.Y == "" || f.H < 1 && f.W >= 1:
		return fmt.Errorf("plots: face %q has one free letter; a heatmap needs two (draw a line with plots.Line)", f.Pattern)
	case f.W < 1 || f.H < 1:
		return fmt.Errorf("plots: face %q is empty (%dx%d); give the table a bound of at least 1", f.Pattern, f.W, f.H)
	case len(f.Cells) != f.W*f.H:
		return fmt.Errorf("plots: face %q has %s for a %dx%d grid", f.Pattern, human.Quantity(len(f.Cells), "cell"), f.W, f.H)
	}
	for _, v := range f.Cells {
		if v < 0 {
			return fmt.Errorf("plots: face %q holds a negative entry %d; only non-negative values, outcomes and remoteness can be drawn", f.Pattern, v)
		}
	}
	return nil
}

func gameName(f *solve.Face) string {
	if f.Game == "" {
		return "game"
	}
	return f.Game
}

// patternText writes a pattern as a position, "(0, a, b, 0, 2, 1)": the
// fixed coordinates and where the free letters sit.
func patternText(p string) string {
	fs := strings.FieldsFunc(p, func(r rune) bool { return r == ' ' || r == ',' || r == '(' || r == ')' || r == '\t' })
	if len(fs) == 0 {
		return "(" + p + ")"
	}
	return "(" + strings.Join(fs, ", ") + ")"
}

func extent(f *solve.Face) string {
	return fmt.Sprintf("%s=0..%d across, %s=0..%d down", f.X, f.W-1, f.Y, f.H-1)
}

// faceFigure lays out a heatmap: title, grid with integer axes named by the
// face's letters, and a key on the right.
func faceFigure(f *solve.Face, cfg *config, s scale, what, keyHead string, label func(int) string, desc string) (*Figure, error) {
	title := cfg.titleOr(fmt.Sprintf("%s: %s on %s", gameName(f), what, patternText(f.Pattern)))
	keyW := vg.Length(70)
	if len(s.bars) > 1 {
		keyW = 110
	}
	longest := max(f.W, f.H)
	cellPx := float64(min(40, max(2, 600/longest)))
	if longest <= 4 {
		cellPx = 48
	}
	// Past 400 cells a side, two pixels a cell made a 6000-pixel figure of
	// a 3000x3000 face (150 MB to render, shown shrunk anyway); cap the
	// cells' area at 800 pixels, sub-pixel cells keeping their P-positions.
	if float64(longest)*cellPx > 800 {
		cellPx = 800 / float64(longest)
	}
	g := &grid{
		w: f.W, h: f.H,
		color: func(x, y int) color.RGBA { return s.color(f.At(x, y)) },
		bold:  f.IsP,
	}
	// frame lays out title, axes and ticks on c and returns the plot and
	// the area it is drawn in. Both axes step alike: the cells are square,
	// and ticks every 5 across but every 2 down read as a stretched grid.
	frame := func(c draw.Canvas) (*plot.Plot, draw.Canvas) {
		c = titled(c, title)
		p := newPlot("")
		p.X.Label.Text, p.Y.Label.Text = f.X, f.Y
		p.Y.Scale = plot.InvertedScale{Normalizer: plot.LinearScale{}}
		p.Add(g)
		area := draw.Crop(c, 6, -(keyW + 12), 4, -6)
		// Ticks need to know roughly how much room they have.
		guess := p.DataCanvas(area)
		step := max(niceStep(f.W, max(2, int((guess.Max.X-guess.Min.X)/28))), niceStep(f.H, max(2, int((guess.Max.Y-guess.Min.Y)/18))))
		p.X.Tick.Marker = intTicksStep(f.W, step)
		p.Y.Tick.Marker = intTicksStep(f.H, step)
		return p, area
	}
	// The figure is as large as its cells, axes and key need: sized by a
	// rule of thumb, a 41x41 face left a quarter of its canvas empty.
	width, height := cfg.width, cfg.height
	minH := 260
	if s.bars == nil {
		minH = max(minH, 40+16*len(s.swatches)*4/3+60)
	}
	w, h := max(int(float64(f.W)*cellPx)+200, 360), max(int(float64(f.H)*cellPx)+90, minH)
	for range 2 {
		p, area := frame(draw.NewCanvas(&recorder.Canvas{}, vg.Length(w)*pixel, vg.Length(h)*pixel))
		dc := p.DataCanvas(area)
		ox, oy := w-int((dc.Max.X-dc.Min.X)/pixel), h-int((dc.Max.Y-dc.Min.Y)/pixel)
		w, h = ox+int(math.Ceil(float64(f.W)*cellPx))+1, oy+int(math.Ceil(float64(f.H)*cellPx))+1
	}
	if width == 0 {
		width = max(w, 360, titleWidth(title))
	}
	if height == 0 {
		height = max(h, minH)
	}
	fig := cfg.figure(desc, width, height)
	fig.grid = g
	fig.paint = func(c draw.Canvas) {
		p, area := frame(c)
		area = squareCells(p, area, f.W, f.H)
		dc := p.DataCanvas(area)
		cell := (dc.Max.X - dc.Min.X) / vg.Length(f.W)
		digits := 1
		for _, v := range f.Cells {
			digits = max(digits, len(label(v)))
		}
		g.label = nil
		if cfg.labels > 0 || cfg.labels == 0 && labelsFit(cell, digits) {
			g.label = func(x, y int) string { return label(f.At(x, y)) }
		}
		g.divider = cell >= 16*pixel
		g.raster = fig.vector && f.W*f.H > 2500
		p.Draw(area)
		key := draw.Crop(c, 0, 0, 0, 0)
		key.Min.X, key.Max.X = area.Max.X+12, area.Max.X+12+keyW
		key.Min.Y, key.Max.Y = dc.Min.Y, dc.Max.Y
		drawKey(c, key, s, keyHead)
	}
	return fig, nil
}

// squareCells shrinks area so that the plot's data area holds w x h square
// cells, leaving what is left over at the right and bottom.
func squareCells(p *plot.Plot, area draw.Canvas, w, h int) draw.Canvas {
	dc := p.DataCanvas(area)
	dw, dh := dc.Max.X-dc.Min.X, dc.Max.Y-dc.Min.Y
	cell := min(dw/vg.Length(w), dh/vg.Length(h))
	if cell <= 0 {
		return area
	}
	// Whole pixels per cell keep cells equal in the PNG; below 8 pixels
	// rounding down would waste too much of the figure, and cells differ
	// by at most a pixel.
	if cell >= 8*pixel {
		cell = vg.Length(int(cell/pixel)) * pixel
	}
	ex, ey := dw-cell*vg.Length(w), dh-cell*vg.Length(h)
	area.Max.X -= ex
	area.Min.Y += ey
	return area
}

// Heatmap draws the 2-D face of t that spec names, e.g.
// Heatmap(t, "0 a b 0 2 1"), one square cell per position, in the way
// the table's kind asks: Grundy values (P-positions in the reserved P
// colour, a discrete palette up to 12 values and a continuous one with a
// colour bar beyond), outcomes (as OutcomeMap) or remoteness (as
// RemotenessMap). Values are printed in the cells while they are large
// enough to read; the first letter runs across and the second down.
func Heatmap(t *solve.Table, spec string, opts ...Option) (*Figure, error) {
	return drawFace(t, spec, HeatmapOf, opts)
}

// OutcomeMap draws the face of t that spec names as P and N in two
// colours. Any kind of table will do: a value is P where it is 0, a
// remoteness where it is even.
func OutcomeMap(t *solve.Table, spec string, opts ...Option) (*Figure, error) {
	return drawFace(t, spec, OutcomeMapOf, opts)
}

// RemotenessMap draws the face of a remoteness table that spec names:
// even remoteness (P) in one hue family and odd (N) in another, each
// darker as the game gets longer.
func RemotenessMap(t *solve.Table, spec string, opts ...Option) (*Figure, error) {
	return drawFace(t, spec, RemotenessMapOf, opts)
}

func drawFace(t *solve.Table, spec string, draw func(*solve.Face, ...Option) (*Figure, error), opts []Option) (*Figure, error) {
	if t == nil {
		return nil, errNoTable
	}
	f, err := t.Face(spec)
	if err != nil {
		return nil, err
	}
	return draw(f, opts...)
}
