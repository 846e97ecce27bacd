package plots

import (
	"bytes"
	"cmp"
	"image"
	"image/color"
	"image/png"
	"slices"
)

// encodePNG writes a figure's pixels as a paletted PNG. A figure is mostly
// flat colour (cells, bars, marks, white) with anti-aliased edges, about
// a thousand colours in all: the 256 commonest are kept exactly and each
// rarer edge colour becomes the nearest of them. That makes the PNG, the
// form a notebook stores, about four times smaller than full colour
// (CN(6,2)'s 9x9 face: 38 kB to 10 kB) with every cell's colour exact,
// for about the same time as before (the paletted image compresses at
// the default level; the best level took twice as long for 10% less).
func encodePNG(img *image.RGBA) ([]byte, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	// Pixels as keys, counted a run at a time: figures are long runs.
	key := func(x, y int) uint32 {
		i := img.PixOffset(b.Min.X+x, b.Min.Y+y)
		p := img.Pix[i : i+4 : i+4]
		return uint32(p[0])<<24 | uint32(p[1])<<16 | uint32(p[2])<<8 | uint32(p[3])
	}
	counts := map[uint32]int{}
	for y := range h {
		run, n := key(0, y), 0
		for x := range w {
			if k := key(x, y); k != run {
				counts[run] += n
				run, n = k, 0
			}
			n++
		}
		counts[run] += n
	}
	cols := make([]uint32, 0, len(counts))
	for c := range counts {
		cols = append(cols, c)
	}
	// Commonest first; ties in a fixed order, so renders stay identical.
	slices.SortFunc(cols, func(a, b uint32) int {
		if d := cmp.Compare(counts[b], counts[a]); d != 0 {
			return d
		}
		return cmp.Compare(a, b)
	})
	pal := make(color.Palette, 0, 256)
	index := make(map[uint32]uint8, len(cols))
	for _, c := range cols[:min(256, len(cols))] {
		index[c] = uint8(len(pal))
		pal = append(pal, keyRGBA(c))
	}
	for _, c := range cols[len(pal):] {
		index[c] = uint8(nearest(pal, keyRGBA(c)))
	}
	out := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	for y := range h {
		row := out.Pix[y*out.Stride:]
		last, li := key(0, y), index[key(0, y)]
		for x := range w {
			if k := key(x, y); k != last {
				last, li = k, index[k]
			}
			row[x] = li
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&buf, out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func keyRGBA(k uint32) color.RGBA {
	return color.RGBA{R: uint8(k >> 24), G: uint8(k >> 16), B: uint8(k >> 8), A: uint8(k)}
}

// nearest is the index of the palette colour closest to c.
func nearest(pal color.Palette, c color.RGBA) int {
	best, bestD := 0, -1
	for i, p := range pal {
		q := p.(color.RGBA)
		dr, dg, db, da := int(q.R)-int(c.R), int(q.G)-int(c.G), int(q.B)-int(c.B), int(q.A)-int(c.A)
		if d := dr*dr + dg*dg + db*db + da*da; bestD < 0 || d < bestD {
			best, bestD = i, d
		}
	}
	return best
}
