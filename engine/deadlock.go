package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/traefik/yaegi/interp"

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
	cellLabel = "grundy-cell" // on every goroutine running cell code; the value numbers the run that started it
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
// made (each would copy every goroutine's stack).
const deadlockMaxGoroutines = 5000

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

// runLabels labels the goroutine that runs the interpreter's program n, and
// through it every goroutine the program starts.
func runLabels(n uint64) pprof.LabelSet {
	return pprof.Labels(cellLabel, strconv.FormatUint(n, 10))
}

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
	stopped bool
	// blocked describes the goroutines found blocked, for the error.
	blocked []goroutine
}

func (it *Interp) watch(run uint64, cancel context.CancelCauseFunc) *watchdog {
	w := &watchdog{it: it, run: strconv.FormatUint(run, 10), start: time.Now(), cancel: cancel, every: deadlockFirstCheck}
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
	// each): never more than 1% of the run's.
	w.every = max(w.every, 100*time.Since(start))
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

var stackDumpSize atomic.Int64

// goroutine is one goroutine of a runtime.Stack dump.
type goroutine struct {
	id     string
	state  string // the wait reason, "running", ...
	run    string // the cellLabel, "" for the engine's goroutines
	frames []string
	// Set by blockedForGood:
	wait   string // what it waits on, in Go's words
	root   bool   // it runs the cell's top level
	waiter bool   // it waits for the run to end (the engine's)
}

// goroutines parses runtime.Stack(all): "goroutine N [state, ...
// labels:{"k": "v"}]:", then function lines, each followed by a file line.
func goroutines() []goroutine {
	// (Start with room for the last dump: each attempt prints every
	// goroutine's stack, with the world stopped.)
	buf := make([]byte, max(64<<10, int(stackDumpSize.Load())))
	n := runtime.Stack(buf, true)
	for n == len(buf) {
		buf = make([]byte, 2*len(buf))
		n = runtime.Stack(buf, true)
	}
	stackDumpSize.Store(int64(len(buf)))
	var gs []goroutine
	for _, block := range strings.Split(string(buf[:n]), "\n\n") {
		head, body, _ := strings.Cut(block, "\n")
		rest, ok := strings.CutPrefix(head, "goroutine ")
		if !ok {
			continue
		}
		id, rest, _ := strings.Cut(rest, " [")
		rest = strings.TrimSuffix(rest, "]:")
		g := goroutine{id: id}
		if i := strings.Index(rest, " labels:{"); i >= 0 {
			labels := rest[i:]
			rest = rest[:i]
			if _, v, ok := strings.Cut(labels, strconv.Quote(cellLabel)+": "); ok {
				g.run, _ = strconv.Unquote(strings.TrimRight(strings.SplitN(v, ",", 2)[0], "}"))
			}
		}
		g.state, _, _ = strings.Cut(rest, ",")
		for _, l := range strings.Split(body, "\n") {
			if l == "" || l[0] == '\t' || strings.HasPrefix(l, "created by ") {
				continue
			}
			if i := strings.LastIndexByte(l, '('); i > 0 {
				l = l[:i]
			}
			g.frames = append(g.frames, l)
		}
		gs = append(gs, g)
	}
	return gs
}

const (
	yaegiPkg = "github.com/traefik/yaegi/interp."
	// programGoroutine is the goroutine on which yaegi runs a program: a cell's
	// top level.
	programGoroutine = yaegiPkg + "(*Interpreter).ExecuteWithContext.func1"
	// runWaiter is the engine's goroutine, labelled as it starts a run,
	// waiting for the run to end.
	runWaiter = yaegiPkg + "(*Interpreter).ExecuteWithContext"
)

// CellRunning reports whether a goroutine still runs a cell's top level
// (an interrupted cell's code stops only at its next step).
func CellRunning() bool {
	return slices.ContainsFunc(goroutines(), func(g goroutine) bool { return slices.Contains(g.frames, programGoroutine) })
}

// blockingStates are the wait reasons of a goroutine that only another
// goroutine can wake (no timer, no I/O).
var blockingStates = map[string]bool{
	"chan receive": true, "chan send": true, "chan receive (nil chan)": true, "chan send (nil chan)": true,
	"select": true, "select (no cases)": true, "semacquire": true, "sync.Cond.Wait": true,
	"sync.Mutex.Lock": true, "sync.RWMutex.RLock": true, "sync.RWMutex.Lock": true, "sync.WaitGroup.Wait": true,
}

// blockedForGood looks at every goroutine: if those running cell code are
// all blocked where only each other could wake them, and the cell's top
// level of run is among them, it returns them.
func (it *Interp) blockedForGood(run string) ([]goroutine, bool) {
	// Timers kept alive (a Ticker, a Timer that may be Reset) can wake
	// them; whether one is still alive takes a collection to know.
	if it.wake.pending(true) {
		return nil, false
	}
	var cells []goroutine
	rootSeen := false
	for _, g := range goroutines() {
		if g.run == "" {
			continue
		}
		if !blockingStates[g.state] {
			return nil, false
		}
		i, ok := interpreterWait(g.frames)
		if !ok {
			return nil, false
		}
		g.waiter = g.frames[i] == runWaiter
		g.root = g.run == run && slices.Contains(g.frames, programGoroutine)
		rootSeen = rootSeen || g.root
		g.wait = waitWords(g.state, g.frames[i])
		cells = append(cells, g)
	}
	if !rootSeen {
		return nil, false
	}
	return cells, true
}

// interpreterWait says whether a goroutine's stack (innermost first) waits
// where the interpreted code waits itself: past the runtime's frames (the
// goroutine profile leaves them out), a function that parks the goroutine
// on a channel or a semaphore, then sync's and reflect's frames, then the
// interpreter's. A native function waiting on its own (the library's
// workers, input, a wrapped sleep) may be woken from outside. i is the
// interpreter's frame.
func interpreterWait(frames []string) (i int, ok bool) {
	i = slices.IndexFunc(frames, func(f string) bool { return !strings.HasPrefix(f, "runtime.") })
	if i >= 0 && frames[i] == runWaiter {
		return i, true
	}
	if i < 0 || !slices.ContainsFunc(parkers, func(p string) bool { return strings.HasPrefix(frames[i], p) }) {
		return i, false
	}
	i += slices.IndexFunc(frames[i:], func(f string) bool {
		return !strings.HasPrefix(f, "sync.") && !strings.HasPrefix(f, "internal/sync.") && !strings.HasPrefix(f, "reflect.")
	})
	return i, i >= 0 && strings.HasPrefix(frames[i], yaegiPkg)
}

// parkers are the functions below the runtime's through which channel
// operations (the interpreter's go through reflect) and sync's waits park a
// goroutine.
var parkers = []string{"reflect.rselect", "reflect.chanrecv", "reflect.chansend", "sync.runtime_", "internal/sync.runtime_"}

// quietSignature is the first look, cheap enough to make while a cell
// computes: the goroutine profile, which stops the world only briefly and
// names the functions of each distinct stack once, tells whether every
// cell goroutine may be waiting in the interpreter (interpreterWait). It
// returns "" when one surely is not, else a summary of their stacks,
// equal in two looks when none of them moved in between. It cannot tell
// a goroutine just woken from one waiting: blockedForGood then looks at
// their states, at a price paid per goroutine.
func (it *Interp) quietSignature() string {
	if it.wake.pending(false) || runtime.NumGoroutine() > deadlockMaxGoroutines {
		return ""
	}
	var b strings.Builder
	if err := pprof.Lookup("goroutine").WriteTo(&b, 1); err != nil {
		return ""
	}
	// Records are "N @ pcs", "# labels: {...}", then "#\tpc\tfunc+off\tfile:line"
	// lines, separated by blank lines.
	labelled := "\n# labels: {" + strconv.Quote(cellLabel) + ":"
	var sig []string
	for _, rec := range strings.Split(b.String(), "\n\n") {
		head, labels, ok := strings.Cut(rec, labelled)
		if !ok {
			continue
		}
		var frames []string
		for _, l := range strings.Split(labels, "\n") {
			if f := strings.Split(l, "\t"); len(f) > 2 && f[0] == "#" {
				fn, _, _ := strings.Cut(f[2], "+0x")
				frames = append(frames, fn)
			}
		}
		if _, ok := interpreterWait(frames); !ok {
			return ""
		}
		labels, _, _ = strings.Cut(labels, "\n")
		sig = append(sig, head+" "+labels)
	}
	return strings.Join(sig, "\n")
}

// waitWords says what a blocked goroutine waits on, in the words of Go's
// goroutine dump; the interpreter makes every channel operation a select
// (with its stop channel), so the interpreter's function tells which.
func waitWords(state, frame string) string {
	if state != "select" {
		return state
	}
	fn := strings.TrimPrefix(frame, yaegiPkg)
	switch {
	case strings.HasPrefix(fn, "recv"), strings.HasPrefix(fn, "rangeChan"):
		return "chan receive"
	case strings.HasPrefix(fn, "send"):
		return "chan send"
	}
	return "select"
}

// wakeups are the timers cells made, which may still wake a blocked
// goroutine: time.After and contexts with deadlines until they pass;
// Timers (which a Reset could move) and Tickers while they are alive.
// time.AfterFunc's function runs labelled as cell code.
type wakeups struct {
	mu     sync.Mutex
	until  time.Time
	alive  []func() bool // weak references to Timers and Tickers
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
	w.alive = append(w.alive, alive)
	w.mu.Unlock()
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
	// it counts among the cell's goroutines.
	labelled := func(f func()) func() {
		return func() {
			pprof.Do(context.Background(), pprof.Labels(cellLabel, "timer"), func(context.Context) { f() })
		}
	}
	return interp.Exports{
		"time/time": {
			"Sleep":     reflect.ValueOf(it.sleep),
			"After":     reflect.ValueOf(func(d time.Duration) <-chan time.Time { return time.After(in(d)) }),
			"NewTimer":  reflect.ValueOf(func(d time.Duration) *time.Timer { return timer(time.NewTimer(in(d))) }),
			"AfterFunc": reflect.ValueOf(func(d time.Duration, f func()) *time.Timer { return timer(time.AfterFunc(in(d), labelled(f))) }),
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
