package kernel

import (
	"context"
	"encoding/binary"
	"net"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

func greeting() []byte {
	g := make([]byte, 64)
	g[0], g[9], g[10], g[11] = 0xff, 0x7f, 3, 0
	copy(g[12:], "NULL")
	return g
}

func readyCommand(props ...string) []byte {
	body := []byte{5}
	body = append(body, "READY"...)
	for i := 0; i+1 < len(props); i += 2 {
		body = append(body, byte(len(props[i])))
		body = append(body, props[i]...)
		body = binary.BigEndian.AppendUint32(body, uint32(len(props[i+1])))
		body = append(body, props[i+1]...)
	}
	return append([]byte{0x04, byte(len(body))}, body...)
}

// feedAll runs the filter as guardConn does, with the stream cut into
// pieces of the given size; it returns how many bytes were released.
func feedAll(stream []byte, piece int) (int, error) {
	var f zmtpFilter
	var raw []byte
	released := 0
	for len(stream) > 0 {
		n := min(piece, len(stream))
		raw = append(raw, stream[:n]...)
		stream = stream[n:]
		r, err := f.feed(raw)
		released += r
		raw = raw[r:]
		if err != nil {
			return released, err
		}
	}
	return released, nil
}

func TestZMTPFilter(t *testing.T) {
	ok := append(greeting(), readyCommand("Socket-Type", "DEALER", "Identity", "abc")...)
	ok = append(ok, 0x01, 3, 'a', 'b', 'c', 0x00, 0)
	long := make([]byte, 9)
	long[0] = 0x02
	binary.BigEndian.PutUint64(long[1:], 1<<62)
	cases := []struct {
		name    string
		stream  []byte
		wantErr bool
	}{
		{"valid handshake and message", ok, false},
		{"not a greeting", append([]byte{0x00}, ok[1:]...), true},
		{"huge frame", append(append(greeting(), readyCommand("Socket-Type", "DEALER")...), long...), true},
		{"READY property overruns", append(greeting(), 0x04, 12, 5, 'R', 'E', 'A', 'D', 'Y', 20, 'a', 'b', 0, 0, 0), true},
		{"READY name overruns", append(greeting(), 0x04, 11, 5, 'R', 'E', 'A', 'D', 'Y', 5, 'a', 'b', 'c', 'd'), true},
		{"READY value overruns", append(greeting(), 0x04, 11, 5, 'R', 'E', 'A', 'D', 'Y', 1, 'a', 0, 0, 0xff, 0xff), true},
		{"command name overruns", append(greeting(), 0x04, 2, 9, 'R'), true},
		{"reserved flag bits", append(greeting(), 0x80, 0), true},
		{"command with MORE", append(greeting(), 0x05, 0), true},
	}
	for _, tc := range cases {
		for _, piece := range []int{1, 7, 1 << 20} {
			n, err := feedAll(tc.stream, piece)
			if (err != nil) != tc.wantErr {
				t.Errorf("%s (pieces of %d): err = %v", tc.name, piece, err)
			}
			if !tc.wantErr && n != len(tc.stream) {
				t.Errorf("%s (pieces of %d): released %d of %d bytes", tc.name, piece, n, len(tc.stream))
			}
		}
	}
}

// FuzzZMTPFilter checks that the raw-stream guard never panics and decides
// the same whether bytes arrive at once or one by one.
func FuzzZMTPFilter(f *testing.F) {
	f.Add(append(greeting(), readyCommand("Socket-Type", "ROUTER")...))
	f.Add(append(greeting(), 0x04, 12, 5, 'R', 'E', 'A', 'D', 'Y', 20, 'a', 'b', 0, 0, 0))
	f.Fuzz(func(t *testing.T, data []byte) {
		n1, e1 := feedAll(data, len(data)+1)
		n2, e2 := feedAll(data, 1)
		if (e1 == nil) != (e2 == nil) || (e1 == nil && n1 != n2) {
			t.Fatalf("whole: %d %v; bytewise: %d %v", n1, e1, n2, e2)
		}
	})
}

// TestGuardKeepsSocketAlive attacks a guarded ROUTER with malformed
// handshakes and an oversized frame, then checks a well-behaved peer is
// still served.
func TestGuardKeepsSocketAlive(t *testing.T) {
	registerGuardedTransports()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	router := zmq4.NewRouter(ctx, zmq4.WithLogger(discardLogger()))
	defer router.Close()
	if err := router.Listen(guardTCP + "://127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	addr := router.Addr().String()
	long := make([]byte, 9)
	long[0] = 0x02
	binary.BigEndian.PutUint64(long[1:], 1<<50)
	attacks := [][]byte{
		// Each of the first two panics zmq4 v0.17.0 unguarded.
		append(greeting(), 0x04, 11, 5, 'R', 'E', 'A', 'D', 'Y', 5, 'a', 'b', 'c', 'd'),
		append(append(greeting(), readyCommand("Socket-Type", "DEALER", "Identity", "evil")...), long...),
		[]byte("GET / HTTP/1.0\r\n\r\n"),
	}
	for _, a := range attacks {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = c.Write(a)
		time.Sleep(20 * time.Millisecond)
		c.Close()
	}
	dealer := zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("good")))
	defer dealer.Close()
	if err := dealer.Dial("tcp://" + addr); err != nil {
		t.Fatal(err)
	}
	if err := dealer.Send(zmq4.NewMsgString("ping")); err != nil {
		t.Fatal(err)
	}
	got := make(chan zmq4.Msg, 1)
	go func() {
		m, err := router.Recv()
		if err == nil {
			got <- m
		}
	}()
	select {
	case m := <-got:
		if len(m.Frames) != 2 || string(m.Frames[0]) != "good" || string(m.Frames[1]) != "ping" {
			t.Errorf("router got %q", m.Frames)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a good peer was not served after the attacks")
	}
}

// A client that connects and says nothing (or stops halfway through its
// greeting) must not hold up the clients after it.
func TestGuardSilentClientsDoNotDelayOthers(t *testing.T) {
	registerGuardedTransports()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	router := zmq4.NewRouter(ctx, zmq4.WithLogger(discardLogger()))
	defer router.Close()
	if err := router.Listen(guardTCP + "://127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	addr := router.Addr().String()
	for _, said := range [][]byte{nil, greeting()[:10], greeting()} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if said != nil {
			c.Write(said)
		}
	}
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	dealer := zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("good")), zmq4.WithLogger(discardLogger()))
	defer dealer.Close()
	if err := dealer.Dial("tcp://" + addr); err != nil {
		t.Fatal(err)
	}
	if err := dealer.Send(zmq4.NewMsgString("ping")); err != nil {
		t.Fatal(err)
	}
	got := make(chan zmq4.Msg, 1)
	go func() {
		if m, err := router.Recv(); err == nil {
			got <- m
		}
	}()
	select {
	case m := <-got:
		if string(m.Frames[1]) != "ping" {
			t.Errorf("router got %q", m.Frames)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("a good peer waited %s behind silent ones", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a good peer was not served while silent peers were connected")
	}
}
