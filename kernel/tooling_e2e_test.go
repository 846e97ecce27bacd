package kernel

import (
	"slices"
	"strings"
	"testing"
)

// TestE2EOracleTools sends complete_request and inspect_request through
// jupyter_client for what only the type oracle knows: methods of cell
// types by receiver kind, promotion, generic instances, a function's
// locals, as well as the library's members and docs.
func TestE2EOracleTools(t *testing.T) {
	var r struct {
		Setup    []string                  `json:"setup"`
		Complete map[string]map[string]any `json:"complete"`
		Inspect  map[string]map[string]any `json:"inspect"`
	}
	scenario(t, "oracle_tools", &r)
	for i, s := range r.Setup {
		if s != "ok" {
			t.Fatalf("setup cell %d: %s", i, s)
		}
	}
	for name, want := range map[string][]string{
		"var":      {"Get", "Inc", "n"},
		"call":     {"Get", "n"}, // a call's result is not addressable
		"index":    {"Get", "Inc", "n"},
		"field":    {"Get", "Inc", "n"},
		"embedded": {"Deep", "Hello", "Own", "inner"},
		"generic":  {"Get", "n"},
		"library":  {"Face"},
		"package":  {"ToUpper", "ToUpperSpecial"},
		// A struct literal's keys are its fields.
		"literal_key": {"Own"},
	} {
		c := r.Complete[name]
		if c["status"] != "ok" || !slices.Equal(strs(c["matches"]), want) {
			t.Errorf("complete %s: %v, want matches %q", name, c, want)
		}
	}
	if m := strs(r.Complete["locals"]["matches"]); !slices.Contains(m, "alpha") || !slices.Contains(m, "beta") || !slices.Contains(m, "box") {
		t.Errorf("complete locals: %q lacks alpha, beta or box", m)
	}
	for name, want := range map[string][]string{
		"method":         {"func (*box) Inc()"},
		"field_value":    {"field B box // in holder", "value: {7}"},
		"generic":        {"Top() box"},
		"library":        {"func Values(", "Sprague-Grundy"},
		"library_method": {"func (t *Table) At("},
		"type":           {"type box struct{n int}", "func (box) Get() int", "func (*box) Inc()"},
	} {
		c := r.Inspect[name]
		data, _ := c["data"].(map[string]any)
		text, _ := data["text/plain"].(string)
		if c["status"] != "ok" || c["found"] != true {
			t.Errorf("inspect %s: %v", name, c)
			continue
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("inspect %s lacks %q:\n%s", name, w, text)
			}
		}
	}
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// TestE2ECompleteLatency: completion answers each keystroke, so it must
// stay quick however long the session. The scenario runs 50 cells and
// times complete_request round trips through jupyter_client (medians of
// 31); the bound only catches a pathological slowdown on a loaded machine.
func TestE2ECompleteLatency(t *testing.T) {
	var r map[string]struct {
		MedianMS float64  `json:"median_ms"`
		Matches  []string `json:"matches"`
	}
	scenario(t, "complete_latency", &r)
	for name, want := range map[string][]string{
		"member": {"Bump"}, "package": {"Print", "Printf", "Println"},
		"scope": {"f41", "f46"}, "library": {"Face"},
	} {
		got := r[name]
		if !slices.Equal(got.Matches, want) {
			t.Errorf("%s: matches %q, want %q", name, got.Matches, want)
		}
		if got.MedianMS > 250 {
			t.Errorf("%s: median %.1f ms", name, got.MedianMS)
		}
		t.Logf("%s: median %.1f ms", name, got.MedianMS)
	}
}
