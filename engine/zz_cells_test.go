package engine

import (
	"os"
	"strings"
	"testing"
)

// Scratch: ZZ_FILE holds cells separated by "// ---"; prints the transcript.
func TestZZCells(t *testing.T) {
	f := os.Getenv("ZZ_FILE")
	if f == "" {
		t.Skip()
	}
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	if i := strings.LastIndex(s, "\n// Output:"); i >= 0 {
		s = s[:i]
	}
	it := newTestInterp(t)
	t.Log("\n" + transcript(t, it, strings.Split(s, "\n// ---\n")))
}
