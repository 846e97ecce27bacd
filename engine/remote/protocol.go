// Package remote runs an engine session in a child process that the caller
// supervises: Go cannot recover from some failures inside a process (stack
// exhaustion, out of memory, concurrent map writes, unlocking an unlocked
// mutex), so the kernel keeps what must survive and the interpreter lives
// where it may die. The child is this same binary, re-executed with a
// hidden subcommand (see Serve); the parent talks to it over two pipes with
// the frames defined here.
//
// Three layers: Process (client.go) is one child seen as an
// engine.Session, and reports the child's death as a *Crash in plain
// words (crash.go); Supervisor (supervisor.go) starts a new child when one
// dies and rebuilds the session by replaying the cells that succeeded;
// Serve (server.go) is the child's side.
package remote

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"grundy/engine"
)

// A frame is a 4-byte little-endian length n, then n bytes: one kind byte
// and its payload. Text output travels as raw bytes (a cell may print
// hundreds of megabytes, which must not be escaped into JSON and back);
// everything else is JSON.
const (
	// maxFrame bounds one frame. It matches the largest message the
	// kernel accepts from the wire; the child cuts output into much
	// smaller frames and refuses to send a display larger than this.
	maxFrame = 256 << 20
	// textChunk is the most text one output frame carries.
	textChunk = 64 << 10
)

// Frame kinds, parent to child.
const (
	kExecute    = 'x' // execRequest
	kInterrupt  = 'i' // no payload
	kInputReply = 'n' // inputReply
	kComplete   = 'k' // toolRequest
	kInspect    = 'p' // toolRequest
	kIsComplete = 's' // toolRequest
	kClose      = 'q' // no payload
)

// Frame kinds, child to parent.
const (
	kReady    = 'r' // readyMsg
	kStdout   = 'o' // raw text
	kStderr   = 'e' // raw text
	kDisplay  = 'd' // displayMsg
	kClear    = 'l' // clearMsg
	kInput    = 'I' // inputRequest
	kResult   = 'R' // resultMsg
	kToolDone = 'T' // toolReply
)

type execRequest struct {
	Code string `json:"code"`
	// Scrollback: the cell's Output is an engine.Scrollback that keeps
	// what it showed (a terminal).
	Scrollback bool `json:"scrollback,omitempty"`
}

type inputReply struct {
	ID    uint64 `json:"id"`
	Value string `json:"value"`
	Err   string `json:"err,omitempty"`
}

type toolRequest struct {
	ID     uint64 `json:"id"`
	Code   string `json:"code"`
	Cursor int    `json:"cursor"`
	Detail int    `json:"detail,omitempty"`
}

type readyMsg struct {
	Err string `json:"err,omitempty"`
}

type displayMsg struct {
	Data     engine.Bundle  `json:"data"`
	Metadata map[string]any `json:"metadata,omitempty"`
	ID       string         `json:"id,omitempty"`
	Update   bool           `json:"update,omitempty"`
}

type clearMsg struct {
	Wait bool `json:"wait"`
}

type inputRequest struct {
	ID       uint64 `json:"id"`
	Prompt   string `json:"prompt"`
	Password bool   `json:"password,omitempty"`
}

type resultMsg struct {
	Value    engine.Bundle     `json:"value,omitempty"`
	Metadata map[string]any    `json:"metadata,omitempty"`
	Err      *engine.EvalError `json:"err,omitempty"`
}

type toolReply struct {
	ID         uint64             `json:"id"`
	Completion *engine.Completion `json:"completion,omitempty"`
	Inspect    engine.Bundle      `json:"inspect,omitempty"`
	Found      bool               `json:"found,omitempty"`
	Status     string             `json:"status,omitempty"`
	Indent     string             `json:"indent,omitempty"`
}

// frame is one decoded frame: its kind and the message it carries (a
// string for text kinds, nil for kinds without payload, else a pointer to
// the struct above).
type frame struct {
	kind byte
	msg  any
}

var errFrame = errors.New("engine protocol")

// readFrame reads one raw frame. It never allocates more than the frame's
// announced size, which is checked against maxFrame first.
func readFrame(r *bufio.Reader) (kind byte, payload []byte, err error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := binary.LittleEndian.Uint32(hdr[:])
	if n == 0 || n > maxFrame {
		return 0, nil, fmt.Errorf("%w: frame of %d bytes", errFrame, n)
	}
	kind, err = r.ReadByte()
	if err != nil {
		return 0, nil, unexpected(err)
	}
	// Grow with what arrives, so a damaged length cannot make a short
	// stream allocate the maximum.
	size := int(n - 1)
	payload = make([]byte, 0, min(size, 1<<20))
	for len(payload) < size {
		m := min(size-len(payload), 1<<20)
		payload = slices.Grow(payload, m)
		if _, err := io.ReadFull(r, payload[len(payload):len(payload)+m]); err != nil {
			return 0, nil, unexpected(err)
		}
		payload = payload[:len(payload)+m]
	}
	return kind, payload, nil
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// decode turns a raw frame into its message, checking that the kind is
// known and the payload well formed.
func decode(kind byte, payload []byte) (frame, error) {
	var v any
	switch kind {
	case kStdout, kStderr:
		return frame{kind, string(payload)}, nil
	case kInterrupt, kClose:
		if len(payload) != 0 {
			return frame{}, fmt.Errorf("%w: %q frame with a payload", errFrame, kind)
		}
		return frame{kind: kind}, nil
	case kExecute:
		v = new(execRequest)
	case kInputReply:
		v = new(inputReply)
	case kComplete, kInspect, kIsComplete:
		v = new(toolRequest)
	case kReady:
		v = new(readyMsg)
	case kDisplay:
		v = new(displayMsg)
	case kClear:
		v = new(clearMsg)
	case kInput:
		v = new(inputRequest)
	case kResult:
		v = new(resultMsg)
	case kToolDone:
		v = new(toolReply)
	default:
		return frame{}, fmt.Errorf("%w: unknown frame kind %#x", errFrame, kind)
	}
	if err := json.Unmarshal(payload, v); err != nil {
		return frame{}, fmt.Errorf("%w: %q frame: %v", errFrame, kind, err)
	}
	if r, ok := v.(*resultMsg); ok && r.Err != nil && r.Err.Name == "" {
		return frame{}, fmt.Errorf("%w: result with an unnamed error", errFrame)
	}
	return frame{kind, v}, nil
}

// encodeFrame builds the bytes of one frame: text kinds take a string,
// kinds without payload nil, the others their message.
func encodeFrame(kind byte, msg any) ([]byte, error) {
	var payload []byte
	switch m := msg.(type) {
	case nil:
	case string:
		payload = []byte(m)
	default:
		var err error
		if payload, err = json.Marshal(m); err != nil {
			return nil, err
		}
	}
	if len(payload)+1 > maxFrame {
		return nil, fmt.Errorf("%w: a %d-byte message is larger than the %d-byte limit", errFrame, len(payload), maxFrame)
	}
	b := make([]byte, 5+len(payload))
	binary.LittleEndian.PutUint32(b, uint32(len(payload)+1))
	b[4] = kind
	copy(b[5:], payload)
	return b, nil
}
