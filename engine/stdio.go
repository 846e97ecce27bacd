package engine

import (
	"bytes"
	"errors"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"grundy/engine/prelude"
)

// stdio routes what interpreted code writes and reads to the Output of the
// cell that is running. fmt.Print*, println, log and os.Stdout/os.Stderr all
// end in one pipe per stream, so their order is kept and text streams while
// the cell runs; a flush marker written at the end of a cell tells when
// everything the cell wrote has been forwarded.
type stdio struct {
	cur atomic.Pointer[outBox]

	outR, outW *os.File
	errR, errW *os.File
	stdout     *streamPump
	stderr     *streamPump

	// interpStderr is what yaegi itself writes to: the panic trace lines it
	// prints while a panic unwinds interpreted frames are kept for the
	// error report instead of being shown as stderr.
	interpStderr *panicFilter

	stdin *inputReader

	// cellStdout and cellStderr are os.Stdout and os.Stderr as cells see
	// them: duplicates of the pipes' write ends, so that a cell closing
	// one closes only its duplicate, and the next cell gets a new one
	// (renewCellFiles) instead of a silenced session.
	cellStdout, cellStderr *os.File
	dups                   []*os.File // every duplicate made, to close at the end
}

type outBox struct{ out Output }

func newStdio() (*stdio, error) {
	s := &stdio{}
	var err error
	if s.outR, s.outW, err = os.Pipe(); err != nil {
		return nil, err
	}
	if s.errR, s.errW, err = os.Pipe(); err != nil {
		s.outR.Close()
		s.outW.Close()
		return nil, err
	}
	s.stdout = newPump(s.outR, func(text string) {
		if b := s.cur.Load(); b != nil {
			b.out.Stdout(text)
		}
	})
	s.stderr = newPump(s.errR, func(text string) {
		if b := s.cur.Load(); b != nil {
			b.out.Stderr(text)
		}
	})
	s.interpStderr = &panicFilter{w: s.errW}
	s.stdin = &inputReader{io: s}
	s.cellStdout, s.cellStderr = s.outW, s.errW
	s.renewCellFiles()
	return s, nil
}

// cellStdout writes to os.Stdout as cells see it when it writes: a cell
// that sets os.Stdout to a file or a pipe (capturing what a function
// prints) has fmt.Print, Printf and Println write there, as in Go; they
// wrote to the cell's output, silently.
type cellStdout struct{ s *stdio }

func (w cellStdout) Write(p []byte) (int, error) { return w.s.cellStdout.Write(p) }

// renewCellFiles gives cells a working os.Stdout and os.Stderr again if a
// cell closed them (one the cell put there itself is left alone).
func (s *stdio) renewCellFiles() {
	for _, c := range []struct {
		cur  **os.File
		pipe *os.File
	}{{&s.cellStdout, s.outW}, {&s.cellStderr, s.errW}} {
		if *c.cur != c.pipe && !(slices.Contains(s.dups, *c.cur) && isClosed(*c.cur)) {
			continue
		}
		if d, err := dupFile(c.pipe); err == nil {
			s.dups = append(s.dups, d)
			*c.cur = d
		}
	}
}

func dupFile(f *os.File) (*os.File, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var fd int
	var derr error
	if err := rc.Control(func(orig uintptr) { fd, derr = syscall.Dup(int(orig)) }); err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, derr
	}
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), f.Name()), nil
}

func isClosed(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return true
	}
	return rc.Control(func(uintptr) {}) != nil
}

// attach makes out receive the output until the next attach.
func (s *stdio) attach(out Output) {
	if out == nil {
		s.cur.Store(nil)
		return
	}
	s.cur.Store(&outBox{out: out})
}

func (s *stdio) output() Output {
	if b := s.cur.Load(); b != nil {
		return b.out
	}
	return nil
}

// flush waits until everything written so far has been handed to the
// current Output.
func (s *stdio) flush() {
	s.stdout.flush(s.outW)
	s.stderr.flush(s.errW)
}

func (s *stdio) close() {
	for _, d := range s.dups {
		d.Close()
	}
	s.outW.Close()
	s.errW.Close()
	s.stdout.wait()
	s.stderr.wait()
	s.outR.Close()
	s.errR.Close()
}

// streamPump copies one pipe to a callback.
type streamPump struct {
	mu      sync.Mutex
	marker  []byte
	seq     int
	waiters map[string]chan struct{}
	done    chan struct{}
}

const markerPrefix = "\x00\x01grundy-flush-"

func newPump(r io.Reader, emit func(string)) *streamPump {
	p := &streamPump{waiters: map[string]chan struct{}{}, done: make(chan struct{})}
	go p.run(r, emit)
	return p
}

func (p *streamPump) run(r io.Reader, emit func(string)) {
	defer close(p.done)
	buf := make([]byte, 64<<10)
	var pending []byte
	for {
		n, err := r.Read(buf)
		if n > 0 {
			pending = append(pending, buf[:n]...)
			pending = p.scan(pending, emit)
		}
		if err != nil {
			if len(pending) > 0 {
				emit(string(pending))
			}
			return
		}
	}
}

// scan emits text, fires flush markers, and returns what must wait for more
// bytes (a possibly partial marker at the end).
func (p *streamPump) scan(data []byte, emit func(string)) []byte {
	for {
		i := bytes.Index(data, []byte(markerPrefix))
		if i < 0 {
			// Keep a tail that could be the start of a marker.
			keep := 0
			for k := min(len(markerPrefix)-1, len(data)); k > 0; k-- {
				if bytes.HasSuffix(data, []byte(markerPrefix[:k])) {
					keep = k
					break
				}
			}
			if len(data)-keep > 0 {
				emit(string(data[:len(data)-keep]))
			}
			return append([]byte(nil), data[len(data)-keep:]...)
		}
		end := bytes.IndexByte(data[i+len(markerPrefix):], '\x00')
		if end < 0 {
			if i > 0 {
				emit(string(data[:i]))
			}
			return append([]byte(nil), data[i:]...)
		}
		if i > 0 {
			emit(string(data[:i]))
		}
		id := string(data[i+len(markerPrefix) : i+len(markerPrefix)+end])
		p.mu.Lock()
		if ch, ok := p.waiters[id]; ok {
			close(ch)
			delete(p.waiters, id)
		}
		p.mu.Unlock()
		data = data[i+len(markerPrefix)+end+1:]
	}
}

func (p *streamPump) flush(w *os.File) {
	p.mu.Lock()
	p.seq++
	id := itoa(p.seq)
	ch := make(chan struct{})
	p.waiters[id] = ch
	p.mu.Unlock()
	if _, err := w.Write([]byte(markerPrefix + id + "\x00")); err != nil {
		return
	}
	select {
	case <-ch:
	case <-p.done:
	}
}

func (p *streamPump) wait() { <-p.done }

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// panicFilter passes writes through, except the "POS: panic: FUNC(...)"
// lines yaegi prints for each interpreted frame a panic unwinds: those are
// the interpreted call stack, collected for the error report. POS is not
// where the frame failed: yaegi v0.16.1 (interp/run.go, runCfg) names the
// first node the frame ran, because the variable its report reads is
// shadowed by the loop that runs the frame (yaegi issue #1266), so the
// report says "entered at". A frame whose first node has no position (code
// a compatibility pass wrote, as for a failed assertion to a chan type) is
// printed at "-", token.Position's text for none: it is kept from stderr,
// and from the stack, which it would only tell "main".
type panicFilter struct {
	w     io.Writer
	mu    sync.Mutex
	stack []string
}

var panicLine = regexp.MustCompile(`^(.*:\d+:\d+|\d+:\d+|-): panic: (.*)\(\.\.\.\)\s*$`)

func (f *panicFilter) Write(p []byte) (int, error) {
	text := string(p)
	var pass strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if m := panicLine.FindStringSubmatch(line); m != nil {
			// The prelude's helpers (the bounds checks' among them) are
			// the engine's, not frames of the cell's.
			if m[1] != "-" && !strings.HasPrefix(m[2], "main."+prelude.Temp) {
				f.mu.Lock()
				f.stack = append(f.stack, m[2]+" (entered at "+m[1]+")")
				f.mu.Unlock()
			}
			continue
		}
		pass.WriteString(line)
	}
	if pass.Len() > 0 {
		if _, err := io.WriteString(f.w, pass.String()); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// take returns and forgets the collected stack.
func (f *panicFilter) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.stack
	f.stack = nil
	return s
}

// inputReader is the interpreter's stdin: each read that finds its buffer
// empty asks the frontend for one line (Jupyter's input_request).
type inputReader struct {
	io  *stdio
	mu  sync.Mutex
	buf []byte
}

var errNoStdin = errors.New("this frontend does not provide standard input")

func (r *inputReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.buf) == 0 {
		out := r.io.output()
		if out == nil {
			return 0, io.EOF
		}
		// Text printed before the prompt (a question) must show first.
		r.io.flush()
		line, err := out.Input("", false)
		if err != nil {
			return 0, io.EOF
		}
		r.buf = append(r.buf, line...)
		r.buf = append(r.buf, '\n')
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// reset drops unread input at the end of a cell.
func (r *inputReader) reset() {
	r.mu.Lock()
	r.buf = nil
	r.mu.Unlock()
}
