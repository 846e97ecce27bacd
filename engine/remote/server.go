package remote

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"grundy/engine"
)

// server is the child's side: one session, requests read from the parent,
// everything the session produces written back as frames.
type server struct {
	sess engine.Session

	wmu sync.Mutex
	w   io.Writer

	mu      sync.Mutex
	cancel  context.CancelFunc // the running cell's
	running bool
	inputs  map[uint64]chan inputReply
	inputID uint64
}

// Serve answers the parent's requests on in with frames on out until in
// ends or the parent asks it to close. newSession runs first; its failure
// is reported to the parent, which then sees no session.
func Serve(in io.Reader, out io.Writer, newSession func() (engine.Session, error)) error {
	s := &server{w: out, inputs: map[uint64]chan inputReply{}}
	sess, err := newSession()
	if err != nil {
		s.send(kReady, readyMsg{Err: err.Error()})
		return err
	}
	s.sess = sess
	defer sess.Close()
	if err := s.send(kReady, readyMsg{}); err != nil {
		return err
	}
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		kind, payload, err := readFrame(r)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil // the parent is gone
			}
			return err
		}
		f, err := decode(kind, payload)
		if err != nil {
			return err
		}
		switch f.kind {
		case kExecute:
			s.execute(f.msg.(*execRequest))
		case kInterrupt:
			s.mu.Lock()
			if s.cancel != nil {
				s.cancel()
			}
			s.mu.Unlock()
		case kInputReply:
			rep := f.msg.(*inputReply)
			s.mu.Lock()
			ch := s.inputs[rep.ID]
			delete(s.inputs, rep.ID)
			s.mu.Unlock()
			if ch != nil {
				ch <- *rep
			}
		case kComplete, kInspect, kIsComplete:
			go s.tool(f.kind, f.msg.(*toolRequest))
		case kClose:
			s.mu.Lock()
			if s.cancel != nil {
				s.cancel()
			}
			s.mu.Unlock()
			return nil
		default:
			return fmt.Errorf("%w: %q is not a request", errFrame, f.kind)
		}
	}
}

// send writes one frame; frames from concurrent goroutines never interleave.
func (s *server) send(kind byte, msg any) error {
	b, err := encodeFrame(kind, msg)
	if err != nil {
		return err
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, err = s.w.Write(b)
	return err
}

func (s *server) execute(req *execRequest) {
	s.mu.Lock()
	if s.running {
		s.mu.Unlock()
		s.send(kResult, resultMsg{Err: &engine.EvalError{Name: "EngineBusy", Value: "a cell is already running"}})
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.running, s.cancel = true, cancel
	s.mu.Unlock()
	go func() {
		res, err := s.sess.Execute(ctx, req.Code, &serverOutput{s: s, ctx: ctx, scrollback: req.Scrollback})
		if ctx.Err() != nil {
			// yaegi returns as soon as the interrupt arrives, but the
			// cell's code stops only at its next step: a native call in
			// progress finishes first, and the next cell would even wake
			// it. The parent hears that the cell ended only once it has;
			// if it never does, the parent stops this process.
			waitCellStopped()
		}
		msg := resultMsg{Value: res.Value, Metadata: res.Metadata}
		if err != nil {
			var ee *engine.EvalError
			if !errors.As(err, &ee) {
				ee = &engine.EvalError{Name: "Error", Value: err.Error(), Traceback: []string{err.Error()}}
			}
			if ee.Name == "" {
				ee.Name = "Error"
			}
			msg = resultMsg{Err: ee}
		}
		s.mu.Lock()
		s.running, s.cancel = false, nil
		s.mu.Unlock()
		cancel()
		if err := s.send(kResult, msg); err != nil {
			// Most likely a value JSON cannot carry: say so instead.
			s.send(kResult, resultMsg{Err: &engine.EvalError{Name: "EncodingError", Value: "the cell's value cannot be sent to the kernel: " + err.Error()}})
		}
	}()
}

// waitCellStopped returns once no goroutine runs a cell's top level.
func waitCellStopped() {
	for wait := time.Millisecond; engine.CellRunning(); wait = min(2*wait, 20*time.Millisecond) {
		time.Sleep(wait)
	}
}

func (s *server) tool(kind byte, req *toolRequest) {
	rep := toolReply{ID: req.ID}
	switch kind {
	case kComplete:
		c := s.sess.Complete(req.Code, req.Cursor)
		rep.Completion = &c
	case kInspect:
		rep.Inspect, rep.Found = s.sess.Inspect(req.Code, req.Cursor, req.Detail)
	case kIsComplete:
		rep.Status, rep.Indent = s.sess.IsComplete(req.Code)
	}
	if err := s.send(kToolDone, rep); err != nil {
		s.send(kToolDone, toolReply{ID: req.ID})
	}
}

// serverOutput is a cell's engine.Output in the child: everything becomes
// a frame to the parent, which hands it to the cell's real Output.
type serverOutput struct {
	s          *server
	ctx        context.Context
	scrollback bool // the parent's Output keeps what it showed
}

func (o *serverOutput) KeepsScrollback() bool { return o.scrollback }

func (o *serverOutput) Stdout(text string) { o.text(kStdout, text) }
func (o *serverOutput) Stderr(text string) { o.text(kStderr, text) }

func (o *serverOutput) text(kind byte, text string) {
	for len(text) > 0 {
		n := min(len(text), textChunk)
		o.s.send(kind, text[:n])
		text = text[n:]
	}
}

func (o *serverOutput) Display(data engine.Bundle, metadata map[string]any, id string, update bool) {
	if err := o.s.send(kDisplay, displayMsg{Data: data, Metadata: metadata, ID: id, Update: update}); err != nil {
		o.Stderr(fmt.Sprintf("[grundy: cannot display a value: %v]\n", err))
	}
}

func (o *serverOutput) ClearOutput(wait bool) { o.s.send(kClear, clearMsg{Wait: wait}) }

func (o *serverOutput) Input(prompt string, password bool) (string, error) {
	s := o.s
	ch := make(chan inputReply, 1)
	s.mu.Lock()
	s.inputID++
	id := s.inputID
	s.inputs[id] = ch
	s.mu.Unlock()
	forget := func() {
		s.mu.Lock()
		delete(s.inputs, id)
		s.mu.Unlock()
	}
	if err := s.send(kInput, inputRequest{ID: id, Prompt: prompt, Password: password}); err != nil {
		forget()
		return "", err
	}
	select {
	case r := <-ch:
		if o.ctx.Err() != nil {
			panic(inputInterrupted{})
		}
		if r.Err != "" {
			return "", errors.New(r.Err)
		}
		return r.Value, nil
	case <-o.ctx.Done():
		forget()
		// Returning an error would let the cell go on to its next step
		// (writing a file, say) before the interpreter notices the
		// interrupt: unwind it instead, as an interrupted time.Sleep
		// does.
		panic(inputInterrupted{})
	}
}

// inputInterrupted is the panic that ends a cell interrupted while it waits
// for input.
type inputInterrupted struct{}

func (inputInterrupted) Error() string { return "interrupted while waiting for input" }

// Main is the child process: `grundy engine-process CONFIG`, started by
// Start with the request pipe as fd 3 and the reply pipe as fd 4.
func Main(args []string) error {
	cfg, err := parseChildConfig(args)
	if err != nil {
		return err
	}
	// Requests are read through Go's poller (non-blocking): a goroutine
	// waiting for a frame then parks instead of holding a thread in read,
	// so the cell a frame starts runs at once on the thread that read it.
	if err := syscall.SetNonblock(3, true); err != nil {
		return errors.New("engine-process is started by the kernel, not by hand")
	}
	in, out := os.NewFile(3, "requests"), os.NewFile(4, "replies")
	if in == nil || out == nil {
		return errors.New("engine-process is started by the kernel, not by hand")
	}
	prepareChild(cfg)
	return Serve(in, out, func() (engine.Session, error) {
		return engine.NewInterp(engine.Options{Name: cfg.Name, Args: cfg.Args})
	})
}

// RunIfChild makes this process an engine process when it was started as
// one (grundy engine-process CONFIG): it serves, then exits. Otherwise it
// returns at once. The grundy binary calls it first, and so does the
// TestMain of a test binary that starts engine processes, which then
// doubles as grundy.
func RunIfChild() {
	if len(os.Args) < 2 || os.Args[1] != ChildCommand {
		return
	}
	if err := Main(os.Args[2:]); err != nil {
		fmt.Fprintf(os.Stderr, "grundy %s: %v\n", ChildCommand, err)
		os.Exit(1)
	}
	os.Exit(0)
}
