package kernel

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"
)

// zmq4 v0.17.0 trusts its peers: a frame header announcing an enormous size
// makes it allocate that much, a malformed READY command makes its metadata
// parser index out of range, and a peer that connects and stays silent
// blocks the accept loop. Any of these would take the kernel down from the
// wire. So the kernel's sockets listen through these transports, which
// check the raw ZMTP byte stream (greeting, frame headers, command bodies)
// and cut a connection off before zmq4 sees anything it cannot handle.
const (
	guardTCP = "grundy-tcp"
	guardIPC = "grundy-ipc"
)

// Limits enforced on the raw stream.
const (
	maxMessageBytes  = 256 << 20 // one multipart message, all frames
	maxCommandBytes  = 64 << 10  // one ZMTP command (READY, PING, ...)
	handshakeTimeout = 10 * time.Second
	zmtpGreetingLen  = 64
)

var registerOnce sync.Once

func registerGuardedTransports() {
	registerOnce.Do(func() {
		// Errors here mean the names are already registered, which only a
		// second registration in this process could cause.
		_ = zmq4.RegisterTransport(guardTCP, guardTransport{network: "tcp"})
		_ = zmq4.RegisterTransport(guardIPC, guardTransport{network: "unix"})
	})
}

type guardTransport struct{ network string }

func (t guardTransport) Dial(ctx context.Context, d transport.Dialer, addr string) (net.Conn, error) {
	c, err := d.DialContext(ctx, t.network, addr)
	if err != nil {
		return nil, err
	}
	return newGuardConn(c), nil
}

func (t guardTransport) Listen(ctx context.Context, addr string) (net.Listener, error) {
	if t.network == "unix" {
		// A socket file left by a crashed kernel would make bind fail;
		// libzmq unlinks it too.
		if fi, err := os.Lstat(addr); err == nil && fi.Mode()&os.ModeSocket != 0 {
			_ = os.Remove(addr)
		}
	}
	l, err := net.Listen(t.network, addr)
	if err != nil {
		return nil, err
	}
	return newGuardListener(l), nil
}

func (t guardTransport) Addr(ep string) (string, error) {
	if t.network == "tcp" {
		if _, _, err := net.SplitHostPort(ep); err != nil {
			return "", fmt.Errorf("bad tcp address %q: %w", ep, err)
		}
	}
	return ep, nil
}

// guardListener hands zmq4 only connections whose peer has completed its
// side of the handshake (greeting and READY). zmq4 v0.17.0 handshakes in
// its accept loop, one connection at a time, so a client that connects
// and says nothing would hold up every client after it until it timed
// out; here each connection waits in its own goroutine instead.
type guardListener struct {
	net.Listener
	ready chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newGuardListener(l net.Listener) *guardListener {
	g := &guardListener{Listener: l, ready: make(chan net.Conn), done: make(chan struct{})}
	go g.acceptLoop()
	return g
}

func (l *guardListener) acceptLoop() {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			select {
			case <-l.done:
				return
			default:
			}
			if errors.Is(err, net.ErrClosed) {
				l.Close()
				return
			}
			time.Sleep(10 * time.Millisecond) // EMFILE and the like: do not spin
			continue
		}
		go l.handshake(c)
	}
}

// handshake sends the kernel's greeting at once (the bytes zmq4 will send,
// which the connection then swallows), and waits for the peer's greeting
// and READY before handing the connection to zmq4, which then finds
// everything it needs already there.
func (l *guardListener) handshake(c net.Conn) {
	g := newGuardConn(c)
	_ = c.SetDeadline(time.Now().Add(handshakeTimeout))
	if _, err := c.Write(zmtpGreeting); err != nil {
		c.Close()
		return
	}
	g.swallow = zmtpGreeting
	g.mu.Lock()
	var err error
	for err == nil && !g.f.handshakeDone {
		err = g.fill()
	}
	g.mu.Unlock()
	if err != nil {
		if !errors.Is(err, errZMTP) {
			logf("dropping a ZeroMQ connection from %s: no handshake (%v)", c.RemoteAddr(), err)
		}
		c.Close()
		return
	}
	_ = c.SetDeadline(time.Time{})
	select {
	case l.ready <- g:
	case <-l.done:
		c.Close()
	}
}

func (l *guardListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ready:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *guardListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// zmtpGreeting is the ZMTP 3.0 greeting zmq4 v0.17.0 sends for the NULL
// mechanism: signature, version 3.0, "NULL", as-server 0, filler.
var zmtpGreeting = func() []byte {
	g := make([]byte, zmtpGreetingLen)
	g[0], g[9], g[10], g[11] = 0xff, 0x7f, 3, 0
	copy(g[12:], "NULL")
	return g
}()

// guardConn passes through only bytes it has checked.
type guardConn struct {
	net.Conn
	mu      sync.Mutex
	f       zmtpFilter
	raw     []byte // read from the peer, not yet checked
	ready   []byte // checked, not yet handed to zmq4
	buf     []byte
	failure error
	// swallow is what the guard already sent for zmq4 (the greeting):
	// zmq4's own copy of it is not sent twice.
	wmu     sync.Mutex
	swallow []byte
}

func newGuardConn(c net.Conn) *guardConn {
	return &guardConn{Conn: c, buf: make([]byte, 64<<10)}
}

func (g *guardConn) Read(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for len(g.ready) == 0 {
		if err := g.fill(); err != nil && len(g.ready) == 0 {
			return 0, err
		}
	}
	n := copy(p, g.ready)
	g.ready = g.ready[n:]
	if len(g.ready) == 0 {
		g.ready = nil
	}
	return n, nil
}

// fill reads once from the peer and releases what the filter accepts;
// g.mu is held.
func (g *guardConn) fill() error {
	if g.failure != nil {
		return g.failure
	}
	n, err := g.Conn.Read(g.buf)
	if n > 0 {
		g.raw = append(g.raw, g.buf[:n]...)
		release, ferr := g.f.feed(g.raw)
		g.ready = append(g.ready, g.raw[:release]...)
		g.raw = append(g.raw[:0], g.raw[release:]...)
		if ferr != nil {
			logf("dropping a ZeroMQ connection from %s: %v", g.Conn.RemoteAddr(), ferr)
			g.failure = ferr
			_ = g.Conn.Close()
			return ferr
		}
	}
	return err
}

func (g *guardConn) Write(p []byte) (int, error) {
	g.wmu.Lock()
	if len(g.swallow) > 0 {
		n := min(len(p), len(g.swallow))
		if !bytes.Equal(p[:n], g.swallow[:n]) {
			g.wmu.Unlock()
			return 0, fmt.Errorf("zmq4's greeting differs from the one the guard sent for it")
		}
		g.swallow = g.swallow[n:]
		g.wmu.Unlock()
		if n == len(p) {
			return n, nil
		}
		m, err := g.Conn.Write(p[n:])
		return n + m, err
	}
	g.wmu.Unlock()
	return g.Conn.Write(p)
}

// zmtpFilter follows the ZMTP 3.x framing of the inbound stream.
type zmtpFilter struct {
	greetingLeft  int // bytes of the greeting still to pass
	started       bool
	bodyLeft      uint64 // bytes of the current data frame still to pass
	msgBytes      uint64 // size of the multipart message so far
	handshakeDone bool
}

var errZMTP = errors.New("malformed ZMTP stream")

// feed looks at the unchecked bytes b and returns how many of them may be
// passed on; an error means the connection must be dropped.
func (f *zmtpFilter) feed(b []byte) (int, error) {
	if !f.started {
		f.started = true
		f.greetingLeft = zmtpGreetingLen
	}
	pos := 0
	for pos < len(b) {
		switch {
		case f.greetingLeft > 0:
			n := min(f.greetingLeft, len(b)-pos)
			if f.greetingLeft == zmtpGreetingLen && b[pos] != 0xff {
				return 0, fmt.Errorf("%w: not a ZMTP greeting", errZMTP)
			}
			f.greetingLeft -= n
			pos += n
		case f.bodyLeft > 0:
			n := min(f.bodyLeft, uint64(len(b)-pos))
			f.bodyLeft -= n
			pos += int(n)
		default:
			flag := b[pos]
			if flag&^0x07 != 0 {
				return pos, fmt.Errorf("%w: reserved frame flag bits %#x", errZMTP, flag)
			}
			more, long, cmd := flag&1 != 0, flag&2 != 0, flag&4 != 0
			hl := 2
			if long {
				hl = 9
			}
			if len(b)-pos < hl {
				return pos, nil
			}
			var size uint64
			if long {
				size = binary.BigEndian.Uint64(b[pos+1 : pos+9])
			} else {
				size = uint64(b[pos+1])
			}
			if cmd {
				if more {
					return pos, fmt.Errorf("%w: command frame with MORE set", errZMTP)
				}
				if size > maxCommandBytes {
					return pos, fmt.Errorf("%w: %d-byte command, more than %d", errZMTP, size, maxCommandBytes)
				}
				if uint64(len(b)-pos-hl) < size {
					return pos, nil // wait for the whole command
				}
				body := b[pos+hl : pos+hl+int(size)]
				if err := checkCommand(body); err != nil {
					return pos, err
				}
				if len(body) > 0 && int(body[0]) < len(body) && string(body[1:1+int(body[0])]) == "READY" {
					f.handshakeDone = true
				}
				pos += hl + int(size)
				continue
			}
			if f.msgBytes+size > maxMessageBytes || size > maxMessageBytes {
				return pos, fmt.Errorf("%w: message larger than %d bytes", errZMTP, maxMessageBytes)
			}
			f.msgBytes += size
			if !more {
				f.msgBytes = 0
			}
			f.bodyLeft = size
			pos += hl
		}
	}
	return pos, nil
}

// checkCommand validates a command body; for READY (the NULL-security
// handshake) also its metadata, which zmq4 parses without bounds checks.
func checkCommand(body []byte) error {
	if len(body) == 0 {
		return fmt.Errorf("%w: empty command", errZMTP)
	}
	n := int(body[0])
	if n == 0 || 1+n > len(body) {
		return fmt.Errorf("%w: bad command name length", errZMTP)
	}
	if string(body[1:1+n]) != "READY" {
		return nil
	}
	p := body[1+n:]
	for len(p) > 0 {
		kl := int(p[0])
		if kl == 0 || 1+kl+4 > len(p) {
			return fmt.Errorf("%w: bad READY property name", errZMTP)
		}
		vl := binary.BigEndian.Uint32(p[1+kl : 1+kl+4])
		if uint64(vl) > uint64(len(p)-1-kl-4) {
			return fmt.Errorf("%w: bad READY property value", errZMTP)
		}
		p = p[1+kl+4+int(vl):]
	}
	return nil
}
