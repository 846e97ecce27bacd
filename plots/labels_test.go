package plots

import (
	"bytes"
	"image"
	"image/color"
	"testing"

	"gonum.org/v1/plot/vg"

	"grundy/stdlib/games"
	"grundy/stdlib/human"
	"grundy/stdlib/known"
	"grundy/stdlib/solve"
)

// pixelsIn counts the pixels inside box (shrunk by a pixel, so that
// anti-aliased neighbours do not count) for which is returns true.
func pixelsIn(fig *Figure, img image.Image, box vg.Rectangle, is func(color.RGBA) bool) int {
	n := 0
	x0, x1 := int(box.Min.X/pixel)+1, int(box.Max.X/pixel)-1
	y0, y1 := fig.Height()-int(box.Max.Y/pixel)+1, fig.Height()-int(box.Min.Y/pixel)-1
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			if is(toRGBA(img.At(x, y))) {
				n++
			}
		}
	}
	return n
}

func inside(fig *Figure, box vg.Rectangle) bool {
	w, h := vg.Length(fig.Width())*pixel, vg.Length(fig.Height())*pixel
	return box.Min.X >= 0 && box.Min.Y >= 0 && box.Max.X <= w && box.Max.Y <= h
}

// Point labels keep off the line through the points and stay inside the
// figure, and counts carry thousands separators: on CN(6,2)'s P-count
// plot the curve climbed through "1987" and the last label was cut off.
func TestPointLabelsKeepOffTheLine(t *testing.T) {
	var bounds, counts []int
	for b := 1; b <= 8; b++ {
		o, err := solve.Outcomes(games.CN(6, 2), b)
		if err != nil {
			t.Fatal(err)
		}
		bounds, counts = append(bounds, b), append(counts, o.CountP())
	}
	pcounts, err := PCountsOf("CN(6,2)", bounds, counts)
	if err != nil {
		t.Fatal(err)
	}
	climb := []int{0, 1, 3, 7, 12, 20, 31, 45, 62, 80, 99, 118}
	line, err := LineOf("g", "a 1", solve.KindRemoteness, climb)
	if err != nil {
		t.Fatal(err)
	}
	// The count plot's line and marks are blue, its labels grey.
	blue := func(c color.RGBA) bool { return int(c.B)-int(c.R) > 60 }
	for name, fig := range map[string]*Figure{"P-counts": pcounts, "line": line} {
		img := render(t, fig)
		labels := fig.labels["points"]
		if labels == nil || len(labels.boxes) != len(labels.pts) {
			t.Fatalf("%s: no labels recorded", name)
		}
		for i, box := range labels.boxes {
			if !inside(fig, box) {
				t.Errorf("%s: label %d is cut off at the figure's edge: %v", name, i, box)
			}
			if n := pixelsIn(fig, img, box, blue); n > 0 && fig == pcounts {
				t.Errorf("%s: the line or a mark crosses label %d (%d pixels)", name, i, n)
			}
			// The line plot's line is grey like the labels: check the
			// geometry.
			for k := 1; k < len(fig.line.drawn); k++ {
				if segmentHitsBox(fig.line.drawn[k-1], fig.line.drawn[k], box) {
					t.Errorf("%s: segment %d of the line crosses label %d", name, k, i)
				}
			}
			for j := range i {
				if overlapArea(box, labels.boxes[j]) > 0 {
					t.Errorf("%s: labels %d and %d overlap", name, j, i)
				}
			}
		}
	}
	svg, err := pcounts.SVG()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range counts {
		if want := ">" + human.Count(c) + "</text>"; !bytes.Contains(svg, []byte(want)) {
			t.Errorf("P-count plot lacks the label %q", want)
		}
	}
	if !bytes.Contains(svg, []byte(">2,000</text>")) {
		t.Error("the count axis has no tick labelled 2,000")
	}
}

// The play-out over a remoteness scatter runs under the marks and rings
// them from outside: the ring at (3,5,5) hid the count printed in its
// mark. Counts printed beside their marks keep off the rings, and the
// legend's rows do not touch.
func TestScatterPathHidesNoCount(t *testing.T) {
	tab, err := solve.Remoteness(games.SlowExact(3, 2), 8)
	if err != nil {
		t.Fatal(err)
	}
	path := known.MPath(games.Pos{3, 5, 5})
	fig, err := Scatter(tab, Path(path...))
	if err != nil {
		t.Fatal(err)
	}
	img := render(t, fig)
	ringColour := func(c color.RGBA) bool { return int(c.R)-int(c.B) > 60 && int(c.B)-int(c.G) > 30 }
	onPath := map[xy]bool{}
	for _, p := range fig.marks["path"].pts {
		onPath[p] = true
	}
	in := fig.labels["in"]
	covered := 0
	for i, box := range in.boxes {
		if !onPath[in.pts[i]] {
			continue
		}
		covered++
		if n := pixelsIn(fig, img, box, ringColour); n > 0 {
			t.Errorf("the play-out covers the count %s at %v (%d pixels)", in.labels[i], in.pts[i], n)
		}
	}
	if covered < 3 {
		t.Fatalf("only %d counts inside marks on the path; the test needs more", covered)
	}
	for i, box := range fig.labels["out"].boxes {
		if n := pixelsIn(fig, img, box, ringColour); n > 2 {
			t.Errorf("a ring covers the count %s beside its mark at %v (%d pixels)", fig.labels["out"].labels[i], fig.labels["out"].pts[i], n)
		}
	}
	if len(fig.legend) != 3 {
		t.Fatalf("%d legend rows, want P, N and the play-out", len(fig.legend))
	}
	for i := 1; i < len(fig.legend); i++ {
		a, b := fig.legend[i-1], fig.legend[i]
		if gap := a.thumb.Y - b.thumb.Y - a.radius - b.radius; gap < 2 {
			t.Errorf("legend rows %d and %d are %.1f pt apart", i-1, i, gap)
		}
	}
}
