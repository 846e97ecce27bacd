// Package progress is the one hook between long-running library code and
// whoever is running it: solvers report how far they are and poll whether
// they should stop; the engine (or the command line) installs a Reporter and
// a cancellation context around each cell or command.
//
// It is deliberately global: one interpreter session runs one cell at a
// time, and solver APIs stay free of context parameters so that a cell
// reads like the mathematics (solve.Values(g, 12), not
// solve.Values(ctx, g, 12)).
package progress

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// ErrCancelled is returned (wrapped) by Task.Add and Err once the installed
// context is cancelled, for example by a Jupyter interrupt.
var ErrCancelled = errors.New("cancelled")

// Reporter receives progress of long tasks. Report is called from a ticker
// goroutine at most every Interval; Finish once per task.
type Reporter interface {
	Report(s Status)
	Finish(s Status)
}

// Status is a snapshot of one task.
type Status struct {
	Label   string
	Done    int64 // units done (positions, usually)
	Total   int64 // 0 when unknown
	Elapsed time.Duration
	Err     error // set on Finish when the task failed or was cancelled
}

// Rate is units per second so far.
func (s Status) Rate() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Done) / s.Elapsed.Seconds()
}

// ETA estimates the time left, or 0 when unknown.
func (s Status) ETA() time.Duration {
	r := s.Rate()
	if r <= 0 || s.Total <= 0 || s.Done >= s.Total {
		return 0
	}
	return time.Duration(float64(s.Total-s.Done) / r * float64(time.Second))
}

// Interval is how often a running task is reported.
var Interval = 250 * time.Millisecond

// MinDuration: tasks shorter than this are never reported, so quick solves
// do not flash a progress bar.
var MinDuration = 300 * time.Millisecond

// Keep keeps each long task's summary line in a notebook cell's output.
// By default progress is transient: the bars go when the cell ends, so a
// notebook saves the same outputs on a slow machine as on a fast one.
var Keep = false

type session struct {
	ctx context.Context
	rep Reporter
}

var current atomic.Pointer[session]

// Install makes ctx the cancellation context and r (may be nil) the reporter
// for library calls until the returned restore function is called.
func Install(ctx context.Context, r Reporter) (restore func()) {
	if ctx == nil {
		ctx = context.Background()
	}
	prev := current.Swap(&session{ctx: ctx, rep: r})
	return func() { current.Store(prev) }
}

// Err reports whether the current work should stop: nil, or an error
// wrapping ErrCancelled. It is cheap enough to poll every few thousand
// positions.
func Err() error {
	s := current.Load()
	if s == nil {
		return nil
	}
	if err := s.ctx.Err(); err != nil {
		return cancelled(err)
	}
	return nil
}

func cancelled(cause error) error {
	return &cancelError{cause: cause}
}

type cancelError struct{ cause error }

// Error says in plain words why the work stopped: "stopped by an
// interrupt", not Go's "context canceled".
func (e *cancelError) Error() string {
	switch {
	case errors.Is(e.cause, context.Canceled):
		return "stopped by an interrupt"
	case errors.Is(e.cause, context.DeadlineExceeded):
		return "stopped: the time limit ran out"
	}
	return "stopped: " + e.cause.Error()
}
func (e *cancelError) Unwrap() []error {
	return []error{ErrCancelled, e.cause}
}

// Task tracks one long computation. The zero of work is Start; call Add as
// units complete (safe from several goroutines) and Done exactly once.
type Task struct {
	label string
	total int64
	done  atomic.Int64
	start time.Time
	sess  *session
	stop  chan struct{}
	once  sync.Once
	wg    sync.WaitGroup
}

// Start begins a task of total units (0 when unknown).
func Start(label string, total int64) *Task {
	t := &Task{label: label, total: total, start: time.Now(), sess: current.Load(), stop: make(chan struct{})}
	if t.sess != nil && t.sess.rep != nil {
		t.wg.Add(1)
		go t.tick()
	}
	return t
}

func (t *Task) tick() {
	defer t.wg.Done()
	timer := time.NewTimer(MinDuration)
	defer timer.Stop()
	select {
	case <-t.stop:
		return
	case <-timer.C:
	}
	tk := time.NewTicker(Interval)
	defer tk.Stop()
	for {
		t.sess.rep.Report(t.status(nil))
		select {
		case <-t.stop:
			return
		case <-tk.C:
		}
	}
}

func (t *Task) status(err error) Status {
	return Status{Label: t.label, Done: t.done.Load(), Total: t.total, Elapsed: time.Since(t.start), Err: err}
}

// Add records n more units done and returns a non-nil error (wrapping
// ErrCancelled) when the work should stop.
func (t *Task) Add(n int64) error {
	t.done.Add(n)
	if t.sess == nil {
		return nil
	}
	if err := t.sess.ctx.Err(); err != nil {
		return cancelled(err)
	}
	return nil
}

// Done ends the task; err is the task's outcome (nil on success). The
// reporter's Finish is called only if the task ran long enough to have been
// reported, so a quick solve leaves no trace.
func (t *Task) Done(err error) Status {
	st := t.status(err)
	t.once.Do(func() {
		close(t.stop)
		t.wg.Wait()
		if t.sess != nil && t.sess.rep != nil && st.Elapsed >= MinDuration {
			t.sess.rep.Finish(st)
		}
	})
	return st
}
