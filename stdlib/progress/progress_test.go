package progress

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

type recorder struct {
	mu       sync.Mutex
	reports  []Status
	finishes []Status
}

func (r *recorder) Report(s Status) { r.mu.Lock(); r.reports = append(r.reports, s); r.mu.Unlock() }
func (r *recorder) Finish(s Status) { r.mu.Lock(); r.finishes = append(r.finishes, s); r.mu.Unlock() }

func fastTicks(t *testing.T) {
	oldI, oldM := Interval, MinDuration
	Interval, MinDuration = 5*time.Millisecond, 10*time.Millisecond
	t.Cleanup(func() { Interval, MinDuration = oldI, oldM })
}

func TestNoSessionNeverCancels(t *testing.T) {
	if err := Err(); err != nil {
		t.Fatalf("Err with nothing installed: %v", err)
	}
	task := Start("free", 10)
	if err := task.Add(10); err != nil {
		t.Fatalf("Add with nothing installed: %v", err)
	}
	if st := task.Done(nil); st.Done != 10 || st.Total != 10 {
		t.Errorf("status %+v, want 10 of 10", st)
	}
}

func TestCancelReachesTasksAndErr(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer Install(ctx, nil)()
	task := Start("solve", 100)
	if err := task.Add(1); err != nil {
		t.Fatalf("before cancel: %v", err)
	}
	cancel()
	err := task.Add(1)
	if !errors.Is(err, ErrCancelled) || !errors.Is(err, context.Canceled) {
		t.Fatalf("after cancel Add = %v, want ErrCancelled wrapping context.Canceled", err)
	}
	if err := Err(); !errors.Is(err, ErrCancelled) {
		t.Fatalf("after cancel Err = %v", err)
	}
	task.Done(err)
}

func TestRestoreReinstatesPrevious(t *testing.T) {
	outer, cancel := context.WithCancel(context.Background())
	cancel()
	restoreOuter := Install(outer, nil)
	restoreInner := Install(context.Background(), nil)
	if err := Err(); err != nil {
		t.Fatalf("inner session: %v", err)
	}
	restoreInner()
	if err := Err(); !errors.Is(err, ErrCancelled) {
		t.Fatalf("after restore, the outer (cancelled) session should be current: %v", err)
	}
	restoreOuter()
	if err := Err(); err != nil {
		t.Fatalf("after both restores: %v", err)
	}
}

func TestReportsLongTasksOnly(t *testing.T) {
	fastTicks(t)
	rec := &recorder{}
	defer Install(context.Background(), rec)()

	quick := Start("quick", 1)
	quick.Add(1)
	quick.Done(nil)

	long := Start("long", 1000)
	for i := 0; i < 10; i++ {
		long.Add(50)
		time.Sleep(5 * time.Millisecond)
	}
	st := long.Done(nil)
	long.Done(nil) // a second Done is harmless

	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.finishes) != 1 || rec.finishes[0].Label != "long" || rec.finishes[0].Done != 500 {
		t.Fatalf("finishes %+v, want one for the long task with 500 done", rec.finishes)
	}
	if len(rec.reports) == 0 {
		t.Fatal("a task running past MinDuration was never reported")
	}
	for _, r := range rec.reports {
		if r.Label != "long" {
			t.Errorf("the quick task was reported: %+v", r)
		}
	}
	if st.Rate() <= 0 || st.ETA() <= 0 {
		t.Errorf("half-done task: rate %v, ETA %v; want both positive", st.Rate(), st.ETA())
	}
}

func TestStatusEstimates(t *testing.T) {
	s := Status{Done: 50, Total: 100, Elapsed: 2 * time.Second}
	if s.Rate() != 25 {
		t.Errorf("rate %v, want 25/s", s.Rate())
	}
	if s.ETA() != 2*time.Second {
		t.Errorf("ETA %v, want 2s", s.ETA())
	}
	if (Status{Done: 5}).ETA() != 0 {
		t.Error("unknown total must give no ETA")
	}
}

// A summary's words are the same on any machine apart from its timing,
// and Untimed is exactly those words: the timing is what it leaves out.
func TestSummaryUntimed(t *testing.T) {
	interrupted := cancelled(context.Canceled)
	for _, c := range []struct {
		st              Status
		summary, timing string
	}{
		{Status{Label: "CN(6,2) values", Done: 3_000_000, Total: 3_000_000, Elapsed: 1400 * time.Millisecond},
			"CN(6,2) values: 3.0M positions in 1.4 s (2.1M/s)", " in 1.4 s (2.1M/s)"},
		{Status{Label: "CN(7,3) outcomes, heaps 0..13", Done: 1_200_000, Total: 3_000_000, Elapsed: 600 * time.Millisecond, Err: interrupted},
			"CN(7,3) outcomes, heaps 0..13: stopped by an interrupt at 1.2M of 3.0M positions (40%), after 600 ms", ", after 600 ms"},
		{Status{Label: "demo", Done: 10, Total: 10, Elapsed: 2 * time.Second, Err: errors.New("the rule looped")},
			"demo: stopped at 10 of 10 positions (100%), after 2.0 s: the rule looped", ", after 2.0 s"},
	} {
		if got := c.st.Summary(); got != c.summary {
			t.Errorf("Summary() = %q, want %q", got, c.summary)
		}
		want := strings.Replace(c.summary, c.timing, "", 1)
		c.st.Elapsed *= 3
		if got := c.st.Untimed(); got != want {
			t.Errorf("Untimed() = %q, want %q (the summary without its timing)", got, want)
		}
	}
}
