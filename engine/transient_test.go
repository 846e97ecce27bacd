package engine

import (
	"context"
	"strings"
	"testing"

	"grundy/stdlib/progress"
)

// A cell that fails keeps its bars: an interrupted solve's bar is where
// the reader learns how far it got.
func TestFailedCellKeepsItsProgress(t *testing.T) {
	old := progress.MinDuration
	progress.MinDuration = 0
	defer func() { progress.MinDuration = old }()
	it := newTestInterp(t)
	rec := &recorder{}
	_, err := it.Execute(context.Background(), `task := progress.Start("demo", 10)
for range 10 {
	time.Sleep(40 * time.Millisecond)
	task.Add(1)
}
task.Done(errors.New("the rule looped"))
panic("stop")`, rec)
	if err == nil {
		t.Fatal("the cell should fail")
	}
	if rec.clears != 0 || len(rec.displays) == 0 {
		t.Fatalf("%d clears, %d displays: a failed cell's progress should stay", rec.clears, len(rec.displays))
	}
	if last := rec.displays[len(rec.displays)-1]["text/plain"].(string); !strings.HasPrefix(last, "demo: stopped at 10 of 10 positions (100%), after ") || !strings.HasSuffix(last, ": the rule looped") {
		t.Errorf("last progress line %q", last)
	}
}
