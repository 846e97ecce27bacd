package plots

import (
	"fmt"
	"grundy/stdlib/human"
	"image"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// grid is a plot.Plotter drawing one square cell per entry, cell (x, y)
// centred on data coordinates (x, y).
type grid struct {
	w, h    int
	color   func(x, y int) color.RGBA
	label   func(x, y int) string // nil: no labels
	bold    func(x, y int) bool   // labels drawn bold (P cells)
	hatch   func(x, y int) bool   // cells striped diagonally (loony)
	raster  bool                  // draw unlabelled cells as one image
	divider bool                  // thin white lines between cells

	// Cell edges of the last drawing, kept so tests can find cells in
	// the rendered image.
	xs, ys []vg.Length
}

// pixel is one PNG pixel in vg units; cell edges are snapped to it so
// neighbouring cells meet without anti-aliased seams.
const pixel = vg.Inch / dpi

func snap(l vg.Length) vg.Length { return vg.Length(math.Round(float64(l/pixel))) * pixel }

func (g *grid) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(g.w) - 0.5, -0.5, float64(g.h) - 0.5
}

func (g *grid) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	xs := make([]vg.Length, g.w+1)
	for i := range xs {
		xs[i] = snap(trX(float64(i) - 0.5))
	}
	ys := make([]vg.Length, g.h+1)
	for i := range ys {
		ys[i] = snap(trY(float64(i) - 0.5))
	}
	g.drawCells(c, xs, ys)
}

// drawCells fills and labels the cells between the given edges.
func (g *grid) drawCells(c draw.Canvas, xs, ys []vg.Length) {
	g.xs, g.ys = xs, ys
	if g.raster && g.label == nil && g.hatch == nil {
		g.drawImage(c, xs, ys)
		return
	}
	// Runs of equal colour along a row are one rectangle: an outcome map
	// of a 256x256 face is then a few thousand fills, not 65536.
	fast := newPixelText(c)
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; {
			col := g.color(x, y)
			end := x + 1
			for end < g.w && g.color(end, y) == col {
				end++
			}
			if fast != nil {
				fast.fillRect(xs[x], ys[y], xs[end], ys[y+1], col)
			} else {
				c.SetColor(col)
				c.Fill(rect(xs[x], ys[y], xs[end], ys[y+1]))
			}
			x = end
		}
	}
	g.keepSmallP(c, fast, xs, ys)
	if g.hatch != nil {
		ls := hatchLine
		for y := 0; y < g.h; y++ {
			for x := 0; x < g.w; x++ {
				if g.hatch(x, y) {
					hatchCell(c, ls, xs[x], ys[y], xs[x+1], ys[y+1])
				}
			}
		}
	}
	if g.divider {
		ls := draw.LineStyle{Color: gridLine, Width: 1 * pixel}
		for _, x := range xs[1 : len(xs)-1] {
			c.StrokeLine2(ls, x, ys[0], x, ys[g.h])
		}
		for _, y := range ys[1 : len(ys)-1] {
			c.StrokeLine2(ls, xs[0], y, xs[g.w], y)
		}
	}
	if g.label == nil {
		return
	}
	size := g.labelSize(abs(xs[1]-xs[0]), abs(ys[1]-ys[0]))
	plain, bold := textStyle(size, color.Black), textStyle(size, color.Black)
	bold.Font.Variant, bold.Font.Weight = boldFont.Variant, boldFont.Weight
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; x++ {
			sty := plain
			if g.bold != nil && g.bold(x, y) {
				sty = bold
			}
			sty.Color = textOn(g.color(x, y))
			pt := vg.Point{X: (xs[x] + xs[x+1]) / 2, Y: (ys[y] + ys[y+1]) / 2}
			if s := g.label(x, y); fast == nil || !fast.fill(sty, pt, s) {
				c.FillText(sty, pt, s)
			}
		}
	}
}

// drawImage draws the cells as one embedded image, k x k pixels per cell
// so that a viewer's smoothing blurs only cell edges: a 256x256 face is
// then a few hundred kB of SVG rather than 65536 rectangles.
func (g *grid) drawImage(c draw.Canvas, xs, ys []vg.Length) {
	k := max(1, (800+max(g.w, g.h)-1)/max(g.w, g.h))
	img := image.NewRGBA(image.Rect(0, 0, g.w*k, g.h*k))
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; x++ {
			col := g.color(x, y)
			for dy := 0; dy < k; dy++ {
				row := img.Pix[(y*k+dy)*img.Stride:]
				for dx := 0; dx < k; dx++ {
					i := (x*k + dx) * 4
					row[i], row[i+1], row[i+2], row[i+3] = col.R, col.G, col.B, 255
				}
			}
		}
	}
	r := vg.Rectangle{
		Min: vg.Point{X: min(xs[0], xs[g.w]), Y: min(ys[0], ys[g.h])},
		Max: vg.Point{X: max(xs[0], xs[g.w]), Y: max(ys[0], ys[g.h])},
	}
	c.DrawImage(r, img)
}

// labelSize is the font size that fits the widest label in a cell.
func (g *grid) labelSize(cw, ch vg.Length) vg.Length {
	widest := ""
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; x++ {
			if s := g.label(x, y); len(s) > len(widest) {
				widest = s
			}
		}
	}
	size := min(ch*0.45, 11)
	if w := textStyle(size, color.Black).Width(widest); w > cw*0.85 {
		size *= cw * 0.85 / w
	}
	return size
}

// hatchLine stripes loony cells in a darker red than the cell, so that
// the white bold label on top stays readable (white stripes made it hard
// to read).
var hatchLine = draw.LineStyle{Color: rgb(0x6b090e), Width: 1.6}

// hatchCell strokes diagonal stripes across a cell.
func hatchCell(c draw.Canvas, ls draw.LineStyle, x0, y0, x1, y1 vg.Length) {
	if x1 < x0 {
		x0, x1 = x1, x0
	}
	if y1 < y0 {
		y0, y1 = y1, y0
	}
	w, h := x1-x0, y1-y0
	for d := vg.Length(4); d < w+h; d += 6 {
		sx, ex := min(d, w), max(0, d-h)
		c.StrokeLine2(ls, x0+sx, y0+d-sx, x0+ex, y0+d-ex)
	}
}

// labelsFit reports whether labels of up to digits characters are legible
// in cells cell wide.
func labelsFit(cell vg.Length, digits int) bool {
	if cell < 13*pixel {
		return false
	}
	size := min(cell*0.45, 11)
	w := textStyle(size, color.Black).Width(fmt.Sprint(math.Pow10(digits - 1)))
	if w > cell*0.85 {
		size *= cell * 0.85 / w
	}
	return size >= 5.5
}

func rect(x0, y0, x1, y1 vg.Length) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: x0, Y: y0})
	p.Line(vg.Point{X: x1, Y: y0})
	p.Line(vg.Point{X: x1, Y: y1})
	p.Line(vg.Point{X: x0, Y: y1})
	p.Close()
	return p
}

func abs(l vg.Length) vg.Length {
	if l < 0 {
		return -l
	}
	return l
}

// intTicks labels integer positions 0..n-1 with a round step that keeps
// the labels apart.
func intTicks(n int, maxLabels int) plot.Ticker {
	return intTicksStep(n, niceStep(n, maxLabels))
}

// intTicksStep labels integer positions 0..n-1 every step.
func intTicksStep(n, step int) plot.Ticker {
	return plot.TickerFunc(func(min, max float64) []plot.Tick {
		var ts []plot.Tick
		for i := 0; i < n; i++ {
			if i%step == 0 {
				ts = append(ts, plot.Tick{Value: float64(i), Label: human.Count(i)})
			} else if step <= 5 && n <= 30 {
				ts = append(ts, plot.Tick{Value: float64(i)})
			}
		}
		return ts
	})
}

// niceStep is the smallest of 1, 2, 5, 10, 20, 50, ... that labels n
// positions with at most maxLabels labels.
func niceStep(n, maxLabels int) int {
	if maxLabels < 1 {
		maxLabels = 1
	}
	for base := 1; ; base *= 10 {
		for _, m := range []int{1, 2, 5} {
			if s := base * m; (n+s-1)/s <= maxLabels {
				return s
			}
		}
	}
}

// drawKey draws a heatmap's colour key in the area k: discrete swatches or
// one continuous bar per family.
func drawKey(c draw.Canvas, k draw.Canvas, s scale, heading string) {
	head := textStyle(9, color.Black)
	head.Font.Variant, head.Font.Weight = boldFont.Variant, boldFont.Weight
	head.XAlign, head.YAlign = draw.XLeft, draw.YTop
	top := k.Max.Y
	if heading != "" {
		c.FillText(head, vg.Point{X: k.Min.X, Y: top}, heading)
		top -= 16
	}
	lab := textStyle(9, color.Black)
	lab.XAlign = draw.XLeft
	if s.bars == nil {
		n := vg.Length(len(s.swatches))
		step := min(16, (top-k.Min.Y)/n)
		box := min(11, step-2)
		lab.Font.Size = min(9, step*0.7)
		for i, sw := range s.swatches {
			y := top - vg.Length(i)*step
			c.SetColor(sw.col)
			c.Fill(rect(k.Min.X, y-box, k.Min.X+box, y))
			c.SetLineStyle(draw.LineStyle{Color: color.Gray{Y: 120}, Width: 0.4})
			c.Stroke(rect(k.Min.X, y-box, k.Min.X+box, y))
			if sw.hatch {
				hatchCell(c, hatchLine, k.Min.X, y-box, k.Min.X+box, y)
			}
			c.FillText(lab, vg.Point{X: k.Min.X + box + 4, Y: y - box/2}, sw.label)
		}
		return
	}
	// Continuous: a lone P swatch first (values), then one bar per
	// family, largest value on top.
	for _, sw := range s.swatches {
		box := vg.Length(11)
		c.SetColor(sw.col)
		c.Fill(rect(k.Min.X, top-box, k.Min.X+box, top))
		if sw.hatch {
			hatchCell(c, hatchLine, k.Min.X, top-box, k.Min.X+box, top)
		}
		c.FillText(lab, vg.Point{X: k.Min.X + box + 4, Y: top - box/2}, sw.label)
		top -= box + 5
	}
	top -= 5
	barW := vg.Length(11)
	x := k.Min.X
	for _, b := range s.bars {
		if len(s.bars) > 1 {
			c.FillText(lab, vg.Point{X: x, Y: top - 5}, b.label)
		}
		bt := top - 14
		if len(s.bars) == 1 {
			bt = top - 4
		}
		height := min(bt-k.Min.Y, 220)
		n := (b.max-b.min)/b.stride + 1
		steps := min(n, 128)
		// Each slice overlaps the next by a pixel so no seams show.
		for i := 0; i < steps; i++ {
			y0 := bt - height + height*vg.Length(i)/vg.Length(steps)
			y1 := bt - height + height*vg.Length(i+1)/vg.Length(steps)
			if i < steps-1 {
				y1 += pixel
			}
			c.SetColor(ramp(b.stops, frac(i, steps-1)))
			c.Fill(rect(x, y0, x+barW, y1))
		}
		// Round numbers on a plain bar; a parity family's ticks step over
		// its own values from its first (0, 4, 8, 12 and 1, 5, 9, 13),
		// where a step of 10 in plain numbers labelled only the ends.
		st := b.stride * niceStep(n, max(1, min(6, int(height/14))))
		from := 0
		if b.stride > 1 {
			from = b.min
		}
		for v := b.min; v <= b.max; v += b.stride {
			ends := v == b.min || v == b.max
			if !ends && ((v-from)%st != 0 || (b.max-v)*2 < st) {
				continue
			}
			y := bt - height + height*(vg.Length(float64((v-b.min)/b.stride)+0.5))/vg.Length(n)
			c.StrokeLine2(draw.LineStyle{Color: color.Gray{Y: 60}, Width: 0.5}, x+barW, y, x+barW+2, y)
			c.FillText(lab, vg.Point{X: x + barW + 3, Y: y}, human.Count(v))
		}
		x += 52
	}
}

// keepSmallP redraws the P cells (g.bold) at least one pixel square when
// cells are narrower than a pixel. Edges snap to pixels, so a sub-pixel
// cell had zero width and vanished: Wythoff's outcome map to 3000 at 800
// pixels showed about 80 of its 2293 P-positions, its P lines as sparse
// dots. Where a pixel holds both, P wins: the isolated P-positions are
// what such a map is for.
func (g *grid) keepSmallP(c draw.Canvas, fast *pixelText, xs, ys []vg.Length) {
	if g.bold == nil || g.w == 0 || g.h == 0 {
		return
	}
	dx, dy := (xs[g.w]-xs[0])/vg.Length(g.w), (ys[g.h]-ys[0])/vg.Length(g.h)
	if abs(dx) >= pixel && abs(dy) >= pixel {
		return
	}
	grow := func(a, b, step vg.Length) vg.Length {
		if abs(b-a) >= pixel {
			return b
		}
		if step < 0 {
			return a - pixel
		}
		return a + pixel
	}
	for y := 0; y < g.h; y++ {
		for x := 0; x < g.w; x++ {
			if !g.bold(x, y) {
				continue
			}
			x1, y1 := grow(xs[x], xs[x+1], dx), grow(ys[y], ys[y+1], dy)
			col := g.color(x, y)
			if fast != nil {
				fast.fillRect(xs[x], ys[y], x1, y1, col)
			} else {
				c.SetColor(col)
				c.Fill(rect(xs[x], ys[y], x1, y1))
			}
		}
	}
}
