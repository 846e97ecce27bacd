package display

import (
	"errors"
	"fmt"
	"image"
	"math/big"
	"strings"
	"testing"
)

type rich struct{}

func (rich) String() string            { return "rich" }
func (rich) HTML() string              { return "<i>rich</i>" }
func (rich) Markdown() string          { return "*rich*" }
func (rich) LaTeX() string             { return "$r$" }
func (rich) SVG() ([]byte, error)      { return []byte("<svg/>"), nil }
func (rich) PNG() ([]byte, error)      { return []byte{1, 2, 3}, nil }
func (rich) JSON() any                 { return map[string]int{"a": 1} }
func (rich) Bundle() Bundle            { return Bundle{"text/x-custom": "c"} }
func (f failing) PNG() ([]byte, error) { return nil, errors.New("no renderer") }
func (f failing) String() string       { return "failing" }

type failing struct{}

func TestRenderConvention(t *testing.T) {
	tests := []struct {
		v    any
		want map[string]any
	}{
		{42, Bundle{"text/plain": "42"}},
		{"s", Bundle{"text/plain": "s"}},
		{errors.New("bad"), Bundle{"text/plain": "bad"}},
		{rich{}, Bundle{"text/plain": "rich", "text/html": "<i>rich</i>", "text/markdown": "*rich*",
			"text/latex": "$r$", "image/svg+xml": "<svg/>", "image/png": "AQID", "text/x-custom": "c"}},
		{failing{}, Bundle{"text/plain": "PNG failed: no renderer"}},
	}
	for _, tc := range tests {
		got := Render(tc.v)
		for k, w := range tc.want {
			if got[k] != w {
				t.Errorf("Render(%T)[%s] = %v, want %v", tc.v, k, got[k], w)
			}
		}
		if len(got) < len(tc.want) {
			t.Errorf("Render(%T) = %v, want at least %v", tc.v, got, tc.want)
		}
	}
	if _, ok := Render(image.NewGray(image.Rect(0, 0, 2, 2)))["image/png"]; !ok {
		t.Error("an image.Image shows as PNG")
	}
}

type recSink struct {
	ids     []string
	updates []bool
	texts   []string
	clears  int
}

func (r *recSink) Display(b Bundle, _ map[string]any, id string, update bool) {
	r.ids = append(r.ids, id)
	r.updates = append(r.updates, update)
	r.texts = append(r.texts, b["text/plain"].(string))
}
func (r *recSink) Clear(bool) { r.clears++ }

func TestHandleUpdatesInPlace(t *testing.T) {
	rec := &recSink{}
	defer Install(rec)()
	h := New()
	h.Text("one")
	h.HTML("<b>two</b>")
	h.Clear()
	Show(1)
	Clear(true)
	want := []string{"one", "two", "", "1"}
	if strings.Join(rec.texts, "|") != strings.Join(want, "|") {
		t.Errorf("texts %q, want %q", rec.texts, want)
	}
	for i := 0; i < 3; i++ {
		if rec.ids[i] != h.ID() || rec.updates[i] != (i > 0) {
			t.Errorf("display %d: id %q update %v", i, rec.ids[i], rec.updates[i])
		}
	}
	if rec.ids[3] != "" || rec.clears != 1 {
		t.Errorf("plain show had id %q; clears %d", rec.ids[3], rec.clears)
	}
	if New().ID() == h.ID() {
		t.Error("handles share an id")
	}
}

func TestShowValueAndError(t *testing.T) {
	rec := &recSink{}
	defer Install(rec)()
	figure := func(ok bool) (any, error) {
		if ok {
			return rich{}, nil
		}
		return nil, errors.New("face needs two letters")
	}
	Show(figure(true))
	Show(figure(false))
	Show(nil)
	want := []string{"rich", "face needs two letters", "<nil>"}
	if strings.Join(rec.texts, "|") != strings.Join(want, "|") {
		t.Errorf("texts %q, want %q: a nil beside a value is skipped, a lone nil shown", rec.texts, want)
	}
}

// choosy has every form but shows only the ones it lists; its SVG is
// never even rendered.
type choosy struct{ svgCalls *int }

func (choosy) String() string         { return "choosy" }
func (choosy) HTML() string           { return "<i>c</i>" }
func (c choosy) SVG() ([]byte, error) { *c.svgCalls++; return []byte("<svg/>"), nil }
func (choosy) PNG() ([]byte, error)   { return []byte{1, 2, 3}, nil }
func (choosy) MIMETypes() []string    { return []string{"image/png"} }

func TestRenderShowsOnlyChosenTypes(t *testing.T) {
	calls := 0
	got := Render(choosy{&calls})
	if len(got) != 2 || got["image/png"] != "AQID" || got["text/plain"] != "choosy" || calls != 0 {
		t.Errorf("Render = %v (SVG rendered %d times); want PNG and text only, SVG never rendered", got, calls)
	}
}

// A value with a Format method is shown as fmt's %v prints it, not by
// its String: a *big.Float's String rounds to 10 digits.
func TestTextUsesFormat(t *testing.T) {
	f := big.NewFloat(1.0 / 3)
	if got, want := Text(f), fmt.Sprintf("%v", f); got != want || got == f.String() {
		t.Fatalf("Text(*big.Float) = %q, want %q (not String's %q)", got, want, f.String())
	}
	if got := Render(f)["text/plain"]; got != fmt.Sprintf("%v", f) {
		t.Fatalf("Render(*big.Float) text/plain = %q", got)
	}
}
