package plots

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"testing"

	"grundy/stdlib/games"
	"grundy/stdlib/solve"
)

// render draws fig as PNG and decodes it.
func render(t *testing.T, fig *Figure) image.Image {
	t.Helper()
	data, err := fig.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != fig.Width() || b.Dy() != fig.Height() {
		t.Fatalf("PNG is %dx%d, figure says %dx%d", b.Dx(), b.Dy(), fig.Width(), fig.Height())
	}
	return img
}

// cellPixel is the PNG pixel at the centre of cell (x, y), or at a point
// fx, fy of the way across and down the cell.
func cellPixel(fig *Figure, img image.Image, x, y int, fx, fy float64) color.RGBA {
	g := fig.grid
	px := float64(g.xs[x]+(g.xs[x+1]-g.xs[x])*vgLen(fx)) / float64(pixel)
	py := float64(g.ys[y]+(g.ys[y+1]-g.ys[y])*vgLen(fy)) / float64(pixel)
	return toRGBA(img.At(int(px), fig.Height()-1-int(py)))
}

func TestHeatmapCellColours(t *testing.T) {
	red, blue := rgb(0xff0000), rgb(0x0000ff)
	cases := []struct {
		name string
		face *solve.Face
		opts []Option
		want func(v int) color.RGBA // nil: the default scale
	}{
		{"discrete 6x6", cnFace(6, 3), nil, nil},
		{"continuous 13x13", cnFace(13, 3), nil, nil},
		{"continuous 50x40", rect50x40(), nil, nil},
		{"palette and P colour", cnFace(5, 1), []Option{Palette(red, blue, red, blue, red, blue, red, blue, red), PColor(color.RGBA{0, 255, 0, 255})},
			func(v int) color.RGBA {
				switch {
				case v == 0:
					return color.RGBA{0, 255, 0, 255}
				case v%2 == 1:
					return red
				}
				return blue
			}},
		{"outcomes", outcomes(cnFace(9, 2)), nil, func(v int) color.RGBA {
			if v == 0 {
				return defaultP
			}
			return defaultN
		}},
		{"remoteness", remFace(12), nil, nil},
		{"remoteness big", remFace(70), nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := append([]Option{Labels(false)}, tc.opts...)
			fig, err := HeatmapOf(tc.face, opts...)
			if err != nil {
				t.Fatal(err)
			}
			img := render(t, fig)
			want := tc.want
			if want == nil {
				want = defaultScale(tc.face)
			}
			f := tc.face
			bad := 0
			for y := 0; y < f.H; y++ {
				for x := 0; x < f.W; x++ {
					got := cellPixel(fig, img, x, y, 0.5, 0.5)
					if w := want(f.At(x, y)); got != w && bad < 5 {
						bad++
						t.Errorf("cell (%s=%d, %s=%d) value %d: colour %v, want %v", f.X, x, f.Y, y, f.At(x, y), got, w)
					}
					if f.IsP(x, y) && tc.face.Kind != solve.KindRemoteness && got != want(0) {
						t.Errorf("P cell (%d,%d) is %v, not the P colour %v", x, y, got, want(0))
					}
				}
			}
		})
	}
}

// TestHeatmapLabelledCells checks a labelled face: the cell colour around
// the printed value is still the value's colour, P cells carry the P
// colour, and the text in the middle differs from the fill.
func TestHeatmapLabelledCells(t *testing.T) {
	f := cnFace(8, 3)
	fig, err := HeatmapOf(f)
	if err != nil {
		t.Fatal(err)
	}
	if fig.grid.label != nil {
		t.Fatal("labels decided before drawing")
	}
	img := render(t, fig)
	if fig.grid.label == nil {
		t.Fatal("an 8x8 face at default size should print its values")
	}
	sc := defaultScale(f)
	for y := 0; y < f.H; y++ {
		for x := 0; x < f.W; x++ {
			want := sc(f.At(x, y))
			if got := cellPixel(fig, img, x, y, 0.12, 0.5); got != want {
				t.Errorf("cell (%d,%d) edge colour %v, want %v", x, y, got, want)
			}
			inked := false
			for fx := 0.3; fx <= 0.7; fx += 0.02 {
				if cellPixel(fig, img, x, y, fx, 0.5) != want {
					inked = true
				}
			}
			if !inked {
				t.Errorf("cell (%d,%d) shows no printed value", x, y)
			}
		}
	}
}

func defaultScale(f *solve.Face) func(int) color.RGBA {
	var cfg config
	m := 0
	for _, v := range f.Cells {
		m = max(m, v)
	}
	switch f.Kind {
	case solve.KindRemoteness:
		return remotenessScale(&cfg, m).color
	case solve.KindOutcomes:
		return outcomeScale(&cfg).color
	}
	return valueScale(&cfg, m).color
}

func rect50x40() *solve.Face {
	f := &solve.Face{Game: "toy", Pattern: "a 1 b", X: "a", Y: "b", W: 50, H: 40}
	for y := 0; y < f.H; y++ {
		for x := 0; x < f.W; x++ {
			f.Cells = append(f.Cells, (x*7+y*3)%23)
		}
	}
	return f
}

func outcomes(f *solve.Face) *solve.Face {
	o := *f
	o.Kind = solve.KindOutcomes
	o.Cells = nil
	for _, v := range f.Cells {
		o.Cells = append(o.Cells, min(v, 1))
	}
	return &o
}

func TestHeatmapSVGText(t *testing.T) {
	fig, err := HeatmapOf(cnFace(13, 3))
	if err != nil {
		t.Fatal(err)
	}
	svg, err := fig.SVG()
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	for _, want := range []string{
		"CN(6,2): Grundy values on (0, a, b, 0, 2, 1)", // title with fixed coordinates
		">a</text>", ">b</text>", // axes named by the letters
		">12</text>", // an integer tick / cell value
		">27</text>", // the largest value, printed in its cell
		"Liberation Sans",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if strings.Contains(s, "2.5</text>") {
		t.Error("SVG has a fractional tick label")
	}
}

func TestHeatmapBadInput(t *testing.T) {
	cases := []struct {
		name string
		f    *solve.Face
		want string
	}{
		{"nil", nil, "no face"},
		{"no letters", &solve.Face{Pattern: "1 2 3", W: 1, H: 1, Cells: []int{0}}, "no free letters"},
		{"1-D", &solve.Face{Pattern: "1 a 3", X: "a", W: 5, H: 1, Cells: make([]int, 5)}, "one free letter"},
		{"empty", &solve.Face{Pattern: "a b", X: "a", Y: "b"}, "empty"},
		{"short cells", &solve.Face{Pattern: "a b", X: "a", Y: "b", W: 2, H: 2, Cells: []int{1}}, "1 cell for a 2x2"},
		{"negative", &solve.Face{Pattern: "a b", X: "a", Y: "b", W: 1, H: 1, Cells: []int{-1}}, "negative"},
	}
	for _, tc := range cases {
		for _, mk := range []func(*solve.Face, ...Option) (*Figure, error){HeatmapOf, OutcomeMapOf, RemotenessMapOf} {
			fig, err := mk(tc.f)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: got (%v, %v), want an error containing %q", tc.name, fig, err, tc.want)
			}
		}
	}
	if _, err := RemotenessMapOf(cnFace(4, 1)); err == nil || !strings.Contains(err.Error(), "remoteness face") {
		t.Errorf("RemotenessMap of a value face: %v", err)
	}
}

// TestHeatmapSVGRaster checks the big-face SVG path: the cells travel as
// one embedded image whose blocks carry the cells' colours, top row first.
func TestHeatmapSVGRaster(t *testing.T) {
	f := cnFace(80, 3)
	fig, err := HeatmapOf(f)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := fig.SVG()
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(svg, []byte("<path")); n > 2000 {
		t.Errorf("an 80x80 face drew %d SVG paths; want one image", n)
	}
	const tag = "data:image/png;base64,"
	i := bytes.Index(svg, []byte(tag))
	if i < 0 {
		t.Fatal("no embedded image in the SVG")
	}
	b64 := svg[i+len(tag):]
	b64 = b64[:bytes.IndexByte(b64, '"')]
	raw, err := base64.StdEncoding.DecodeString(string(b64))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	k := img.Bounds().Dx() / f.W
	sc := defaultScale(f)
	for _, c := range [][2]int{{0, 0}, {3, 0}, {0, 3}, {79, 0}, {0, 79}, {40, 17}} {
		x, y := c[0], c[1]
		if got := toRGBA(img.At(x*k+k/2, y*k+k/2)); got != sc(f.At(x, y)) {
			t.Errorf("image block (%d,%d): %v, want %v", x, y, got, sc(f.At(x, y)))
		}
	}
}

// Cells narrower than a pixel snapped to zero width and vanished: Wythoff's
// outcome map to 3000 drawn at 800 pixels showed about 80 of its 2293
// P-positions. Every P-position must still colour a pixel near its place.
func TestSubPixelCellsKeepEveryP(t *testing.T) {
	tab, err := solve.Outcomes(games.Wythoff(), 1200)
	if err != nil {
		t.Fatal(err)
	}
	face, err := tab.Face("a b")
	if err != nil {
		t.Fatal(err)
	}
	for _, mk := range []func(*solve.Face, ...Option) (*Figure, error){OutcomeMapOf, HeatmapOf} {
		fig, err := mk(face, Size(420, 400))
		if err != nil {
			t.Fatal(err)
		}
		img := render(t, fig)
		g := fig.grid
		missing, total := 0, 0
		for y := 0; y < g.h; y++ {
			for x := 0; x < g.w; x++ {
				if !face.IsP(x, y) {
					continue
				}
				total++
				want := g.color(x, y)
				px := int(math.Round(float64(g.xs[x] / pixel)))
				py := fig.Height() - int(math.Round(float64(g.ys[y]/pixel)))
				found := false
				for dy := -1; dy <= 1 && !found; dy++ {
					for dx := -1; dx <= 1 && !found; dx++ {
						found = toRGBA(img.At(px+dx, py+dy)) == want
					}
				}
				if !found {
					missing++
				}
			}
		}
		if total < 900 || missing > 0 {
			t.Errorf("%s: %d of %d P-positions have no pixel", fig, missing, total)
		}
	}
	// By default a big face is drawn about 800 pixels across, not 2 pixels
	// a cell (2490 pixels here; 6195 for Wythoff to 3000).
	fig, err := OutcomeMapOf(face)
	if err != nil {
		t.Fatal(err)
	}
	if fig.Width() > 1000 || fig.Height() > 1000 {
		t.Errorf("default size of a 1201x1201 face: %dx%d", fig.Width(), fig.Height())
	}
	render(t, fig)
}

// Palette with one colour made a continuous scale with one stop: every
// value 1..12 was the same red. It ramps from a tint of the colour now.
func TestOneColourPaletteStillSeparatesValues(t *testing.T) {
	tab, err := solve.Values(games.CN(6, 2), 6)
	if err != nil {
		t.Fatal(err)
	}
	face, err := tab.Face("a b 0 0 0 0")
	if err != nil {
		t.Fatal(err)
	}
	fig, err := HeatmapOf(face, Palette(color.RGBA{R: 200, A: 255}))
	if err != nil {
		t.Fatal(err)
	}
	// (1,0) has value 1, (6,6) value 12: the ends of the scale.
	lo, hi := fig.grid.color(1, 0), fig.grid.color(6, 6)
	if face.At(1, 0) != 1 || face.At(6, 6) != 12 || lo == hi {
		t.Errorf("value 1 and value 12 both drawn %v", lo)
	}
	if hi != (color.RGBA{R: 200, A: 255}) {
		t.Errorf("the top of the scale is %v, not the palette's colour", hi)
	}
}
