// Package kernel serves the Jupyter messaging protocol (version 5.3) over
// ZeroMQ (github.com/go-zeromq/zmq4) for one grundy session, handing cells
// to an engine.Session. It also writes the "grundy" kernelspec.
//
// The layers, bottom up: guard.go filters raw ZMTP traffic so malformed
// frames cannot reach zmq4's parser; wire.go turns frames into signed
// Messages and back; kernel.go owns the sockets and a dispatch table from
// msg_type to handler; execute.go runs cells and streams their output.
package kernel

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"sync"
	"time"

	"grundy/stdlib/human"
)

// ProtocolVersion is the Jupyter messaging protocol version spoken.
const ProtocolVersion = "5.3"

// delimiter separates ZeroMQ routing identities from the signed message.
var delimiter = []byte("<IDS|MSG>")

// Header is a Jupyter message header.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is one Jupyter message. Parent, Metadata and Content stay raw
// JSON so that an incoming parent header is echoed byte for byte and each
// handler decodes only the content it understands.
type Message struct {
	Identities [][]byte
	Header     Header
	HeaderRaw  json.RawMessage // the header as received (nil for outgoing)
	Parent     json.RawMessage
	Metadata   json.RawMessage
	Content    json.RawMessage
	Buffers    [][]byte
	signature  []byte // as received; for replay detection
}

// Limits on what one incoming message may contain; anything larger is
// dropped before JSON decoding.
const (
	maxIdentities = 64
	maxFrames     = 1024
)

// ErrBadSignature reports a message whose HMAC did not match.
var ErrBadSignature = errors.New("bad or missing HMAC signature")

// Signer signs and verifies messages with HMAC-SHA256. An empty key means
// messages are neither signed nor checked, as the protocol prescribes.
type Signer struct {
	key  []byte
	pool sync.Pool
}

// NewSigner returns a signer for key (the connection file's "key").
func NewSigner(key []byte) *Signer {
	s := &Signer{key: append([]byte(nil), key...)}
	s.pool.New = func() any { return hmac.New(sha256.New, s.key) }
	return s
}

// Enabled reports whether messages are signed.
func (s *Signer) Enabled() bool { return len(s.key) > 0 }

// Sign returns the hex signature of the four JSON frames.
func (s *Signer) Sign(parts ...[]byte) []byte {
	if !s.Enabled() {
		return nil
	}
	sum := s.sum(parts)
	out := make([]byte, hex.EncodedLen(len(sum)))
	hex.Encode(out, sum)
	return out
}

func (s *Signer) sum(parts [][]byte) []byte {
	h := s.pool.Get().(hash.Hash)
	h.Reset()
	for _, p := range parts {
		h.Write(p)
	}
	sum := h.Sum(nil)
	s.pool.Put(h)
	return sum
}

// Verify checks sig (hex) against the frames in constant time.
func (s *Signer) Verify(sig []byte, parts ...[]byte) bool {
	if !s.Enabled() {
		return true
	}
	if len(sig) != hex.EncodedLen(sha256.Size) {
		return false
	}
	got := make([]byte, sha256.Size)
	if _, err := hex.Decode(got, sig); err != nil {
		return false
	}
	return hmac.Equal(got, s.sum(parts))
}

// Decode parses the frames of one ZeroMQ multipart message (as a ROUTER
// socket delivers it: identities first) and checks the signature. It never
// panics on any input.
func Decode(frames [][]byte, s *Signer) (*Message, error) {
	if len(frames) > maxFrames {
		return nil, fmt.Errorf("message has %d frames, more than %d", len(frames), maxFrames)
	}
	d := -1
	for i, f := range frames {
		if bytes.Equal(f, delimiter) {
			d = i
			break
		}
	}
	if d < 0 {
		return nil, errors.New("no <IDS|MSG> delimiter")
	}
	if d > maxIdentities {
		return nil, fmt.Errorf("%d routing identities, more than %d", d, maxIdentities)
	}
	rest := frames[d+1:]
	if len(rest) < 5 {
		return nil, fmt.Errorf("%s after the delimiter, want at least 5 (signature, header, parent, metadata, content)", human.Quantity(len(rest), "frame"))
	}
	if !s.Verify(rest[0], rest[1], rest[2], rest[3], rest[4]) {
		return nil, ErrBadSignature
	}
	m := &Message{Identities: frames[:d:d], signature: rest[0]}
	if err := json.Unmarshal(rest[1], &m.Header); err != nil {
		return nil, fmt.Errorf("header: %v", err)
	}
	if m.Header.MsgType == "" {
		return nil, errors.New("header has no msg_type")
	}
	m.HeaderRaw = rest[1]
	for _, f := range []struct {
		dst *json.RawMessage
		src []byte
		nam string
	}{{&m.Parent, rest[2], "parent_header"}, {&m.Metadata, rest[3], "metadata"}, {&m.Content, rest[4], "content"}} {
		if !json.Valid(f.src) {
			return nil, fmt.Errorf("%s is not valid JSON", f.nam)
		}
		if len(bytes.TrimSpace(f.src)) == 0 || bytes.TrimSpace(f.src)[0] != '{' {
			return nil, fmt.Errorf("%s is not a JSON object", f.nam)
		}
		*f.dst = f.src
	}
	if len(rest) > 5 {
		m.Buffers = rest[5:]
	}
	return m, nil
}

// Encode returns the frames for m, signed with s.
func Encode(m *Message, s *Signer) ([][]byte, error) {
	header := []byte(m.HeaderRaw)
	if header == nil {
		var err error
		if header, err = json.Marshal(m.Header); err != nil {
			return nil, err
		}
	}
	parent := orEmpty(m.Parent)
	meta := orEmpty(m.Metadata)
	content := orEmpty(m.Content)
	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, delimiter, s.Sign(header, parent, meta, content), header, parent, meta, content)
	frames = append(frames, m.Buffers...)
	return frames, nil
}

func orEmpty(r json.RawMessage) []byte {
	if len(r) == 0 {
		return []byte("{}")
	}
	return r
}

// newID returns a random UUID-4 string for msg_id and session ids.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// timestamp formats t as Jupyter wants: ISO 8601 in UTC with microseconds
// and a Z.
func timestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000Z")
}

// replayGuard remembers the signatures of recent messages: a signed
// message captured off the wire and sent again is dropped, as
// jupyter_client's Session does. Every genuine message has a fresh msg_id
// in its signed header, so its signature never repeats.
type replayGuard struct {
	mu   sync.Mutex
	seen map[string]struct{}
	ring []string
	next int
}

func newReplayGuard(n int) *replayGuard {
	return &replayGuard{seen: make(map[string]struct{}, n), ring: make([]string, n)}
}

// fresh records sig and reports whether it was new.
func (g *replayGuard) fresh(sig []byte) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := string(sig)
	if _, dup := g.seen[s]; dup {
		return false
	}
	if old := g.ring[g.next]; old != "" {
		delete(g.seen, old)
	}
	g.ring[g.next] = s
	g.next = (g.next + 1) % len(g.ring)
	g.seen[s] = struct{}{}
	return true
}
