package plots

import (
	"bytes"
	"regexp"
	"strconv"
	"testing"

	"grundy/stdlib/games"
	"grundy/stdlib/solve"
)

var svgText = regexp.MustCompile(`(?s)<text x="([-\d.]+)" y="([-\d.]+)"[^>]*>([^<]*)</text>`)

type placedText struct {
	x, y float64 // in points, y up
	s    string
}

// svgTexts lists the texts an SVG writes, where it writes them.
func svgTexts(t *testing.T, svg []byte) []placedText {
	t.Helper()
	var out []placedText
	for _, m := range svgText.FindAllSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(string(m[1]), 64)
		y, _ := strconv.ParseFloat(string(m[2]), 64)
		out = append(out, placedText{x, -y, string(m[3])})
	}
	if len(out) == 0 {
		t.Fatal("no text found in the SVG")
	}
	return out
}

// A square face ticks both axes with one step (the 41x41 slow Moore face
// had ticks every 5 across and every 2 down), and its figure is as large
// as it needs: a quarter of that figure's canvas was empty.
func TestHeatmapAxesAndCanvas(t *testing.T) {
	f := &solve.Face{Game: "g", Pattern: "a b", Kind: solve.KindValues, X: "a", Y: "b", W: 41, H: 41, Cells: make([]int, 41*41)}
	fig, err := HeatmapOf(f)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := fig.SVG()
	if err != nil {
		t.Fatal(err)
	}
	// All cells are 0, so the key holds no number: every number drawn is
	// a tick label, once on each axis.
	seen := map[string]int{}
	for _, tx := range svgTexts(t, svg) {
		if _, err := strconv.Atoi(tx.s); err == nil {
			seen[tx.s]++
		}
	}
	if len(seen) < 4 {
		t.Fatalf("only %d tick labels: %v", len(seen), seen)
	}
	for s, n := range seen {
		if n != 2 {
			t.Errorf("tick %s is labelled on %d axes, want both: the axes step differently (%v)", s, n, seen)
		}
	}
	render(t, fig)
	g := fig.grid
	right := fig.Width() - int(g.xs[len(g.xs)-1]/pixel)
	bottom := int(min(g.ys[0], g.ys[len(g.ys)-1]) / pixel) // y points up
	// Right of the cells: the key (70 pt) and margins; below them: ticks
	// and the axis label.
	if right > 140 || bottom > 60 {
		t.Errorf("the %dx%d figure leaves %d pixels right of its cells and %d below them", fig.Width(), fig.Height(), right, bottom)
	}
}

// A remoteness key labels more than the ends of each parity bar: 0..12
// and 1..13 were labelled only 0, 12 and 1, 13.
func TestRemotenessKeyTicks(t *testing.T) {
	f := remFace(7) // remoteness 0..12 even, 1..11 odd
	fig, err := RemotenessMapOf(f, Labels(false))
	if err != nil {
		t.Fatal(err)
	}
	svg, err := fig.SVG()
	if err != nil {
		t.Fatal(err)
	}
	render(t, fig)
	cellsEnd := float64(fig.grid.xs[len(fig.grid.xs)-1])
	even, odd := 0, 0
	for _, tx := range svgTexts(t, svg) {
		v, err := strconv.Atoi(tx.s)
		if err != nil || tx.x < cellsEnd {
			continue
		}
		if v%2 == 0 {
			even++
		} else {
			odd++
		}
	}
	if even < 3 || odd < 3 {
		t.Errorf("the key labels %d even and %d odd values; want at least 3 of each", even, odd)
	}
}

// A histogram of values says that its black bar is the P-positions.
func TestHistogramKeySaysP(t *testing.T) {
	fig, err := HistogramOf("g", solve.KindValues, []int{5, 9, 7, 2})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := fig.SVG()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte(">0 (P-positions)</text>")) {
		t.Error("the histogram's key does not say which bar is P")
	}
	img := render(t, fig)
	if len(fig.legend) != 1 || fig.legend[0].col != fig.bars.color(0) {
		t.Fatalf("legend %v does not show the P bar's colour", fig.legend)
	}
	if got := pixelAt(fig, img, fig.legend[0].thumb); got != fig.bars.color(0) {
		t.Errorf("the key's P swatch is %v, the P bar %v", got, fig.bars.color(0))
	}
}

// A long line's N marks are no wider than the points' spacing (the 301
// points of octal 0.6 merged into bars), and its P marks stay visible.
func TestDenseLineMarks(t *testing.T) {
	vals := make([]int, 301)
	for i := range vals {
		vals[i] = (i * 7) % 11
	}
	fig, err := LineOf("g", "a", solve.KindValues, vals)
	if err != nil {
		t.Fatal(err)
	}
	render(t, fig)
	n := fig.marks["N"].drawn
	spacing := (n[len(n)-1].X - n[0].X) / 299 // the first and last points (1 and 300) are N
	if r := fig.marks["N"].radius; 2*r > spacing*1.01 {
		t.Errorf("N marks %.2f pt wide for points %.2f pt apart", 2*r, spacing)
	}
	if r := fig.marks["P"].radius; r < 2.5 {
		t.Errorf("P marks of radius %.2f pt", r)
	}
}

// A line of more points than the plot has room for draws its points
// without the line through them: Kayles to heap 2000 joined point to
// point was a grey band from value 1 to 8 that hid every value.
func TestLongLineDrawsNoBand(t *testing.T) {
	k, err := solve.Values(games.Octal("0.77"), 2000)
	if err != nil {
		t.Fatal(err)
	}
	fig, err := Line(k, "a")
	if err != nil {
		t.Fatal(err)
	}
	img := render(t, fig)
	grey, all := 0, 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			all++
			if c := toRGBA(img.At(x, y)); c.R == c.G && c.G == c.B && c.R > 150 && c.R < 190 {
				grey++
			}
		}
	}
	if grey*100 > all {
		t.Errorf("%d of %d pixels are the line's grey", grey, all)
	}
	// The values are still there: a mark on each level Kayles takes.
	seen := map[float64]bool{}
	for _, m := range []string{"P", "N"} {
		for _, p := range fig.marks[m].pts {
			seen[p.y] = true
		}
	}
	if len(seen) != 9 {
		t.Errorf("marks on %d levels, want the 9 values 0..8", len(seen))
	}
}
