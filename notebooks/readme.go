//go:build ignore

// The figures in the top-level README, drawn by grundy itself:
//
//	go run . run --out notebooks/images notebooks/readme.go
package main

import (
	"grundy/engine/display"
	"grundy/plots"
	"grundy/stdlib/games"
	"grundy/stdlib/known"
	"grundy/stdlib/solve"
)

func main() {
	t, _ := solve.Values(games.CN(6, 2), 12)
	face, _ := plots.Heatmap(t, "0 a b 0 2 1")
	display.Show(face)
	r, _ := solve.Remoteness(games.SlowExact(3, 2), 8)
	scatter, _ := plots.Scatter(r, plots.Path(known.MPath(games.Pos{3, 5, 5})...))
	display.Show(scatter)
}
