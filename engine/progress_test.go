package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"grundy/stdlib/progress"
)

// A long task reported through stdlib/progress shows as one display that
// is updated in place and ends as a one-line summary.
func TestProgressBarUpdatesInPlace(t *testing.T) {
	// Kept, so the bar is still there when the cell ends (by default it
	// goes then: see TestProgressIsTransient).
	progress.Keep = true
	defer func() { progress.Keep = false }()
	it := newTestInterp(t)
	rec := &recorder{}
	_, err := it.Execute(context.Background(), `task := progress.Start("demo", 40)
for range 40 {
	time.Sleep(15 * time.Millisecond)
	task.Add(1)
}
task.Done(nil)
"finished"`, rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.displays) < 2 {
		t.Fatalf("got %d displays, want a bar and its updates", len(rec.displays))
	}
	id := rec.ids[0]
	for i := range rec.displays {
		if rec.ids[i] != id || id == "" {
			t.Fatalf("display %d has id %q, want all %q", i, rec.ids[i], id)
		}
		if i > 0 && !rec.updates[i] {
			t.Errorf("display %d is not an update", i)
		}
	}
	first := rec.displays[0]["text/plain"].(string)
	if !strings.Contains(first, "demo") || !strings.Contains(first, "/s") {
		t.Errorf("bar %q lacks the label or the rate", first)
	}
	last := rec.displays[len(rec.displays)-1]["text/plain"].(string)
	if !strings.HasPrefix(last, "demo: 40 positions in ") {
		t.Errorf("summary %q", last)
	}
}

// An interrupt reaches a long native library call through the progress
// hook (CN(7,3) up to 13 takes seconds), and the session stays usable.
func TestInterruptReachesLibrary(t *testing.T) {
	it := newTestInterp(t)
	ctx, cancel := context.WithCancel(context.Background())
	rec := &recorder{}
	done := make(chan error, 1)
	go func() {
		_, err := it.Execute(ctx, `solve.Values(games.CircularNim(7, 3), 13)`, rec)
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	cancel()
	var err error
	select {
	case err = <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("the cell did not stop within 3 s of the interrupt")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("stopping took %v, want under a second", took)
	}
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Name != "Interrupted" {
		t.Fatalf("got %v, want an Interrupted EvalError (a solve of about 4 s stopped)", err)
	}
	v, _, err := runCell(t, it, "1 + 1")
	if err != nil || v != "2" {
		t.Errorf("after the interrupt: %q %v", v, err)
	}
}
