package remote

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"grundy/engine"
)

// TestSupervisorDeadlock: a cell whose goroutines all block for good fails
// with Go's fatal error; the session goes on in the same process when the
// interpreter can stop them (channels), in a replayed one when it cannot
// (a WaitGroup), and the next cell sees the earlier cells' variables.
func TestSupervisorDeadlock(t *testing.T) {
	s := NewSupervisor(SupervisorOptions{Options: testOptions(t)})
	defer s.Close()
	ctx := context.Background()
	if _, err := s.Execute(Label(ctx, "In [1]"), "x := 41", &recorder{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, code string
		replaced   bool
	}{
		{"channel", "ch := make(chan int)\ngo func() { ch <- 1 }()\nfor v := range ch { x += v }", false},
		{"waitgroup", "var wg sync.WaitGroup\nwg.Add(1)\nwg.Wait()", true},
	} {
		pid := s.current().Pid()
		r := &recorder{}
		start := time.Now()
		_, err := s.Execute(Label(ctx, "In [2]"), c.code, r)
		took := time.Since(start)
		var ee *engine.EvalError
		if !errors.As(err, &ee) || ee.Name != "fatal error" || ee.Value != engine.DeadlockMessage ||
			ee.Traceback[0] != "fatal error: "+engine.DeadlockMessage {
			t.Fatalf("%s: %#v", c.name, err)
		}
		tb := strings.Join(ee.Traceback, "\n")
		t.Logf("%s: after %v:\n%s", c.name, took.Round(time.Millisecond), tb)
		if replaced := s.current().Pid() != pid; replaced != c.replaced {
			t.Errorf("%s: engine process replaced %v, want %v", c.name, replaced, c.replaced)
		}
		if c.replaced && !strings.Contains(tb, "replayed In [1]") {
			t.Errorf("%s: traceback does not say what was replayed: %s", c.name, tb)
		}
		// The channel cell added 1 to x before it blocked; the replay
		// (which never runs a failed cell) starts from x := 41 again.
		want := "42"
		if c.replaced {
			want = "41"
		}
		_, res, err := run(t, s, "x")
		if err != nil || res.Value["text/plain"] != want {
			t.Errorf("%s: x after the deadlock: %v %v, want %s", c.name, res.Value, err, want)
		}
	}
}
