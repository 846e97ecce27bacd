package plots

import (
	"fmt"
	"image/color"
	"math"
)

// Default colours. P-positions get a reserved near-black so they stand out
// against every value colour, even on a 200x200 face where a cell is two
// pixels wide and no outline would show.
var (
	defaultP = rgb(0x1a1a1a)
	defaultN = rgb(0xdde6ef)

	// qualitative is Tableau 10 plus two: neighbouring values never share
	// a hue family, and black text reads on every one.
	qualitative = []color.Color{
		rgb(0x4e79a7), rgb(0xf28e2b), rgb(0xe15759), rgb(0x76b7b2),
		rgb(0x59a14f), rgb(0xedc948), rgb(0xb07aa1), rgb(0xff9da7),
		rgb(0x9c755f), rgb(0xbab0ac), rgb(0x8cd17d), rgb(0xa0cbe8),
	}

	// viridis from 0.2 up: the darkest part is left out so no value can
	// be mistaken for the P colour.
	viridis = []color.Color{
		rgb(0x414487), rgb(0x355f8d), rgb(0x2a788e), rgb(0x21918c),
		rgb(0x22a884), rgb(0x44bf70), rgb(0x7ad151), rgb(0xbddf26), rgb(0xfde725),
	}

	// Remoteness families: even (P) in blues, odd (N) in oranges, both
	// darkening as the game gets longer.
	evenFamily = []color.Color{rgb(0x9ecae1), rgb(0x4292c6), rgb(0x08306b)}
	oddFamily  = []color.Color{rgb(0xfdae6b), rgb(0xe6550d), rgb(0x7f2704)}

	gridLine = color.Gray{Y: 255}
)

func rgb(hex uint32) color.RGBA {
	return color.RGBA{R: uint8(hex >> 16), G: uint8(hex >> 8), B: uint8(hex), A: 255}
}

// opaque is c as it looks over white. Every colour a figure writes is
// opaque: vgpdf writes a translucent colour's premultiplied components as
// if they were plain ones (too dark), and a colour that is not validly
// premultiplied, such as color.RGBA{255, 255, 255, 80}, came out of vgsvg
// as "#32C32C32C", which browsers reject. A nil colour stays nil (the
// default applies).
func opaque(c color.Color) color.Color {
	if c == nil {
		return nil
	}
	r, g, b, a := c.RGBA()
	over := func(v uint32) uint8 { return uint8(min(v+0xffff-a, 0xffff) >> 8) }
	return color.RGBA{R: over(r), G: over(g), B: over(b), A: 255}
}

// fade is c drawn at alpha a over white, as an opaque colour.
func fade(c color.Color, a uint8) color.Color {
	x := toRGBA(c)
	f := func(v uint8) uint8 { return uint8((int(v)*int(a) + 255*(255-int(a)) + 127) / 255) }
	return color.RGBA{R: f(x.R), G: f(x.G), B: f(x.B), A: 255}
}

func toRGBA(c color.Color) color.RGBA {
	r, g, b, a := c.RGBA()
	return color.RGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: uint8(a >> 8)}
}

// ramp returns the colour at t in [0,1] along the stops, linearly
// interpolated in sRGB.
func ramp(stops []color.Color, t float64) color.RGBA {
	if len(stops) == 1 || t <= 0 || math.IsNaN(t) {
		return toRGBA(stops[0])
	}
	if t >= 1 {
		return toRGBA(stops[len(stops)-1])
	}
	x := t * float64(len(stops)-1)
	i := int(x)
	f := x - float64(i)
	a, b := toRGBA(stops[i]), toRGBA(stops[i+1])
	mix := func(p, q uint8) uint8 { return uint8(math.Round(float64(p) + f*(float64(q)-float64(p)))) }
	return color.RGBA{R: mix(a.R, b.R), G: mix(a.G, b.G), B: mix(a.B, b.B), A: 255}
}

// luminance is the relative luminance in [0,1]; text on a cell is white
// when the cell is dark.
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

func textOn(bg color.Color) color.Color {
	if luminance(bg) < 0.25 {
		return color.White
	}
	return color.Black
}

// scale maps a cell's integer entry to its colour. It also describes
// itself for the key beside a heatmap: either swatches (discrete) or
// continuous bars.
type scale struct {
	color    func(v int) color.RGBA
	swatches []swatch // discrete key; nil when bars is set
	bars     []bar    // continuous key
}

type swatch struct {
	label string
	col   color.Color
	hatch bool
}

type bar struct {
	label    string
	stops    []color.Color
	min, max int
	stride   int // 2 for a parity family: only its own values get ticks
}

// maxDiscrete is the largest number of distinct non-P values drawn with a
// discrete palette; beyond it, a continuous scale with a colour bar.
const maxDiscrete = 12

// valueScale colours Grundy values: 0 is P, the rest from the palette.
func valueScale(cfg *config, maxV int) scale {
	pc := toRGBA(orColor(cfg.pColor, defaultP))
	pal := cfg.palette
	discrete := pal
	if len(pal) == 0 {
		discrete = qualitative
		pal = viridis
	}
	s := scale{swatches: []swatch{{label: "0 (P)", col: pc}}}
	if maxV <= len(discrete) {
		for v := 1; v <= maxV; v++ {
			s.swatches = append(s.swatches, swatch{label: fmt.Sprint(v), col: discrete[v-1]})
		}
		s.color = func(v int) color.RGBA {
			if v <= 0 {
				return pc
			}
			return toRGBA(discrete[v-1])
		}
		return s
	}
	if len(pal) == 1 {
		// One colour as a scale was that colour everywhere: every value
		// looked the same. Ramp from a light tint of it instead.
		pal = []color.Color{lighten(pal[0]), pal[0]}
	}
	s.bars = []bar{{label: "value", stops: pal, min: 1, max: maxV, stride: 1}}
	s.color = func(v int) color.RGBA {
		if v <= 0 {
			return pc
		}
		return ramp(pal, float64(v-1)/float64(maxV-1))
	}
	return s
}

// outcomeScale colours 0 (P) and anything else (N).
func outcomeScale(cfg *config) scale {
	pc := toRGBA(orColor(cfg.pColor, defaultP))
	nc := toRGBA(defaultN)
	if len(cfg.palette) > 0 {
		nc = toRGBA(cfg.palette[0])
	}
	return scale{
		swatches: []swatch{{label: "P", col: pc}, {label: "N", col: nc}},
		color: func(v int) color.RGBA {
			if v == 0 {
				return pc
			}
			return nc
		},
	}
}

// remotenessScale colours even remoteness (P) and odd (N) in two hue
// families, each darkening with remoteness.
func remotenessScale(cfg *config, maxR int) scale {
	even, odd := evenFamily, oddFamily
	if len(cfg.palette) >= 2 {
		even = []color.Color{lighten(cfg.palette[0]), cfg.palette[0]}
		odd = []color.Color{lighten(cfg.palette[1]), cfg.palette[1]}
	}
	maxEven, maxOdd := maxR-maxR%2, maxR-1+maxR%2
	col := func(v int) color.RGBA {
		if v%2 == 0 {
			return ramp(even, frac(v/2, maxEven/2))
		}
		return ramp(odd, frac(v/2, maxOdd/2))
	}
	s := scale{color: col}
	if maxR < maxDiscrete {
		for v := 0; v <= maxR; v++ {
			label := fmt.Sprint(v, " N")
			if v%2 == 0 {
				label = fmt.Sprint(v, " P")
			}
			s.swatches = append(s.swatches, swatch{label: label, col: col(v)})
		}
		return s
	}
	s.bars = []bar{
		{label: "even (P)", stops: even, min: 0, max: maxEven, stride: 2},
		{label: "odd (N)", stops: odd, min: 1, max: maxOdd, stride: 2},
	}
	return s
}

func frac(i, n int) float64 {
	if n <= 0 {
		return 0
	}
	return float64(i) / float64(n)
}

func lighten(c color.Color) color.Color {
	x := toRGBA(c)
	l := func(v uint8) uint8 { return uint8(255 - (255-int(v))*35/100) }
	return color.RGBA{R: l(x.R), G: l(x.G), B: l(x.B), A: 255}
}

func orColor(c, def color.Color) color.Color {
	if c == nil {
		return def
	}
	return c
}
