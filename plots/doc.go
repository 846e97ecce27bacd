// Package plots draws the figures a researcher looks at instead of reading
// numbers: heatmaps of faces of game tables, outcome and remoteness maps,
// loony/nimber tables, remoteness and count plots. Every figure is a
// *Figure that shows itself inline (PNG, SVG, a text line) and saves to
// .png, .svg or .pdf; renders are byte-for-byte deterministic and use only
// gonum's bundled Liberation fonts.
package plots
