package plots

import (
	"grundy/stdlib/human"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The small plotters below draw in data coordinates like gonum's own, but
// keep exact integer data and per-point colours and sizes.

type xy struct{ x, y float64 }

type shape int

const (
	shapeCircle shape = iota
	shapeSquare
	shapeRing
)

// points draws marks; radii, when set, gives each its own radius. With no
// points it still serves as a legend thumbnail.
type points struct {
	pts    []xy
	col    color.Color
	shape  shape
	radius vg.Length
	radii  []vg.Length
	drawn  []vg.Point // centres of the last drawing, for tests
	thumb  vg.Point   // centre of the last legend thumbnail, for tests
}

func (p *points) DataRange() (xmin, xmax, ymin, ymax float64) { return extentOf(p.pts) }

func (p *points) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	p.drawn = p.drawn[:0]
	for i, q := range p.pts {
		p.drawn = append(p.drawn, vg.Point{X: trX(q.x), Y: trY(q.y)})
		r := p.radius
		if p.radii != nil {
			r = p.radii[i]
		}
		p.mark(c, vg.Point{X: trX(q.x), Y: trY(q.y)}, r)
	}
}

// radiusAt is the radius of the i'th mark.
func (p *points) radiusAt(i int) vg.Length {
	if p.radii != nil {
		return p.radii[i]
	}
	return p.radius
}

func (p *points) mark(c draw.Canvas, at vg.Point, r vg.Length) {
	switch p.shape {
	case shapeSquare:
		c.SetColor(p.col)
		c.Fill(rect(at.X-r, at.Y-r, at.X+r, at.Y+r))
	case shapeRing:
		var path vg.Path
		path.Move(vg.Point{X: at.X + r, Y: at.Y})
		path.Arc(at, r, 0, 2*math.Pi)
		path.Close()
		c.SetLineStyle(draw.LineStyle{Color: p.col, Width: 1.6})
		c.Stroke(path)
	default:
		var path vg.Path
		path.Move(vg.Point{X: at.X + r, Y: at.Y})
		path.Arc(at, r, 0, 2*math.Pi)
		path.Close()
		c.SetColor(p.col)
		c.Fill(path)
	}
}

// Thumbnail draws the legend entry.
func (p *points) Thumbnail(c *draw.Canvas) {
	r := p.radius
	if r == 0 {
		r = 4
	}
	p.thumb = c.Center()
	p.mark(*c, c.Center(), r)
}

type polyline struct {
	pts   []xy
	style draw.LineStyle
	drawn []vg.Point // the last drawing's vertices, for tests
}

func (l *polyline) DataRange() (xmin, xmax, ymin, ymax float64) { return extentOf(l.pts) }

func (l *polyline) Plot(c draw.Canvas, plt *plot.Plot) {
	if len(l.pts) < 2 {
		return
	}
	trX, trY := plt.Transforms(&c)
	ps := make([]vg.Point, len(l.pts))
	for i, q := range l.pts {
		ps[i] = vg.Point{X: trX(q.x), Y: trY(q.y)}
	}
	l.drawn = ps
	c.StrokeLines(l.style, ps)
}

// pointLabels writes a label by each point (its y value by default).
// With place set, each label goes where it touches none of avoid's lines,
// no mark and no other label, and stays inside the plot: first where dx
// (or dxs) puts it, else above its point, else beside or below it.
type pointLabels struct {
	pts    []xy
	labels []string
	dx, dy vg.Length
	dxs    []vg.Length // per-point dx, overriding dx
	size   vg.Length
	col    color.Color

	place bool
	avoid [][]xy      // polylines the labels keep off
	marks []xy        // marks the labels keep off; pts when nil
	radii []vg.Length // their radii; markR each when nil
	markR vg.Length
	// leader joins a label placed away from its point to the point with
	// a thin line of the label's colour, so it is not read as another's.
	leader bool

	boxes []vg.Rectangle // where the last drawing put each label, for tests
}

func (l *pointLabels) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	size, col, dy := l.size, l.col, l.dy
	if size == 0 {
		size = 8
	}
	if col == nil {
		col = color.Gray{Y: 60}
	}
	if l.labels == nil && dy == 0 {
		dy = 9
	}
	st := textStyle(size, col)
	if l.dx > 0 && !l.place {
		st.XAlign = draw.XLeft
	}
	at := func(q xy) vg.Point { return vg.Point{X: trX(q.x), Y: trY(q.y)} }
	var lines [][2]vg.Point
	for _, pl := range l.avoid {
		for i := 1; i < len(pl); i++ {
			lines = append(lines, [2]vg.Point{at(pl[i-1]), at(pl[i])})
		}
	}
	marks := l.marks
	if marks == nil {
		marks = l.pts
	}
	var obstacles []vg.Rectangle
	for i, q := range marks {
		p, r := at(q), l.markR
		if l.radii != nil {
			r = l.radii[i]
		}
		obstacles = append(obstacles, vg.Rectangle{Min: vg.Point{X: p.X - r, Y: p.Y - r}, Max: vg.Point{X: p.X + r, Y: p.Y + r}})
	}
	l.boxes = l.boxes[:0]
	for i, q := range l.pts {
		s := formatY(q.y)
		if l.labels != nil {
			s = l.labels[i]
		}
		dx := l.dx
		if l.dxs != nil {
			dx = l.dxs[i]
		}
		pt := vg.Point{X: trX(q.x) + dx, Y: trY(q.y) + dy}
		if l.place {
			pt = l.free(c, st, s, at(q), dx, lines, obstacles)
		}
		box := textBox(st, pt, s)
		l.boxes = append(l.boxes, box)
		c.FillText(st, pt, s)
		if l.leader {
			drawLeader(c, at(q), l.markR, box, col)
		}
	}
}

// free picks where a centred label of text s goes beside the point p,
// whose mark reaches dx to the right (0: markR).
func (l *pointLabels) free(c draw.Canvas, st text.Style, s string, p vg.Point, dx vg.Length, lines [][2]vg.Point, obstacles []vg.Rectangle) vg.Point {
	w, h := st.Width(s), st.Height(s)
	gap := l.markR + 2
	var cands []vg.Point
	if dx > 0 {
		cands = append(cands, vg.Point{X: dx + w/2})
		gap = dx + 1
	}
	// Above, then the diagonals and sides, then below: a count plot's
	// labels sit above the curve where it is flat, and beside it where
	// it climbs.
	// In a crowded row, the same again a little further out.
	for _, g := range []vg.Length{gap, gap + h} {
		cands = append(cands,
			vg.Point{X: 0, Y: g + h/2},
			vg.Point{X: -(g + w/2), Y: g/2 + h/2},
			vg.Point{X: g + w/2, Y: -(g/2 + h/2)},
			vg.Point{X: -(g + w/2), Y: 0},
			vg.Point{X: g + w/2, Y: 0},
			vg.Point{X: g + w/2, Y: g/2 + h/2},
			vg.Point{X: -(g + w/2), Y: -(g/2 + h/2)},
			vg.Point{X: 0, Y: -(g + h/2)},
		)
	}
	// Each place costs what it covers; the first free one wins, and where
	// none is free (a crowded row), the one covering least.
	cost := func(b vg.Rectangle) float64 {
		if b.Min.X < c.Min.X || b.Max.X > c.Max.X || b.Min.Y < c.Min.Y || b.Max.Y > c.Max.Y {
			return 1e9
		}
		k := 0.0
		// Lines are up to 2 pt wide.
		wide := vg.Rectangle{Min: vg.Point{X: b.Min.X - 1.5, Y: b.Min.Y - 1.5}, Max: vg.Point{X: b.Max.X + 1.5, Y: b.Max.Y + 1.5}}
		for _, ln := range lines {
			if segmentHitsBox(ln[0], ln[1], wide) {
				k += 1e3
			}
		}
		for _, m := range obstacles {
			k += overlapArea(m, b)
		}
		for _, o := range l.boxes {
			k += 10 * overlapArea(o, b)
		}
		return k
	}
	best, bestCost := cands[0], math.Inf(1)
	for _, d := range cands {
		pt := vg.Point{X: p.X + d.X, Y: p.Y + d.Y}
		if k := cost(textBox(st, pt, s)); k < bestCost {
			best, bestCost = pt, k
			if k == 0 {
				break
			}
		}
	}
	return best
}

// textBox is the box a label of style st (centred on pt) covers, with a
// point of margin.
func textBox(st text.Style, pt vg.Point, s string) vg.Rectangle {
	w, h := st.Width(s), st.Height(s)
	x0 := pt.X - w/2
	if st.XAlign == draw.XLeft {
		x0 = pt.X
	}
	return vg.Rectangle{Min: vg.Point{X: x0 - 1, Y: pt.Y - h/2 - 1}, Max: vg.Point{X: x0 + w + 1, Y: pt.Y + h/2 + 1}}
}

func overlapArea(a, b vg.Rectangle) float64 {
	w := min(a.Max.X, b.Max.X) - max(a.Min.X, b.Min.X)
	h := min(a.Max.Y, b.Max.Y) - max(a.Min.Y, b.Min.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return float64(w * h)
}

// segmentHitsBox reports whether the segment from a to b passes through
// the box (Liang-Barsky clipping).
func segmentHitsBox(a, b vg.Point, r vg.Rectangle) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := float64(b.X-a.X), float64(b.Y-a.Y)
	for _, e := range [4][2]float64{
		{-dx, float64(a.X - r.Min.X)}, {dx, float64(r.Max.X - a.X)},
		{-dy, float64(a.Y - r.Min.Y)}, {dy, float64(r.Max.Y - a.Y)},
	} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

func formatY(y float64) string { return human.Count(int(y)) }

// bars draws one bar per entry, coloured like the entry in a heatmap.
type bars struct {
	counts []int
	color  func(v int) color.RGBA
	labels bool
	drawn  []vg.Rectangle // bars of the last drawing, for tests
}

func (b *bars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	b.drawn = b.drawn[:0]
	st := textStyle(7.5, color.Gray{Y: 50})
	st.YAlign = draw.YBottom
	for v, n := range b.counts {
		if n == 0 {
			continue
		}
		x0, x1 := trX(float64(v)-0.4), trX(float64(v)+0.4)
		y0, y1 := trY(0), trY(float64(n))
		c.SetColor(b.color(v))
		c.Fill(rect(x0, y0, x1, y1))
		b.drawn = append(b.drawn, vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x1, Y: y1}})
		if b.labels {
			c.FillText(st, vg.Point{X: (x0 + x1) / 2, Y: y1 + 2}, human.Count(n))
		}
	}
}

func extentOf(pts []xy) (xmin, xmax, ymin, ymax float64) {
	if len(pts) == 0 {
		return 0, 0, 0, 0
	}
	xmin, xmax, ymin, ymax = pts[0].x, pts[0].x, pts[0].y, pts[0].y
	for _, q := range pts[1:] {
		xmin, xmax = min(xmin, q.x), max(xmax, q.x)
		ymin, ymax = min(ymin, q.y), max(ymax, q.y)
	}
	return
}

// drawLeader draws a thin line from the edge of the mark of radius r at p
// to the nearest point of box, when the box is more than a gap away.
func drawLeader(c draw.Canvas, p vg.Point, r vg.Length, box vg.Rectangle, col color.Color) {
	near := vg.Point{X: min(max(p.X, box.Min.X), box.Max.X), Y: min(max(p.Y, box.Min.Y), box.Max.Y)}
	dx, dy := float64(near.X-p.X), float64(near.Y-p.Y)
	d := math.Hypot(dx, dy)
	if d <= float64(r)+4 {
		return
	}
	from := vg.Point{X: p.X + vg.Length(dx/d)*(r+1), Y: p.Y + vg.Length(dy/d)*(r+1)}
	c.StrokeLine2(draw.LineStyle{Color: col, Width: 0.6}, from.X, from.Y, near.X, near.Y)
}
