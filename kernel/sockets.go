package kernel

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
)

// iopubHWM bounds the messages queued for iopub subscribers; beyond it
// messages are dropped (ZeroMQ PUB semantics), so a slow or vanished
// frontend cannot make the kernel's memory grow without bound. zmq4
// v0.17.0 queues without limit unless this option is set. What one cell
// can queue is bounded well below it (streams are coalesced and capped,
// displays capped, updates merged), so a frontend that keeps reading
// never loses a message, its final idle status included.
const iopubHWM = 2000

// sockets are the five zmq4 sockets of one kernel. Each has its own send
// lock: zmq4 sockets are not safe for concurrent sends, and control, shell
// and cell goroutines all send.
type sockets struct {
	shell, control, stdin, iopub, hb zmq4.Socket
	mu                               [4]sync.Mutex
	paths                            []string // ipc socket files to remove
}

func bind(ctx context.Context, ci *ConnectionInfo) (*sockets, error) {
	opts := []zmq4.Option{zmq4.WithTimeout(10 * time.Second), zmq4.WithLogger(discardLogger())}
	s := &sockets{
		shell:   zmq4.NewRouter(ctx, opts...),
		control: zmq4.NewRouter(ctx, opts...),
		stdin:   zmq4.NewRouter(ctx, opts...),
		iopub:   zmq4.NewPub(ctx, opts...),
		hb:      zmq4.NewRep(ctx, opts...),
	}
	if err := s.iopub.SetOption(zmq4.OptionHWM, iopubHWM); err != nil {
		s.close()
		return nil, fmt.Errorf("setting the iopub high-water mark: %w", err)
	}
	for _, b := range []struct {
		name string
		sock zmq4.Socket
		port int
	}{{"shell", s.shell, ci.ShellPort}, {"control", s.control, ci.ControlPort}, {"stdin", s.stdin, ci.StdinPort}, {"iopub", s.iopub, ci.IOPubPort}, {"heartbeat", s.hb, ci.HBPort}} {
		ep := ci.endpoint(b.port)
		if err := b.sock.Listen(ep); err != nil {
			s.close()
			return nil, fmt.Errorf("binding the %s socket to %s: %w (is another kernel using this connection file?)", b.name, publicEndpoint(ci, b.port), err)
		}
		if ci.Transport == "ipc" {
			s.paths = append(s.paths, ci.ipcPath(b.port))
		}
	}
	return s, nil
}

func publicEndpoint(ci *ConnectionInfo, port int) string {
	if ci.Transport == "ipc" {
		return "ipc://" + ci.ipcPath(port)
	}
	return "tcp://" + joinHostPort(ci.IP, port)
}

func (s *sockets) send(ch channel, frames [][]byte) error {
	var sock zmq4.Socket
	switch ch {
	case shellCh:
		sock = s.shell
	case controlCh:
		sock = s.control
	case stdinCh:
		sock = s.stdin
	case iopubCh:
		sock = s.iopub
	default:
		return fmt.Errorf("no socket for channel %d", ch)
	}
	s.mu[ch].Lock()
	defer s.mu[ch].Unlock()
	return sock.SendMulti(zmq4.NewMsgFrom(frames...))
}

// heartbeat echoes every ping, in its own goroutine so a busy cell never
// makes the kernel look dead.
func (s *sockets) heartbeat(ctx context.Context) {
	for {
		msg, err := s.hb.Recv()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			continue
		}
		if err := s.hb.SendMulti(msg); err != nil && ctx.Err() != nil {
			return
		}
	}
}

func (s *sockets) close() {
	for _, sock := range []zmq4.Socket{s.shell, s.control, s.stdin, s.iopub, s.hb} {
		if sock != nil {
			_ = sock.Close()
		}
	}
	for _, p := range s.paths {
		removeSocketFile(p)
	}
}

// discardLogger silences zmq4's own connection chatter; the guard logs
// what matters.
func discardLogger() *log.Logger { return log.New(io.Discard, "", 0) }

func removeSocketFile(p string) {
	if fi, err := os.Lstat(p); err == nil && fi.Mode()&os.ModeSocket != 0 {
		_ = os.Remove(p)
	}
}
