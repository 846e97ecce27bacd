package kernel

import (
	"strings"
	"testing"

	"grundy/engine"
)

// TestE2EDeadlock: through Debian's jupyter_client, a cell whose goroutines
// all block for good gets an error reply with Go's fatal error, in the
// same engine process when the interpreter can stop them (channels), after
// a replay when it cannot (a WaitGroup); the next cells see x, and a cell
// that sleeps is left alone.
func TestE2EDeadlock(t *testing.T) {
	cells := cellsScenario(t, "deadlock")
	for _, c := range []struct {
		cell     string
		replayed bool
	}{{"channel", false}, {"waitgroup", true}} {
		got := cells[c.cell]
		content := map[string]any{}
		if got.Reply != nil {
			content = got.Reply.Content
		}
		tb := fmtAny(content["traceback"])
		if got.status() != "error" || content["ename"] != "fatal error" || content["evalue"] != engine.DeadlockMessage ||
			!strings.HasPrefix(tb, `["fatal error: `+engine.DeadlockMessage) {
			t.Errorf("%s: %s %v %q %s", c.cell, got.status(), content["ename"], content["evalue"], tb)
		}
		if replayed := strings.Contains(tb, "replayed In [1]"); replayed != c.replayed {
			t.Errorf("%s: replayed %v, want %v: %s", c.cell, replayed, c.replayed, tb)
		}
		if goTrace.MatchString(tb + got.text("stderr")) {
			t.Errorf("%s: a Go stack trace reached the user: %s", c.cell, tb)
		}
		t.Logf("%s: %.2fs: %s", c.cell, got.Seconds, tb)
	}
	// The channel cell added 1 to x before it blocked; the replay after the
	// WaitGroup cell starts again from x := 41 (failed cells are not
	// replayed).
	for cell, want := range map[string]string{"after_channel": "42", "after_waitgroup": "42", "sleep": "43"} {
		if got := cells[cell]; got.status() != "ok" || result(got.pyRun) != want {
			t.Errorf("%s: %s %q, want %s", cell, got.status(), result(got.pyRun), want)
		}
	}
}
