package engine

import (
	"os"
	"strings"
	"testing"
)

// TestDebugCells runs GRUNDY_CELLS (cells separated by "//---") and logs
// the transcript; a development aid, skipped otherwise.
func TestDebugCells(t *testing.T) {
	src := os.Getenv("GRUNDY_CELLS")
	if src == "" {
		t.Skip("set GRUNDY_CELLS to run")
	}
	it := newTestInterp(t)
	t.Log("\n" + transcript(t, it, strings.Split(src, "//---")))
}
