package solve

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

type recorder struct {
	mu       sync.Mutex
	reports  []progress.Status
	finished []progress.Status
}

func (r *recorder) Report(s progress.Status) {
	r.mu.Lock()
	r.reports = append(r.reports, s)
	r.mu.Unlock()
}

func (r *recorder) Finish(s progress.Status) {
	r.mu.Lock()
	r.finished = append(r.finished, s)
	r.mu.Unlock()
}

// A cancelled solve stops promptly with an error wrapping
// progress.ErrCancelled, for every solver path, and caches nothing.
func TestCancelStopsEverySolver(t *testing.T) {
	cases := []struct {
		g    games.Game
		kind Kind
		max  int
	}{
		{games.CN(6, 2), KindValues, 14},
		{games.CN(6, 2), KindOutcomes, 16},
		{games.CN(6, 2), KindRemoteness, 14},
		{games.SlowExact(6, 3), KindValues, 14},
		{games.Wythoff(), KindValues, 3000},
		{games.Func("slowNim", 2, games.Nim(2).Followers), KindValues, 400},
	}
	for _, c := range cases {
		for _, workers := range []int{1, 2} {
			Workers = workers
			ctx, cancel := context.WithCancel(context.Background())
			restore := progress.Install(ctx, nil)
			time.AfterFunc(50*time.Millisecond, cancel)
			start := time.Now()
			_, err := Solve(c.g, c.kind, c.max)
			took := time.Since(start)
			restore()
			cancel()
			if !errors.Is(err, progress.ErrCancelled) {
				t.Errorf("%s %s workers=%d: error %v, want cancellation", c.g.Name(), c.kind, workers, err)
			}
			if took > 2*time.Second {
				t.Errorf("%s %s workers=%d: took %v to stop", c.g.Name(), c.kind, workers, took)
			}
		}
	}
	Workers = 0
	for _, c := range cases {
		b, _ := bounds(c.g, c.kind, []int{c.max})
		cacheMu.Lock()
		_, cached := cache[cacheKey{fingerprint(c.g), c.kind.String(), fmt.Sprint(b)}]
		cacheMu.Unlock()
		if cached {
			t.Errorf("cancelled %s %s was cached", c.g.Name(), c.kind)
		}
	}
}

// A solve long enough to be reported reaches the reporter with a label,
// a total and a growing count.
func TestProgressIsReported(t *testing.T) {
	rec := &recorder{}
	oldMin, oldInt := progress.MinDuration, progress.Interval
	progress.MinDuration, progress.Interval = 0, 5*time.Millisecond
	defer func() { progress.MinDuration, progress.Interval = oldMin, oldInt }()
	restore := progress.Install(context.Background(), rec)
	_, err := Plain(games.CN(6, 2), KindValues, 6)
	restore()
	if err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.finished) != 1 {
		t.Fatalf("%d finish reports", len(rec.finished))
	}
	f := rec.finished[0]
	if f.Label != "CN(6,2) values, heaps 0..6" || f.Total != 117649 || f.Done != f.Total {
		t.Fatalf("finish %+v", f)
	}
}
