// Package plots draws the figures a researcher looks at instead of reading
// numbers: heatmaps of faces of game tables, outcome and remoteness maps,
// loony/nimber tables, remoteness and count plots. Every figure is a
// *Figure that shows itself inline (PNG, SVG, a text line) and saves to
// .png, .svg or .pdf; renders are byte-for-byte deterministic and use only
// gonum's bundled Liberation fonts.
//
// Names follow one rule. A figure function is named for the figure and
// takes what the figure is of: a table, with a pattern when it draws part
// of one (Heatmap(t, "0 a b 0 2 1"), Line(t, "3 a 5")), a game
// (PCounts(g, 1, 2, 3)) or an entailing-game value table (LoonyTable).
// The same name with Of takes data already taken out of a table, or
// computed some other way: a face (HeatmapOf(f)), a list of entries
// (LineOf), counts (HistogramOf, PCountsOf).
package plots
