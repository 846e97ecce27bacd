package plots

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"grundy/stdlib/games"
	"grundy/stdlib/solve"
)

// allFigures builds one of every figure, fresh on each call.
func allFigures(t testing.TB) map[string]*Figure {
	tab := esnTable(t)
	out := map[string]*Figure{}
	add := func(name string, f *Figure, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = f
	}
	f, err := HeatmapOf(cnFace(13, 3))
	add("heatmap", f, err)
	f, err = HeatmapOf(cnFace(120, 3))
	add("heatmap 120", f, err)
	f, err = OutcomeMapOf(cnFace(9, 3))
	add("outcomes", f, err)
	f, err = RemotenessMapOf(remFace(30))
	add("remoteness", f, err)
	f, err = LoonyTable(heroTable(12))
	add("loony", f, err)
	f, err = Line(tab, "3 a 5")
	add("line", f, err)
	f, err = Scatter(tab, Path(games.Pos{3, 5, 5}, games.Pos{2, 4, 5}))
	add("scatter", f, err)
	f, err = Histogram(tab)
	add("histogram", f, err)
	f, err = PCountsOf("CN(6,2)", []int{1, 2, 3}, []int{14, 69, 214})
	add("pcounts", f, err)
	return out
}

func TestRendersAreDeterministic(t *testing.T) {
	first, second := allFigures(t), allFigures(t)
	for name, f := range first {
		g := second[name]
		for format, render := range map[string]func(*Figure) ([]byte, error){
			"PNG": (*Figure).PNG, "SVG": (*Figure).SVG, "PDF": (*Figure).PDF,
		} {
			a, err := render(f)
			if err != nil {
				t.Fatalf("%s %s: %v", name, format, err)
			}
			b, err := render(g)
			if err != nil {
				t.Fatal(err)
			}
			c, err := render(f) // the same figure rendered again
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
				t.Errorf("%s: %s differs between renders (%d, %d, %d bytes)", name, format, len(a), len(b), len(c))
			}
			if format == "PDF" && !bytes.Contains(a, []byte("D:20000101000000")) {
				t.Errorf("%s: PDF carries a date other than the fixed one", name)
			}
		}
	}
}

func TestSaveByExtension(t *testing.T) {
	fig, err := HeatmapOf(cnFace(5, 3))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	magic := map[string]string{".png": "\x89PNG", ".svg": "<?xml", ".pdf": "%PDF", ".PNG": "\x89PNG"}
	for ext, want := range magic {
		path := filepath.Join(dir, "face"+ext)
		if err := fig.Save(path); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), want) {
			t.Errorf("%s starts %q, want %q", ext, data[:min(8, len(data))], want)
		}
	}
	if err := fig.Save(filepath.Join(dir, "face.jpg")); err == nil || !strings.Contains(err.Error(), ".png, .svg or .pdf") {
		t.Errorf("saving .jpg: %v", err)
	}
}

func TestOptions(t *testing.T) {
	fig, err := HeatmapOf(cnFace(6, 3), Title("my face"), Size(500, 420))
	if err != nil {
		t.Fatal(err)
	}
	img := render(t, fig)
	if b := img.Bounds(); b.Dx() != 500 || b.Dy() != 420 {
		t.Errorf("Size(500, 420) gave %v", b)
	}
	svg, _ := fig.SVG()
	if !bytes.Contains(svg, []byte(">my face</text>")) || bytes.Contains(svg, []byte("Grundy values on")) {
		t.Error("Title did not replace the default title")
	}
	if !strings.Contains(fig.String(), "[500x420]") || !strings.Contains(fig.String(), "CN(6,2)") {
		t.Errorf("String() = %q", fig.String())
	}
	// Every figure takes a palette and a P colour.
	green := color.RGBA{G: 200, A: 255}
	for name, mk := range map[string]func() (*Figure, error){
		"outcomes":  func() (*Figure, error) { return OutcomeMapOf(cnFace(6, 3), PColor(green)) },
		"histogram": func() (*Figure, error) { return HistogramOf("g", solve.KindValues, []int{3, 4, 5}, PColor(green)) },
	} {
		f, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		img := render(t, f)
		found := false
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y && !found; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if toRGBA(img.At(x, y)) == green {
					found = true
					break
				}
			}
		}
		if !found {
			t.Errorf("%s: PColor not used", name)
		}
	}
	// SVG names the font with metric twins as fallbacks, and embeds it
	// on request.
	if !bytes.Contains(svg, []byte("font-family:'Liberation Sans',Arial")) || bytes.Contains(svg, []byte("@font-face")) {
		t.Error("default SVG should name Liberation Sans with fallbacks and embed nothing")
	}
	fe, _ := HeatmapOf(cnFace(4, 3), EmbedFonts())
	if svg, _ := fe.SVG(); !bytes.Contains(svg, []byte("@font-face")) {
		t.Error("EmbedFonts() did not embed the font")
	}
	// Labels(false) on a small face, Labels(true) on a big one.
	f, _ := HeatmapOf(cnFace(4, 3), Labels(false))
	render(t, f)
	if f.grid.label != nil {
		t.Error("Labels(false) still labelled the cells")
	}
	f, _ = HeatmapOf(cnFace(60, 3), Labels(true))
	render(t, f)
	if f.grid.label == nil {
		t.Error("Labels(true) did not label the cells")
	}
	f, _ = HeatmapOf(cnFace(200, 3))
	render(t, f)
	if f.grid.label != nil {
		t.Error("a 200x200 face is labelled by default")
	}
}

func benchFigure(b *testing.B, n int, labels bool, format func(*Figure) ([]byte, error)) {
	opts := []Option{Labels(labels)}
	if labels {
		// Large enough that every label is legible (22-pixel cells).
		opts = append(opts, Size(1600, 1560))
	}
	fig, err := HeatmapOf(cnFace(n, 3), opts...)
	if err != nil {
		b.Fatal(err)
	}
	size := 0
	// CPU time as well as wall time: the machine is shared, and wall time
	// under load says little.
	cpu0 := cpuTime()
	for b.Loop() {
		data, err := format(fig)
		if err != nil {
			b.Fatal(err)
		}
		size = len(data)
	}
	b.ReportMetric(float64(size)/1e3, "kB")
	b.ReportMetric((cpuTime()-cpu0).Seconds()*1e3/float64(b.N), "cpu-ms/op")
}

func BenchmarkFace64LabelledPNG(b *testing.B)    { benchFigure(b, 64, true, (*Figure).PNG) }
func BenchmarkFace64LabelledSVG(b *testing.B)    { benchFigure(b, 64, true, (*Figure).SVG) }
func BenchmarkFace256UnlabelledPNG(b *testing.B) { benchFigure(b, 256, false, (*Figure).PNG) }
func BenchmarkFace256UnlabelledSVG(b *testing.B) { benchFigure(b, 256, false, (*Figure).SVG) }

// TestOddSizes renders every figure very small, very wide and very tall:
// the figure comes out at the asked size, or as an error, never a panic.
func TestOddSizes(t *testing.T) {
	for _, sz := range [][2]int{{160, 120}, {1800, 260}, {300, 1400}} {
		for name, f := range allFigures(t) {
			f.width, f.height = sz[0], sz[1]
			img := render(t, f)
			if b := img.Bounds(); b.Dx() != sz[0] || b.Dy() != sz[1] {
				t.Errorf("%s at %v: got %v", name, sz, b)
			}
			if _, err := f.SVG(); err != nil {
				t.Errorf("%s at %v: SVG: %v", name, sz, err)
			}
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestNilFigure(t *testing.T) {
	var f *Figure
	if _, err := f.PNG(); err == nil {
		t.Error("nil figure PNG: no error")
	}
	if _, err := f.SVG(); err == nil {
		t.Error("nil figure SVG: no error")
	}
	if err := f.Save(filepath.Join(t.TempDir(), "x.png")); err == nil {
		t.Error("nil figure Save: no error")
	}
	if !strings.Contains(f.String(), "nil") {
		t.Errorf("nil figure String: %q", f.String())
	}
}

// Size(-5, 10) used to be accepted and then panic in gonum when the figure
// was shown (killing the script); Size(100000, 100000) would ask for 40 GB
// of pixels. Both are errors from the constructor now, and a side of 0
// still means the default.
func TestSizeOutOfRangeIsAnError(t *testing.T) {
	tab, err := solve.Values(games.CN(4, 2), 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range [][2]int{{-5, 10}, {50, 50}, {100000, 100000}, {16000, 16000}, {300, -1}} {
		fig, err := Heatmap(tab, "a b 0 0", Size(sz[0], sz[1]))
		if err == nil || !strings.Contains(err.Error(), "pixels") {
			t.Errorf("Size(%d, %d): figure %v, error %v", sz[0], sz[1], fig, err)
		}
		if _, err := Histogram(tab, Size(sz[0], sz[1])); err == nil {
			t.Errorf("Histogram with Size(%d, %d): no error", sz[0], sz[1])
		}
	}
	fig, err := Heatmap(tab, "a b 0 0", Size(0, 300))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fig.PNG(); err != nil || fig.Height() != 300 || fig.Width() < minSide {
		t.Errorf("Size(0, 300): %dx%d, %v", fig.Width(), fig.Height(), err)
	}
}

// A figure shows in a notebook as PNG only, unless ShowSVG asks for SVG
// too, and the PNG is paletted: a notebook of five figures weighed 200 kB
// with full-colour PNG and SVG side by side.
func TestNotebookFormsAreSmall(t *testing.T) {
	f := cnFace(41, 3)
	fig, err := HeatmapOf(f)
	if err != nil {
		t.Fatal(err)
	}
	if got := fig.MIMETypes(); len(got) != 1 || got[0] != "image/png" {
		t.Errorf("MIMETypes() = %v, want PNG only", got)
	}
	withSVG, err := HeatmapOf(f, ShowSVG())
	if err != nil {
		t.Fatal(err)
	}
	if got := withSVG.MIMETypes(); len(got) != 2 || got[1] != "image/svg+xml" {
		t.Errorf("with ShowSVG, MIMETypes() = %v", got)
	}
	data, err := fig.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := img.(*image.Paletted); !ok || len(data) > 25_000 {
		t.Errorf("the PNG is a %T of %d bytes; want a paletted image under 25 kB", img, len(data))
	}
}
