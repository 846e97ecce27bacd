package plots

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"grundy/stdlib/games"
	"grundy/stdlib/human"
	"grundy/stdlib/solve"
)

// Colours of P and N points in charts (heatmaps use the P colour and a
// light N; points need two strong colours).
var (
	pointP = rgb(0x1f4e99)
	pointN = rgb(0xe6550d)
	pathC  = rgb(0xc2185b)
)

func pointColors(cfg *config) (p, n color.Color) {
	p, n = color.Color(pointP), color.Color(pointN)
	if cfg.pColor != nil {
		p = cfg.pColor
	}
	if len(cfg.palette) > 0 {
		n = cfg.palette[0]
	}
	return p, n
}

// Line draws a table along one free letter, e.g. Line(t, "3 a 5"): one
// point per position, P-positions and N-positions in two colours and
// shapes, joined in order. It draws values or remoteness, whatever the
// table holds.
func Line(t *solve.Table, spec string, opts ...Option) (*Figure, error) {
	if t == nil {
		return nil, errNoTable
	}
	vals, err := t.Line(spec)
	if err != nil {
		return nil, err
	}
	return LineOf(t.GameName(), spec, t.Kind(), vals, opts...)
}

// LineOf draws entries already taken out of a table (or computed some
// other way) as Line draws a table's: vals[i] is the entry where the
// pattern's letter is i.
func LineOf(game, spec string, kind solve.Kind, vals []int, opts ...Option) (*Figure, error) {
	letters := freeLetters(spec)
	switch {
	case len(letters) == 0:
		return nil, fmt.Errorf("plots: line %q has no free letter; write one, e.g. \"3 a 5\"", spec)
	case len(letters) > 1:
		return nil, fmt.Errorf("plots: line %q has %d free letters (%s); a line has one (draw two with Heatmap)", spec, len(letters), strings.Join(letters, ", "))
	case len(vals) == 0:
		return nil, fmt.Errorf("plots: line %q is empty; give the table a bound of at least 0", spec)
	}
	isP := func(v int) bool { return v == 0 || kind == solve.KindRemoteness && v%2 == 0 }
	cfg := newConfig(opts)
	if cfg.err != nil {
		return nil, cfg.err
	}
	what := map[solve.Kind]string{solve.KindValues: "Grundy value", solve.KindOutcomes: "outcome (0 = P)", solve.KindRemoteness: "remoteness"}[kind]
	title := cfg.titleOr(fmt.Sprintf("%s: %s along %s", nameOr(game), strings.SplitN(what, " (", 2)[0], patternText(spec)))
	var ps, ns []xy
	maxV, nP := 0, 0
	for i, v := range vals {
		if v < 0 {
			return nil, fmt.Errorf("plots: line %q has a negative entry %d at %s=%d", spec, v, letters[0], i)
		}
		maxV = max(maxV, v)
		if isP(v) {
			ps = append(ps, xy{float64(i), float64(v)})
			nP++
		} else {
			ns = append(ns, xy{float64(i), float64(v)})
		}
	}
	pc, nc := pointColors(&cfg)
	all := make([]xy, len(vals))
	for i, v := range vals {
		all[i] = xy{float64(i), float64(v)}
	}
	desc := fmt.Sprintf("%s of %s along %s for %s=0..%d: max %s, %s", what, nameOr(game), patternText(spec), letters[0], len(vals)-1, human.Count(maxV), human.Quantity(nP, "P-position"))
	width, height := sizeOr(&cfg, max(480, min(900, 120+len(vals)*24)), 360)
	fig := cfg.figure(desc, width, height)
	labelled := len(vals) <= 40
	fig.paint = func(c draw.Canvas) {
		c = titled(c, title)
		p := newPlot("")
		p.X.Label.Text, p.Y.Label.Text = letters[0], what
		fig.line = &polyline{pts: all, style: draw.LineStyle{Color: color.Gray{Y: 170}, Width: 1}}
		p.Add(fig.line)
		fig.marks = map[string]*points{
			"N": {pts: ns, col: nc, shape: shapeSquare, radius: 3.5},
			"P": {pts: ps, col: pc, shape: shapeCircle, radius: 4},
		}
		p.Add(fig.marks["N"], fig.marks["P"])
		if labelled {
			fig.labels = map[string]*pointLabels{"points": {pts: all, place: true, avoid: [][]xy{all}, markR: 4}}
			p.Add(fig.labels["points"])
		}
		p.X.Min, p.X.Max = -0.5, float64(len(vals))-0.5
		p.Y.Min, p.Y.Max = 0, float64(maxV)+0.5+float64(maxV)/12
		area := draw.Crop(c, 6, -12, 4, 0)
		dc := p.DataCanvas(area)
		p.X.Tick.Marker = intTicks(len(vals), max(2, int((dc.Max.X-dc.Min.X)/26)))
		p.Y.Tick.Marker = intTicks(maxV+1, max(2, int((dc.Max.Y-dc.Min.Y)/22)))
		// N marks no wider than their spacing (at 3.5 pt, the 301 points
		// of 0.6 to 300 merged into bars); P marks, the rare ones a reader
		// looks for, stay at least 2.5 pt.
		if r := min(4, max(0.8, (dc.Max.X-dc.Min.X)/vg.Length(len(vals))*0.42)); r < 4 {
			fig.marks["P"].radius, fig.marks["N"].radius = max(r, 2.5), r*0.875
		}
		p.Legend.Top, p.Legend.Left = true, true
		fig.legendEntry(p, "P", &points{col: pc, shape: shapeCircle, radius: 4})
		fig.legendEntry(p, "N", &points{col: nc, shape: shapeSquare, radius: 3.5})
		p.Legend.XOffs, p.Legend.YOffs = 6, -4
		p.Draw(area)
	}
	return fig, nil
}

// freeLetters lists the distinct letters of a pattern in order.
func freeLetters(spec string) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range strings.FieldsFunc(spec, func(r rune) bool { return r == ' ' || r == ',' || r == '(' || r == ')' || r == '\t' }) {
		if _, err := strconv.Atoi(f); err == nil || seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f)
	}
	return out
}

// Path marks a play-out over a remoteness scatter: the positions in order,
// each drawn at its total and its entry in the table, e.g.
// Path(known.MPath(games.Pos{3, 5, 5})...).
func Path(path ...games.Pos) Option {
	return func(c *config) { c.path = append([]games.Pos(nil), path...) }
}

// Scatter plots every position of a table by its total number of stones
// against its entry (remoteness, or value), one mark per distinct pair
// sized by how many positions share it, P and N in two colours. With the
// Path option it draws a play-out over the cloud, e.g. the M-rule from
// (3,5,5) in Exact Slow NIM(3,2).
func Scatter(t *solve.Table, opts ...Option) (*Figure, error) {
	if t == nil {
		return nil, errNoTable
	}
	if t.Len() == 0 {
		return nil, fmt.Errorf("plots: table of %s is empty", t.GameName())
	}
	cfg := newConfig(opts)
	if cfg.err != nil {
		return nil, cfg.err
	}
	counts := map[[2]int]int{}
	bound := t.Max()
	pos := make([]int, len(bound))
	for {
		total := 0
		for _, x := range pos {
			total += x
		}
		counts[[2]int{total, t.At(pos...)}]++
		i := len(pos) - 1
		for i >= 0 && pos[i] == bound[i] {
			pos[i] = 0
			i--
		}
		if i < 0 {
			break
		}
		pos[i]++
	}
	var path []xy
	var pathText []string
	for _, p := range cfg.path {
		v, err := t.Value(p)
		if err != nil {
			return nil, fmt.Errorf("plots: path: %w", err)
		}
		path = append(path, xy{float64(p.Total()), float64(v)})
		pathText = append(pathText, p.String())
	}
	return scatterOf(t.GameName(), boundText(bound), t.Kind(), counts, path, pathText, &cfg)
}

func boundText(b []int) string {
	same := true
	for _, x := range b {
		same = same && x == b[0]
	}
	if same && len(b) > 0 {
		return fmt.Sprintf("heaps 0..%d", b[0])
	}
	parts := make([]string, len(b))
	for i, x := range b {
		parts[i] = strconv.Itoa(x)
	}
	return "heaps up to (" + strings.Join(parts, ", ") + ")"
}

// scatterOf draws counts[(total, entry)] positions; path is drawn over it.
func scatterOf(game, bound string, kind solve.Kind, counts map[[2]int]int, path []xy, pathText []string, cfg *config) (*Figure, error) {
	if len(counts) == 0 {
		return nil, fmt.Errorf("plots: no positions to draw for %s", nameOr(game))
	}
	keys := make([][2]int, 0, len(counts))
	maxC, maxT, maxV, n := 0, 0, 0, 0
	for k, c := range counts {
		keys = append(keys, k)
		maxC = max(maxC, c)
		maxT, maxV = max(maxT, k[0]), max(maxV, k[1])
		n += c
		if k[1] < 0 {
			return nil, fmt.Errorf("plots: negative entry %d in the table", k[1])
		}
	}
	// Sorted so the SVG comes out in the same order every time.
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	isP := func(v int) bool { return v == 0 || kind == solve.KindRemoteness && v%2 == 0 }
	pc, nc := pointColors(cfg)
	width, height := sizeOr(cfg, 640, 460)
	// A large table has far more distinct pairs than the plot has room for
	// (Wythoff to 2000: 1.3M marks of at least 2.5 pt, one solid blob, a
	// 182 MB SVG and 9 s per PNG). Then P and N positions are counted in
	// bins of bx totals by by entries and drawn at the bins' means, with
	// smaller marks; the legend says so.
	bx, by := 1, 1
	if len(keys) > scatterMaxMarks {
		bx = (maxT + scatterBinsX) / scatterBinsX
		by = (maxV + scatterBinsY) / scatterBinsY
		type bin struct {
			p    bool
			t, v int
		}
		binned := map[bin]int{}
		sums := map[bin][2]float64{} // count-weighted totals and entries
		for _, k := range keys {
			b, c := bin{isP(k[1]), k[0] / bx, k[1] / by}, counts[k]
			binned[b] += c
			sm := sums[b]
			sums[b] = [2]float64{sm[0] + float64(c*k[0]), sm[1] + float64(c*k[1])}
		}
		bins := make([]bin, 0, len(binned))
		maxC = 0
		for b, c := range binned {
			bins = append(bins, b)
			maxC = max(maxC, c)
		}
		radius := markRadius(width, height, (maxT+bx)/bx, (maxV+by)/by, maxC)
		sort.Slice(bins, func(i, j int) bool {
			a, b := bins[i], bins[j]
			return a.t < b.t || a.t == b.t && (a.v < b.v || a.v == b.v && !a.p && b.p)
		})
		var ps, ns []xy
		var pr, nr []vg.Length
		for _, b := range bins {
			// At the bin's mean, so that P-positions of value 0 stay on 0.
			c := float64(binned[b])
			pt := xy{sums[b][0] / c, sums[b][1] / c}
			if b.p {
				ps, pr = append(ps, pt), append(pr, radius(binned[b]))
			} else {
				ns, nr = append(ns, pt), append(nr, radius(binned[b]))
			}
		}
		return scatterFigure(game, bound, kind, n, len(keys), maxC, maxT, maxV, bx, by, ps, ns, pr, nr, nil, nil, path, pathText, cfg, pc, nc, radius)
	}
	radius := markRadius(width, height, maxT+1, maxV+1, maxC)
	var ps, ns []xy
	var pr, nr []vg.Length
	for _, k := range keys {
		pt := xy{float64(k[0]), float64(k[1])}
		if isP(k[1]) {
			ps, pr = append(ps, pt), append(pr, radius(counts[k]))
		} else {
			ns, nr = append(ns, pt), append(nr, radius(counts[k]))
		}
	}
	return scatterFigure(game, bound, kind, n, len(keys), maxC, maxT, maxV, bx, by, ps, ns, pr, nr, keys, counts, path, pathText, cfg, pc, nc, radius)
}

// markRadius sizes scatter marks (area ~ count) to the grid they sit on:
// up to 9 pt where a few dozen columns leave room, shrinking where
// hundreds of totals or entries share the plot so that neighbouring marks
// do not merge into one blob (SlowExact(3,2) to 90: 271 totals).
func markRadius(width, height, cols, rows, maxC int) func(int) vg.Length {
	// The data area is the figure less axes, title and margins, in points.
	w := vg.Length(max(width-100, 50)) * 72 / dpi
	h := vg.Length(max(height-90, 50)) * 72 / dpi
	cell := min(w/vg.Length(max(cols, 1)), h/vg.Length(max(rows, 1)))
	rMax := min(max(cell*0.6, 1.2), 9)
	rMin := min(2.5, rMax*0.35)
	return func(c int) vg.Length {
		return rMin + (rMax-rMin)*vg.Length(math.Sqrt(float64(c)/float64(maxC)))
	}
}

// Above scatterMaxMarks distinct (total, entry) pairs, Scatter bins them
// into about scatterBinsX by scatterBinsY cells per class.
const (
	scatterMaxMarks = 5000
	scatterBinsX    = 150
	scatterBinsY    = 100
)

// scatterFigure lays out the marks; keys and counts (unbinned only) give
// the per-mark counts printed when there are few marks.
func scatterFigure(game, bound string, kind solve.Kind, n, pairs, maxC, maxT, maxV, bx, by int, ps, ns []xy, pr, nr []vg.Length,
	keys [][2]int, counts map[[2]int]int, path []xy, pathText []string, cfg *config, pc, nc color.Color, radius func(int) vg.Length) (*Figure, error) {
	binned := bx > 1 || by > 1
	what := map[solve.Kind]string{solve.KindValues: "Grundy value", solve.KindOutcomes: "outcome (0 = P)", solve.KindRemoteness: "remoteness"}[kind]
	title := cfg.titleOr(fmt.Sprintf("%s: %s against total stones (%s)", nameOr(game), strings.SplitN(what, " (", 2)[0], bound))
	desc := fmt.Sprintf("scatter of %s against total stones for %s of %s (%s): %s, at most %s on one",
		what, human.Quantity(n, "position"), nameOr(game), bound, human.Quantity(pairs, "distinct pair"), human.Quantity(maxC, "position"))
	legendP := fmt.Sprintf("P (mark area ~ count, max %s)", human.Count(maxC))
	if binned {
		desc = fmt.Sprintf("scatter of %s against total stones for %s of %s (%s): %s binned %d %s x %d %s, at most %s in one bin",
			what, human.Quantity(n, "position"), nameOr(game), bound, human.Quantity(pairs, "distinct pair"), bx, human.Plural(bx, "total"), by, human.Plural(by, "value"), human.Quantity(maxC, "position"))
		legendP = fmt.Sprintf("P (binned %d totals x %d; area ~ count, max %s)", bx, by, human.Count(maxC))
	}
	if len(path) > 0 {
		desc += fmt.Sprintf("; path of %d %s from %s", len(path), human.Plural(len(path), "position"), pathText[0])
	}
	width, height := sizeOr(cfg, 640, 460)
	labelCounts := !binned && len(keys) <= 80
	fig := cfg.figure(desc, width, height)
	fig.paint = func(c draw.Canvas) {
		c = titled(c, title)
		p := newPlot("")
		p.X.Label.Text, p.Y.Label.Text = "total stones", what
		// The play-out runs under the marks and rings them from outside,
		// so that it hides none of the counts printed in them.
		if len(path) > 0 {
			p.Add(&polyline{pts: path, style: draw.LineStyle{Color: pathC, Width: 2}})
		}
		fig.marks = map[string]*points{
			"N": {pts: ns, col: fade(nc, 200), shape: shapeCircle, radii: nr},
			"P": {pts: ps, col: fade(pc, 200), shape: shapeCircle, radii: pr},
		}
		p.Add(fig.marks["N"], fig.marks["P"])
		if labelCounts {
			// A count goes inside its mark when it fits, else beside it.
			in := &pointLabels{labels: []string{}, size: 6.5, col: color.White}
			out := &pointLabels{labels: []string{}, dx: 1, size: 6.5, col: color.Gray{Y: 90}}
			probe := textStyle(6.5, color.Black)
			for _, k := range keys {
				q := xy{float64(k[0]), float64(k[1])}
				s, r := human.Count(counts[k]), radius(counts[k])
				if r >= 5 && probe.Width(s)+1 < 2*r {
					in.pts, in.labels = append(in.pts, q), append(in.labels, s)
				} else {
					out.pts, out.labels = append(out.pts, q), append(out.labels, s)
					out.dxs = append(out.dxs, r+1.5)
				}
			}
			fig.labels = map[string]*pointLabels{"in": in, "out": out}
		}
		var ring *points
		if len(path) > 0 {
			ring = &points{pts: path, col: pathC, shape: shapeRing, radius: min(4.5, max(1.8, radius(maxC)))}
			if counts != nil {
				ring.radii = make([]vg.Length, len(path))
				for i, q := range path {
					ring.radii[i] = radius(counts[[2]int{int(q.x), int(q.y)}]) + 1.8
				}
			}
			fig.marks["path"] = ring
		}
		// Labels beside their marks keep off every mark and ring.
		var marks []xy
		var radii []vg.Length
		for _, m := range []*points{fig.marks["N"], fig.marks["P"], ring} {
			if m != nil {
				for i := range m.pts {
					marks, radii = append(marks, m.pts[i]), append(radii, m.radiusAt(i))
				}
			}
		}
		if labelCounts {
			out := fig.labels["out"]
			out.place, out.marks, out.radii, out.avoid = true, marks, radii, [][]xy{path}
			p.Add(fig.labels["in"], out)
		}
		if ring != nil {
			p.Add(ring)
			start := &pointLabels{pts: path[:1], labels: pathText[:1], size: 9, col: pathC, place: true, leader: true, markR: ring.radiusAt(0), marks: marks, radii: radii, avoid: [][]xy{path}}
			if fig.labels == nil {
				fig.labels = map[string]*pointLabels{}
			}
			fig.labels["start"] = start
			p.Add(start)
		}
		p.X.Min, p.X.Max = -0.5, float64(maxT)+0.5
		p.Y.Min, p.Y.Max = -0.5, float64(maxV)+0.5+float64(maxV)/10
		area := draw.Crop(c, 6, -12, 4, 0)
		dc := p.DataCanvas(area)
		p.X.Tick.Marker = intTicks(maxT+1, max(2, int((dc.Max.X-dc.Min.X)/28)))
		p.Y.Tick.Marker = intTicks(maxV+1, max(2, int((dc.Max.Y-dc.Min.Y)/22)))
		p.Legend.Top, p.Legend.Left = true, true
		p.Legend.XOffs, p.Legend.YOffs = 6, -4
		fig.legendEntry(p, legendP, &points{col: pc, shape: shapeCircle, radius: 4})
		fig.legendEntry(p, "N", &points{col: nc, shape: shapeCircle, radius: 4})
		if len(path) > 0 {
			fig.legendEntry(p, "play-out from "+pathText[0], &points{col: pathC, shape: shapeRing, radius: 4})
		}
		p.Draw(area)
	}
	return fig, nil
}

// Histogram draws how many positions of a table have each entry: one bar
// per value (or remoteness), the count printed on it while there is room;
// P bars in the P colour.
func Histogram(t *solve.Table, opts ...Option) (*Figure, error) {
	if t == nil {
		return nil, errNoTable
	}
	return HistogramOf(t.GameName()+", "+boundText(t.Max()), t.Kind(), t.Counts(), opts...)
}

// HistogramOf draws counts already taken out of a table as Histogram
// draws a table's: counts[v] positions have entry v.
func HistogramOf(game string, kind solve.Kind, counts []int, opts ...Option) (*Figure, error) {
	total := 0
	for v, c := range counts {
		if c < 0 {
			return nil, fmt.Errorf("plots: negative count %d for entry %d", c, v)
		}
		total += c
	}
	if total == 0 {
		return nil, fmt.Errorf("plots: the table of %s is empty; nothing to count", nameOr(game))
	}
	cfg := newConfig(opts)
	if cfg.err != nil {
		return nil, cfg.err
	}
	maxV := len(counts) - 1
	var sc scale
	var names func(int) string = strconv.Itoa
	switch kind {
	case solve.KindRemoteness:
		sc = remotenessScale(&cfg, maxV)
	case solve.KindOutcomes:
		sc = outcomeScale(&cfg)
		names = func(v int) string { return [...]string{"P", "N"}[min(v, 1)] }
	default:
		sc = valueScale(&cfg, maxV)
	}
	what := map[solve.Kind]string{solve.KindValues: "Grundy value", solve.KindOutcomes: "outcome", solve.KindRemoteness: "remoteness"}[kind]
	title := cfg.titleOr(fmt.Sprintf("%s: positions per %s", nameOr(game), what))
	maxC := 0
	for _, c := range counts {
		maxC = max(maxC, c)
	}
	desc := fmt.Sprintf("histogram of %s over %s of %s: %s (%s at entry 0), largest bar %s", what, human.Quantity(total, "position"), nameOr(game), human.Quantity(countP(kind, counts), "P-position"), human.Count(counts[0]), human.Count(maxC))
	width, height := sizeOr(&cfg, max(480, min(960, 120+len(counts)*26)), 380)
	fig := cfg.figure(desc, width, height)
	fig.paint = func(c draw.Canvas) {
		c = titled(c, title)
		p := newPlot("")
		p.X.Label.Text, p.Y.Label.Text = what, "positions"
		b := &bars{counts: counts, color: sc.color}
		fig.bars = b
		p.Add(b)
		p.X.Min, p.X.Max = -0.6, float64(maxV)+0.6
		p.Y.Min, p.Y.Max = 0, float64(maxC)*1.1
		area := draw.Crop(c, 6, -12, 4, 0)
		dc := p.DataCanvas(area)
		b.labels = (dc.Max.X-dc.Min.X)/vg.Length(len(counts)) >= 20
		step := niceStep(len(counts), max(2, int((dc.Max.X-dc.Min.X)/28)))
		p.X.Tick.Marker = plot.TickerFunc(func(_, _ float64) []plot.Tick {
			var ts []plot.Tick
			for v := 0; v <= maxV; v++ {
				if v%step == 0 {
					ts = append(ts, plot.Tick{Value: float64(v), Label: names(v)})
				}
			}
			return ts
		})
		p.Y.Tick.Marker = countTicks{}
		// The key says which bars are P-positions.
		p.Legend.Top = true
		p.Legend.XOffs, p.Legend.YOffs = -4, -2
		switch {
		case kind == solve.KindRemoteness && maxV > 0:
			mid := maxV / 2 &^ 1
			fig.legendEntry(p, "even (P)", &points{col: sc.color(mid), shape: shapeSquare, radius: 4})
			fig.legendEntry(p, "odd (N)", &points{col: sc.color(mid + 1), shape: shapeSquare, radius: 4})
		case kind == solve.KindValues:
			fig.legendEntry(p, "0 (P-positions)", &points{col: sc.color(0), shape: shapeSquare, radius: 4})
		}
		p.Draw(area)
	}
	return fig, nil
}

func countP(kind solve.Kind, counts []int) int {
	if kind != solve.KindRemoteness {
		return counts[0]
	}
	n := 0
	for v := 0; v < len(counts); v += 2 {
		n += counts[v]
	}
	return n
}

// PCountsOf draws P-position counts already computed as PCounts draws a
// game's: counts[i] P-positions among the positions with heaps
// 0..bounds[i].
func PCountsOf(game string, bounds, counts []int, opts ...Option) (*Figure, error) {
	switch {
	case len(bounds) == 0:
		return nil, fmt.Errorf("plots: no bounds given for %s; pass the bounds and their P-position counts", nameOr(game))
	case len(bounds) != len(counts):
		return nil, fmt.Errorf("plots: %s but %s", human.Quantity(len(bounds), "bound"), human.Quantity(len(counts), "count"))
	}
	cfg := newConfig(opts)
	if cfg.err != nil {
		return nil, cfg.err
	}
	pts := make([]xy, len(bounds))
	maxB, maxC := 0, 0
	for i := range bounds {
		if bounds[i] < 0 || counts[i] < 0 {
			return nil, fmt.Errorf("plots: negative bound or count at %d: (%d, %d)", i, bounds[i], counts[i])
		}
		pts[i] = xy{float64(bounds[i]), float64(counts[i])}
		maxB, maxC = max(maxB, bounds[i]), max(maxC, counts[i])
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].x < pts[j].x })
	pc, _ := pointColors(&cfg)
	if len(cfg.palette) > 0 {
		pc = cfg.palette[0]
	}
	title := cfg.titleOr(fmt.Sprintf("%s: P-positions as the bound grows", nameOr(game)))
	desc := fmt.Sprintf("P-position counts of %s for %s up to %d: %s at the largest", nameOr(game), human.Quantity(len(bounds), "bound"), maxB, human.Count(int(pts[len(pts)-1].y)))
	width, height := sizeOr(&cfg, 560, 380)
	fig := cfg.figure(desc, width, height)
	fig.paint = func(c draw.Canvas) {
		c = titled(c, title)
		p := newPlot("")
		p.X.Label.Text, p.Y.Label.Text = "bound (heaps 0..bound)", "P-positions"
		fig.line = &polyline{pts: pts, style: draw.LineStyle{Color: pc, Width: 1.5}}
		p.Add(fig.line)
		p.Add(&points{pts: pts, col: pc, shape: shapeCircle, radius: 3.5})
		if len(pts) <= 24 {
			labels := make([]string, len(pts))
			for i, q := range pts {
				labels[i] = human.Count(int(q.y))
			}
			fig.labels = map[string]*pointLabels{"points": {pts: pts, labels: labels, size: 8, place: true, avoid: [][]xy{pts}, markR: 3.5}}
			p.Add(fig.labels["points"])
		}
		p.X.Min, p.X.Max = float64(pts[0].x)-0.5, float64(maxB)+0.5
		p.Y.Min, p.Y.Max = 0, float64(maxC)*1.12+1
		area := draw.Crop(c, 6, -12, 4, 0)
		dc := p.DataCanvas(area)
		p.X.Tick.Marker = intTicks(maxB+1, max(2, int((dc.Max.X-dc.Min.X)/28)))
		p.Y.Tick.Marker = countTicks{}
		p.Draw(area)
	}
	return fig, nil
}

func nameOr(game string) string {
	if game == "" {
		return "game"
	}
	return game
}

func sizeOr(cfg *config, w, h int) (int, int) {
	if cfg.width > 0 {
		w = cfg.width
	}
	if cfg.height > 0 {
		h = cfg.height
	}
	return w, h
}

// countTicks labels a count axis with round integers only.
type countTicks struct{}

func (countTicks) Ticks(lo, hi float64) []plot.Tick {
	n := int(math.Ceil(hi))
	step := niceStep(n+1, 6)
	var ts []plot.Tick
	for v := 0; float64(v) <= hi; v += step {
		if float64(v) >= lo {
			ts = append(ts, plot.Tick{Value: float64(v), Label: human.Count(v)})
		}
	}
	return ts
}

// PCounts solves g's outcomes for each bound (heaps 0..bound) and draws
// how the number of P-positions grows, e.g. PCounts(games.CN(6, 2), 1,
// 2, 3, 4, 5, 6).
func PCounts(g games.Game, bounds ...int) (*Figure, error) {
	if g == nil {
		return nil, errors.New("plots: no game given; pass one such as games.CN(6, 2)")
	}
	if len(bounds) == 0 {
		return nil, fmt.Errorf("plots: give the bounds to count at, e.g. PCounts(g, 1, 2, 3, 4)")
	}
	counts := make([]int, len(bounds))
	for i, b := range bounds {
		t, err := solve.Outcomes(g, b)
		if err != nil {
			return nil, err
		}
		counts[i] = t.CountP()
	}
	return PCountsOf(g.Name(), bounds, counts)
}
