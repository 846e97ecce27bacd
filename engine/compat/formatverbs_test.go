package compat

import (
	"slices"
	"testing"
)

func TestFormatVerbs(t *testing.T) {
	for f, want := range map[string][]string{
		"%v %T\n":        {"v", "T"},
		"100%% %#v %+v":  {"#v", "v"},
		"%-8.3f|%08b|%q": {"f", "b", "q"},
		"no verbs":       {},
		"%[2]v %[1]T":    nil,
		"%*d":            nil,
	} {
		if got := formatVerbs(f); !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("formatVerbs(%q) = %q, want %q", f, got, want)
		}
	}
}
