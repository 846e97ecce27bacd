package plots

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
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
	p.mark(*c, c.Center(), r)
}

type polyline struct {
	pts   []xy
	style draw.LineStyle
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
	c.StrokeLines(l.style, ps)
}

// pointLabels writes a label by each point (its y value by default).
type pointLabels struct {
	pts    []xy
	labels []string
	dx, dy vg.Length
	dxs    []vg.Length // per-point dx, overriding dx
	size   vg.Length
	col    color.Color
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
	if l.dx > 0 {
		st.XAlign = draw.XLeft
	}
	for i, q := range l.pts {
		s := formatY(q.y)
		if l.labels != nil {
			s = l.labels[i]
		}
		dx := l.dx
		if l.dxs != nil {
			dx = l.dxs[i]
		}
		c.FillText(st, vg.Point{X: trX(q.x) + dx, Y: trY(q.y) + dy}, s)
	}
}

func formatY(y float64) string { return strconv.Itoa(int(y)) }

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
			c.FillText(st, vg.Point{X: (x0 + x1) / 2, Y: y1 + 2}, strconv.Itoa(n))
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
