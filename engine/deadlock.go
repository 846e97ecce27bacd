package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"grundy/stdlib/human"
)

// A cell whose goroutines all block for good hangs in the engine, where
// Go's own detector ("fatal error: all goroutines are asleep - deadlock!")
// never fires: the engine's goroutines are alive. The watchdog below does
// the detector's work for the cell's goroutines alone. They are told from
// the engine's by a pprof label, which every goroutine inherits from the
// one that starts it (the interpreter runs a cell on a goroutine it starts
// from the labelled caller); runtime.Stack shows labels with GODEBUG
// tracebacklabels=1. A goroutine counts as blocked for good only when it
// waits in a channel operation, a select, or a sync wait that the
// interpreted code makes itself (no native frame of the library or the
// engine in between, which could be waiting for something outside), and
// no timer the cells made can still fire. Anything else (a sleep, I/O,
// input, a running goroutine, a live timer or ticker) means no report: a
// deadlock missed is a cell that hangs until interrupted, as before; a
// deadlock reported wrongly would kill a correct computation.

// DeadlockMessage is Go's words for a program whose goroutines are all
// blocked; a deadlocked cell fails with it as "fatal error", as go run does.
const DeadlockMessage = "all goroutines are asleep - deadlock!"

const (
	// cellLabel is on every goroutine running cell code; its value is
	// "session/run": the session (several may share a process: tests,
	// in-process runners) and its run of the interpreter that started it.
	cellLabel = "grundy-cell"
	// deadlockFirstCheck: no check is made before a run has lasted this
	// long, so a cell that does not block costs nothing; then the checks
	// space out, to deadlockMaxInterval apart. A deadlock is reported
	// when two checks in a row see the same goroutines blocked.
	deadlockFirstCheck  = 100 * time.Millisecond
	deadlockMaxInterval = time.Second
	// deadlockQuietInterval: the longest interval, once a run looked
	// blocked but was not (it waits on a live timer, say).
	deadlockQuietInterval = 10 * time.Second
	// deadlockRelease bounds the wait for the goroutines of a deadlocked
	// run to go once it is stopped; those left are stuck in a wait the
	// interpreter cannot end (a WaitGroup, a mutex).
	deadlockRelease = 500 * time.Millisecond
)

var errDeadlock = errors.New(DeadlockMessage)

// DeadlockEnv turns the watchdog off when set to "off" (in the kernel's
// environment, for the engine processes it starts): a cell then hangs
// until interrupted, as in a program run with a pending timer.
const DeadlockEnv = "GRUNDY_DEADLOCK"

var deadlockWatch = os.Getenv(DeadlockEnv) != "off"

// deadlockMaxGoroutines: with more goroutines than this, no check is
// made (each would copy every goroutine's stack). A variable for the
// differential test, whose process parks a goroutine for each of its
// cases while the engine runs them.
var deadlockMaxGoroutines = 5000

// enableLabelTracebacks makes runtime.Stack print goroutine labels. The
// runtime reads GODEBUG again when it is set.
var enableLabelTracebacks = sync.OnceFunc(func() {
	v := os.Getenv("GODEBUG")
	if strings.Contains(v, "tracebacklabels=") {
		return // set by the user: theirs to keep (0 turns detection off)
	}
	if v != "" {
		v += ","
	}
	os.Setenv("GODEBUG", v+"tracebacklabels=1")
})

// sessions numbers the sessions of this process, for cellLabel.
var sessions atomic.Uint64

// runLabel is the cellLabel of the session's run of the interpreter n
// ("timer" for the functions timers run).
func (it *Interp) runLabel(n string) string { return it.session + "/" + n }

// ownGoroutine tells the session's goroutines by their label.
func (it *Interp) ownGoroutine(label string) bool { return strings.HasPrefix(label, it.session+"/") }

// watchdog checks one run of the interpreter for a deadlock, from a timer,
// and cancels the run when it finds one.
type watchdog struct {
	it      *Interp
	run     string
	start   time.Time
	cancel  context.CancelCauseFunc
	mu      sync.Mutex
	timer   *time.Timer
	every   time.Duration
	last    string // the previous check's quietSignature
	looks   int
	stopped bool
	// blocked describes the goroutines found blocked, for the error.
	blocked []goroutine
	// panicked is the error of the first of the run's goroutines to
	// panic (goroutinePanicked).
	panicked *EvalError
}

// errGoroutinePanic is the cause of a run's end when one of its
// goroutines panicked.
var errGoroutinePanic = errors.New("a goroutine panicked")

// goroutinePanicked ends the run: one of its goroutines panicked with
// err (the first one's is kept).
func (w *watchdog) goroutinePanicked(err *EvalError) {
	w.mu.Lock()
	if w.panicked == nil {
		w.panicked = err
	}
	w.mu.Unlock()
	w.cancel(errGoroutinePanic)
}

// panicError is the error goroutinePanicked kept.
func (w *watchdog) panicError() *EvalError {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.panicked
}

func (it *Interp) watch(run uint64, cancel context.CancelCauseFunc) *watchdog {
	w := &watchdog{it: it, run: it.runLabel(strconv.FormatUint(run, 10)), start: time.Now(), cancel: cancel, every: deadlockFirstCheck}
	if deadlockWatch {
		enableLabelTracebacks()
		w.timer = time.AfterFunc(w.every, w.check)
	}
	return w
}

func (w *watchdog) stop() {
	w.mu.Lock()
	w.stopped = true
	if w.timer != nil {
		w.timer.Stop()
	}
	w.mu.Unlock()
}

func (w *watchdog) check() {
	// The timer's goroutine may have been started from a cell's, whose
	// label it then carries: it is not the cell's.
	pprof.SetGoroutineLabels(context.Background())
	start := time.Now()
	sig := w.it.quietSignature()
	var gs []goroutine
	deadlocked, looked := false, sig != "" && sig == w.last
	if looked {
		// Nothing moved since the last look: are they all blocked?
		gs, deadlocked = w.it.blockedForGood(w.run)
	}
	w.last = sig
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	if deadlocked {
		w.blocked = gs
		w.cancel(errDeadlock)
		return
	}
	w.every = min(2*w.every, deadlockMaxInterval)
	if looked {
		// Waiting on something else (a live timer): look less often.
		w.every = min(4*w.every, deadlockQuietInterval)
	}
	// Looks cost time in proportion to the goroutines (some 50 µs
	// each, more on a loaded machine): past the first two, which tell a
	// cell that blocks at once, never more than 2% of the run's.
	if w.looks++; w.looks >= 2 {
		w.every = max(w.every, 50*time.Since(start))
	}
	w.timer.Reset(w.every)
}

// deadlockError is the cell's error once its run was found deadlocked:
// Go's fatal error, then in words which goroutines were blocked. stuck
// says some of them could not be stopped.
func (w *watchdog) deadlockError(stuck bool) *EvalError {
	w.mu.Lock()
	gs := w.blocked
	w.mu.Unlock()
	var root string
	waits := map[string]int{}
	for _, g := range gs {
		if g.root {
			root = g.wait
		} else if !g.waiter {
			waits[g.wait]++
		}
	}
	var others []string
	for _, k := range slices.Sorted(maps.Keys(waits)) {
		others = append(others, fmt.Sprintf("%d on %s", waits[k], k))
	}
	line := "The cell waited on " + root
	if len(others) == 0 {
		line += " with no other goroutine left to wake it"
	} else {
		line += ", and every goroutine left was blocked too (" + strings.Join(others, ", ") + ")"
	}
	line += fmt.Sprintf("; grundy ended the cell after %s.", human.Duration(time.Since(w.start)))
	return &EvalError{Name: "fatal error", Value: DeadlockMessage, Restart: stuck,
		Traceback: []string{"fatal error: " + DeadlockMessage, line}}
}

// released waits for the goroutines of a stopped run to end; false if some
// are still there after deadlockRelease.
func (w *watchdog) released() bool {
	deadline := time.Now().Add(deadlockRelease)
	for {
		if !slices.ContainsFunc(goroutines(), func(g goroutine) bool { return g.run == w.run }) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}
