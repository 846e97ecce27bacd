package remote

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"grundy/engine"
	"grundy/stdlib/human"
)

// Supervisor is a session that outlives its engine processes: when one
// dies, the cell's error says why, a new process starts at once and the
// session is rebuilt by replaying, in order, the cells that succeeded
// before (never the one that crashed). Tables solved before the crash are
// kept in files the new process reads, so replay does not solve them
// again.
type Supervisor struct {
	opt    Options
	replay bool
	tables string // the table cache directory, removed by Close

	mu      sync.Mutex // one Execute at a time
	pmu     sync.Mutex
	proc    *Process
	history []pastCell
	count   int // cells recorded so far, for labels
	closed  bool
	// suspect is the cell blamed for the last crash between cells, and
	// that crash: if the same crash comes back once the cell has been
	// replayed, the replay is what brings it back, and the cell is left
	// out of the next one.
	suspect      string
	suspectCrash string
	suspectAt    time.Time
}

// recurrenceWindow is how soon after a crash between cells the same crash
// must come back to be blamed on the replay: a crash of the same kind
// much later (another endless recursion, say) is the new cell's own.
const recurrenceWindow = time.Minute

type pastCell struct {
	label, code string
}

// SupervisorOptions configure a Supervisor.
type SupervisorOptions struct {
	Options
	// NoReplay starts a crashed session empty instead of replaying.
	NoReplay bool
}

// NewSupervisor starts the first engine process and returns at once.
func NewSupervisor(opt SupervisorOptions) *Supervisor {
	s := &Supervisor{opt: opt.Options, replay: !opt.NoReplay}
	// (Once the kernel has started: the directory may hold thousands of
	// entries, which would compete with the start-up for the cores.)
	time.AfterFunc(staleCacheDelay, removeStaleTableCaches)
	if dir, err := os.MkdirTemp("", tableCachePrefix+strconv.Itoa(os.Getpid())+"-"); err == nil {
		s.tables = dir
		s.opt.Env = append(s.opt.Env[:len(s.opt.Env):len(s.opt.Env)], TableCacheEnv+"="+dir)
	}
	s.proc = Start(s.opt)
	return s
}

// TableCacheEnv names the directory where an engine process keeps the
// tables it solves, for the next process of the same session.
const TableCacheEnv = "GRUNDY_SOLVE_CACHE"

// staleCacheDelay is how long after start-up a session looks for stale
// table caches.
const staleCacheDelay = 2 * time.Second

// tableCachePrefix starts the name of a session's table cache directory,
// followed by the pid of the process that owns it.
const tableCachePrefix = "grundy-tables-"

// removeStaleTableCaches removes the table caches of sessions whose
// process is gone without its Close: a kernel Jupyter killed (a restart
// or shutdown that does not wait, the out-of-memory killer) leaves tens
// of megabytes in the temporary directory each time. A cache whose pid
// is alive is kept, even if another program now has that pid.
func removeStaleTableCaches() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tableCachePrefix+"*-*"))
	for _, d := range dirs {
		pidText, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(d), tableCachePrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			os.RemoveAll(d)
		}
	}
}

type ctxKey int

const (
	labelKey ctxKey = iota
	noReplayKey
)

// Label names the cell being executed in what the Supervisor reports
// ("In [3]"); the kernel labels cells with their execution count.
func Label(ctx context.Context, label string) context.Context {
	return context.WithValue(ctx, labelKey, label)
}

// NoReplay marks an Execute that is not part of the session's history
// (user expressions): it is not replayed after a crash.
func NoReplay(ctx context.Context) context.Context {
	return context.WithValue(ctx, noReplayKey, true)
}

func (s *Supervisor) isClosed() bool {
	s.pmu.Lock()
	defer s.pmu.Unlock()
	return s.closed
}

func (s *Supervisor) current() *Process {
	s.pmu.Lock()
	defer s.pmu.Unlock()
	return s.proc
}

// Execute runs a cell; see Supervisor.
func (s *Supervisor) Execute(ctx context.Context, code string, out engine.Output) (engine.Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.isClosed() {
		return engine.Result{}, &engine.EvalError{Name: "SessionClosed", Value: "the session is closed; restart the kernel"}
	}
	if out == nil {
		out = discard{}
	}
	p := s.current()
	if c := p.Crash(); c != nil && p.startErr == nil {
		// It died between cells (a goroutine of an earlier cell, say):
		// rebuild first, and say so where the user looks.
		notes := s.restart(ctx, out, s.culprit(c, true))
		out.Stderr("[grundy: the engine process stopped between cells: " + c.Message + ". " + strings.Join(notes, " ") + "]\n")
		p = s.current()
	}
	res, err := p.Execute(ctx, code, out)
	var crash *Crash
	if errors.As(err, &crash) && crash.Name != "EngineError" && !s.isClosed() {
		fmt.Fprintf(s.opt.log(), "grundy: engine process %d stopped: %s (%s)\n", p.Pid(), crash.Error(), crash.Status)
		return engine.Result{}, crash.EvalError(s.restart(ctx, out, s.culprit(crash, false))...)
	}
	if err == nil && ctx.Value(noReplayKey) == nil {
		s.count++
		label, _ := ctx.Value(labelKey).(string)
		if label == "" {
			label = fmt.Sprintf("cell %d", s.count)
		}
		s.history = append(s.history, pastCell{label, code})
	}
	return res, err
}

// culprit returns the label of the cell to leave out of the replay after
// crash c, or "". A crash between cells comes from a goroutine or a timer
// an earlier cell left running (time.AfterFunc(d, f) with an f that
// panics, say), which replaying that cell starts again: the engine would
// stop again and again, killing the cells run meanwhile. Nothing says
// which cell it was, so the one that ran last before the crash is
// suspected; when the same crash comes back soon (between cells or during
// one) after it was replayed, it is left out of the next replay.
func (s *Supervisor) culprit(c *Crash, between bool) string {
	if !s.replay {
		return ""
	}
	if s.suspect != "" && c.Message == s.suspectCrash && time.Since(s.suspectAt) < recurrenceWindow &&
		slices.ContainsFunc(s.history, func(p pastCell) bool { return p.label == s.suspect }) {
		l := s.suspect
		s.suspect, s.suspectCrash = "", ""
		return l
	}
	if between && len(s.history) > 0 {
		s.suspect, s.suspectCrash, s.suspectAt = s.history[len(s.history)-1].label, c.Message, time.Now()
	}
	return ""
}

// restart replaces the dead process and replays the history into the new
// one, leaving out the cell labelled drop (see culprit); it returns what
// to tell the user.
func (s *Supervisor) restart(ctx context.Context, out engine.Output, drop string) []string {
	p := Start(s.opt)
	s.pmu.Lock()
	s.proc = p
	s.pmu.Unlock()
	var dropped string
	if drop != "" {
		s.history = slices.DeleteFunc(s.history, func(c pastCell) bool { return c.label == drop })
		dropped = drop + " is not replayed: the engine process stopped the same way again after it was replayed, so a goroutine or a timer it starts most likely causes the crash; fix it, then run it again."
	}
	if len(s.history) == 0 {
		return nonEmpty("A new engine process started; no earlier cell had to be replayed.", dropped)
	}
	if !s.replay {
		return []string{"A new engine process started with an empty session: replay is off (GRUNDY_REPLAY=off), so the variables, functions and types of earlier cells are gone; run those cells again."}
	}
	out.Stderr(fmt.Sprintf("[grundy: the engine process stopped; replaying %s to rebuild the session ...]\n", cellsText(len(s.history))))
	if ctx.Err() != nil {
		// The cell was interrupted and would not stop: the interrupt is
		// spent, and the replay must not be taken for interrupted too.
		ctx = context.WithoutCancel(ctx)
	}
	start := time.Now()
	var replayed, failed []string
	var lost []pastCell
	kept := s.history[:0:0]
	var note string
	for i, c := range s.history {
		if ctx.Err() != nil {
			lost = s.history[i:]
			note = fmt.Sprintf("Replay was interrupted: %s not replayed (%s).", cellsText(len(lost)), labels(lost))
			break
		}
		_, err := p.Execute(ctx, c.code, replayOutput{})
		var crash *Crash
		if errors.As(err, &crash) {
			// Replaying crashed the new process too: give up on the
			// rest rather than loop.
			lost = s.history[i:]
			note = fmt.Sprintf("Replaying %s stopped the engine again (%s); the session continues from the cells before it, %s not replayed.", c.label, crash.Message, cellsText(len(lost)))
			p = Start(s.opt)
			s.pmu.Lock()
			s.proc = p
			s.pmu.Unlock()
			break
		}
		if err != nil {
			failed = append(failed, c.label+" ("+firstLine(err.Error())+")")
			continue
		}
		replayed = append(replayed, c.label)
		kept = append(kept, c)
	}
	if len(lost) > 0 && !strings.HasPrefix(note, "Replaying") {
		kept = append(kept, lost...) // interrupted: still part of the session's history
	}
	s.history = kept
	took := time.Since(start)
	var notes []string
	if len(replayed) > 0 {
		notes = append(notes, fmt.Sprintf("A new engine process started and replayed %s in %s: their variables, functions and types are back (their output is not shown again).",
			strings.Join(replayed, ", "), took.Round(time.Millisecond)))
	} else {
		notes = append(notes, "A new engine process started; no earlier cell could be replayed.")
	}
	if len(failed) > 0 {
		notes = append(notes, "Failed on replay, so not restored: "+strings.Join(failed, "; ")+".")
	}
	if note != "" {
		notes = append(notes, note)
	}
	if dropped != "" {
		notes = append(notes, dropped)
	}
	fmt.Fprintf(s.opt.log(), "grundy: replayed %d of %s in %s\n", len(replayed), human.Quantity(len(replayed)+len(failed)+len(lost), "cell"), took.Round(time.Millisecond))
	return notes
}

// nonEmpty is its arguments without the empty ones.
func nonEmpty(notes ...string) []string {
	return slices.DeleteFunc(notes, func(n string) bool { return n == "" })
}

func cellsText(n int) string { return human.Quantity(n, "earlier cell") }

func labels(cs []pastCell) string {
	var l []string
	for _, c := range cs {
		l = append(l, c.label)
	}
	return strings.Join(l, ", ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// replayOutput discards what replayed cells print: the user saw it when
// the cells first ran.
type replayOutput struct{ discard }

func (replayOutput) Input(string, bool) (string, error) {
	return "", errors.New("no input while earlier cells are replayed")
}

// StopGoroutines stops the goroutines earlier cells left running, as an
// interrupt does when it stops a cell, for an interrupt that comes while
// no cell runs. A running cell's own interrupt does it, so then it does
// nothing.
func (s *Supervisor) StopGoroutines() {
	if !s.mu.TryLock() {
		return
	}
	defer s.mu.Unlock()
	if p := s.current(); !s.isClosed() && p.Crash() == nil {
		p.stopGoroutines()
	}
}

// Complete, Inspect and IsComplete go to the current engine process.
func (s *Supervisor) Complete(code string, cursor int) engine.Completion {
	return s.current().Complete(code, cursor)
}

func (s *Supervisor) Inspect(code string, cursor, detailLevel int) (engine.Bundle, bool) {
	return s.current().Inspect(code, cursor, detailLevel)
}

func (s *Supervisor) IsComplete(code string) (string, string) {
	return s.current().IsComplete(code)
}

// Wait blocks until the current engine process is up (for measuring
// start-up, and for callers that want to fail early).
func (s *Supervisor) Wait() error { return s.current().Wait() }

// Close ends the engine process and removes the table cache.
func (s *Supervisor) Close() error {
	s.pmu.Lock()
	s.closed = true
	p := s.proc
	s.pmu.Unlock()
	err := p.Close()
	if s.tables != "" {
		os.RemoveAll(s.tables)
	}
	return err
}
