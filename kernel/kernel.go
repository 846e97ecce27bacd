package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-zeromq/zmq4"

	"grundy/engine"
)

// Config describes one kernel process.
type Config struct {
	Conn *ConnectionInfo
	// NewSession starts the interpreter. It runs in the background so the
	// kernel answers kernel_info before the engine has finished loading.
	NewSession func() (engine.Session, error)
	// Version is grundy's version, shown in kernel_info.
	Version string
	// MaxCellOutput caps the bytes one cell may stream (stdout and stderr
	// together); 0 means DefaultMaxCellOutput.
	MaxCellOutput int
}

// DefaultMaxCellOutput is how much one cell may print before the rest is
// cut off, so a runaway loop cannot flood the frontend.
const DefaultMaxCellOutput = engine.DefaultMaxCellOutput

// channel names a socket a message travels on.
type channel int

const (
	shellCh channel = iota
	controlCh
	stdinCh
	iopubCh
)

func (c channel) String() string {
	return [...]string{"shell", "control", "stdin", "iopub"}[c]
}

// wire sends frames on a channel; the real one is zmq4 sockets, tests use
// a recorder.
type wire interface {
	send(ch channel, frames [][]byte) error
}

// handler serves one msg_type. It returns the reply's content (nil for no
// reply); the reply's type is the request's with _request -> _reply.
type handler func(k *Kernel, ch channel, m *Message) any

// Kernel is one Jupyter session being served.
type Kernel struct {
	cfg       Config
	signer    *Signer
	sessionID string
	username  string
	w         wire
	handlers  map[string]handler
	replays   *replayGuard

	sess     engine.Session
	sessErr  error
	sessDone chan struct{}

	// shell requests run one at a time on the shell worker; control
	// requests other than interrupt and shutdown on the control worker,
	// so that no request, however slow, keeps those two waiting.
	controlQ     chan *Message
	shellQ       chan queued
	received     atomic.Int64 // shell requests received so far
	abortThrough int64        // shell worker only: abort executes received up to here

	execCount int // shell worker only
	history   []historyEntry
	histMu    sync.Mutex

	runMu      sync.Mutex
	cancelCell context.CancelFunc
	output     *cellOutput // the running cell's, for a last flush at exit

	inputReplies chan *Message

	shutdownOnce  sync.Once
	shutdown      chan struct{}
	shutdownAsked atomic.Bool
}

type queued struct {
	m   *Message
	seq int64
}

type historyEntry struct {
	line   int
	input  string
	output string
}

var (
	logMu  sync.Mutex
	logOut io.Writer = os.Stderr
)

// logf reports to the kernel's stderr, which Jupyter shows in its log.
// Nothing logged ever includes the signing key.
func logf(format string, args ...any) {
	logMu.Lock()
	defer logMu.Unlock()
	fmt.Fprintf(logOut, "grundy kernel: "+format+"\n", args...)
}

func newKernel(cfg Config, w wire) *Kernel {
	if cfg.MaxCellOutput <= 0 {
		cfg.MaxCellOutput = DefaultMaxCellOutput
	}
	user := os.Getenv("USER")
	if user == "" {
		user = "grundy"
	}
	k := &Kernel{
		cfg:          cfg,
		signer:       NewSigner([]byte(cfg.Conn.Key)),
		sessionID:    newID(),
		username:     user,
		w:            w,
		handlers:     defaultHandlers(),
		replays:      newReplayGuard(1 << 14),
		sessDone:     make(chan struct{}),
		shellQ:       make(chan queued, 1024),
		controlQ:     make(chan *Message, 256),
		inputReplies: make(chan *Message, 16),
		shutdown:     make(chan struct{}),
	}
	go func() {
		defer close(k.sessDone)
		defer func() {
			if r := recover(); r != nil {
				k.sessErr = fmt.Errorf("starting the engine panicked: %v", r)
			}
		}()
		if cfg.NewSession == nil {
			k.sessErr = errors.New("no engine configured")
			return
		}
		k.sess, k.sessErr = cfg.NewSession()
		if k.sessErr == nil && k.sess == nil {
			k.sessErr = errors.New("the engine returned no session")
		}
	}()
	return k
}

// session waits for the engine to be up.
func (k *Kernel) session() (engine.Session, error) {
	<-k.sessDone
	return k.sess, k.sessErr
}

// Run serves the connection until a shutdown_request or ctx ends.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Conn == nil {
		return errors.New("no connection info")
	}
	registerGuardedTransports()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	socks, err := bind(ctx, cfg.Conn)
	if err != nil {
		return err
	}
	k := newKernel(cfg, socks)
	defer socks.close()
	k.announce()

	go socks.heartbeat(ctx)
	go k.readLoop(ctx, socks.shell, shellCh)
	go k.readLoop(ctx, socks.control, controlCh)
	go k.readLoop(ctx, socks.stdin, stdinCh)
	workerDone := make(chan struct{})
	go func() { defer close(workerDone); k.shellWorker(ctx) }()
	go k.controlWorker(ctx)

	// With interrupt_mode "message" Jupyter interrupts by message, but a
	// terminal may still deliver SIGINT to the process group: treat it as
	// an interrupt rather than dying.
	orphaned := watchParent(ctx)

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)

	for {
		select {
		case <-ctx.Done():
			k.stop(workerDone)
			return ctx.Err()
		case <-k.shutdown:
			k.stop(workerDone)
			return nil
		case <-orphaned:
			logf("the Jupyter process that started this kernel is gone; exiting")
			k.stop(workerDone)
			return nil
		case s := <-sigs:
			if s == os.Interrupt {
				k.userInterrupt()
				continue
			}
			k.stop(workerDone)
			return nil
		}
	}
}

// stop ends the running cell, lets the shell worker finish and gives the
// iopub queue a moment to drain so no output is lost.
func (k *Kernel) stop(workerDone chan struct{}) {
	k.shutdownOnce.Do(func() { close(k.shutdown) })
	k.interrupt()
	select {
	case <-workerDone:
	case <-time.After(2 * time.Second):
		// The cell ignores cancellation; send what it printed anyway.
		k.runMu.Lock()
		out := k.output
		k.runMu.Unlock()
		if out != nil {
			out.flush()
		}
	}
	select {
	case <-k.sessDone:
		if k.sess != nil {
			_ = k.sess.Close()
		}
	default:
	}
	time.Sleep(50 * time.Millisecond)
}

func (k *Kernel) readLoop(ctx context.Context, s zmq4.Socket, ch channel) {
	for {
		msg, err := s.Recv()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			continue
		}
		if msg.Type == zmq4.CmdMsg {
			continue
		}
		k.receive(ch, msg.Frames)
	}
}

// receive decodes one incoming message and routes it. Bad messages are
// dropped with a log line.
func (k *Kernel) receive(ch channel, frames [][]byte) {
	m, err := Decode(frames, k.signer)
	if err != nil {
		logf("dropped a message on %s: %v", ch, err)
		return
	}
	if k.signer.Enabled() && !k.replays.fresh(m.signature) {
		logf("dropped a replayed message on %s (msg_id %q seen before)", ch, m.Header.MsgID)
		return
	}
	switch ch {
	case shellCh:
		seq := k.received.Add(1)
		select {
		case k.shellQ <- queued{m, seq}:
		case <-k.shutdown:
		}
	case controlCh:
		switch m.Header.MsgType {
		case "interrupt_request", "shutdown_request":
			k.dispatch(ch, m)
		default:
			select {
			case k.controlQ <- m:
			default:
				logf("dropped %q on control: %d control requests are waiting already", m.Header.MsgType, cap(k.controlQ))
			}
		}
	case stdinCh:
		if m.Header.MsgType != "input_reply" {
			logf("ignored %q on stdin", m.Header.MsgType)
			return
		}
		select {
		case k.inputReplies <- m:
		default:
			logf("dropped an input_reply nobody asked for")
		}
	}
}

func (k *Kernel) shellWorker(ctx context.Context) {
	for {
		var q queued
		select {
		case q = <-k.shellQ:
		case <-k.shutdown:
			return
		case <-ctx.Done():
			return
		}
		if q.m.Header.MsgType == "execute_request" && q.seq <= k.abortThrough {
			k.abort(q.m)
			continue
		}
		k.dispatch(shellCh, q.m)
	}
}

func (k *Kernel) controlWorker(ctx context.Context) {
	for {
		select {
		case m := <-k.controlQ:
			k.dispatch(controlCh, m)
		case <-k.shutdown:
			return
		case <-ctx.Done():
			return
		}
	}
}

// abort answers an execute_request queued behind a failed cell, as
// ipykernel does with stop_on_error.
func (k *Kernel) abort(m *Message) {
	k.publish(m, "status", statusContent{"busy"})
	k.reply(shellCh, m, "execute_reply", map[string]any{"status": "aborted", "execution_count": k.execCount})
	k.publish(m, "status", statusContent{"idle"})
}

// announce publishes status "starting" with no parent before any request
// is served, as ipykernel does when it comes up. Only subscribers already
// connected see it (PUB semantics): frontends that connect later learn the
// kernel is up from kernel_info, as with ipykernel.
func (k *Kernel) announce() {
	k.publish(nil, "status", statusContent{"starting"})
}

type statusContent struct {
	ExecutionState string `json:"execution_state"`
}

// dispatch runs the handler for m between busy and idle.
func (k *Kernel) dispatch(ch channel, m *Message) {
	k.publish(m, "status", statusContent{"busy"})
	defer func() {
		if r := recover(); r != nil {
			logf("handler for %s panicked: %v", m.Header.MsgType, r)
			if rt := replyType(m.Header.MsgType); rt != "" {
				k.reply(ch, m, rt, errorContent("InternalError", fmt.Sprint(r)))
			}
		}
		k.publish(m, "status", statusContent{"idle"})
		if k.shutdownAsked.Load() {
			k.shutdownOnce.Do(func() { close(k.shutdown) })
		}
	}()
	h, ok := k.handlers[m.Header.MsgType]
	if !ok {
		logf("unknown message type %q on %s", m.Header.MsgType, ch)
		if rt := replyType(m.Header.MsgType); rt != "" {
			k.reply(ch, m, rt, errorContent("UnknownMessageType", fmt.Sprintf("grundy does not handle %q", m.Header.MsgType)))
		}
		return
	}
	if content := h(k, ch, m); content != nil {
		k.reply(ch, m, replyType(m.Header.MsgType), content)
	}
}

func replyType(t string) string {
	if s, ok := strings.CutSuffix(t, "_request"); ok {
		return s + "_reply"
	}
	return ""
}

func errorContent(ename, evalue string) map[string]any {
	return map[string]any{"status": "error", "ename": ename, "evalue": evalue, "traceback": []string{ename + ": " + evalue}}
}

// send builds, signs and sends a message.
func (k *Kernel) send(ch channel, ids [][]byte, parent *Message, msgType string, content any, metadata any) {
	body, err := json.Marshal(content)
	if err != nil {
		logf("cannot encode %s content: %v", msgType, err)
		body, _ = json.Marshal(errorContent("EncodingError", err.Error()))
	}
	var meta []byte
	if metadata != nil {
		if meta, err = json.Marshal(metadata); err != nil {
			meta = nil
		}
	}
	out := &Message{
		Identities: ids,
		Header: Header{
			MsgID:    newID(),
			Session:  k.sessionID,
			Username: k.username,
			Date:     timestamp(time.Now()),
			MsgType:  msgType,
			Version:  ProtocolVersion,
		},
		Metadata: meta,
		Content:  body,
	}
	if parent != nil {
		out.Parent = parent.HeaderRaw
	}
	frames, err := Encode(out, k.signer)
	if err != nil {
		logf("cannot encode %s: %v", msgType, err)
		return
	}
	if err := k.w.send(ch, frames); err != nil {
		logf("sending %s on %s: %v", msgType, ch, err)
	}
}

// reply answers m on the channel it came from, to the same peer.
func (k *Kernel) reply(ch channel, m *Message, msgType string, content any) {
	k.send(ch, m.Identities, m, msgType, content, nil)
}

// publish broadcasts on iopub with m as parent.
func (k *Kernel) publish(m *Message, msgType string, content any) {
	k.publishMeta(m, msgType, content, nil)
}

func (k *Kernel) publishMeta(m *Message, msgType string, content any, metadata any) {
	topic := []byte("kernel." + k.sessionID + "." + msgType)
	k.send(iopubCh, [][]byte{topic}, m, msgType, content, metadata)
}

// interrupt cancels the running cell, if any.
func (k *Kernel) interrupt() {
	k.runMu.Lock()
	defer k.runMu.Unlock()
	if k.cancelCell != nil {
		k.cancelCell()
	}
}

// userInterrupt is the user's interrupt (the Notebook's stop button,
// Ctrl-C): it stops the running cell and, with it, the goroutines earlier
// cells left running; while no cell runs, it stops those goroutines (a
// worker looping for good would otherwise keep a core busy until the
// next cell is interrupted, or the kernel restarted).
func (k *Kernel) userInterrupt() {
	k.runMu.Lock()
	running := k.cancelCell != nil
	if running {
		k.cancelCell()
	}
	k.runMu.Unlock()
	if running {
		return
	}
	select {
	case <-k.sessDone:
	default:
		return // no session yet, so no goroutines either
	}
	if s, ok := k.sess.(interface{ StopGoroutines() }); ok && k.sessErr == nil {
		go s.StopGoroutines()
	}
}

func goVersion() string {
	return strings.TrimPrefix(runtime.Version(), "go")
}

// watchParent: jupyter_client sets JPY_PARENT_PID when the kernel's life is
// tied to its launcher (a console, a notebook server). If that process
// dies without shutting the kernel down, the kernel exits instead of
// running on, perhaps in a busy loop, forever. Like ipykernel's
// ParentPoller, it notices by being re-parented.
func watchParent(ctx context.Context) <-chan struct{} {
	gone := make(chan struct{})
	pid, err := strconv.Atoi(os.Getenv("JPY_PARENT_PID"))
	if err != nil || pid <= 1 || os.Getppid() != pid {
		return gone
	}
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if os.Getppid() != pid {
					close(gone)
					return
				}
			}
		}
	}()
	return gone
}
