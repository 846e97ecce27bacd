package plots

import (
	"os"
	"testing"

	"grundy/stdlib/games"
	"grundy/stdlib/known"
	"grundy/stdlib/solve"
)

// playOut follows optimal play from p: each move lowers the remoteness by
// one (to a P follower from an N-position, the longest such reply from a
// P-position), which is what the M-rule achieves in Exact Slow NIM(k+1,k).
func playOut(t *testing.T, tab *solve.Table, p games.Pos) []games.Pos {
	t.Helper()
	path := []games.Pos{p}
	for {
		r, err := tab.Value(p)
		if err != nil {
			t.Fatal(err)
		}
		if r == 0 {
			return path
		}
		next, err := tab.MovesTo(p, r-1)
		if err != nil || len(next) == 0 {
			t.Fatalf("no move from %v (remoteness %d) to remoteness %d: %v", p, r, r-1, err)
		}
		p = next[0]
		path = append(path, p)
	}
}

func TestSamplesSolved(t *testing.T) {
	dir := os.Getenv("PLOTS_SAMPLES")
	if dir == "" {
		t.Skip("set PLOTS_SAMPLES=/some/dir to write sample figures")
	}
	cn, err := solve.Values(games.CN(6, 2), 12)
	if err != nil {
		t.Fatal(err)
	}
	esn, err := solve.Remoteness(games.SlowExact(3, 2), 8)
	if err != nil {
		t.Fatal(err)
	}
	face, err := cn.Face("0 a b 0 2 1")
	if err != nil {
		t.Fatal(err)
	}
	mirror, err := cn.Face("a b 1 a b 1")
	if err != nil {
		t.Fatal(err)
	}
	rface, err := esn.Face("a b 5")
	if err != nil {
		t.Fatal(err)
	}
	path := playOut(t, esn, games.Pos{3, 5, 5})
	var bounds, counts []int
	for b := 1; b <= 10; b++ {
		o, err := solve.Outcomes(games.CN(6, 2), b)
		if err != nil {
			t.Fatal(err)
		}
		bounds, counts = append(bounds, b), append(counts, o.CountP())
	}
	wy, err := solve.Values(games.Wythoff(), 199)
	if err != nil {
		t.Fatal(err)
	}
	figs := map[string]func() (*Figure, error){
		"real_wythoff_200":     func() (*Figure, error) { return Heatmap(wy, "a b") },
		"real_wythoff_200_out": func() (*Figure, error) { o, _ := wy.Face("a b"); return OutcomeMapOf(o) },
		"real_cn62_face":       func() (*Figure, error) { return HeatmapOf(face) },
		"real_cn62_mirror":     func() (*Figure, error) { return HeatmapOf(mirror) },
		"real_cn62_hist":       func() (*Figure, error) { return Histogram(cn) },
		"real_esn_face":        func() (*Figure, error) { return HeatmapOf(rface) },
		"real_esn_line":        func() (*Figure, error) { return Line(esn, "3 a 5") },
		"real_esn_scatter":     func() (*Figure, error) { return Scatter(esn, Path(path...)) },
		"real_esn_mrule":       func() (*Figure, error) { return Scatter(esn, Path(known.MPath(games.Pos{3, 5, 5})...)) },
		"real_esn_hist":        func() (*Figure, error) { return Histogram(esn) },
		"real_cn62_pcount":     func() (*Figure, error) { return PCountsOf("CN(6,2)", bounds, counts) },
	}
	saveSamples(t, dir, figs)
}
