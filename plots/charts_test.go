package plots

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"grundy/stdlib/entail"
	"grundy/stdlib/games"
	"grundy/stdlib/known"
	"grundy/stdlib/solve"
)

func pixelAt(fig *Figure, img image.Image, p vg.Point) color.RGBA {
	return toRGBA(img.At(int(p.X/pixel), fig.Height()-1-int(p.Y/pixel)))
}

func TestLoonyTableCells(t *testing.T) {
	vt := heroTable(12)
	fig, err := LoonyTable(vt)
	if err != nil {
		t.Fatal(err)
	}
	img := render(t, fig)
	vs := valueScale(&config{}, 12)
	for x := range vt.Games {
		for y, h := range vt.Heaps {
			v := vt.Values[x][y]
			seen := map[color.RGBA]bool{}
			for fx := 0.03; fx < 0.2; fx += 0.01 {
				seen[cellPixel(fig, img, x, y, fx, 0.5)] = true
			}
			if v.Loony {
				if !seen[defaultLoony] || len(seen) < 2 {
					t.Errorf("%s heap %d is loony but its cell is not red and striped: %v", vt.Games[x], h, seen)
				}
				continue
			}
			want := vs.color(v.Nimber)
			if got := cellPixel(fig, img, x, y, 0.06, 0.5); got != want {
				t.Errorf("%s heap %d (%v): cell colour %v, want %v", vt.Games[x], h, v, got, want)
			}
			if seen[defaultLoony] {
				t.Errorf("%s heap %d (%v) shows the loony colour", vt.Games[x], h, v)
			}
		}
	}
	svg, err := fig.SVG()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">Top Entails</text>", ">entailing Nim</text>", ">loony</text>", ">*4</text>", ">*</text>", ">heap</text>"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("loony table SVG lacks %q", want)
		}
	}
	// The key writes *1 as the cells do: "*".
	if bytes.Contains(svg, []byte(">*1</text>")) {
		t.Error(`the key says "*1" where the cells say "*"`)
	}
}

// The white label of a loony cell reads against everything behind it:
// the cell's red and its stripes both have at least 4.5:1 contrast with
// white (white stripes at alpha 80 had 3.4:1 and blurred the word).
func TestLoonyLabelsReadOnStripes(t *testing.T) {
	vt := heroTable(4)
	fig, err := LoonyTable(vt)
	if err != nil {
		t.Fatal(err)
	}
	img := render(t, fig)
	x0, x1 := int(fig.grid.xs[0]/pixel), int(fig.grid.xs[1]/pixel)
	for y, v := range vt.Values[0] {
		if !v.Loony {
			continue
		}
		y0, y1 := fig.Height()-int(fig.grid.ys[y]/pixel), fig.Height()-int(fig.grid.ys[y+1]/pixel)
		seen := map[color.RGBA]int{}
		for py := y0 + 2; py < y1-2; py++ {
			for px := x0 + 2; px < x1-2; px++ {
				seen[toRGBA(img.At(px, py))]++
			}
		}
		// The two commonest colours are the cell and its stripes.
		var top []color.RGBA
		for len(top) < 2 {
			best, n := color.RGBA{}, 0
			for c, k := range seen {
				if k > n || k == n && hexOf(c) < hexOf(best) {
					best, n = c, k
				}
			}
			delete(seen, best)
			top = append(top, best)
		}
		for _, c := range top {
			if ratio := 1.05 / (luminance(c) + 0.05); ratio < 4.5 {
				t.Errorf("heap %d: white text on %v has contrast %.1f:1, below 4.5:1", vt.Heaps[y], hexOf(c), ratio)
			}
		}
	}
}

func TestLoonyTableBadInput(t *testing.T) {
	cases := []struct {
		name string
		vt   *entail.ValueTable
		want string
	}{
		{"nil", nil, "nil"},
		{"empty", &entail.ValueTable{}, "empty"},
		{"columns", &entail.ValueTable{Games: []string{"a", "b"}, Heaps: []int{1}, Values: [][]entail.Value{{entail.Loony}}}, "1 value column for 2 games"},
		{"rows", &entail.ValueTable{Games: []string{"a"}, Heaps: []int{1, 2}, Values: [][]entail.Value{{entail.Loony}}}, "1 value for 2 heap"},
		{"negative", &entail.ValueTable{Games: []string{"a"}, Heaps: []int{1}, Values: [][]entail.Value{{entail.Nimber(-2)}}}, "negative"},
	}
	for _, tc := range cases {
		if _, err := LoonyTable(tc.vt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestLineMarksPAndN(t *testing.T) {
	vals := []int{3, 3, 5, 5, 5, 6, 7, 7, 7, 0, 2}
	fig, err := LineOf("SlowExact(3,2)", "3 a 5", solve.KindRemoteness, vals)
	if err != nil {
		t.Fatal(err)
	}
	img := render(t, fig)
	if len(fig.marks["P"].drawn) != 3 || len(fig.marks["N"].drawn) != 8 {
		t.Fatalf("drew %d P and %d N marks, want 3 and 8", len(fig.marks["P"].drawn), len(fig.marks["N"].drawn))
	}
	for kind, want := range map[string]color.RGBA{"P": pointP, "N": pointN} {
		for _, p := range fig.marks[kind].drawn {
			if got := pixelAt(fig, img, p); got != want {
				t.Errorf("%s mark at %v is %v, want %v", kind, p, got, want)
			}
		}
	}
	svg, _ := fig.SVG()
	for _, want := range []string{"remoteness along (3, a, 5)", ">a</text>", ">remoteness</text>"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("line SVG lacks %q", want)
		}
	}
	for _, bad := range []struct{ spec, want string }{{"3 4 5", "no free letter"}, {"a b 5", "2 free letters"}} {
		if _, err := LineOf("g", bad.spec, solve.KindValues, vals); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("LineOf(%q): %v, want %q", bad.spec, err, bad.want)
		}
	}
	if _, err := LineOf("g", "a 1", solve.KindValues, nil); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty line: %v", err)
	}
}

// esnTable is Exact Slow NIM(3,2) with heaps 0..6, remoteness, solved by
// the library.
func esnTable(t testing.TB) *solve.Table {
	tab, err := solve.Remoteness(games.SlowExact(3, 2), 6)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestScatterWithPath(t *testing.T) {
	tab := esnTable(t)
	// Seed 004's M-rule from (3,5,5) in Exact Slow NIM(3,2).
	path := known.MPath([]int{3, 5, 5})
	fig, err := Scatter(tab, Path(path...))
	if err != nil {
		t.Fatal(err)
	}
	img := render(t, fig)
	// Every distinct (total, remoteness) pair of the table is one mark.
	pairs := map[[2]int]bool{}
	for _, b := range []int{0, 1, 2, 3, 4, 5, 6} {
		for _, c := range []int{0, 1, 2, 3, 4, 5, 6} {
			for _, d := range []int{0, 1, 2, 3, 4, 5, 6} {
				pairs[[2]int{b + c + d, tab.At(b, c, d)}] = true
			}
		}
	}
	if n := len(fig.marks["P"].drawn) + len(fig.marks["N"].drawn); n != len(pairs) {
		t.Errorf("%d marks for %d distinct (total, remoteness) pairs", n, len(pairs))
	}
	onPath := map[vg.Point]bool{}
	for _, p := range fig.marks["path"].drawn {
		onPath[p] = true
	}
	for kind, bluer := range map[string]bool{"P": true, "N": false} {
		for _, p := range fig.marks[kind].drawn {
			if onPath[p] {
				continue
			}
			c := pixelAt(fig, img, p)
			if (c.B > c.R) != bluer {
				t.Errorf("%s mark at %v has colour %v", kind, p, c)
			}
		}
	}
	marks := fig.marks["path"].drawn
	if len(marks) != len(path) {
		t.Fatalf("path of %d positions drew %d marks", len(path), len(marks))
	}
	// Drawn over the table, the M-rule path steps down one remoteness
	// level and one or two stones per move (seed 004: M(3,5,5) = 6 = R).
	if len(path) != 7 {
		t.Errorf("M-path from (3,5,5) has %d positions, want 7", len(path))
	}
	unitY := (marks[0].Y - marks[len(marks)-1].Y) / vg.Length(len(marks)-1)
	for i := 1; i < len(marks); i++ {
		if d := marks[i-1].Y - marks[i].Y; d < unitY*0.999 || d > unitY*1.001 {
			t.Errorf("path step %d drops %v, not one remoteness level (%v)", i, d, unitY)
		}
	}
	if r := tab.At(3, 5, 5); r != 6 {
		t.Errorf("remoteness of (3,5,5) is %d, seed 004 says 6", r)
	}
	if !strings.Contains(fig.String(), "path of 7 positions from (3,5,5)") {
		t.Errorf("description %q does not mention the path", fig.String())
	}
	if _, err := Scatter(tab, Path(games.Pos{9, 9, 9})); err == nil {
		t.Error("a path outside the table should be an error")
	}
}

func TestHistogramBars(t *testing.T) {
	tab := esnTable(t)
	fig, err := Histogram(tab)
	if err != nil {
		t.Fatal(err)
	}
	img := render(t, fig)
	counts := tab.Counts()
	sc := remotenessScale(&config{}, len(counts)-1)
	i := 0
	for v, n := range counts {
		if n == 0 {
			continue
		}
		r := fig.bars.drawn[i]
		i++
		mid := vg.Point{X: (r.Min.X + r.Max.X) / 2, Y: (r.Min.Y + r.Max.Y) / 2}
		if got := pixelAt(fig, img, mid); got != sc.color(v) {
			t.Errorf("bar for remoteness %d is %v, want %v", v, got, sc.color(v))
		}
	}
	// Bar heights are proportional to the counts.
	h := func(r vg.Rectangle) float64 { return float64(r.Max.Y - r.Min.Y) }
	if a, b := h(fig.bars.drawn[0])/float64(counts[0]), h(fig.bars.drawn[1])/float64(counts[1]); a/b < 0.999 || a/b > 1.001 {
		t.Errorf("bar heights not proportional: %v vs %v per position", a, b)
	}
	if _, err := HistogramOf("g", solve.KindValues, []int{0, 0}); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty histogram: %v", err)
	}
}

func TestPCountsOf(t *testing.T) {
	fig, err := PCountsOf("CN(6,2)", []int{1, 2, 3}, []int{14, 69, 214})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := fig.SVG()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">214</text>", "P-positions as the bound grows"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	for _, bad := range [][2][]int{{nil, nil}, {{1, 2}, {3}}, {{1}, {-1}}} {
		if _, err := PCountsOf("g", bad[0], bad[1]); err == nil {
			t.Errorf("PCountsOf(%v, %v) should fail", bad[0], bad[1])
		}
	}
}

func TestHeatmapOfTable(t *testing.T) {
	tab := esnTable(t)
	fig, err := Heatmap(tab, "a b 5")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(fig.String(), "remoteness map of SlowExact(3,2) on (a, b, 5)") {
		t.Errorf("Heatmap of a remoteness table: %q", fig.String())
	}
	img := render(t, fig)
	face, _ := tab.Face("a b 5")
	want := defaultScale(face)
	for y := 0; y < face.H; y++ {
		for x := 0; x < face.W; x++ {
			if got := cellPixel(fig, img, x, y, 0.1, 0.5); got != want(face.At(x, y)) {
				t.Errorf("cell (%d,%d): %v, want %v", x, y, got, want(face.At(x, y)))
			}
		}
	}
	for _, spec := range []string{"a 5", "1 2 3", "a b c"} {
		if _, err := Heatmap(tab, spec); err == nil {
			t.Errorf("Heatmap(%q) should fail", spec)
		}
	}
	// The outcome and remoteness maps take the table too.
	if fig, err := OutcomeMap(tab, "a b 5"); err != nil || !strings.HasPrefix(fig.String(), "outcome map of SlowExact(3,2) on (a, b, 5)") {
		t.Errorf("OutcomeMap(tab, spec): %v, %v", fig, err)
	}
	if fig, err := RemotenessMap(tab, "a b 5"); err != nil || !strings.HasPrefix(fig.String(), "remoteness map of SlowExact(3,2) on (a, b, 5)") {
		t.Errorf("RemotenessMap(tab, spec): %v, %v", fig, err)
	}
	for name, draw := range map[string]func(*solve.Table, string, ...Option) (*Figure, error){"Heatmap": Heatmap, "OutcomeMap": OutcomeMap, "RemotenessMap": RemotenessMap} {
		if _, err := draw(nil, "a b 5"); err == nil || !strings.Contains(err.Error(), "the call that made it failed") {
			t.Errorf("%s of a nil table: %v", name, err)
		}
	}
}

func TestPCounts(t *testing.T) {
	// Seed 000: among the 4^6 = 4096 positions of CN(6,2) with heaps <= 3,
	// 214 have nim-value zero.
	fig, err := PCounts(games.CN(6, 2), 1, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fig.String(), "214 at the largest") {
		t.Errorf("PCounts(CN(6,2), 1, 2, 3): %q", fig.String())
	}
	if _, err := PCounts(games.CN(6, 2)); err == nil {
		t.Error("PCounts with no bounds should fail")
	}
}

// A big table has more distinct (total, entry) pairs than a plot can show:
// Wythoff to 2000 drew 1.3M marks of at least 2.5 pt (one solid blob, a
// 182 MB SVG, 9 s per PNG). Past scatterMaxMarks the pairs are binned, P and
// N apart, every position still counted, P marks of value 0 still on 0.
func TestScatterOfABigTableIsBinned(t *testing.T) {
	tab, err := solve.Values(games.Wythoff(), 400)
	if err != nil {
		t.Fatal(err)
	}
	fig, err := Scatter(tab)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := fig.SVG()
	if err != nil {
		t.Fatal(err)
	}
	nP, nN := len(fig.marks["P"].pts), len(fig.marks["N"].pts)
	if nP+nN > 2*(scatterBinsX+1)*(scatterBinsY+1) || nP == 0 || nN == 0 {
		t.Errorf("%d P and %d N marks", nP, nN)
	}
	if len(svg) > 3<<20 {
		t.Errorf("SVG of %d bytes", len(svg))
	}
	for _, p := range fig.marks["P"].pts {
		if p.y != 0 {
			t.Errorf("P mark at entry %v; Wythoff P-positions have value 0", p.y)
		}
	}
	if !strings.Contains(fig.String(), "binned") || !bytes.Contains(svg, []byte("binned")) {
		t.Errorf("nothing says the marks are binned: %s", fig)
	}
	// A dense but unbinned table gets marks no wider than their spacing.
	r, err := solve.Remoteness(games.SlowExact(3, 2), 60)
	if err != nil {
		t.Fatal(err)
	}
	fig, err = Scatter(r)
	if err != nil {
		t.Fatal(err)
	}
	render(t, fig)
	ps := fig.marks["P"].drawn
	if len(ps) < 2 {
		t.Fatal("no P marks drawn")
	}
	minGap := vg.Length(math.Inf(1))
	for i := 1; i < len(ps); i++ {
		if d := ps[i].X - ps[i-1].X; d > 0.01 {
			minGap = min(minGap, d)
		}
	}
	for _, rad := range fig.marks["P"].radii {
		if 2*rad > 2.5*minGap {
			t.Fatalf("mark of radius %v on columns %v apart", rad, minGap)
		}
	}
}

// The key lists only what the table holds: a table of the "two entails"
// kind (nimbers and loony, no zero) showed a "0 (P)" swatch.
func TestLoonyKeyListsWhatIsThere(t *testing.T) {
	vt := &entail.ValueTable{Games: []string{"g"}, Heaps: []int{1, 2, 3},
		Values: [][]entail.Value{{entail.Nimber(1), entail.Loony, entail.Nimber(2)}}}
	for _, want := range []struct {
		vt      *entail.ValueTable
		zero    bool
		loony   bool
		caption string
	}{
		{vt, false, true, "nimbers and loony"},
		{&entail.ValueTable{Games: []string{"g"}, Heaps: []int{1, 2}, Values: [][]entail.Value{{entail.Nimber(0), entail.Nimber(1)}}}, true, false, "zero and a nimber"},
	} {
		fig, err := LoonyTable(want.vt)
		if err != nil {
			t.Fatal(err)
		}
		svg, err := fig.SVG()
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(svg, []byte(">0 (P)<")); got != want.zero {
			t.Errorf("%s: key has 0 (P): %v", want.caption, got)
		}
		if got := bytes.Contains(svg, []byte(">loony<")); got != want.loony {
			t.Errorf("%s: key or cells say loony: %v", want.caption, got)
		}
	}
}
