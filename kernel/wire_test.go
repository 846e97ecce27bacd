package kernel

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestSigner(t *testing.T) {
	s := NewSigner([]byte("secret"))
	parts := [][]byte{[]byte(`{"a":1}`), []byte(`{}`), []byte(`{}`), []byte(`{"code":"x"}`)}
	good := s.Sign(parts...)
	cases := []struct {
		name string
		sig  []byte
		want bool
	}{
		{"valid", good, true},
		{"upper-case hex", bytes.ToUpper(good), true},
		{"empty", nil, false},
		{"short", good[:10], false},
		{"not hex", bytes.Repeat([]byte("zz"), 32), false},
		{"other key", NewSigner([]byte("other")).Sign(parts...), false},
		{"flipped", append(append([]byte{}, good[:63]...), good[63]^1), false},
	}
	for _, tc := range cases {
		if got := s.Verify(tc.sig, parts...); got != tc.want {
			t.Errorf("%s: Verify = %v, want %v", tc.name, got, tc.want)
		}
	}
	tampered := [][]byte{parts[0], parts[1], parts[2], []byte(`{"code":"y"}`)}
	if s.Verify(good, tampered...) {
		t.Error("a tampered content frame verified")
	}
	none := NewSigner(nil)
	if !none.Verify(nil, parts...) || none.Sign(parts...) != nil {
		t.Error("an empty key must mean no signing")
	}
}

func signedFrames(t testing.TB, s *Signer, ids []string, header, parent, meta, content string, buffers ...string) [][]byte {
	var f [][]byte
	for _, id := range ids {
		f = append(f, []byte(id))
	}
	f = append(f, delimiter, s.Sign([]byte(header), []byte(parent), []byte(meta), []byte(content)), []byte(header), []byte(parent), []byte(meta), []byte(content))
	for _, b := range buffers {
		f = append(f, []byte(b))
	}
	return f
}

const hdr = `{"msg_id":"1","session":"s","username":"u","date":"2026-01-01T00:00:00Z","msg_type":"execute_request","version":"5.3"}`

func TestDecode(t *testing.T) {
	s := NewSigner([]byte("k"))
	m, err := Decode(signedFrames(t, s, []string{"id1", "id2"}, hdr, `{}`, `{}`, `{"code":"1"}`, "buf"), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Identities) != 2 || string(m.Identities[1]) != "id2" || m.Header.MsgType != "execute_request" ||
		string(m.Content) != `{"code":"1"}` || len(m.Buffers) != 1 || string(m.HeaderRaw) != hdr {
		t.Errorf("decoded %+v", m)
	}
	bad := []struct {
		name   string
		frames [][]byte
		want   string
	}{
		{"no delimiter", [][]byte{[]byte("a"), []byte("b")}, "delimiter"},
		{"too few frames", signedFrames(t, s, nil, hdr, `{}`, `{}`, `{}`)[:4], "at least 5"},
		{"bad header json", signedFrames(t, s, nil, `{"msg_id":`, `{}`, `{}`, `{}`), "header"},
		{"no msg_type", signedFrames(t, s, nil, `{"msg_id":"1"}`, `{}`, `{}`, `{}`), "msg_type"},
		{"content not object", signedFrames(t, s, nil, hdr, `{}`, `{}`, `[1]`), "content"},
		{"content invalid", signedFrames(t, s, nil, hdr, `{}`, `{}`, `{"a":}`), "content"},
		{"parent invalid", signedFrames(t, s, nil, hdr, `nope`, `{}`, `{}`), "parent"},
		{"unsigned", append([][]byte{delimiter, nil}, signedFrames(t, s, nil, hdr, `{}`, `{}`, `{}`)[2:]...), "signature"},
		{"too many identities", signedFrames(t, s, strings.Split(strings.Repeat("x,", 100), ","), hdr, `{}`, `{}`, `{}`), "identities"},
	}
	for _, tc := range bad {
		if _, err := Decode(tc.frames, s); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	s := NewSigner([]byte("k"))
	out := &Message{
		Identities: [][]byte{[]byte("peer")},
		Header:     Header{MsgID: newID(), Session: "s", Username: "u", Date: timestamp(time.Now()), MsgType: "stream", Version: ProtocolVersion},
		Parent:     json.RawMessage(hdr),
		Content:    json.RawMessage(`{"name":"stdout","text":"hi"}`),
		Buffers:    [][]byte{{1, 2, 3}},
	}
	frames, err := Encode(out, s)
	if err != nil {
		t.Fatal(err)
	}
	in, err := Decode(frames, s)
	if err != nil {
		t.Fatal(err)
	}
	if in.Header != out.Header || string(in.Parent) != hdr || string(in.Metadata) != "{}" || !bytes.Equal(in.Buffers[0], []byte{1, 2, 3}) {
		t.Errorf("round trip: %+v", in)
	}
	if !strings.HasSuffix(out.Header.Date, "Z") {
		t.Errorf("date %q is not UTC with Z", out.Header.Date)
	}
}

func TestConnectionInfo(t *testing.T) {
	ci, err := ParseConnectionInfo([]byte(`{"transport":"tcp","ip":"127.0.0.1","shell_port":5000,"iopub_port":5001,"stdin_port":5002,"control_port":5003,"hb_port":5004,"key":"k","signature_scheme":"hmac-sha256"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := ci.endpoint(ci.ShellPort); got != guardTCP+"://127.0.0.1:5000" {
		t.Errorf("tcp endpoint = %s", got)
	}
	ci, err = ParseConnectionInfo([]byte(`{"transport":"ipc","ip":"/tmp/kernel-1","shell_port":1,"iopub_port":2,"stdin_port":3,"control_port":4,"hb_port":5,"key":""}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := ci.endpoint(ci.HBPort); got != guardIPC+":///tmp/kernel-1-5" {
		t.Errorf("ipc endpoint = %s", got)
	}
	if got := (&ConnectionInfo{IP: "::1"}).endpoint(9); got != guardTCP+"://[::1]:9" {
		t.Errorf("ipv6 endpoint = %s", got)
	}
	for _, bad := range []string{`{`, `{"transport":"udp"}`, `{"key":"k","signature_scheme":"hmac-md5"}`, `{"shell_port":70000}`} {
		if _, err := ParseConnectionInfo([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// FuzzDecode feeds arbitrary frames to the decoder. Inputs whose first
// byte is odd are re-signed with the test key, so the fuzzer also reaches
// the JSON parsing behind the signature check. Decoding must never panic,
// and whatever decodes must re-encode to the same message.
func FuzzDecode(f *testing.F) {
	s := NewSigner([]byte("fuzz-key"))
	seed := signedFrames(f, s, []string{"id"}, hdr, `{}`, `{}`, `{"code":"1+1","silent":false}`)
	f.Add(append([]byte{1}, bytes.Join(seed, []byte{0})...))
	f.Add(append([]byte{0}, bytes.Join(seed, []byte{0})...))
	f.Add([]byte{1, '<', 'I', 'D', 'S', '|', 'M', 'S', 'G', '>', 0, 0, '{', '}', 0, '{', '}', 0, '{', '}', 0, '{', '}'})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			_, _ = Decode(nil, s)
			return
		}
		resign := data[0]&1 == 1
		frames := bytes.Split(data[1:], []byte{0})
		if resign {
			for i, fr := range frames {
				if bytes.Equal(fr, delimiter) && len(frames) >= i+6 {
					frames[i+1] = s.Sign(frames[i+2], frames[i+3], frames[i+4], frames[i+5])
					break
				}
			}
		}
		m, err := Decode(frames, s)
		if err != nil {
			return
		}
		out, err := Encode(m, s)
		if err != nil {
			t.Fatalf("decoded message does not encode: %v", err)
		}
		m2, err := Decode(out, s)
		if err != nil {
			t.Fatalf("re-encoded message does not decode: %v", err)
		}
		if m2.Header != m.Header || !bytes.Equal(m2.Content, m.Content) || !bytes.Equal(m2.Parent, m.Parent) || len(m2.Identities) != len(m.Identities) {
			t.Fatalf("round trip changed the message")
		}
	})
}

func TestReplayGuard(t *testing.T) {
	g := newReplayGuard(3)
	for _, tc := range []struct {
		sig  string
		want bool
	}{{"a", true}, {"b", true}, {"a", false}, {"c", true}, {"d", true}, {"a", true}, {"d", false}} {
		if got := g.fresh([]byte(tc.sig)); got != tc.want {
			t.Errorf("fresh(%s) = %v, want %v", tc.sig, got, tc.want)
		}
	}
}
