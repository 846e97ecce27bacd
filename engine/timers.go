package engine

import (
	"context"
	"reflect"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"time"
	"weak"

	"github.com/traefik/yaegi/interp"
)

// wakeups are the timers cells made, which may still wake a blocked
// goroutine: time.After and contexts with deadlines until they pass;
// Timers (which a Reset could move) and Tickers while they are alive.
// time.AfterFunc's function runs labelled as cell code.
type wakeups struct {
	mu     sync.Mutex
	until  time.Time
	alive  []func() bool // weak references to Timers and Tickers
	pruned int           // len(alive) after its last pruning
	lastGC time.Time
}

// deadlockGCEvery bounds how often a check collects garbage to learn
// whether the timers cells made are gone.
const deadlockGCEvery = 5 * time.Second

func (w *wakeups) noteDeadline(t time.Time) {
	w.mu.Lock()
	if t.After(w.until) {
		w.until = t
	}
	w.mu.Unlock()
}

func (w *wakeups) noteAlive(alive func() bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.alive = append(w.alive, alive)
	if len(w.alive) > max(64, 2*w.pruned) {
		// A loop making timers: forget those collected since.
		w.alive = slices.DeleteFunc(w.alive, func(alive func() bool) bool { return !alive() })
		w.pruned = len(w.alive)
	}
}

// pending says whether a timer may still fire. With collect, it asks the
// garbage collector (at most every deadlockGCEvery) which Timers and
// Tickers are gone; without, it only looks at deadlines.
func (w *wakeups) pending(collect bool) bool {
	w.mu.Lock()
	// A little past the deadline, so the timer's goroutine has had time
	// to deliver.
	if time.Now().Before(w.until.Add(50 * time.Millisecond)) {
		w.mu.Unlock()
		return true
	}
	if !collect || len(w.alive) == 0 {
		w.mu.Unlock()
		return false
	}
	gc := time.Since(w.lastGC) > deadlockGCEvery
	if gc {
		w.lastGC = time.Now()
	}
	w.mu.Unlock()
	if gc {
		runtime.GC()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.alive = slices.DeleteFunc(w.alive, func(alive func() bool) bool { return !alive() })
	w.pruned = len(w.alive)
	return len(w.alive) > 0
}

// timerSymbols are time's and context's functions that make timers, for
// cells: each tells the session's wakeups.
func (it *Interp) timerSymbols() interp.Exports {
	w := &it.wake
	timer := func(t *time.Timer) *time.Timer {
		p := weak.Make(t)
		w.noteAlive(func() bool { return p.Value() != nil })
		return t
	}
	ticker := func(t *time.Ticker) *time.Ticker {
		p := weak.Make(t)
		w.noteAlive(func() bool { return p.Value() != nil })
		return t
	}
	in := func(d time.Duration) time.Duration {
		w.noteDeadline(time.Now().Add(d))
		return d
	}
	at := func(t time.Time) time.Time {
		w.noteDeadline(t)
		return t
	}
	// A function a timer or a context runs later runs cell code: labelled,
	// it counts among the cell's goroutines, and its panic is reported as
	// a go statement's goroutine's is (unrecovered, it ended the engine
	// process, and a replay armed the timer again).
	labelled := func(f func()) func() {
		return func() {
			pprof.Do(context.Background(), pprof.Labels(cellLabel, it.runLabel("timer")), func(context.Context) {
				defer func() {
					if r := recover(); r != nil {
						it.rt.GoPanic(r) // (as a go statement's goroutine reports it, labelled)
					}
				}()
				f()
			})
		}
	}
	return interp.Exports{
		"time/time": {
			"Sleep":     reflect.ValueOf(it.sleep),
			"After":     reflect.ValueOf(func(d time.Duration) <-chan time.Time { return time.After(in(d)) }),
			"NewTimer":  reflect.ValueOf(func(d time.Duration) *time.Timer { return timer(time.NewTimer(d)) }),
			"AfterFunc": reflect.ValueOf(func(d time.Duration, f func()) *time.Timer { return timer(time.AfterFunc(d, labelled(f))) }),
			"NewTicker": reflect.ValueOf(func(d time.Duration) *time.Ticker { return ticker(time.NewTicker(d)) }),
			"Tick": reflect.ValueOf(func(d time.Duration) <-chan time.Time {
				if d <= 0 {
					return nil
				}
				return ticker(time.NewTicker(d)).C
			}),
		},
		"context/context": {
			"WithTimeout": reflect.ValueOf(func(p context.Context, d time.Duration) (context.Context, context.CancelFunc) {
				return context.WithTimeout(p, in(d))
			}),
			"WithTimeoutCause": reflect.ValueOf(func(p context.Context, d time.Duration, cause error) (context.Context, context.CancelFunc) {
				return context.WithTimeoutCause(p, in(d), cause)
			}),
			"WithDeadline": reflect.ValueOf(func(p context.Context, t time.Time) (context.Context, context.CancelFunc) {
				return context.WithDeadline(p, at(t))
			}),
			"WithDeadlineCause": reflect.ValueOf(func(p context.Context, t time.Time, cause error) (context.Context, context.CancelFunc) {
				return context.WithDeadlineCause(p, at(t), cause)
			}),
			"AfterFunc": reflect.ValueOf(func(ctx context.Context, f func()) func() bool { return context.AfterFunc(ctx, labelled(f)) }),
		},
	}
}
