package plots

import (
	"grundy/stdlib/entail"
	"os"
	"path/filepath"
	"testing"

	"grundy/stdlib/solve"
)

// cnFace is the CN(6,2) face "0 a b 0 c d" with c+d fixed, from the seed's
// formula g(0,a,b,0,c,d) = (a+b) xor (c+d).
func cnFace(n, cd int) *solve.Face {
	f := &solve.Face{Game: "CN(6,2)", Pattern: "0 a b 0 2 1", Kind: solve.KindValues, X: "a", Y: "b", W: n, H: n}
	for b := 0; b < n; b++ {
		for a := 0; a < n; a++ {
			f.Cells = append(f.Cells, (a+b)^cd)
		}
	}
	return f
}

// TestSamples writes every figure to $PLOTS_SAMPLES for a person to look at.
func TestSamples(t *testing.T) {
	dir := os.Getenv("PLOTS_SAMPLES")
	if dir == "" {
		t.Skip("set PLOTS_SAMPLES=/some/dir to write sample figures")
	}
	small := &solve.Face{Game: "toy", Pattern: "a b", Kind: solve.KindValues, X: "a", Y: "b", W: 6, H: 4}
	for i := range 24 {
		small.Cells = append(small.Cells, (i%6)^(i/6)%5)
	}
	figs := map[string]func() (*Figure, error){
		"cn62_face":    func() (*Figure, error) { return HeatmapOf(cnFace(13, 3)) },
		"cn62_face_6":  func() (*Figure, error) { return HeatmapOf(cnFace(6, 3)) },
		"cn62_outcome": func() (*Figure, error) { return OutcomeMapOf(cnFace(13, 3)) },
		"cn62_200":     func() (*Figure, error) { return HeatmapOf(cnFace(200, 3)) },
		"cn62_200_out": func() (*Figure, error) { return OutcomeMapOf(cnFace(200, 3)) },
		"small":        func() (*Figure, error) { return HeatmapOf(small) },
		"remote":       func() (*Figure, error) { return RemotenessMapOf(remFace(12)) },
		"remote_big":   func() (*Figure, error) { return RemotenessMapOf(remFace(60)) },
		"loony":        func() (*Figure, error) { return LoonyTable(heroTable(12)) },
		"loony_big":    func() (*Figure, error) { return LoonyTable(heroTable(40)) },
		"tiny_face":    func() (*Figure, error) { return HeatmapOf(cnFace(13, 3), Size(260, 200)) },
		"wide_loony":   func() (*Figure, error) { return LoonyTable(heroTable(12), Size(900, 260)) },
	}
	saveSamples(t, dir, figs)
}

// remFace is a made-up remoteness face with both parities and a range.
func remFace(n int) *solve.Face {
	f := &solve.Face{Game: "ESN(3,2)", Pattern: "1 a b", Kind: solve.KindRemoteness, X: "a", Y: "b", W: n, H: n}
	for b := 0; b < n; b++ {
		for a := 0; a < n; a++ {
			r := a + b
			if (a^b)&1 == 0 {
				r = 2 * min(a, b)
			}
			f.Cells = append(f.Cells, r)
		}
	}
	return f
}

// heroTable is seed 003's hero table: Top Entails, entailing Nim, Nim.
func heroTable(n int) *entail.ValueTable {
	vt := &entail.ValueTable{Games: []string{"Top Entails", "entailing Nim", "Nim"}, Values: make([][]entail.Value, 3)}
	for h := 1; h <= n; h++ {
		vt.Heaps = append(vt.Heaps, h)
		te, en := entail.Loony, entail.Loony
		if h%2 == 1 {
			te, en = entail.Nimber(0), entail.Nimber((h+1)/2)
			if h == 1 {
				te = entail.Nimber(1)
			}
		}
		vt.Values[0] = append(vt.Values[0], te)
		vt.Values[1] = append(vt.Values[1], en)
		vt.Values[2] = append(vt.Values[2], entail.Nimber(h))
	}
	return vt
}

// saveSamples renders each figure to dir as PNG and SVG, for a person to look at.
func saveSamples(t *testing.T, dir string, figs map[string]func() (*Figure, error)) {
	t.Helper()
	for name, mk := range figs {
		f, err := mk()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, ext := range []string{".png", ".svg"} {
			if err := f.Save(filepath.Join(dir, name+ext)); err != nil {
				t.Fatal(err)
			}
		}
		t.Log(f)
	}
}
