package plots

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"image/color"
	"io"
	"math"
	"regexp"
	"strconv"
	"testing"
)

var (
	svgColour  = regexp.MustCompile(`(?:fill|stroke):([^;"]*)`)
	svgOpacity = regexp.MustCompile(`(?:fill|stroke)-opacity:([^;"]*)`)
	hexColour  = regexp.MustCompile(`^#[0-9A-F]{6}$`)
	pdfStream  = regexp.MustCompile(`(?s)/Filter /FlateDecode[^>]*>>\s*stream\r?\n(.*?)\r?\nendstream`)
	pdfColour  = regexp.MustCompile(`(?:^|\s)([-\d.]+) ([-\d.]+) ([-\d.]+) (rg|RG)\b`)
	pdfGray    = regexp.MustCompile(`(?:^|\s)([-\d.]+) (g|G)\b`)
	pdfAlpha   = regexp.MustCompile(`/(?:ca|CA) ([-\d.]+)`)
)

// svgColours lists every colour an SVG document paints with, failing on
// any a browser would reject and on any translucency.
func svgColours(t *testing.T, name string, svg []byte) map[color.RGBA]bool {
	t.Helper()
	out := map[color.RGBA]bool{}
	for _, m := range svgColour.FindAllSubmatch(svg, -1) {
		c := string(m[1])
		if c == "none" {
			continue
		}
		if !hexColour.MatchString(c) {
			t.Errorf("%s: SVG colour %q is not #RRGGBB", name, c)
			continue
		}
		v, _ := strconv.ParseUint(c[1:], 16, 32)
		out[rgb(uint32(v))] = true
	}
	for _, m := range svgOpacity.FindAllSubmatch(svg, -1) {
		if a, err := strconv.ParseFloat(string(m[1]), 64); err != nil || a != 1 {
			t.Errorf("%s: SVG opacity %q; figures paint only opaque colours", name, m[1])
		}
	}
	return out
}

// pdfColours lists every colour a PDF's content streams set, failing on
// components outside [0, 1] and on any translucency.
func pdfColours(t *testing.T, name string, pdf []byte) map[color.RGBA]bool {
	t.Helper()
	out := map[color.RGBA]bool{}
	comp := func(s []byte) uint8 {
		v, err := strconv.ParseFloat(string(s), 64)
		if err != nil || v < 0 || v > 1 {
			t.Errorf("%s: PDF colour component %q outside [0, 1]", name, s)
		}
		return uint8(math.Round(v * 255))
	}
	for _, m := range pdfAlpha.FindAllSubmatch(pdf, -1) {
		if a, err := strconv.ParseFloat(string(m[1]), 64); err != nil || a != 1 {
			t.Errorf("%s: PDF alpha %q; figures paint only opaque colours", name, m[1])
		}
	}
	for _, m := range pdfStream.FindAllSubmatch(pdf, -1) {
		r, err := zlib.NewReader(bytes.NewReader(m[1]))
		if err != nil {
			continue // a font file or an image, not content
		}
		data, err := io.ReadAll(r)
		if err != nil || !bytes.Contains(data, []byte(" re")) && !bytes.Contains(data, []byte(" l\n")) && !bytes.Contains(data, []byte("BT")) {
			continue
		}
		for _, c := range pdfColour.FindAllSubmatch(data, -1) {
			out[color.RGBA{comp(c[1]), comp(c[2]), comp(c[3]), 255}] = true
		}
		for _, c := range pdfGray.FindAllSubmatch(data, -1) {
			v := comp(c[1])
			out[color.RGBA{v, v, v, 255}] = true
		}
	}
	return out
}

// Every colour written to SVG and PDF is valid and opaque, and both
// formats paint with the same colours: the loony stripes, drawn in white
// at alpha 80 as a colour that was not premultiplied, came out of the SVG
// as "#32C32C32C" (browsers dropped the stripes), and translucent marks
// came out of the PDF darker than in the PNG.
func TestEveryColourIsValidInSVGAndPDF(t *testing.T) {
	figs := allFigures(t)
	// A palette given with translucent and badly premultiplied colours.
	odd, err := HeatmapOf(cnFace(6, 3), Palette(color.RGBA{R: 255, G: 255, B: 255, A: 80}, color.NRGBA{R: 200, A: 100}), PColor(color.RGBA{R: 10, A: 128}))
	if err != nil {
		t.Fatal(err)
	}
	figs["translucent palette"] = odd
	for name, f := range figs {
		svg, err := f.SVG()
		if err != nil {
			t.Fatal(err)
		}
		pdf, err := f.PDF()
		if err != nil {
			t.Fatal(err)
		}
		s, p := svgColours(t, name, svg), pdfColours(t, name, pdf)
		if len(s) == 0 || len(p) == 0 {
			t.Fatalf("%s: found %d SVG and %d PDF colours; the parsers are broken", name, len(s), len(p))
		}
		for c := range s {
			if !p[c] {
				t.Errorf("%s: the SVG paints %v, the PDF does not", name, hexOf(c))
			}
		}
		for c := range p {
			// vgsvg leaves out black, the SVG default.
			if !s[c] && c != (color.RGBA{A: 255}) {
				t.Errorf("%s: the PDF paints %v, the SVG does not", name, hexOf(c))
			}
		}
	}
}

func hexOf(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }

var pdfFontFile = regexp.MustCompile(`/FontFile2 (\d+) 0 R`)

// Bold text keeps its weight in PDFs. vgpdf embedded both weights from a
// file of one name and fpdf kept one file per name, so every word showed
// in one weight (bold titles came out regular); bold text is now drawn as
// outlines of the bold glyphs.
func TestPDFKeepsBoldText(t *testing.T) {
	f, err := LoonyTable(heroTable(4))
	if err != nil {
		t.Fatal(err)
	}
	pdf, err := f.PDF()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range pdfFontFile.FindAllSubmatch(pdf, -1) {
		if seen[string(m[1])] {
			t.Errorf("two fonts of the PDF share font file object %s: one of them shows in the other's weight", m[1])
		}
		seen[string(m[1])] = true
	}
	// The outline of a bold word has the bold face's width, not the
	// regular one's (bold Liberation Sans is wider).
	title := "Values against Nim heaps"
	bold, regular := titleStyle().Font, textStyle(12, color.Black).Font
	bf, rf := handler.Fonts.Lookup(bold, bold.Size), handler.Fonts.Lookup(regular, regular.Size)
	p := outline(bf, vgPoint(0, 0), title)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range p {
		lo, hi = min(lo, float64(c.Pos.X)), max(hi, float64(c.Pos.X))
	}
	bw, rw := float64(bf.Width(title)), float64(rf.Width(title))
	if bw <= rw*1.02 {
		t.Fatalf("bold width %.1f vs regular %.1f: the test needs the faces to differ", bw, rw)
	}
	if w := hi - lo; math.Abs(w-bw) > 0.04*bw {
		t.Errorf("outline of %q is %.1f pt wide; bold text is %.1f, regular %.1f", title, w, bw, rw)
	}
}
