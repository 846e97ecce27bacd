package engine

import (
	"fmt"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// The goroutines of the engine process as the deadlock watchdog
// (deadlock.go) sees them: the goroutine profile, and runtime.Stack's dump
// of every goroutine with its state and labels.

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
		g, ok := goroutineHead(head)
		if !ok {
			continue
		}
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

// goroutineHead parses a goroutine's first line in a stack dump:
// "goroutine N [state, ...] labels:{"k": "v"}]:".
func goroutineHead(head string) (goroutine, bool) {
	rest, ok := strings.CutPrefix(head, "goroutine ")
	if !ok {
		return goroutine{}, false
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
	return g, true
}

// ownRun is the cellLabel of the calling goroutine ("" if it has none,
// or the runtime prints no labels: see enableLabelTracebacks).
func ownRun() string {
	buf := make([]byte, 512)
	n := runtime.Stack(buf, false)
	head, _, _ := strings.Cut(string(buf[:n]), "\n")
	g, _ := goroutineHead(head)
	return g.run
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
		if !it.ownGoroutine(g.run) {
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
		return !strings.HasPrefix(f, "sync.") && !strings.HasPrefix(f, "internal/sync.") && !strings.HasPrefix(f, "reflect.") &&
			!strings.HasPrefix(f, selectFrame) // (a select the engine wrote for the cell)
	})
	return i, i >= 0 && strings.HasPrefix(frames[i], yaegiPkg)
}

// selectFrame begins the frames of grundyrt's Select, which makes the
// selects of a cell's code (see compat's selects pass).
const selectFrame = "grundy/engine/prelude/grundyrt.selector."

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
	labelled := "\n# labels: {" + strconv.Quote(cellLabel) + ":" + strconv.Quote(it.runLabel(""))[:len(it.session)+2]
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

// noteRunningGoroutines says, for a cell that declares a function or a
// method again, or a method taking the place of a promoted one, that the
// goroutines earlier cells started and that still run go on running the
// code they were compiled with (a loop
// calling w.Name() kept the promoted method a later cell's W.Name takes
// the place of): the interpreter cannot change code that is running.
func (it *Interp) noteRunningGoroutines() {
	// (A goroutine that is returning, its deferred wg.Done() called, may
	// still be there as the next cell compiles, runnable on a busy
	// machine: the count is taken again after a moment, a few times.)
	n := it.runningGoroutines()
	for try := 0; n > 0 && try < 4; try++ {
		time.Sleep(5 * time.Millisecond)
		n = min(n, it.runningGoroutines())
	}
	switch {
	case n == 1:
		it.notes = append(it.notes, unshownNote{text: "note: a goroutine an earlier cell started is still running: it goes on running the definitions it was compiled with"})
	case n > 1:
		it.notes = append(it.notes, unshownNote{text: fmt.Sprintf("note: %d goroutines earlier cells started are still running: they go on running the definitions they were compiled with", n)})
	}
}

// runningGoroutines counts the goroutines earlier cells of the session
// started that still run (see noteRunningGoroutines).
func (it *Interp) runningGoroutines() int {
	n := 0
	for _, g := range goroutines() {
		// (Waiting, as a goroutine left running is, or about to run: one
		// a cell started that has not been scheduled yet is runnable; not
		// an earlier run's own goroutine, which may still be returning as
		// the next cell compiles, nor the engine's.)
		started := g.state != "" && g.state != "running" && g.state != "syscall"
		if started && it.ownGoroutine(g.run) && !slices.ContainsFunc(g.frames, func(f string) bool {
			return f == programGoroutine || strings.HasPrefix(f, yaegiPkg+"(*Interpreter).Execute") || strings.HasPrefix(f, "grundy/engine.")
		}) {
			n++
		}
	}
	return n
}
