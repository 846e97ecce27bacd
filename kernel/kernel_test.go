package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"grundy/engine"
)

// fakeSession is an in-process engine double. Each line of a cell is a
// command: "print TEXT", "eprint TEXT", "value TEXT", "html TEXT" (a value
// with two MIME types and metadata), "fail TEXT", "block", "input PROMPT",
// "display ID", "update ID", "clear", "flood N", "panic".
type fakeSession struct {
	mu     sync.Mutex
	closed bool
	ran    []string // the code of every Execute, in order
}

func (f *fakeSession) Execute(ctx context.Context, code string, out engine.Output) (engine.Result, error) {
	f.mu.Lock()
	f.ran = append(f.ran, code)
	f.mu.Unlock()
	var res engine.Result
	for _, line := range strings.Split(code, "\n") {
		cmd, arg, _ := strings.Cut(line, " ")
		switch cmd {
		case "print":
			out.Stdout(arg)
		case "eprint":
			out.Stderr(arg)
		case "value":
			res.Value = engine.Bundle{"text/plain": arg}
		case "html":
			res.Value = engine.Bundle{"text/plain": arg, "text/html": "<b>" + arg + "</b>"}
			res.Metadata = map[string]any{"text/html": map[string]any{"isolated": true}}
		case "fail":
			return res, &engine.EvalError{Name: "TestError", Value: arg, Traceback: []string{"TestError: " + arg, "  at line 1"}}
		case "block":
			<-ctx.Done()
			return res, &engine.EvalError{Name: "Interrupted", Value: "interrupted"}
		case "input":
			s, err := out.Input(arg, false)
			if err != nil {
				return res, err
			}
			out.Stdout("got " + s)
		case "display":
			out.Display(engine.Bundle{"text/plain": "shown"}, nil, arg, false)
		case "update":
			out.Display(engine.Bundle{"text/plain": "updated"}, nil, arg, true)
		case "updates":
			var n int
			fmt.Sscan(arg, &n)
			out.Display(engine.Bundle{"text/plain": "bar"}, nil, "bar", false)
			for i := 1; i <= n; i++ {
				out.Display(engine.Bundle{"text/plain": fmt.Sprint(i)}, nil, "bar", true)
			}
		case "displays":
			var n int
			fmt.Sscan(arg, &n)
			for i := 0; i < n; i++ {
				out.Display(engine.Bundle{"text/plain": fmt.Sprint(i)}, nil, "", false)
			}
		case "clear":
			out.ClearOutput(true)
		case "flood":
			var n int
			fmt.Sscan(arg, &n)
			out.Stdout(strings.Repeat("é", n/2))
		case "panic":
			panic("boom")
		case "":
		default:
			return res, fmt.Errorf("fake engine: unknown command %q", cmd)
		}
	}
	return res, nil
}

func (f *fakeSession) Complete(code string, cursor int) engine.Completion {
	return engine.Completion{Matches: []string{"Println", "Printf"}, CursorStart: cursor - 5, CursorEnd: cursor}
}

func (f *fakeSession) Inspect(code string, cursor, detail int) (engine.Bundle, bool) {
	if strings.Contains(code, "Println") {
		return engine.Bundle{"text/plain": fmt.Sprintf("func Println(a ...any) (detail %d)", detail)}, true
	}
	return nil, false
}

func (f *fakeSession) IsComplete(code string) (string, string) {
	if strings.HasSuffix(code, "{") {
		return "incomplete", "\t"
	}
	return "complete", ""
}

func (f *fakeSession) Close() error {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	return nil
}

// recorder is a wire that decodes and keeps everything the kernel sends.
type recorder struct {
	t      *testing.T
	signer *Signer
	c      chan sent
}

type sent struct {
	ch channel
	m  *Message
}

func (r *recorder) send(ch channel, frames [][]byte) error {
	if ch == iopubCh {
		// PUB messages carry a topic instead of routing identities.
		frames = frames[1:]
	}
	m, err := Decode(frames, r.signer)
	if err != nil {
		r.t.Errorf("kernel sent an undecodable message on %s: %v", ch, err)
		return err
	}
	r.c <- sent{ch, m}
	return nil
}

const testKey = "a0436f6c-1916-498b-8eb9-e81ab9368e84"

type harness struct {
	t   *testing.T
	k   *Kernel
	rec *recorder
	s   *Signer
}

func newHarness(t *testing.T, sess engine.Session, maxOut int) *harness {
	t.Helper()
	s := NewSigner([]byte(testKey))
	rec := &recorder{t: t, signer: s, c: make(chan sent, 100000)}
	k := newKernel(Config{
		Conn:          &ConnectionInfo{Key: testKey},
		NewSession:    func() (engine.Session, error) { return sess, nil },
		Version:       "test",
		MaxCellOutput: maxOut,
	}, rec)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); k.shellWorker(ctx) }()
	go k.controlWorker(ctx)
	t.Cleanup(func() { cancel(); <-done })
	return &harness{t: t, k: k, rec: rec, s: s}
}

// request builds and signs frames for a request from client identity id.
func (h *harness) request(id, msgType string, content any) ([][]byte, string) {
	h.t.Helper()
	body, err := json.Marshal(content)
	if err != nil {
		h.t.Fatal(err)
	}
	msgID := newID()
	m := &Message{
		Identities: [][]byte{[]byte(id)},
		Header:     Header{MsgID: msgID, Session: "client-session", Username: "tester", Date: timestamp(time.Now()), MsgType: msgType, Version: "5.3"},
		Parent:     json.RawMessage(`{}`),
		Metadata:   json.RawMessage(`{}`),
		Content:    body,
	}
	frames, err := Encode(m, h.s)
	if err != nil {
		h.t.Fatal(err)
	}
	return frames, msgID
}

func (h *harness) send(ch channel, msgType string, content any) string {
	frames, id := h.request("client-1", msgType, content)
	h.k.receive(ch, frames)
	return id
}

// until collects what the kernel sends in reply to msgID up to and
// including its idle status.
func (h *harness) until(msgID string) []sent {
	h.t.Helper()
	var got []sent
	timeout := time.After(5 * time.Second)
	for {
		select {
		case s := <-h.rec.c:
			got = append(got, s)
			var p Header
			_ = json.Unmarshal(s.m.Parent, &p)
			if s.ch == iopubCh && s.m.Header.MsgType == "status" && p.MsgID == msgID && strings.Contains(string(s.m.Content), "idle") {
				return got
			}
		case <-timeout:
			h.t.Fatalf("no idle for %s; got %s", msgID, describe(got))
			return nil
		}
	}
}

func describe(ss []sent) string {
	var b []string
	for _, s := range ss {
		b = append(b, s.ch.String()+":"+s.m.Header.MsgType)
	}
	return strings.Join(b, " ")
}

func find(ss []sent, ch channel, msgType string) []map[string]any {
	var out []map[string]any
	for _, s := range ss {
		if s.ch == ch && s.m.Header.MsgType == msgType {
			var c map[string]any
			_ = json.Unmarshal(s.m.Content, &c)
			out = append(out, c)
		}
	}
	return out
}

func one(t *testing.T, ss []sent, ch channel, msgType string) map[string]any {
	t.Helper()
	f := find(ss, ch, msgType)
	if len(f) != 1 {
		t.Fatalf("want one %s on %s, got %d in %s", msgType, ch, len(f), describe(ss))
	}
	return f[0]
}

func TestKernelInfoEnvelope(t *testing.T) {
	for _, ch := range []channel{shellCh, controlCh} {
		t.Run(ch.String(), func(t *testing.T) {
			h := newHarness(t, &fakeSession{}, 0)
			frames, id := h.request("peer-A", "kernel_info_request", map[string]any{})
			h.k.receive(ch, frames)
			got := h.until(id)
			if d := describe(got); d != "iopub:status "+ch.String()+":kernel_info_reply iopub:status" {
				t.Fatalf("sequence = %s", d)
			}
			rep := got[1].m
			if string(rep.Identities[0]) != "peer-A" || len(rep.Identities) != 1 {
				t.Errorf("identities = %q, want the request's", rep.Identities)
			}
			if string(rep.Parent) != string(frames[3]) {
				t.Errorf("parent_header = %s, want the request header byte for byte %s", rep.Parent, frames[3])
			}
			if rep.Header.Version != "5.3" || !strings.HasSuffix(rep.Header.Date, "Z") || rep.Header.Session != h.k.sessionID {
				t.Errorf("header = %+v", rep.Header)
			}
			if _, err := time.Parse(time.RFC3339Nano, rep.Header.Date); err != nil {
				t.Errorf("date %q: %v", rep.Header.Date, err)
			}
			var c kernelInfoReply
			if err := json.Unmarshal(rep.Content, &c); err != nil {
				t.Fatal(err)
			}
			li := c.LanguageInfo
			if c.Status != "ok" || c.ProtocolVersion != "5.3" || li["name"] != "go" || li["mimetype"] != "text/x-go" || li["file_extension"] != ".go" ||
				li["pygments_lexer"] != "go" || li["codemirror_mode"] != "go" || li["version"] != goVersion() || len(c.HelpLinks) == 0 {
				t.Errorf("kernel_info_reply = %+v", c)
			}
			// Notebooks written by `grundy run` record engine.LanguageInfo;
			// Jupyter records kernel_info's. They must be the same.
			var fromEngine map[string]any
			b, _ := json.Marshal(engine.LanguageInfo())
			_ = json.Unmarshal(b, &fromEngine)
			if !reflect.DeepEqual(li, fromEngine) {
				t.Errorf("kernel_info language_info %v differs from engine.LanguageInfo() %v", li, fromEngine)
			}
		})
	}
}

func TestExecuteOutputsAndCount(t *testing.T) {
	h := newHarness(t, &fakeSession{}, 0)
	id := h.send(shellCh, "execute_request", map[string]any{"code": "print hello\neprint warn\nvalue 42", "silent": false})
	got := h.until(id)
	want := "iopub:status iopub:execute_input iopub:stream iopub:stream iopub:execute_result shell:execute_reply iopub:status"
	if d := describe(got); d != want {
		t.Fatalf("sequence\n got %s\nwant %s", d, want)
	}
	streams := find(got, iopubCh, "stream")
	if streams[0]["name"] != "stdout" || streams[0]["text"] != "hello" || streams[1]["name"] != "stderr" || streams[1]["text"] != "warn" {
		t.Errorf("streams = %v", streams)
	}
	res := one(t, got, iopubCh, "execute_result")
	if res["execution_count"] != 1.0 || res["data"].(map[string]any)["text/plain"] != "42" {
		t.Errorf("execute_result = %v", res)
	}
	rep := one(t, got, shellCh, "execute_reply")
	if rep["status"] != "ok" || rep["execution_count"] != 1.0 || rep["user_expressions"] == nil {
		t.Errorf("execute_reply = %v", rep)
	}

	// Silent: no execute_input or result, counter unchanged.
	id = h.send(shellCh, "execute_request", map[string]any{"code": "value 7", "silent": true})
	got = h.until(id)
	if d := describe(got); d != "iopub:status shell:execute_reply iopub:status" {
		t.Errorf("silent sequence = %s", d)
	}
	// store_history false: shown, but the counter does not move.
	id = h.send(shellCh, "execute_request", map[string]any{"code": "value 8", "store_history": false})
	got = h.until(id)
	if c := one(t, got, iopubCh, "execute_input")["execution_count"]; c != 2.0 {
		t.Errorf("unstored cell shows count %v, want 2 (the next)", c)
	}
	id = h.send(shellCh, "execute_request", map[string]any{"code": "value 9"})
	got = h.until(id)
	if c := one(t, got, shellCh, "execute_reply")["execution_count"]; c != 2.0 {
		t.Errorf("count after silent and unstored cells = %v, want 2", c)
	}
}

func TestExecuteErrorAndStopOnError(t *testing.T) {
	for _, stop := range []bool{true, false} {
		t.Run(fmt.Sprint("stop_on_error=", stop), func(t *testing.T) {
			h := newHarness(t, &fakeSession{}, 0)
			// Hold the worker so all three requests are queued behind the
			// failing one.
			block := h.send(shellCh, "execute_request", map[string]any{"code": "block", "stop_on_error": false})
			fail := h.send(shellCh, "execute_request", map[string]any{"code": "fail bad thing", "stop_on_error": stop})
			a := h.send(shellCh, "execute_request", map[string]any{"code": "value 1"})
			b := h.send(shellCh, "kernel_info_request", map[string]any{})
			time.Sleep(20 * time.Millisecond)
			h.k.interrupt()
			h.until(block)
			got := h.until(fail)
			e := one(t, got, iopubCh, "error")
			if e["ename"] != "TestError" || e["evalue"] != "bad thing" || len(e["traceback"].([]any)) != 2 {
				t.Errorf("error = %v", e)
			}
			rep := one(t, got, shellCh, "execute_reply")
			if rep["status"] != "error" || rep["ename"] != "TestError" {
				t.Errorf("reply = %v", rep)
			}
			got = h.until(a)
			status := one(t, got, shellCh, "execute_reply")["status"]
			if stop && status != "aborted" || !stop && status != "ok" {
				t.Errorf("queued execute after failure: status %v with stop_on_error=%v", status, stop)
			}
			// Other requests are never aborted.
			if s := one(t, h.until(b), shellCh, "kernel_info_reply")["status"]; s != "ok" {
				t.Errorf("kernel_info after failure: %v", s)
			}
			// A request arriving after the failure runs normally.
			c := h.send(shellCh, "execute_request", map[string]any{"code": "value 2"})
			if s := one(t, h.until(c), shellCh, "execute_reply")["status"]; s != "ok" {
				t.Errorf("execute after the failure was handled: %v", s)
			}
		})
	}
}

func TestEnginePanicAndNonEvalError(t *testing.T) {
	h := newHarness(t, &fakeSession{}, 0)
	id := h.send(shellCh, "execute_request", map[string]any{"code": "panic"})
	rep := one(t, h.until(id), shellCh, "execute_reply")
	if rep["status"] != "error" || rep["ename"] != "panic" {
		t.Errorf("panic reply = %v", rep)
	}
	id = h.send(shellCh, "execute_request", map[string]any{"code": "nonsense"})
	rep = one(t, h.until(id), shellCh, "execute_reply")
	if rep["status"] != "error" || !strings.Contains(rep["evalue"].(string), "unknown command") {
		t.Errorf("plain error reply = %v", rep)
	}
}

func TestDisplayUpdateClear(t *testing.T) {
	h := newHarness(t, &fakeSession{}, 0)
	id := h.send(shellCh, "execute_request", map[string]any{"code": "print a\ndisplay d1\nupdate d1\ndisplay \nclear"})
	got := h.until(id)
	want := "iopub:status iopub:execute_input iopub:stream iopub:display_data iopub:update_display_data iopub:display_data iopub:clear_output shell:execute_reply iopub:status"
	if d := describe(got); d != want {
		t.Fatalf("sequence\n got %s\nwant %s", d, want)
	}
	d := find(got, iopubCh, "display_data")
	if d[0]["transient"].(map[string]any)["display_id"] != "d1" || len(d[1]["transient"].(map[string]any)) != 0 {
		t.Errorf("display transients = %v, %v", d[0]["transient"], d[1]["transient"])
	}
	u := one(t, got, iopubCh, "update_display_data")
	if u["transient"].(map[string]any)["display_id"] != "d1" || u["data"].(map[string]any)["text/plain"] != "updated" {
		t.Errorf("update = %v", u)
	}
	if c := one(t, got, iopubCh, "clear_output"); c["wait"] != true {
		t.Errorf("clear_output = %v", c)
	}
}

func TestInput(t *testing.T) {
	h := newHarness(t, &fakeSession{}, 0)
	id := h.send(shellCh, "execute_request", map[string]any{"code": "input name? ", "allow_stdin": true})
	var req *Message
	for req == nil {
		select {
		case s := <-h.rec.c:
			if s.ch == stdinCh {
				req = s.m
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no input_request")
		}
	}
	var c map[string]any
	_ = json.Unmarshal(req.Content, &c)
	if req.Header.MsgType != "input_request" || c["prompt"] != "name? " || c["password"] != false || string(req.Identities[0]) != "client-1" {
		t.Fatalf("input_request = %s %v ids %q", req.Header.MsgType, c, req.Identities)
	}
	h.send(stdinCh, "input_reply", map[string]any{"value": "Ada"})
	got := h.until(id)
	if s := one(t, got, iopubCh, "stream"); s["text"] != "got Ada" {
		t.Errorf("stream = %v", s)
	}

	id = h.send(shellCh, "execute_request", map[string]any{"code": "input name? ", "allow_stdin": false})
	got = h.until(id)
	rep := one(t, got, shellCh, "execute_reply")
	if rep["status"] != "error" || !strings.Contains(rep["evalue"].(string), "allow_stdin is false") {
		t.Errorf("no-stdin reply = %v", rep)
	}
	if s := one(t, got, iopubCh, "stream"); s["name"] != "stderr" || !strings.Contains(s["text"].(string), "allow_stdin is false") {
		t.Errorf("no-stdin note = %v", s)
	}
}

func TestInterruptDuringInputAndBlock(t *testing.T) {
	h := newHarness(t, &fakeSession{}, 0)
	for _, code := range []string{"block", "input x"} {
		id := h.send(shellCh, "execute_request", map[string]any{"code": code, "allow_stdin": true})
		time.Sleep(30 * time.Millisecond)
		ir := h.send(controlCh, "interrupt_request", map[string]any{})
		got := h.until(id)
		var sawInterruptReply bool
		for _, s := range got {
			if s.ch == controlCh && s.m.Header.MsgType == "interrupt_reply" {
				sawInterruptReply = true
			}
		}
		if !sawInterruptReply {
			h.until(ir)
		}
		if rep := one(t, got, shellCh, "execute_reply"); rep["status"] != "error" {
			t.Errorf("%s: interrupted cell reply = %v", code, rep)
		}
	}
	// Still alive.
	id := h.send(shellCh, "execute_request", map[string]any{"code": "value ok"})
	if rep := one(t, h.until(id), shellCh, "execute_reply"); rep["status"] != "ok" {
		t.Errorf("after interrupts: %v", rep)
	}
}

func TestStreamChunkingAndCap(t *testing.T) {
	h := newHarness(t, &fakeSession{}, 1<<20)
	// 300 000 bytes of two-byte runes: several chunks, none splitting a rune.
	id := h.send(shellCh, "execute_request", map[string]any{"code": "flood 300000"})
	got := h.until(id)
	var text strings.Builder
	for _, s := range find(got, iopubCh, "stream") {
		chunk := s["text"].(string)
		if len(chunk) > streamChunk {
			t.Errorf("chunk of %d bytes, more than %d", len(chunk), streamChunk)
		}
		text.WriteString(chunk)
	}
	if text.String() != strings.Repeat("é", 150000) {
		t.Errorf("reassembled %d bytes, want 300000 intact", text.Len())
	}
	if n := len(find(got, iopubCh, "stream")); n < 300000/streamChunk {
		t.Errorf("%d stream messages, want chunks", n)
	}

	h = newHarness(t, &fakeSession{}, 1000)
	id = h.send(shellCh, "execute_request", map[string]any{"code": "flood 5000\nprint more"})
	got = h.until(id)
	var shown int
	var notes []string
	for _, s := range find(got, iopubCh, "stream") {
		if strings.Contains(s["text"].(string), "[grundy:") {
			notes = append(notes, s["text"].(string))
		} else {
			shown += len(s["text"].(string))
		}
	}
	if shown > 1000 || shown < 990 {
		t.Errorf("shown %d bytes with a 1000-byte cap", shown)
	}
	if len(notes) != 2 || !strings.Contains(notes[1], "4,004 more bytes") {
		t.Errorf("cap notes = %q", notes)
	}
	if rep := one(t, got, shellCh, "execute_reply"); rep["status"] != "ok" {
		t.Errorf("capped cell reply = %v", rep)
	}
}

func TestStreamsWhileRunning(t *testing.T) {
	h := newHarness(t, &fakeSession{}, 0)
	id := h.send(shellCh, "execute_request", map[string]any{"code": "print early\nblock"})
	select {
	case s := <-h.rec.c:
		for s.m.Header.MsgType != "stream" {
			s = <-h.rec.c
		}
		if !strings.Contains(string(s.m.Content), "early") {
			t.Errorf("first stream = %s", s.m.Content)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("output of a running cell was not streamed")
	}
	h.k.interrupt()
	h.until(id)
}

func TestCompleteInspectIsComplete(t *testing.T) {
	h := newHarness(t, &fakeSession{}, 0)
	id := h.send(shellCh, "complete_request", map[string]any{"code": "fmt.Print", "cursor_pos": 9})
	c := one(t, h.until(id), shellCh, "complete_reply")
	if c["status"] != "ok" || c["cursor_start"] != 4.0 || c["cursor_end"] != 9.0 || len(c["matches"].([]any)) != 2 {
		t.Errorf("complete_reply = %v", c)
	}
	id = h.send(shellCh, "inspect_request", map[string]any{"code": "fmt.Println", "cursor_pos": 5, "detail_level": 1})
	c = one(t, h.until(id), shellCh, "inspect_reply")
	if c["found"] != true || !strings.Contains(c["data"].(map[string]any)["text/plain"].(string), "detail 1") {
		t.Errorf("inspect_reply = %v", c)
	}
	id = h.send(shellCh, "inspect_request", map[string]any{"code": "x", "cursor_pos": 1})
	if c = one(t, h.until(id), shellCh, "inspect_reply"); c["found"] != false {
		t.Errorf("inspect_reply for nothing = %v", c)
	}
	id = h.send(shellCh, "is_complete_request", map[string]any{"code": "for {"})
	if c = one(t, h.until(id), shellCh, "is_complete_reply"); c["status"] != "incomplete" || c["indent"] != "\t" {
		t.Errorf("is_complete_reply = %v", c)
	}
	id = h.send(shellCh, "comm_info_request", map[string]any{})
	if c = one(t, h.until(id), shellCh, "comm_info_reply"); c["status"] != "ok" || len(c["comms"].(map[string]any)) != 0 {
		t.Errorf("comm_info_reply = %v", c)
	}
}

func TestHistory(t *testing.T) {
	h := newHarness(t, &fakeSession{}, 0)
	for _, code := range []string{"value 1", "print x", "value 1", "value 3"} {
		h.until(h.send(shellCh, "execute_request", map[string]any{"code": code}))
	}
	h.until(h.send(shellCh, "execute_request", map[string]any{"code": "value silent", "silent": true}))
	cases := []struct {
		name    string
		req     map[string]any
		want    string
		wantOut bool
	}{
		{"tail", map[string]any{"hist_access_type": "tail", "n": 2}, `[[1,3,"value 1"],[1,4,"value 3"]]`, false},
		{"range", map[string]any{"hist_access_type": "range", "session": 0, "start": 2, "stop": 4}, `[[1,2,"print x"],[1,3,"value 1"]]`, false},
		{"search", map[string]any{"hist_access_type": "search", "pattern": "value*", "unique": true}, `[[1,3,"value 1"],[1,4,"value 3"]]`, false},
		{"output", map[string]any{"hist_access_type": "tail", "n": 1, "output": true}, `[[1,4,["value 3","3"]]]`, true},
	}
	for _, tc := range cases {
		id := h.send(shellCh, "history_request", tc.req)
		got := h.until(id)
		for _, s := range got {
			if s.m.Header.MsgType == "history_reply" {
				var c struct {
					History json.RawMessage `json:"history"`
				}
				_ = json.Unmarshal(s.m.Content, &c)
				if string(c.History) != tc.want {
					t.Errorf("%s: history = %s, want %s", tc.name, c.History, tc.want)
				}
			}
		}
	}
}

func TestBadMessagesDoNotStopTheKernel(t *testing.T) {
	h := newHarness(t, &fakeSession{}, 0)
	var logged strings.Builder
	logMu.Lock()
	old := logOut
	logOut = &lockedWriter{w: &logged}
	logMu.Unlock()
	defer func() { logMu.Lock(); logOut = old; logMu.Unlock() }()

	frames, _ := h.request("x", "execute_request", map[string]any{"code": "print should not run"})
	frames[2] = []byte(strings.Repeat("0", 64)) // wrong signature
	h.k.receive(shellCh, frames)
	frames, _ = h.request("x", "execute_request", map[string]any{"code": "print should not run"})
	frames[2] = nil // missing signature
	h.k.receive(shellCh, frames)
	h.k.receive(shellCh, [][]byte{[]byte("junk")})
	h.k.receive(controlCh, nil)
	// A validly signed message sent twice runs once.
	frames, replayed := h.request("x", "kernel_info_request", map[string]any{})
	h.k.receive(controlCh, frames)
	h.until(replayed)
	h.k.receive(controlCh, frames)

	// Unknown type: an error reply; content of the wrong shape: an error reply.
	id := h.send(shellCh, "frobnicate_request", map[string]any{})
	if c := one(t, h.until(id), shellCh, "frobnicate_reply"); c["status"] != "error" {
		t.Errorf("unknown request reply = %v", c)
	}
	id = h.send(shellCh, "execute_request", map[string]any{"code": 5})
	if c := one(t, h.until(id), shellCh, "execute_reply"); c["status"] != "error" {
		t.Errorf("bad content reply = %v", c)
	}
	id = h.send(shellCh, "execute_request", map[string]any{"code": "value alive"})
	got := h.until(id)
	if c := one(t, got, shellCh, "execute_reply"); c["status"] != "ok" || c["execution_count"] != 1.0 {
		t.Errorf("after bad messages: %v", c)
	}
	if n := len(h.rec.c); n != 0 {
		t.Errorf("%d unexpected messages after the run (a replay answered?)", n)
	}
	if strings.Contains(describe(got), "should not run") {
		t.Error("a badly signed message was executed")
	}
	log := logged.String()
	if strings.Count(log, "dropped a message") != 4 || !strings.Contains(log, "signature") || !strings.Contains(log, "replayed") {
		t.Errorf("log = %q", log)
	}
	if strings.Contains(log, testKey) {
		t.Error("the key was logged")
	}
}

type lockedWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestShutdown(t *testing.T) {
	for _, ch := range []channel{controlCh, shellCh} {
		t.Run(ch.String(), func(t *testing.T) {
			sess := &fakeSession{}
			h := newHarness(t, sess, 0)
			id := h.send(ch, "shutdown_request", map[string]any{"restart": false})
			got := h.until(id)
			if c := one(t, got, ch, "shutdown_reply"); c["status"] != "ok" || c["restart"] != false {
				t.Errorf("shutdown_reply = %v", c)
			}
			one(t, got, iopubCh, "shutdown_reply")
			select {
			case <-h.k.shutdown:
			case <-time.After(time.Second):
				t.Fatal("kernel did not begin shutting down")
			}
		})
	}
}

func TestEngineFailsToStart(t *testing.T) {
	s := NewSigner([]byte(testKey))
	rec := &recorder{t: t, signer: s, c: make(chan sent, 100)}
	k := newKernel(Config{Conn: &ConnectionInfo{Key: testKey}, NewSession: func() (engine.Session, error) {
		return nil, errors.New("no symbols")
	}}, rec)
	h := &harness{t: t, k: k, rec: rec, s: s}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go k.shellWorker(ctx)
	id := h.send(shellCh, "execute_request", map[string]any{"code": "x"})
	if c := one(t, h.until(id), shellCh, "execute_reply"); c["status"] != "error" || !strings.Contains(c["evalue"].(string), "no symbols") {
		t.Errorf("reply = %v", c)
	}
}

func TestDisplayFloodsAreBounded(t *testing.T) {
	h := newHarness(t, &fakeSession{}, 0)
	start := time.Now()
	id := h.send(shellCh, "execute_request", map[string]any{"code": "updates 100000"})
	got := h.until(id)
	// At most one update per updateDelay, plus the first and the last.
	limit := int(time.Since(start)/updateDelay) + 2
	ups := find(got, iopubCh, "update_display_data")
	if len(ups) == 0 || len(ups) > limit {
		t.Errorf("100000 quick updates became %d messages in %v; want at most %d", len(ups), time.Since(start), limit)
	}
	if last := ups[len(ups)-1]["data"].(map[string]any)["text/plain"]; last != "100000" {
		t.Errorf("last update shows %v, want the final value", last)
	}
	id = h.send(shellCh, "execute_request", map[string]any{"code": fmt.Sprint("displays ", maxDisplays+500)})
	got = h.until(id)
	if n := len(find(got, iopubCh, "display_data")); n != maxDisplays {
		t.Errorf("%d displays sent, want the cap %d", n, maxDisplays)
	}
	if notes := find(got, iopubCh, "stream"); len(notes) != 1 || !strings.Contains(notes[0]["text"].(string), "display limit") {
		t.Errorf("notes = %v", notes)
	}
}

func (f *fakeSession) executed() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.ran...)
}

func TestUserExpressions(t *testing.T) {
	type tc struct {
		name  string
		code  string
		exprs any
		// want is the reply's user_expressions, as JSON.
		want string
		// ran is what the engine executed, cell first.
		ran []string
		// streams is the stream text the request produced.
		streams string
	}
	cases := []tc{{
		name:  "values, a failure and a non-string",
		code:  "print cell",
		exprs: map[string]any{"b": "html hi", "a": "value 42", "c": "fail no such name", "d": 7, "e": "print side effect"},
		want: `{"a":{"data":{"text/plain":"42"},"metadata":{},"status":"ok"},` +
			`"b":{"data":{"text/html":"<b>hi</b>","text/plain":"hi"},"metadata":{"text/html":{"isolated":true}},"status":"ok"},` +
			`"c":{"ename":"TestError","evalue":"no such name","status":"error","traceback":["TestError: no such name","  at line 1"]},` +
			`"d":{"ename":"BadRequest","evalue":"user expression \"d\" is 7, not a string of Go code","status":"error","traceback":["BadRequest: user expression \"d\" is 7, not a string of Go code"]},` +
			`"e":{"data":{},"metadata":{},"status":"ok"}}`,
		// In name order, after the cell; "d" never reaches the engine.
		ran:     []string{"print cell", "value 42", "html hi", "fail no such name", "print side effect"},
		streams: "cellside effect",
	}, {
		name:    "not evaluated after a failed cell",
		code:    "fail cell broke",
		exprs:   map[string]any{"a": "value 1"},
		want:    `{}`,
		ran:     []string{"fail cell broke"},
		streams: "",
	}, {
		name:  "absent",
		code:  "value 3",
		exprs: nil,
		want:  `{}`,
		ran:   []string{"value 3"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sess := &fakeSession{}
			h := newHarness(t, sess, 0)
			req := map[string]any{"code": c.code}
			if c.exprs != nil {
				req["user_expressions"] = c.exprs
			}
			got := h.until(h.send(shellCh, "execute_request", req))
			var rep struct {
				UserExpressions json.RawMessage `json:"user_expressions"`
			}
			for _, s := range got {
				if s.m.Header.MsgType == "execute_reply" {
					_ = json.Unmarshal(s.m.Content, &rep)
				}
			}
			var gotUE, wantUE any
			_ = json.Unmarshal(rep.UserExpressions, &gotUE)
			if err := json.Unmarshal([]byte(c.want), &wantUE); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(gotUE, wantUE) {
				t.Errorf("user_expressions\n got %s\nwant %s", rep.UserExpressions, c.want)
			}
			if ran := sess.executed(); !reflect.DeepEqual(ran, c.ran) {
				t.Errorf("engine ran %q, want %q", ran, c.ran)
			}
			var streams strings.Builder
			for _, s := range find(got, iopubCh, "stream") {
				streams.WriteString(s["text"].(string))
			}
			replied := false
			for _, s := range got {
				replied = replied || s.m.Header.MsgType == "execute_reply"
				if replied && s.m.Header.MsgType == "stream" {
					t.Errorf("stream after the reply: %s", describe(got))
				}
			}
			if streams.String() != c.streams {
				t.Errorf("streams %q, want %q (all before the reply)", streams.String(), c.streams)
			}
			// Only the cell's own value is published, never an expression's.
			if n := len(find(got, iopubCh, "execute_result")); c.exprs != nil && n > 0 {
				t.Errorf("%d execute_result messages; user expressions must not publish theirs", n)
			}
		})
	}

	// Silent execution is how frontends poll values: expressions still run.
	h := newHarness(t, &fakeSession{}, 0)
	got := h.until(h.send(shellCh, "execute_request", map[string]any{"code": "", "silent": true, "user_expressions": map[string]any{"x": "value 5"}}))
	if ue := one(t, got, shellCh, "execute_reply")["user_expressions"]; fmtAny(ue) != `{"x":{"data":{"text/plain":"5"},"metadata":{},"status":"ok"}}` {
		t.Errorf("silent cell's user_expressions = %s", fmtAny(ue))
	}
	// A user_expressions that is not an object is a bad request: the
	// cell does not run.
	sess := &fakeSession{}
	h = newHarness(t, sess, 0)
	got = h.until(h.send(shellCh, "execute_request", map[string]any{"code": "print no", "user_expressions": []string{"x"}}))
	if rep := one(t, got, shellCh, "execute_reply"); rep["status"] != "error" || rep["ename"] != "BadRequest" || len(sess.executed()) != 0 {
		t.Errorf("user_expressions as a list: reply %v, engine ran %q", rep, sess.executed())
	}
}

// An interrupt while an expression runs stops it; the reply still comes.
func TestUserExpressionInterrupted(t *testing.T) {
	h := newHarness(t, &fakeSession{}, 0)
	id := h.send(shellCh, "execute_request", map[string]any{"code": "value 1", "user_expressions": map[string]any{"slow": "block", "zz": "value 2"}})
	time.Sleep(30 * time.Millisecond)
	h.k.interrupt()
	rep := one(t, h.until(id), shellCh, "execute_reply")
	ue := rep["user_expressions"].(map[string]any)
	slow, _ := ue["slow"].(map[string]any)
	if rep["status"] != "ok" || slow["status"] != "error" || slow["ename"] != "Interrupted" {
		t.Errorf("reply = %v", rep)
	}
}

func TestStartingStatus(t *testing.T) {
	h := newHarness(t, &fakeSession{}, 0)
	h.k.announce()
	select {
	case s := <-h.rec.c:
		var c map[string]any
		_ = json.Unmarshal(s.m.Content, &c)
		if s.ch != iopubCh || s.m.Header.MsgType != "status" || c["execution_state"] != "starting" || string(s.m.Parent) != "{}" {
			t.Errorf("first message: %s %s %s parent %s", s.ch, s.m.Header.MsgType, s.m.Content, s.m.Parent)
		}
		if s.m.Header.Session != h.k.sessionID || s.m.Header.Version != ProtocolVersion {
			t.Errorf("header = %+v", s.m.Header)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("nothing published")
	}
}

// slowTools is a session whose completion and inspection block until
// released, like an engine busy with a cell.
type slowTools struct {
	fakeSession
	release chan struct{}
}

func (s *slowTools) Complete(code string, cursor int) engine.Completion {
	<-s.release
	return s.fakeSession.Complete(code, cursor)
}

// A slow request on control never keeps an interrupt (or a shutdown)
// waiting behind it.
func TestControlNotBlockedBySlowRequests(t *testing.T) {
	sess := &slowTools{release: make(chan struct{})}
	defer close(sess.release)
	h := newHarness(t, sess, 0)
	id := h.send(shellCh, "execute_request", map[string]any{"code": "block"})
	time.Sleep(30 * time.Millisecond)
	h.send(controlCh, "complete_request", map[string]any{"code": "fmt.Pr", "cursor_pos": 6})
	start := time.Now()
	h.send(controlCh, "interrupt_request", map[string]any{})
	if rep := one(t, h.until(id), shellCh, "execute_reply"); rep["status"] != "error" {
		t.Errorf("interrupted cell: %v", rep)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("the interrupt waited %s behind a slow complete_request", d)
	}
}
