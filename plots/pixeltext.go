package plots

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	vgdraw "gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// pixelText prints cell labels straight into a PNG canvas's image. gonum's
// raster canvas builds a new font face for every string it draws, which
// makes a 64x64 labelled face take most of a second; here each distinct
// label is rasterised once and stamped through its mask. Placement follows
// gonum's text.Plain exactly, so labels sit where they would otherwise.
type pixelText struct {
	img    draw.Image
	height int // image height in pixels: vg's y axis points up
	scale  float64
	masks  map[maskKey]*image.Alpha
}

type maskKey struct {
	font vgFont
	s    string
}

type vgFont struct {
	bold bool
	size vg.Length
}

// newPixelText returns nil when c is not a PNG canvas.
func newPixelText(c vgdraw.Canvas) *pixelText {
	// Crops nest draw.Canvas values; the backend is at the bottom.
	inner := c.Canvas
	for {
		dc, ok := inner.(vgdraw.Canvas)
		if !ok {
			break
		}
		inner = dc.Canvas
	}
	vc, ok := inner.(*vgimg.Canvas)
	if !ok {
		return nil
	}
	img := vc.Image()
	return &pixelText{
		img:    img,
		height: img.Bounds().Dy(),
		scale:  vc.DPI() / 72,
		masks:  map[maskKey]*image.Alpha{},
	}
}

// fill draws s in style sty (XCenter, YCenter) centred at pt.
func (p *pixelText) fill(sty text.Style, pt vg.Point, s string) bool {
	key := maskKey{vgFont{sty.Font.Weight != xfont.WeightNormal, sty.Font.Size}, s}
	m, ok := p.masks[key]
	if !ok {
		face := handler.Fonts.Lookup(sty.Font, sty.Font.Size)
		// The same arithmetic as text.Plain.Draw for one line.
		x := -0.5 * face.Width(s)
		y := sty.Height(s)*vg.Length(sty.YAlign) - face.Extents().Ascent + sty.Font.Size
		ff, err := opentype.NewFace(face.Face, &opentype.FaceOptions{Size: sty.Font.Size.Points(), DPI: 72 * p.scale, Hinting: xfont.HintingNone})
		if err != nil {
			return false
		}
		defer ff.Close()
		// The mask is drawn with its origin at the label's centre, offset
		// by a margin so that glyph overhangs fit.
		w := int(float64(face.Width(s))*p.scale) + 8
		h := int(float64(sty.Font.Size)*p.scale*2) + 8
		m = image.NewAlpha(image.Rect(-w/2-4, -h/2-4, w/2+4, h/2+4))
		d := xfont.Drawer{Dst: m, Src: image.Opaque, Face: ff,
			Dot: fixed.Point26_6{X: fixed.Int26_6(float64(x) * p.scale * 64), Y: fixed.Int26_6(-float64(y) * p.scale * 64)}}
		d.DrawString(s)
		p.masks[key] = m
	}
	cx := int(float64(pt.X)*p.scale + 0.5)
	cy := p.height - int(float64(pt.Y)*p.scale+0.5)
	r := m.Bounds().Add(image.Point{X: cx, Y: cy})
	draw.DrawMask(p.img, r, image.NewUniform(sty.Color), image.Point{}, m, m.Bounds().Min, draw.Over)
	return true
}

// fillRect fills a pixel-aligned rectangle (cell edges are snapped to
// whole pixels) directly; the result is what the rasteriser would give,
// without its cost.
func (p *pixelText) fillRect(x0, y0, x1, y1 vg.Length, col color.Color) {
	px := func(v vg.Length) int { return int(math.Round(float64(v) * p.scale)) }
	r := image.Rect(px(x0), p.height-px(y0), px(x1), p.height-px(y1)).Canon()
	draw.Draw(p.img, r, image.NewUniform(col), image.Point{}, draw.Src)
}
