package plots

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"codeberg.org/go-pdf/fpdf"
	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
	"grundy/stdlib/games"
	"grundy/stdlib/solve"
)

// dpi is the PNG resolution: sizes are given in PNG pixels, and vector
// output keeps the same layout (one pixel = 0.75 pt).
const dpi = 96

func init() {
	// fpdf stamps every document with time.Now() and orders its resource
	// catalogs by map iteration; both would make PDFs differ between runs.
	// Only this package writes PDFs, so fixing fpdf's defaults is safe.
	epoch := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	fpdf.SetDefaultCreationDate(epoch)
	fpdf.SetDefaultModificationDate(epoch)
	fpdf.SetDefaultCatalogSort(true)
}

// Option adjusts a figure: its title, size, palette, cell labels.
type Option func(*config)

type config struct {
	title    *string
	width    int // PNG pixels; 0 means the figure's own default
	height   int
	palette  []color.Color
	pColor   color.Color
	labels   int // 0 auto, 1 always, -1 never
	embedTTF bool
	showSVG  bool
	path     []games.Pos
	err      error // a bad option, returned by the figure's constructor
}

// Figure sizes are bounded so that a typo cannot ask for a picture that
// fills memory (Size(100000, 100000) is 40 GB of pixels) or one too small
// to hold its axes.
const (
	minSide   = 100
	maxSide   = 16384
	maxPixels = 64 << 20
)

func checkSize(w, h int) error {
	if w < minSide || h < minSide || w > maxSide || h > maxSide || w*h > maxPixels {
		return fmt.Errorf("plots: a figure of %dx%d pixels cannot be drawn; give each side %d..%d pixels and at most %dM pixels in all", w, h, minSide, maxSide, maxPixels>>20)
	}
	return nil
}

// Title replaces the figure's title ("" removes it).
func Title(s string) Option { return func(c *config) { c.title = &s } }

// Size sets the figure's size in PNG pixels (SVG and PDF keep the same
// layout at 0.75 pt per pixel). Zero keeps the default for that side.
func Size(width, height int) Option {
	return func(c *config) {
		c.width, c.height = width, height
		// A side left at 0 takes the figure's default, which is in range.
		w, h := cmp.Or(width, minSide), cmp.Or(height, minSide)
		if err := checkSize(w, h); err != nil && c.err == nil {
			c.err = err
		}
	}
}

// Palette sets the colours a figure draws values with. In a heatmap of
// values, colour i is value i+1 while there are enough colours (value 0
// keeps the P colour) and the colours become the stops of a continuous
// scale otherwise (one colour ramps from a light tint of it); an outcome
// map takes N from the first colour; a remoteness map takes two colours,
// the even (P) family and the odd (N) family; in a line or scatter the
// first colour is N's (PColor sets P's); a P-count plot draws its line in
// the first colour.
// Translucent colours are drawn as they would look over white.
func Palette(colors ...color.Color) Option {
	return func(c *config) {
		c.palette = make([]color.Color, len(colors))
		for i, col := range colors {
			c.palette[i] = opaque(col)
		}
	}
}

// PColor sets the colour reserved for P-positions.
func PColor(col color.Color) Option { return func(c *config) { c.pColor = opaque(col) } }

// Labels forces the printing of values in heatmap cells on or off; by
// default they are printed while cells are large enough to read.
func Labels(on bool) Option {
	return func(c *config) {
		c.labels = -1
		if on {
			c.labels = 1
		}
	}
}

// ShowSVG shows the figure as SVG as well as PNG, and so stores both in a
// notebook: sharp at any zoom, but several times larger. By default a
// figure shows as PNG only (Figure.SVG and Save still give SVG).
func ShowSVG() Option { return func(c *config) { c.showSVG = true } }

// EmbedFonts embeds the font files in SVG output, so the SVG looks the same
// on machines without Liberation Sans (or a metric twin such as Arial);
// it adds about 400 kB per font.
func EmbedFonts() Option { return func(c *config) { c.embedTTF = true } }

func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// figure starts a figure with the options every figure takes.
func (c *config) figure(desc string, width, height int) *Figure {
	return &Figure{desc: desc, width: width, height: height, embed: c.embedTTF, showSVG: c.showSVG}
}

func (c *config) titleOr(def string) string {
	if c.title != nil {
		return *c.title
	}
	return def
}

// Figure is a rendered-on-demand figure. It shows itself in a notebook as
// PNG and SVG with a one-line text description, and saves to files.
type Figure struct {
	desc    string
	width   int // PNG pixels
	height  int
	embed   bool
	showSVG bool
	paint   func(c draw.Canvas)
	grid    *grid // the heatmap grid, if any (tests read cell positions)
	marks   map[string]*points
	bars    *bars
	// labels are the texts written by points in the last drawing, for
	// tests: "points" (line and count plots), "in" and "out" (a scatter's
	// counts inside and beside their marks), "start" (a play-out's start).
	labels map[string]*pointLabels
	legend []*points // legend thumbnails of the last drawing
	line   *polyline // the line through a line or count plot's points

	// mu serialises renders: drawing records layout in the figure.
	mu     sync.Mutex
	vector bool // the render in progress is SVG or PDF
}

var (
	errNilFigure = errors.New("plots: no figure (nil); the call that made it returned an error")
	errNoTable   = fmt.Errorf("plots: no table to draw: %w", solve.ErrNoTable)
)

// String describes the figure in one line (the text/plain view).
func (f *Figure) String() string {
	if f == nil {
		return "no figure (nil): see the error from the call that made it"
	}
	return fmt.Sprintf("%s [%dx%d]", f.desc, f.width, f.height)
}

// MIMETypes are the forms the figure shows in a notebook: PNG, and SVG
// with the ShowSVG option.
func (f *Figure) MIMETypes() []string {
	if f != nil && f.showSVG {
		return []string{"image/png", "image/svg+xml"}
	}
	return []string{"image/png"}
}

// Width is the figure's width in PNG pixels.
func (f *Figure) Width() int { return f.width }

// Height is the figure's height in PNG pixels.
func (f *Figure) Height() int { return f.height }

func (f *Figure) size() (vg.Length, vg.Length) {
	return vg.Length(f.width) * vg.Inch / dpi, vg.Length(f.height) * vg.Inch / dpi
}

// PNG renders the figure as a PNG image.
func (f *Figure) PNG() ([]byte, error) {
	if f == nil {
		return nil, errNilFigure
	}
	if err := checkSize(f.width, f.height); err != nil {
		return nil, err
	}
	w, h := f.size()
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
	if err := f.draw(c, false); err != nil {
		return nil, err
	}
	img, ok := c.Image().(*image.RGBA)
	if !ok {
		return nil, fmt.Errorf("plots: the PNG canvas is a %T, not RGBA", c.Image())
	}
	data, err := encodePNG(img)
	if err != nil {
		return nil, fmt.Errorf("plots: encoding PNG: %w", err)
	}
	return data, nil
}

// SVG renders the figure as SVG.
func (f *Figure) SVG() ([]byte, error) {
	if f == nil {
		return nil, errNilFigure
	}
	if err := checkSize(f.width, f.height); err != nil {
		return nil, err
	}
	w, h := f.size()
	c := vgsvg.NewWith(vgsvg.UseWH(w, h), vgsvg.EmbedFonts(f.embed))
	if err := f.draw(c, true); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plots: encoding SVG: %w", err)
	}
	// Layout was measured with Liberation Sans; where it is not installed
	// (and not embedded), Arial and Helvetica have the same metrics.
	out := bytes.ReplaceAll(buf.Bytes(), []byte("font-family:Liberation Sans;"),
		[]byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"))
	// vgsvg labels the PNG images it embeds as JPEG.
	return bytes.ReplaceAll(out, []byte("data:image/jpg;base64,"), []byte("data:image/png;base64,")), nil
}

// PDF renders the figure as a one-page PDF with embedded fonts.
func (f *Figure) PDF() ([]byte, error) {
	if f == nil {
		return nil, errNilFigure
	}
	if err := checkSize(f.width, f.height); err != nil {
		return nil, err
	}
	w, h := f.size()
	c := vgpdf.New(w, h)
	if err := f.draw(pdfBold{c}, true); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("plots: encoding PDF: %w", err)
	}
	return buf.Bytes(), nil
}

// Save writes the figure to path, in the format its extension names:
// .png, .svg or .pdf.
func (f *Figure) Save(path string) error {
	if f == nil {
		return errNilFigure
	}
	var (
		data []byte
		err  error
	)
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png":
		data, err = f.PNG()
	case ".svg":
		data, err = f.SVG()
	case ".pdf":
		data, err = f.PDF()
	default:
		return fmt.Errorf("plots: cannot save %q: unknown extension %q (use .png, .svg or .pdf)", path, ext)
	}
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// draw paints onto a backend canvas, turning a panic deep in gonum/plot
// (it panics on some impossible layouts) into an error.
func (f *Figure) draw(vc vg.CanvasSizer, vector bool) (err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.vector = vector
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("plots: drawing %s: %v", f.desc, r)
		}
	}()
	f.legend = nil
	c := draw.New(vc)
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	f.paint(c)
	return nil
}

// legendEntry adds a row to p's legend, keeping its thumbnail for tests.
func (f *Figure) legendEntry(p *plot.Plot, name string, m *points) {
	f.legend = append(f.legend, m)
	p.Legend.Add(name, m)
}

// Fonts: always gonum's bundled Liberation fonts, so renders do not depend
// on what is installed.
var (
	sansFont = font.Font{Typeface: "Liberation", Variant: "Sans"}
	boldFont = font.Font{Typeface: "Liberation", Variant: "Sans", Weight: xfont.WeightBold}
	handler  = text.Plain{Fonts: font.DefaultCache}
)

func textStyle(size vg.Length, col color.Color) text.Style {
	return text.Style{
		Color:   col,
		Font:    font.From(sansFont, size),
		XAlign:  draw.XCenter,
		YAlign:  draw.YCenter,
		Handler: handler,
	}
}

// newPlot returns a plot with the package's look: sans fonts, light axes.
func newPlot(title string) *plot.Plot {
	p := plot.New()
	p.TextHandler = handler
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(boldFont, 12)
	p.Title.Padding = 6
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(sansFont, 11)
		ax.Tick.Label.Font = font.From(sansFont, 9)
		ax.Label.TextStyle.Handler = handler
		ax.Tick.Label.Handler = handler
		ax.Padding = 0
		ax.Color = color.Gray{Y: 80}
		ax.Tick.Color = color.Gray{Y: 80}
	}
	p.Legend.TextStyle.Font = font.From(sansFont, 9)
	p.Legend.ThumbnailWidth = 14
	// Rows 3 pt apart: with no padding, the 8 pt marks of one row met
	// the next row's.
	p.Legend.Padding = 3
	p.Legend.TextStyle.Handler = handler
	return p
}

func titleStyle() text.Style {
	st := textStyle(12, color.Black)
	st.Font = font.From(boldFont, 12)
	st.YAlign = draw.YTop
	return st
}

// titled draws the title centred across the whole figure and returns the
// canvas below it.
func titled(c draw.Canvas, title string) draw.Canvas {
	if title == "" {
		return draw.Crop(c, 0, 0, 0, -6)
	}
	st := titleStyle()
	// A title wider than the figure shrinks to fit (down to 6 pt).
	if w, room := st.Width(title), c.Max.X-c.Min.X-8; w > room && room > 0 {
		st.Font.Size = max(6, st.Font.Size*room/w)
	}
	c.FillText(st, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - 6}, title)
	return draw.Crop(c, 0, 0, 0, -(st.Height(title) + 14))
}

// titleWidth is the title's width in PNG pixels.
func titleWidth(title string) int {
	return int(titleStyle().Width(title)/pixel) + 24
}

// pdfBold draws bold text in PDFs as glyph outlines. vgpdf embeds every
// font from a file it always names "font.ttf", and fpdf keeps one font
// file per name, so a PDF holding two weights showed every word in
// whichever weight was registered last (bold titles came out regular).
// Regular text stays text (searchable, selectable); bold text, the titles
// and headers, becomes filled outlines of Liberation Sans Bold.
type pdfBold struct{ *vgpdf.Canvas }

func (c pdfBold) FillString(f font.Face, pt vg.Point, s string) {
	if f.Font.Weight == xfont.WeightNormal || f.Face == nil {
		c.Canvas.FillString(f, pt, s)
		return
	}
	c.Fill(outline(f, pt, s))
}

// outline is the path of s's glyphs set in f, with its baseline starting
// at pt, spaced exactly as font.Face.Width measures them.
func outline(f font.Face, pt vg.Point, s string) vg.Path {
	var (
		buf   sfnt.Buffer
		path  vg.Path
		upem  = fixed.Int26_6(f.Face.UnitsPerEm())
		scale = f.Font.Size / vg.Length(upem) // font units to points
		x     = pt.X
		prev  sfnt.GlyphIndex
	)
	at := func(p fixed.Point26_6) vg.Point {
		// sfnt's y axis points down.
		return vg.Point{X: x + vg.Length(p.X)*scale, Y: pt.Y - vg.Length(p.Y)*scale}
	}
	for i, r := range []rune(s) {
		idx, err := f.Face.GlyphIndex(&buf, r)
		if err != nil {
			continue
		}
		if i > 0 {
			if k, err := f.Face.Kern(&buf, prev, idx, upem, xfont.HintingNone); err == nil {
				x += vg.Length(k) * scale
			}
		}
		prev = idx
		segs, err := f.Face.LoadGlyph(&buf, idx, upem, nil)
		if err == nil {
			for _, sg := range segs {
				switch sg.Op {
				case sfnt.SegmentOpMoveTo:
					if len(path) > 0 {
						path.Close()
					}
					path.Move(at(sg.Args[0]))
				case sfnt.SegmentOpLineTo:
					path.Line(at(sg.Args[0]))
				case sfnt.SegmentOpQuadTo:
					path.QuadTo(at(sg.Args[0]), at(sg.Args[1]))
				case sfnt.SegmentOpCubeTo:
					path.CubeTo(at(sg.Args[0]), at(sg.Args[1]), at(sg.Args[2]))
				}
			}
			if len(segs) > 0 {
				path.Close()
			}
		}
		if adv, err := f.Face.GlyphAdvance(&buf, idx, upem, xfont.HintingNone); err == nil {
			x += vg.Length(adv) * scale
		}
	}
	return path
}
