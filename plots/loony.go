package plots

import (
	"errors"
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"grundy/stdlib/entail"
	"grundy/stdlib/human"
)

// defaultLoony is the colour of loony cells: a deep red that no nimber
// colour comes near, with the word printed in bold white.
var defaultLoony = rgb(0xa50f15)

// LoonyTable draws a table of values of entailing games as a figure: one
// column per game, one row per heap size, each cell *k or loony. Loony
// cells are deep red with "loony" in bold, 0 cells take the P colour and
// nimbers a palette (Palette: colour i for *(i+1)). The same table as
// HTML is ValueTable.HTML().
func LoonyTable(vt *entail.ValueTable, opts ...Option) (*Figure, error) {
	if err := checkValueTable(vt); err != nil {
		return nil, err
	}
	cfg := newConfig(opts)
	if cfg.err != nil {
		return nil, cfg.err
	}
	nCols, nRows := len(vt.Games), len(vt.Heaps)
	maxN, nLoony, nZero := 0, 0, 0
	for _, col := range vt.Values {
		for _, v := range col {
			switch {
			case v.Loony:
				nLoony++
			case v.Nimber == 0:
				nZero++
			default:
				maxN = max(maxN, v.Nimber)
			}
		}
	}
	vs := valueScale(&cfg, maxN)
	at := func(x, y int) entail.Value { return vt.Values[x][y] }
	colorOf := func(v entail.Value) color.RGBA {
		if v.Loony {
			return defaultLoony
		}
		return vs.color(v.Nimber)
	}
	g := &grid{
		w: nCols, h: nRows,
		color: func(x, y int) color.RGBA { return colorOf(at(x, y)) },
		label: func(x, y int) string { return at(x, y).String() },
		bold:  func(x, y int) bool { v := at(x, y); return v.Loony || v.Nimber == 0 },
		hatch: func(x, y int) bool { return at(x, y).Loony },
	}
	title := cfg.titleOr("Values against Nim heaps: " + strings.Join(vt.Games, ", "))
	head := textStyle(10, color.Black)
	head.Font = boldFont
	head.Font.Size = 10
	colW := vg.Length(58)
	for _, name := range vt.Games {
		colW = max(colW, head.Width(name)+14)
	}
	const rowH, headH, heapW = vg.Length(18), vg.Length(22), vg.Length(44)
	// The key lists what the table holds: a "0 (P)" swatch on a table
	// without zeros suggested a value that is not there.
	var key []swatch
	if nLoony > 0 {
		key = append(key, swatch{"loony", defaultLoony, true})
	}
	if nZero > 0 {
		key = append(key, swatch{"0 (P)", vs.color(0), false})
	}
	if vs.bars == nil {
		// Keyed as the cells are written: "*" is *1, as in the text.
		for v, sw := range vs.swatches[1:] {
			key = append(key, swatch{entail.Nimber(v + 1).String(), sw.col, false})
		}
	}
	keyW := vg.Length(70)
	width := cfg.width
	if width == 0 {
		width = max(int((heapW+colW*vg.Length(nCols)+keyW+30)/pixel), titleWidth(title))
	}
	height := cfg.height
	if height == 0 {
		height = int((headH+rowH*vg.Length(nRows)+50)/pixel) + 10
		height = max(height, int(vg.Length(16*len(key)+90)/pixel))
	}
	fig := cfg.figure(fmt.Sprintf("loony/nimber table of %s for heaps %s: %d loony, %d zero", strings.Join(vt.Games, ", "), heapRange(vt.Heaps), nLoony, nZero), width, height)
	fig.grid = g
	fig.paint = func(c draw.Canvas) {
		c = titled(c, title)
		// Shrink rows and columns to fit a smaller canvas than the default.
		avW := c.Max.X - c.Min.X - heapW - keyW - 20
		avH := c.Max.Y - c.Min.Y - headH - 10
		cw := min(colW, avW/vg.Length(nCols))
		rh := min(rowH, avH/vg.Length(nRows))
		x0 := c.Min.X + 10 + heapW
		top := c.Max.Y - headH
		xs := make([]vg.Length, nCols+1)
		for i := range xs {
			xs[i] = snap(x0 + cw*vg.Length(i))
		}
		ys := make([]vg.Length, nRows+1)
		for i := range ys {
			ys[i] = snap(top - rh*vg.Length(i))
		}
		g.divider = true
		g.xs, g.ys = xs, ys
		g.drawCells(c, xs, ys)
		h := head
		h.Font.Size = min(10, rh*0.6)
		h.YAlign = draw.YBottom
		for i, name := range vt.Games {
			c.FillText(h, vg.Point{X: (xs[i] + xs[i+1]) / 2, Y: top + 4}, name)
		}
		lab := textStyle(min(9, rh*0.55), color.Black)
		lab.XAlign = draw.XRight
		hh := h
		hh.XAlign = draw.XRight
		c.FillText(hh, vg.Point{X: x0 - 6, Y: top + 4}, "heap")
		for j, n := range vt.Heaps {
			c.FillText(lab, vg.Point{X: x0 - 6, Y: (ys[j] + ys[j+1]) / 2}, strconv.Itoa(n))
		}
		k := c
		k.Min.X, k.Max.X = xs[nCols]+16, xs[nCols]+16+keyW
		k.Max.Y = top + 14
		k.Min.Y = max(c.Min.Y, top-vg.Length(16*len(key)+40))
		ks := scale{swatches: key}
		if vs.bars != nil {
			k.Min.Y = max(c.Min.Y, top-300)
			ks.bars = vs.bars
			ks.bars[0].label = "*k"
		}
		drawKey(c, k, ks, "value")
	}
	return fig, nil
}

func checkValueTable(vt *entail.ValueTable) error {
	switch {
	case vt == nil:
		return errors.New("plots: no value table to draw (nil)")
	case len(vt.Games) == 0 || len(vt.Heaps) == 0:
		return fmt.Errorf("plots: the value table is empty (%s, %s); compute some values first", human.Quantity(len(vt.Games), "game"), human.Quantity(len(vt.Heaps), "heap size"))
	case len(vt.Values) != len(vt.Games):
		return fmt.Errorf("plots: the value table has %s for %s", human.Quantity(len(vt.Values), "value column"), human.Quantity(len(vt.Games), "game"))
	}
	for i, col := range vt.Values {
		if len(col) != len(vt.Heaps) {
			return fmt.Errorf("plots: game %q has %s for %s", vt.Games[i], human.Quantity(len(col), "value"), human.Quantity(len(vt.Heaps), "heap size"))
		}
		for j, v := range col {
			if !v.Loony && v.Nimber < 0 {
				return fmt.Errorf("plots: game %q at heap %d has a negative nimber %d", vt.Games[i], vt.Heaps[j], v.Nimber)
			}
		}
	}
	return nil
}

func heapRange(hs []int) string {
	contiguous := true
	for i := 1; i < len(hs); i++ {
		if hs[i] != hs[i-1]+1 {
			contiguous = false
		}
	}
	if contiguous && len(hs) > 2 {
		return fmt.Sprintf("%d..%d", hs[0], hs[len(hs)-1])
	}
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = strconv.Itoa(h)
	}
	return strings.Join(parts, ", ")
}
