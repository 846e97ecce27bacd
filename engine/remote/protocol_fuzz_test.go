package remote

import (
	"bufio"
	"bytes"
	"testing"
)

// FuzzDecodeFrames drives the engine-process protocol decoder with
// arbitrary bytes: it must return frames or an error, never panic, and
// never allocate more than a frame's checked size.
func FuzzDecodeFrames(f *testing.F) {
	for _, fr := range []struct {
		kind byte
		msg  any
	}{
		{kExecute, execRequest{Code: "1 + 1"}},
		{kStdout, "hello\n"},
		{kResult, resultMsg{Value: map[string]any{"text/plain": "2"}}},
		{kDisplay, displayMsg{Data: map[string]any{"image/png": "iVBOR"}, ID: "bar", Update: true}},
		{kInput, inputRequest{ID: 1, Prompt: "name?"}},
		{kToolDone, toolReply{ID: 3, Status: "complete"}},
		{kInterrupt, nil},
	} {
		b, err := encodeFrame(fr.kind, fr.msg)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{0xff, 0xff, 0xff, 0x7f, 'o'})
	f.Add([]byte{2, 0, 0, 0, 'R', '{'})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(bytes.NewReader(data))
		for {
			kind, payload, err := readFrame(r)
			if err != nil {
				return
			}
			fr, err := decode(kind, payload)
			if err != nil {
				continue
			}
			// What decodes must encode again to a frame that decodes.
			b, err := encodeFrame(fr.kind, fr.msg)
			if err != nil {
				t.Fatalf("re-encoding %q: %v", fr.kind, err)
			}
			k2, p2, err := readFrame(bufio.NewReader(bytes.NewReader(b)))
			if err != nil || k2 != fr.kind {
				t.Fatalf("re-read %q: %v", fr.kind, err)
			}
			if _, err := decode(k2, p2); err != nil {
				t.Fatalf("re-decode %q: %v", fr.kind, err)
			}
		}
	})
}
