// Package plots draws the figures a researcher looks at instead of reading
// numbers: heatmaps of faces of game tables, outcome and remoteness maps,
// loony/nimber tables, remoteness and count plots. Every figure is a
// *Figure that shows itself inline (PNG, SVG, a text line) and saves to
// .png, .svg or .pdf; renders are byte-for-byte deterministic.
package plots

import (
	_ "gonum.org/v1/plot"
	_ "gonum.org/v1/plot/plotter"
	_ "gonum.org/v1/plot/vg/vgimg"
	_ "gonum.org/v1/plot/vg/vgpdf"
	_ "gonum.org/v1/plot/vg/vgsvg"
)
