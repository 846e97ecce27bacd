package remote

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"grundy/engine"
)

// Options configure engine processes.
type Options struct {
	// Name is the file name errors are reported against ("cell" if
	// empty); Args are os.Args as cells see them.
	Name string
	Args []string
	// MemoryLimit caps the engine process, in bytes: the garbage
	// collector's target, solve.MemoryLimit and (a little above it) the
	// address space. 0 means DefaultMemoryLimit().
	MemoryLimit int64
	// InterruptGrace is how long an interrupted cell has to stop before
	// its process is stopped (0: DefaultInterruptGrace).
	InterruptGrace time.Duration
	// Log receives the engine process's own diagnostics: the runtime's
	// report when it dies. nil means os.Stderr.
	Log io.Writer
	// Command starts the child; nil means this executable with
	// ChildCommand. Tests point it at their own binary.
	Command []string
	// Env is added to the child's environment.
	Env []string
	// Dir is the directory cells run in ("": this process's): a
	// notebook's own, as Jupyter runs it, so that its relative paths
	// mean the same under grundy run and grundy check.
	Dir string
}

// DefaultInterruptGrace is how long a cell has to honour an interrupt.
// Cells stop within milliseconds when they can (loops, sleeps, channel
// operations, the library's solvers all check); only a cell stuck in a
// call that never looks needs its process stopped.
const DefaultInterruptGrace = 2 * time.Second

func (o *Options) grace() time.Duration {
	if o.InterruptGrace > 0 {
		return o.InterruptGrace
	}
	return DefaultInterruptGrace
}

func (o *Options) log() io.Writer {
	if o.Log != nil {
		return o.Log
	}
	return os.Stderr
}

func (o *Options) memoryLimit() int64 {
	if o.MemoryLimit > 0 {
		return o.MemoryLimit
	}
	return DefaultMemoryLimit()
}

// Process is one engine process, seen as an engine.Session. When the
// process dies, the running Execute (and every later one) returns a
// *Crash; Supervisor replaces it.
type Process struct {
	opt   Options
	limit int64
	cmd   *exec.Cmd

	wmu sync.Mutex
	w   *os.File // requests

	ready    chan struct{} // closed once the session is up, or the start failed
	startErr error
	dead     chan struct{} // closed once the process is gone and crash is set
	crash    *Crash
	errLog   *crashLog

	mu        sync.Mutex
	cell      *call
	last      engine.Output // gets what a cell's goroutines print after it ended
	tools     map[uint64]chan toolReply
	nextID    uint64
	killedFor string
}

type call struct {
	ctx  context.Context
	out  engine.Output
	done chan *resultMsg
}

// Start starts an engine process. It returns at once; the session loads
// in the background, and the first call waits for it.
func Start(opt Options) *Process {
	p := &Process{opt: opt, limit: opt.memoryLimit(), ready: make(chan struct{}), dead: make(chan struct{}),
		tools: map[uint64]chan toolReply{}}
	if err := p.start(); err != nil {
		p.startErr = err
		p.crash = &Crash{Name: "EngineError", Message: "the Go engine did not start: " + err.Error()}
		close(p.ready)
		close(p.dead)
	}
	return p
}

// childEnv marks an engine process, so that it never starts another (a
// binary that does not know ChildCommand, such as a test binary without
// the TestMain that serves it, would otherwise start itself without end).
const childEnv = "GRUNDY_ENGINE_PROCESS"

func (p *Process) start() error {
	if os.Getenv(childEnv) != "" {
		return errors.New("an engine process cannot start another one (does this binary serve " + ChildCommand + "?)")
	}
	cfg, _ := json.Marshal(childConfig{Name: p.opt.Name, Args: p.opt.Args, MemoryLimit: p.limit})
	argv := p.opt.Command
	if len(argv) == 0 {
		exe, err := selfExecutable()
		if err != nil {
			return err
		}
		argv = []string{exe, ChildCommand}
	}
	cmd := exec.Command(argv[0], append(argv[1:len(argv):len(argv)], string(cfg))...)
	cmd.Env = append(append(os.Environ(), p.opt.Env...), childEnv+"=1")
	cmd.Dir = p.opt.Dir
	// The child dies with its parent, however the parent ends.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return err
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		repR.Close()
		repW.Close()
		return err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		for _, f := range []*os.File{reqR, reqW, repR, repW, outR, outW} {
			f.Close()
		}
		return err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	cmd.ExtraFiles = []*os.File{reqR, repW}
	err = cmd.Start()
	for _, f := range []*os.File{reqR, repW, outW, errW} {
		f.Close()
	}
	if err != nil {
		for _, f := range []*os.File{reqW, repR, outR, errR} {
			f.Close()
		}
		return err
	}
	p.cmd, p.w = cmd, reqW
	p.errLog = newCrashLog(errR, p.opt.log())
	exited := make(chan *os.ProcessState, 1)
	go func() {
		_ = cmd.Wait()
		exited <- cmd.ProcessState
	}()
	go p.copyStdout(outR)
	go p.readLoop(repR, exited)
	return nil
}

// selfExecutable is the running binary. On Linux /proc/self/exe stays
// this very binary even when `grundy install` replaces the file, so a
// restarted engine always speaks the kernel's protocol.
func selfExecutable() (string, error) {
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe", nil
	}
	return os.Executable()
}

// copyStdout forwards what native code writes to the process's own
// stdout (the interpreter's is captured already) to the current cell.
func (p *Process) copyStdout(r *os.File) {
	defer r.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if out := p.output(); out != nil {
				out.Stdout(string(buf[:n]))
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *Process) output() engine.Output {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cell != nil {
		return p.cell.out
	}
	return p.last
}

func (p *Process) readLoop(r *os.File, exited chan *os.ProcessState) {
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	var protoErr error
	readyClosed := false
	for {
		kind, payload, err := readFrame(br)
		if err == nil {
			var f frame
			if f, err = decode(kind, payload); err == nil {
				if f.kind == kReady {
					if m := f.msg.(*readyMsg); m.Err != "" {
						p.startErr = errors.New(m.Err)
					}
					close(p.ready)
					readyClosed = true
					continue
				}
				err = p.handle(f)
			}
			if err != nil {
				protoErr = err
			}
		}
		if err != nil {
			break
		}
	}
	if protoErr != nil {
		p.kill("")
		fmt.Fprintf(p.opt.log(), "grundy: engine process: %v\n", protoErr)
	}
	state := <-exited
	// The runtime's report is complete once the process is gone; wait
	// briefly in case a grandchild still holds its stderr.
	select {
	case <-p.errLog.done:
	case <-time.After(200 * time.Millisecond):
	}
	p.mu.Lock()
	killedFor := p.killedFor
	p.mu.Unlock()
	c := diagnose(p.errLog.text(), state, killedFor, p.limit)
	if protoErr != nil && killedFor == "" {
		c = &Crash{Name: "EngineCrashed", Message: "the engine process broke the protocol: " + protoErr.Error() + "; this is a bug, please report it", Status: c.Status}
	}
	if !readyClosed && p.startErr == nil {
		p.startErr = errors.New(c.Message)
	}
	p.crash = c
	p.w.Close()
	close(p.dead)
	if !readyClosed {
		close(p.ready)
	}
}

// handle routes one frame from the child.
func (p *Process) handle(f frame) error {
	switch f.kind {
	case kStdout, kStderr:
		if out := p.output(); out != nil {
			if f.kind == kStdout {
				out.Stdout(f.msg.(string))
			} else {
				out.Stderr(f.msg.(string))
			}
		}
	case kDisplay:
		m := f.msg.(*displayMsg)
		if out := p.output(); out != nil {
			out.Display(m.Data, m.Metadata, m.ID, m.Update)
		}
	case kClear:
		if out := p.output(); out != nil {
			out.ClearOutput(f.msg.(*clearMsg).Wait)
		}
	case kInput:
		req := f.msg.(*inputRequest)
		p.mu.Lock()
		c, out := p.cell, p.last
		p.mu.Unlock()
		// Input blocks until the user answers; frames keep flowing.
		go func() {
			rep := inputReply{ID: req.ID}
			if c == nil {
				rep.Err = "no cell is running to ask for input"
			} else if v, err := out.Input(req.Prompt, req.Password); err != nil {
				if c.ctx.Err() != nil {
					// Interrupted: the interrupt frame ends the wait
					// in the child; an error reply racing ahead of it
					// would let the cell run on.
					return
				}
				rep.Err = err.Error()
			} else {
				rep.Value = v
			}
			p.send(kInputReply, rep)
		}()
	case kResult:
		p.mu.Lock()
		c := p.cell
		p.mu.Unlock()
		if c == nil {
			return fmt.Errorf("%w: a result with no cell running", errFrame)
		}
		c.done <- f.msg.(*resultMsg)
	case kToolDone:
		r := f.msg.(*toolReply)
		p.mu.Lock()
		ch := p.tools[r.ID]
		delete(p.tools, r.ID)
		p.mu.Unlock()
		if ch != nil {
			ch <- *r
		}
	default:
		return fmt.Errorf("%w: %q is not a reply", errFrame, f.kind)
	}
	return nil
}

func (p *Process) send(kind byte, msg any) error {
	b, err := encodeFrame(kind, msg)
	if err != nil {
		return err
	}
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, err = p.w.Write(b)
	return err
}

// kill stops the process; why, when not "", becomes the crash's message.
func (p *Process) kill(why string) {
	p.mu.Lock()
	if why != "" && p.killedFor == "" {
		p.killedFor = why
	}
	p.mu.Unlock()
	if p.cmd != nil && p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
	}
}

// Dead reports whether the process has ended.
func (p *Process) Dead() bool {
	select {
	case <-p.dead:
		return true
	default:
		return false
	}
}

// Crash is why the process ended; nil while it runs.
func (p *Process) Crash() *Crash {
	if !p.Dead() {
		return nil
	}
	return p.crash
}

// Pid is the engine process's id, 0 if it did not start.
func (p *Process) Pid() int {
	if p.cmd == nil || p.cmd.Process == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// Wait blocks until the session is up; it returns the start error, or the
// crash if the process died first.
func (p *Process) Wait() error {
	<-p.ready
	if p.startErr != nil {
		return p.startErr
	}
	if p.Dead() {
		return p.crash
	}
	return nil
}

// Execute runs a cell in the engine process. An interrupt (ctx) is passed
// on; a cell that has not stopped DefaultInterruptGrace later has its
// process stopped, and Execute returns a *Crash named Interrupted. If the
// process dies, Execute returns the *Crash.
func (p *Process) Execute(ctx context.Context, code string, out engine.Output) (engine.Result, error) {
	if out == nil {
		out = discard{}
	}
	if err := p.Wait(); err != nil {
		if c, ok := err.(*Crash); ok {
			return engine.Result{}, c
		}
		return engine.Result{}, &engine.EvalError{Name: "EngineError", Value: "the Go engine did not start: " + err.Error()}
	}
	c := &call{ctx: ctx, out: out, done: make(chan *resultMsg, 1)}
	p.mu.Lock()
	if p.cell != nil {
		p.mu.Unlock()
		return engine.Result{}, &engine.EvalError{Name: "EngineBusy", Value: "a cell is already running"}
	}
	p.cell, p.last = c, out
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.cell = nil
		p.mu.Unlock()
	}()
	sb, _ := out.(engine.Scrollback)
	if err := p.send(kExecute, execRequest{Code: code, Scrollback: sb != nil && sb.KeepsScrollback()}); err != nil {
		p.kill("")
		<-p.dead
		return engine.Result{}, p.crash
	}
	select {
	case r := <-c.done:
		return p.finish(r)
	case <-p.dead:
		return engine.Result{}, p.crash
	case <-ctx.Done():
	}
	_ = p.send(kInterrupt, nil)
	grace := p.opt.grace()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case r := <-c.done:
		return r.result()
	case <-p.dead:
		return engine.Result{}, p.crash
	case <-t.C:
	}
	p.kill(fmt.Sprintf("the cell did not stop within %s of the interrupt, so its engine process was stopped", grace))
	<-p.dead
	return engine.Result{}, p.crash
}

// stopGoroutines runs a cell that waits, and interrupts it once it has
// started: the interpreter stops every goroutine of the session with the
// cell it interrupts (an interrupt that comes before the cell's first
// step would stop nothing, hence the cell says when it has started). The
// cell is not the session's: its result is dropped, and what the
// goroutines print meanwhile still goes where it went.
func (p *Process) stopGoroutines() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p.mu.Lock()
	last := p.last
	p.mu.Unlock()
	if last == nil {
		last = discard{}
	}
	_, _ = p.Execute(ctx, "println("+strconv.Quote(stopMarker)+")\nfor {\n}", stopperOutput{last, cancel})
	p.mu.Lock()
	p.last = last
	p.mu.Unlock()
}

const stopMarker = "\x00grundy: the stopper has started\x00"

// stopperOutput interrupts the stopper cell once it prints stopMarker,
// and passes everything else on to the Output the session's goroutines
// printed to before.
type stopperOutput struct {
	engine.Output
	started func()
}

func (o stopperOutput) Stdout(text string) { o.Output.Stdout(o.strip(text)) }
func (o stopperOutput) Stderr(text string) { o.Output.Stderr(o.strip(text)) }

func (o stopperOutput) strip(text string) string {
	if i := strings.Index(text, stopMarker+"\n"); i >= 0 {
		o.started()
		text = text[:i] + text[i+len(stopMarker)+1:]
	}
	return text
}

// finish returns a cell's result. A cell that left goroutines the engine
// cannot stop (engine.EvalError.Restart) ends its process, as Go ends a
// deadlocked program: a later cell could wake them and they would run on.
// The cell's error is then a *Crash, so that a Supervisor replays the
// session into a new process.
func (p *Process) finish(r *resultMsg) (engine.Result, error) {
	if r.Err == nil || !r.Err.Restart {
		return r.result()
	}
	p.kill("the cell's goroutines were blocked for good where they cannot be stopped")
	<-p.dead
	c := &Crash{Name: r.Err.Name, Message: r.Err.Value, Status: p.crash.Status,
		Hint: "Some of its goroutines could not be stopped (a sync.WaitGroup or a mutex waits for good), so its engine process was stopped."}
	if len(r.Err.Traceback) > 1 {
		c.Hint = strings.Join(r.Err.Traceback[1:], " ") + " " + c.Hint
	}
	return engine.Result{}, c
}

func (r *resultMsg) result() (engine.Result, error) {
	if r.Err != nil {
		return engine.Result{}, r.Err
	}
	return engine.Result{Value: r.Value, Metadata: r.Metadata}, nil
}

// toolTimeout bounds how long completion and inspection may take; a
// frontend asking is better answered with nothing than not at all.
const toolTimeout = 5 * time.Second

// tool asks the child; ok is false when it cannot answer now. Completion
// and inspection need the session, which a running cell holds: they get
// no answer then, at once, rather than after the cell.
func (p *Process) tool(kind byte, req toolRequest, whileBusy bool) (toolReply, bool) {
	select {
	case <-p.ready:
	default:
		return toolReply{}, false
	}
	if p.startErr != nil || p.Dead() {
		return toolReply{}, false
	}
	ch := make(chan toolReply, 1)
	p.mu.Lock()
	if p.cell != nil && !whileBusy {
		p.mu.Unlock()
		return toolReply{}, false
	}
	p.nextID++
	req.ID = p.nextID
	p.tools[req.ID] = ch
	p.mu.Unlock()
	forget := func() {
		p.mu.Lock()
		delete(p.tools, req.ID)
		p.mu.Unlock()
	}
	if err := p.send(kind, req); err != nil {
		forget()
		return toolReply{}, false
	}
	t := time.NewTimer(toolTimeout)
	defer t.Stop()
	select {
	case r := <-ch:
		return r, true
	case <-p.dead:
	case <-t.C:
	}
	forget()
	return toolReply{}, false
}

// Complete answers a completion request; nothing while a cell runs.
func (p *Process) Complete(code string, cursor int) engine.Completion {
	if r, ok := p.tool(kComplete, toolRequest{Code: code, Cursor: cursor}, false); ok && r.Completion != nil {
		return *r.Completion
	}
	return engine.Completion{CursorStart: cursor, CursorEnd: cursor}
}

// Inspect answers an inspection request; nothing while a cell runs.
func (p *Process) Inspect(code string, cursor, detailLevel int) (engine.Bundle, bool) {
	if r, ok := p.tool(kInspect, toolRequest{Code: code, Cursor: cursor, Detail: detailLevel}, false); ok {
		return r.Inspect, r.Found
	}
	return nil, false
}

// IsComplete needs no session state, so it is answered while a cell runs.
func (p *Process) IsComplete(code string) (string, string) {
	if r, ok := p.tool(kIsComplete, toolRequest{Code: code}, true); ok && r.Status != "" {
		return r.Status, r.Indent
	}
	return "unknown", ""
}

// Close ends the engine process: politely, then, if it does not go, by
// force.
func (p *Process) Close() error {
	if p.Dead() {
		return nil
	}
	p.mu.Lock()
	p.killedFor = "the session was closed"
	p.mu.Unlock()
	_ = p.send(kClose, nil)
	select {
	case <-p.dead:
	case <-time.After(time.Second):
		p.kill("")
		<-p.dead
	}
	return nil
}

// discard is the Output of a call that wants none.
type discard struct{}

func (discard) Stdout(string)                                       {}
func (discard) Stderr(string)                                       {}
func (discard) Display(engine.Bundle, map[string]any, string, bool) {}
func (discard) ClearOutput(bool)                                    {}
func (discard) Input(string, bool) (string, error) {
	return "", errors.New("no input here")
}
