package kernel

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"grundy/kernel/kerneltest"
)

// The end-to-end tests build the grundy binary, install its kernelspec
// into a temporary Jupyter path and drive it with Debian's jupyter_client
// (kernel/testdata/e2e.py). Without jupyter_client they skip, unless
// GRUNDY_REQUIRE_JUPYTER=1 makes that a failure.

const python = kerneltest.Python

var e2e struct {
	once sync.Once
	env  []string
	dir  string
	err  string
}

func requireJupyter(t *testing.T) {
	t.Helper()
	kerneltest.Require(t, "python3-jupyter-client", "jupyter_client")
}

// buildAndInstall builds grundy once per test run and installs the
// kernelspec under a temporary prefix put on JUPYTER_PATH.
func buildAndInstall(t *testing.T) []string {
	t.Helper()
	requireJupyter(t)
	e2e.once.Do(func() {
		dir, err := os.MkdirTemp("", "grundy-e2e-")
		if err != nil {
			e2e.err = err.Error()
			return
		}
		e2e.dir = dir
		if _, e2e.env, err = kerneltest.Install(dir); err != nil {
			e2e.err = err.Error()
		}
	})
	if e2e.err != "" {
		t.Fatal(e2e.err)
	}
	return e2e.env
}

func TestMain(m *testing.M) { kerneltest.Main(m, &e2e.dir) }

// cellsScenario runs a scenario that reports its cells and whether the
// kernel was alive at the end, which it must be.
func cellsScenario(t *testing.T, name string) map[string]timedRun {
	t.Helper()
	var r struct {
		Cells map[string]timedRun `json:"cells"`
		Alive bool                `json:"alive"`
	}
	scenario(t, name, &r)
	if !r.Alive {
		t.Fatal("the kernel died")
	}
	return r.Cells
}

// scenario runs one e2e.py scenario and decodes what it observed.
func scenario(t *testing.T, name string, v any) {
	t.Helper()
	env := buildAndInstall(t)
	cmd := exec.Command(python, "testdata/e2e.py", name)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("e2e.py %s: %v\n%s", name, err, stderr.String())
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("e2e.py %s printed %q: %v\nstderr: %s", name, out, err, stderr.String())
	}
}

type pyMsg struct {
	Type    string         `json:"type"`
	Content map[string]any `json:"content"`
	Header  map[string]any `json:"header"`
}

type pyRun struct {
	Reply        *pyMsg         `json:"reply"`
	IOPub        []pyMsg        `json:"iopub"`
	InputRequest map[string]any `json:"input_request"`
}

// timedRun is a cell's run with how long it took, in seconds.
type timedRun struct {
	pyRun
	Seconds float64 `json:"seconds"`
}

func (r pyRun) types() string {
	var s []string
	for _, m := range r.IOPub {
		s = append(s, m.Type)
	}
	return strings.Join(s, " ")
}

func (r pyRun) text(name string) string {
	var b strings.Builder
	for _, m := range r.IOPub {
		if m.Type == "stream" && m.Content["name"] == name {
			b.WriteString(m.Content["text"].(string))
		}
	}
	return b.String()
}

func (r pyRun) status() string {
	if r.Reply == nil {
		return "<no reply>"
	}
	s, _ := r.Reply.Content["status"].(string)
	return s
}

// kernelDir is where buildAndInstall put the kernelspec (and the binary).
func kernelDir(env []string) string {
	var data string
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "JUPYTER_PATH="); ok {
			data = v
		}
	}
	return filepath.Join(data, "kernels", "grundy")
}

func TestE2EInstall(t *testing.T) {
	env := buildAndInstall(t)
	dir := kernelDir(env)
	b, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec Kernelspec
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	if spec.DisplayName != "Go (grundy)" || spec.Language != "go" || spec.InterruptMode != "message" ||
		len(spec.Argv) != 3 || spec.Argv[0] != filepath.Join(dir, "grundy") || spec.Argv[2] != "{connection_file}" {
		t.Errorf("kernel.json = %+v", spec)
	}
	for _, f := range []string{"grundy", "logo-32x32.png", "logo-64x64.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// jupyter_client itself must find the spec.
	cmd := exec.Command(python, "-c", "from jupyter_client.kernelspec import KernelSpecManager as K; s=K().get_kernel_spec('grundy'); print(s.display_name + '|' + s.resource_dir)")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "Go (grundy)|"+dir {
		t.Errorf("jupyter_client finds %q (%v)", out, err)
	}
}

func TestE2EBasic(t *testing.T) {
	var r struct {
		KernelInfo      pyMsg            `json:"kernel_info"`
		KernelInfoIOPub []pyMsg          `json:"kernel_info_iopub"`
		Cells           map[string]pyRun `json:"cells"`
	}
	scenario(t, "basic", &r)
	li, _ := r.KernelInfo.Content["language_info"].(map[string]any)
	if r.KernelInfo.Content["protocol_version"] != "5.3" || li["name"] != "go" || li["mimetype"] != "text/x-go" {
		t.Errorf("kernel_info_reply = %v", r.KernelInfo.Content)
	}
	if r.KernelInfo.Header["version"] != "5.3" {
		t.Errorf("reply header = %v", r.KernelInfo.Header)
	}
	if len(r.KernelInfoIOPub) != 2 || r.KernelInfoIOPub[0].Content["execution_state"] != "busy" || r.KernelInfoIOPub[1].Content["execution_state"] != "idle" {
		t.Errorf("kernel_info iopub = %v", r.KernelInfoIOPub)
	}
	c := r.Cells
	if got := c["stdout"]; got.status() != "ok" || got.text("stdout") != "hello\n" {
		t.Errorf("stdout cell: %s %q (%s)", got.status(), got.text("stdout"), got.types())
	}
	if got := c["stderr"]; got.status() != "ok" || got.text("stderr") != "oops\n" {
		t.Errorf("stderr cell: %s %q (%s)", got.status(), got.text("stderr"), got.types())
	}
	res := c["result"]
	var result map[string]any
	for _, m := range res.IOPub {
		if m.Type == "execute_result" {
			result = m.Content
		}
	}
	if res.status() != "ok" || result == nil || result["data"].(map[string]any)["text/plain"] != "42" || result["execution_count"] != 3.0 {
		t.Errorf("result cell: %s %v (%s)", res.status(), result, res.types())
	}
	e := c["error"]
	if e.status() != "error" || e.Reply.Content["ename"] == "" || !strings.Contains(e.types(), "error") {
		t.Errorf("error cell: %v (%s)", e.Reply, e.types())
	}
	if want := "status execute_input execute_result status"; c["after_error"].types() != want {
		t.Errorf("cell after an error: %s, want %s", c["after_error"].types(), want)
	}

	// user_expressions: evaluated after a cell that succeeded (x++ made x
	// 21), each on its own; after a failed cell, none.
	if ue := e.Reply.Content["user_expressions"]; fmtAny(ue) != "{}" {
		t.Errorf("user_expressions after a failed cell = %s, want {}", fmtAny(ue))
	}
	u := c["user_expressions"]
	ue, _ := u.Reply.Content["user_expressions"].(map[string]any)
	plain := func(name string) string {
		r, _ := ue[name].(map[string]any)
		d, _ := r["data"].(map[string]any)
		s, _ := d["text/plain"].(string)
		if r["status"] != "ok" || r["metadata"] == nil {
			t.Errorf("user expression %s: %v", name, r)
		}
		return s
	}
	if u.status() != "ok" || len(ue) != 3 || plain("double") != "42" || !strings.Contains(plain("greeting"), "hi 21") {
		t.Errorf("user_expressions = %s", fmtAny(ue))
	}
	if b, _ := ue["broken"].(map[string]any); b["status"] != "error" || b["ename"] == "" || b["evalue"] == "" || b["traceback"] == nil {
		t.Errorf("failing user expression = %v", b)
	}
	if strings.Contains(u.types(), "execute_result") {
		t.Errorf("user expressions published a result: %s", u.types())
	}

	// The language_info Jupyter records from kernel_info must be what
	// `grundy run` writes into notebooks.
	dir := t.TempDir()
	nb := filepath.Join(dir, "nb.ipynb")
	if err := os.WriteFile(nb, []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
		{"cell_type": "code", "id": "a", "metadata": {}, "source": "1", "outputs": [], "execution_count": null}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.ipynb")
	env := buildAndInstall(t)
	cmd := exec.Command(filepath.Join(kernelDir(env), "grundy"), "run", nb, "--out", out)
	cmd.Env = env
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("grundy run: %v\n%s", err, b)
	}
	var written struct {
		Metadata struct {
			LanguageInfo map[string]any `json:"language_info"`
		} `json:"metadata"`
	}
	b, err := os.ReadFile(out)
	if err == nil {
		err = json.Unmarshal(b, &written)
	}
	if err != nil || written.Metadata.LanguageInfo == nil || fmtAny(written.Metadata.LanguageInfo) != fmtAny(li) {
		t.Errorf("grundy run wrote language_info %s (%v); kernel_info says %s", fmtAny(written.Metadata.LanguageInfo), err, fmtAny(li))
	}
}

func TestE2EInterrupt(t *testing.T) {
	var r struct {
		Reply   *pyMsg  `json:"reply"`
		Seconds float64 `json:"seconds"`
		After   pyRun   `json:"after"`
		Alive   bool    `json:"alive"`
	}
	scenario(t, "interrupt", &r)
	if r.Reply == nil || r.Reply.Content["status"] != "error" {
		t.Fatalf("interrupted `for {}`: reply %v", r.Reply)
	}
	if r.Seconds > 5 {
		t.Errorf("interrupt took %.1fs", r.Seconds)
	}
	if !r.Alive || r.After.status() != "ok" {
		t.Errorf("after the interrupt: alive %v, next cell %s", r.Alive, r.After.status())
	}
}

func TestE2EInput(t *testing.T) {
	var r struct{ Asked, Refused pyRun }
	scenario(t, "input", &r)
	if r.Asked.InputRequest == nil || r.Asked.InputRequest["type"] != "input_request" {
		t.Fatalf("no input_request: %v", r.Asked.InputRequest)
	}
	if r.Asked.status() != "ok" || r.Asked.text("stdout") != "got Ada\n" {
		t.Errorf("answered input: %s %q", r.Asked.status(), r.Asked.text("stdout"))
	}
	if !strings.Contains(r.Refused.text("stderr"), "allow_stdin is false") {
		t.Errorf("input without allow_stdin: %s %v", r.Refused.status(), r.Refused.Reply)
	}
}

func TestE2EBadSignature(t *testing.T) {
	var r struct {
		BadIDs       []string `json:"bad_ids"`
		IOPubParents []string `json:"iopub_parents"`
		ShellParents []string `json:"shell_parents"`
		After        pyRun    `json:"after"`
		Log          string   `json:"log"`
		Key          string   `json:"key"`
	}
	scenario(t, "badsig", &r)
	for _, id := range r.BadIDs {
		for _, p := range append(r.IOPubParents, r.ShellParents...) {
			if p == id {
				t.Errorf("the kernel answered a badly signed message %s", id)
			}
		}
	}
	// Any reply shows the kernel is alive; that needs no real engine.
	if r.After.Reply == nil || !strings.HasPrefix(r.After.types(), "status execute_input") {
		t.Errorf("after bad messages: %v (%s)", r.After.Reply, r.After.types())
	}
	if !strings.Contains(r.Log, "signature") {
		t.Errorf("kernel log does not mention the bad signature: %q", r.Log)
	}
	if r.Key == "" || strings.Contains(r.Log, r.Key) {
		t.Error("the kernel log contains the key")
	}
}

func TestE2EShutdown(t *testing.T) {
	var r struct {
		Reply       map[string]any `json:"reply"`
		CellIOPub   []pyMsg        `json:"cell_iopub"`
		ExitSeconds *float64       `json:"exit_seconds"`
	}
	scenario(t, "shutdown", &r)
	if r.Reply == nil || r.Reply["status"] != "ok" {
		t.Errorf("shutdown_reply = %v", r.Reply)
	}
	if (pyRun{IOPub: r.CellIOPub}).text("stdout") != "last words\n" {
		t.Errorf("output of the last cell was lost: %v", r.CellIOPub)
	}
	if r.ExitSeconds == nil {
		t.Error("the kernel did not exit within 10 s of shutdown_request")
	} else if *r.ExitSeconds > 5 {
		t.Errorf("the kernel took %.2f s to exit after shutdown_request", *r.ExitSeconds)
	} else {
		t.Logf("exited %.3f s after shutdown_request", *r.ExitSeconds)
	}
}

func TestE2EIPC(t *testing.T) {
	var r struct {
		KernelInfo pyMsg  `json:"kernel_info"`
		Cell       pyRun  `json:"cell"`
		IP         string `json:"ip"`
	}
	scenario(t, "ipc", &r)
	if r.KernelInfo.Content["status"] != "ok" || r.Cell.Reply == nil || !strings.HasPrefix(r.Cell.types(), "status execute_input") {
		t.Errorf("over ipc (%s): kernel_info %v, cell %s", r.IP, r.KernelInfo.Content, r.Cell.types())
	}
}

func TestE2EFlood(t *testing.T) {
	var r struct {
		Status         string           `json:"status"`
		StreamMessages int              `json:"stream_messages"`
		StreamBytes    int              `json:"stream_bytes"`
		Notes          []string         `json:"notes"`
		Seconds        float64          `json:"seconds"`
		After          pyRun            `json:"after"`
		Big            string           `json:"big"`
		BigBytes       int              `json:"big_bytes"`
		PeakBytes      map[string]int64 `json:"peak_bytes"`
	}
	scenario(t, "flood", &r)
	if r.Status != "ok" || len(r.Notes) == 0 || r.StreamBytes > DefaultMaxCellOutput+4096 {
		t.Errorf("10 MB cell: status %s, %d messages, %d bytes, notes %q", r.Status, r.StreamMessages, r.StreamBytes, r.Notes)
	}
	if r.After.status() != "ok" {
		t.Errorf("after the flood: %s", r.After.status())
	}
	t.Logf("10 MB printed: %d stream messages, %d bytes shown, %.2fs", r.StreamMessages, r.StreamBytes, r.Seconds)
	// 200 MiB: shown up to the cap, held by neither process.
	if r.Big != "ok" || r.BigBytes > DefaultMaxCellOutput+4096 {
		t.Errorf("200 MiB cell: %s, %d bytes shown", r.Big, r.BigBytes)
	}
	for name, peak := range r.PeakBytes {
		if peak > 200<<20 {
			t.Errorf("the %s process peaked at %d MiB for 200 MiB of output", name, peak>>20)
		}
	}
	if len(r.PeakBytes) != 2 {
		t.Errorf("peaks measured: %v", r.PeakBytes)
	}
	t.Logf("200 MiB printed: peak memory %d MiB (kernel), %d MiB (engine process)", r.PeakBytes["kernel"]>>20, r.PeakBytes["engine"]>>20)
}

func TestE2ETools(t *testing.T) {
	var r map[string]json.RawMessage
	scenario(t, "tools", &r)
	reply := func(name string) map[string]any {
		var m pyMsg
		if err := json.Unmarshal(r[name], &m); err != nil || m.Content == nil {
			t.Fatalf("%s: no reply (%s)", name, r[name])
		}
		var io []string
		_ = json.Unmarshal(r[name+"_iopub"], &io)
		if strings.Join(io, " ") != "status:busy status:idle" {
			t.Errorf("%s: iopub %v, want busy then idle", name, io)
		}
		if !strings.HasPrefix(name, "is_complete") && m.Content["status"] != "ok" {
			t.Errorf("%s: status %v", name, m.Content)
		}
		return m.Content
	}
	c := reply("complete")
	matches, _ := c["matches"].([]any)
	if !strings.Contains(fmtAny(matches), "Println") || c["cursor_end"] != 8.0 {
		t.Errorf("complete_reply = %v", c)
	}
	if c := reply("inspect"); c["found"] != true {
		t.Errorf("inspect_reply = %v", c)
	}
	if open, done := reply("is_complete_open"), reply("is_complete_done"); open["status"] != "incomplete" || done["status"] != "complete" {
		t.Errorf("is_complete: %v / %v", open, done)
	}
	var hist pyMsg
	_ = json.Unmarshal(r["history"], &hist)
	if h := fmtAny(hist.Content["history"]); !strings.Contains(h, "answer := 42") {
		t.Errorf("history_reply = %v", hist.Content)
	}
	var ci pyMsg
	_ = json.Unmarshal(r["comm_info"], &ci)
	if comms, ok := ci.Content["comms"].(map[string]any); !ok || len(comms) != 0 {
		t.Errorf("comm_info_reply = %v", ci.Content)
	}
}

func fmtAny(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// result is a cell's execute_result as text/plain.
func result(r pyRun) string {
	for _, m := range r.IOPub {
		if m.Type == "execute_result" {
			s, _ := m.Content["data"].(map[string]any)["text/plain"].(string)
			return s
		}
	}
	return ""
}

// goTrace matches what a Go stack trace prints, which users must never see.
var goTrace = regexp.MustCompile(`goroutine \d+ \[|\.go:\d+ \+0x`)

// TestE2ECrash: cells that end the engine process leave a live kernel, an
// error that names the cause in words, and the session rebuilt by replay
// (the earlier cell that succeeded, not the one that failed).
func TestE2ECrash(t *testing.T) {
	var r struct {
		Cells map[string]timedRun `json:"cells"`
		Alive bool                `json:"alive"`
		Log   string              `json:"log"`
	}
	scenario(t, "crash", &r)
	if !r.Alive {
		t.Fatal("the kernel died")
	}
	for _, c := range []struct{ cell, ename, evalue string }{
		{"recursion", "StackOverflow", "the cell recursed without end, or deeper than the stack allows: stack limit reached (128 MiB)"},
		{"huge", "OutOfMemory", "out of memory: the cell asked for 1 TiB more (the session's limit is 512 MiB)"},
		{"grow", "OutOfMemory", "out of memory: the cell asked for 64 MiB more (the session's limit is 512 MiB)"},
		{"maps", "ConcurrentMapWrites", "two goroutines used one map at the same time"},
		{"mutex", "UnlockOfUnlockedMutex", "the cell unlocked a mutex that was not locked"},
	} {
		got := r.Cells[c.cell]
		content := map[string]any{}
		if got.Reply != nil {
			content = got.Reply.Content
		}
		evalue, _ := content["evalue"].(string)
		tb := fmtAny(content["traceback"])
		if got.status() != "error" || content["ename"] != c.ename || !strings.HasPrefix(evalue, c.evalue) {
			t.Errorf("%s: %s %v: %q", c.cell, got.status(), content["ename"], evalue)
		}
		if !strings.Contains(tb, "replayed In [1] in") || strings.Contains(tb, "In [2]") {
			t.Errorf("%s: traceback does not say what was replayed: %s", c.cell, tb)
		}
		if !strings.Contains(got.text("stderr"), "replaying 1 earlier cell") {
			t.Errorf("%s: stderr %q", c.cell, got.text("stderr"))
		}
		if goTrace.MatchString(tb + got.text("stderr")) {
			t.Errorf("%s: a Go stack trace reached the user: %s", c.cell, tb)
		}
		t.Logf("%s: %s: %s (%.1fs)", c.cell, c.ename, evalue, got.Seconds)
	}
	if after := r.Cells["after"]; after.status() != "ok" || !strings.Contains(fmtAny(after.IOPub), `"text/plain":"42"`) {
		t.Errorf("x + 1 after the crashes: %s %s", after.status(), fmtAny(after.IOPub))
	}
	// The table solved in cell 1 came back from the session's table cache
	// on replay, with its original timing, rather than being solved again.
	if before, after := result(r.Cells["setup"].pyRun), result(r.Cells["table"].pyRun); before == "" || before != after {
		t.Errorf("t.Seconds() before the crashes %q, after %q", before, after)
	}
	if ai := r.Cells["after_idle"]; ai.status() != "ok" || !strings.Contains(ai.text("stderr"), "stopped between cells: the cell unlocked a mutex") ||
		!strings.Contains(fmtAny(ai.IOPub), `"text/plain":"43"`) {
		t.Errorf("after a crash between cells: %s %q %s", ai.status(), ai.text("stderr"), fmtAny(ai.IOPub))
	}
	if !strings.Contains(r.Log, "fatal error: stack overflow") {
		t.Errorf("the kernel log lacks the runtime's report:\n%s", r.Log)
	}
}

// TestE2ECrashLoop: a cell whose timer crashes the engine process between
// cells (a fatal error no recover reaches) is replayed once; when the
// crash comes back, it is left out of the next replay, said so, and the
// session runs on without crashing again.
func TestE2ECrashLoop(t *testing.T) {
	cells := cellsScenario(t, "crash_loop")
	for _, c := range []struct{ cell, value, stderr string }{
		{"first", "42", "stopped between cells: the cell unlocked a mutex that was not locked"},
		{"second", "43", "In [2] is not replayed: the engine process stopped the same way again after it was replayed"},
		{"third", "44", ""},
	} {
		got := cells[c.cell]
		stderr := got.text("stderr")
		if got.status() != "ok" || !strings.Contains(fmtAny(got.IOPub), `"text/plain":"`+c.value+`"`) {
			t.Errorf("%s: %s %s", c.cell, got.status(), fmtAny(got.IOPub))
		}
		if c.stderr == "" && stderr != "" || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%s: stderr %q, want %q", c.cell, stderr, c.stderr)
		}
	}
}

// TestE2EIdleInterrupt: the interrupt button while no cell runs stops a
// goroutine an earlier cell left looping, which kept a core busy for good.
func TestE2EIdleInterrupt(t *testing.T) {
	var r map[string]pyRun
	scenario(t, "idle_interrupt", &r)
	for cell, want := range map[string]string{"before": "true", "after": "true", "next": "2"} {
		if got := result(r[cell]); r[cell].status() != "ok" || got != want {
			t.Errorf("%s: %s %q, want %q", cell, r[cell].status(), got, want)
		}
	}
}

// TestE2EStaleTableCache: the table cache of a kernel killed without a
// shutdown is removed by the next kernel, which keeps its own.
func TestE2EStaleTableCache(t *testing.T) {
	var r struct {
		Killed        []string `json:"killed"`
		LeftAfterKill []string `json:"left_after_kill"`
		LeftAfterNext []string `json:"left_after_next"`
		Next          []string `json:"next"`
	}
	scenario(t, "stale_cache", &r)
	if len(r.Killed) != 1 || len(r.LeftAfterKill) != 1 {
		t.Fatalf("the killed kernel's table cache: %v, left after the kill: %v", r.Killed, r.LeftAfterKill)
	}
	if len(r.LeftAfterNext) != 0 || len(r.Next) != 1 {
		t.Errorf("after the next kernel started: the killed one's cache %v, the new one's %v", r.LeftAfterNext, r.Next)
	}
}

// TestE2EInterrupts: interrupted cells never run on after their reply.
func TestE2EInterrupts(t *testing.T) {
	var r struct {
		InputRequest      string   `json:"input_request"`
		InputReply        *pyMsg   `json:"input_reply"`
		AfterInput        pyRun    `json:"after_input"`
		SolveReply        *pyMsg   `json:"solve_reply"`
		SolveSeconds      float64  `json:"solve_seconds"`
		AfterSolve        pyRun    `json:"after_solve"`
		StuckReply        *pyMsg   `json:"stuck_reply"`
		StuckSeconds      float64  `json:"stuck_seconds"`
		StuckIOPub        []pyMsg  `json:"stuck_iopub"`
		AfterStuck        pyRun    `json:"after_stuck"`
		CompleteOnControl *pyMsg   `json:"complete_on_control"`
		InspectOnControl  *pyMsg   `json:"inspect_on_control"`
		LoopReply         *pyMsg   `json:"loop_reply"`
		LoopSeconds       float64  `json:"loop_seconds"`
		AfterLoop         pyRun    `json:"after_loop"`
		RanOn             []string `json:"ran_on"`
		Alive             bool     `json:"alive"`
		Shutdown          *pyMsg   `json:"shutdown"`
	}
	scenario(t, "interrupts", &r)
	ename := func(m *pyMsg) any {
		if m == nil {
			return "<no reply>"
		}
		return m.Content["ename"]
	}
	if r.InputRequest != "input_request" || ename(r.InputReply) != "Interrupted" {
		t.Errorf("interrupted input: %s, reply %v", r.InputRequest, ename(r.InputReply))
	}
	if ename(r.SolveReply) != "Interrupted" || r.SolveSeconds > 2 {
		t.Errorf("interrupted solve: %v after %.1fs", ename(r.SolveReply), r.SolveSeconds)
	}
	evalue, _ := r.StuckReply.Content["evalue"].(string)
	if ename(r.StuckReply) != "Interrupted" || !strings.Contains(evalue, "did not stop within 2s") || r.StuckSeconds > 5 {
		t.Errorf("stuck cell: %v %q after %.1fs", ename(r.StuckReply), evalue, r.StuckSeconds)
	}
	if tb := fmtAny(r.StuckReply.Content["traceback"]); !strings.Contains(tb, "replayed In [1]") {
		t.Errorf("stuck cell: the session was not rebuilt: %s", tb)
	}
	for name, after := range map[string]pyRun{"input": r.AfterInput, "solve": r.AfterSolve, "stuck": r.AfterStuck, "loop": r.AfterLoop} {
		if after.status() != "ok" || result(after) != "1" {
			t.Errorf("after the interrupted %s cell: %s %q", name, after.status(), result(after))
		}
	}
	if len(r.RanOn) > 0 {
		t.Errorf("interrupted cells ran on and wrote %v", r.RanOn)
	}
	for name, m := range map[string]*pyMsg{"complete": r.CompleteOnControl, "inspect": r.InspectOnControl} {
		if m == nil || m.Content["status"] != "ok" {
			t.Errorf("%s_request on control while a cell loops: %v", name, m)
		}
	}
	if ename(r.LoopReply) != "Interrupted" || r.LoopSeconds > 2 {
		t.Errorf("SIGINT to the process group: %v after %.1fs", ename(r.LoopReply), r.LoopSeconds)
	}
	if !r.Alive || r.Shutdown == nil || r.Shutdown.Content["status"] != "ok" {
		t.Errorf("alive %v, shutdown %v", r.Alive, r.Shutdown)
	}
}

// TestE2EConsoleCtrlC: Ctrl-C in `jupyter console` interrupts a running
// cell and a cell waiting for input, and the console goes on.
func TestE2EConsoleCtrlC(t *testing.T) {
	env := buildAndInstall(t)
	kerneltest.Require(t, "jupyter-console python3-pexpect", "jupyter_console", "pexpect")
	cmd := exec.Command(python, "testdata/console.py")
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("console.py: %v\n%s", err, stderr.String())
	}
	var r struct {
		Loop        bool    `json:"loop"`
		LoopSeconds float64 `json:"loop_seconds"`
		Input       bool    `json:"input"`
		After       bool    `json:"after"`
		RanOn       bool    `json:"ran_on"`
		Interrupted int     `json:"interrupted"`
		Screen      string  `json:"screen"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("console.py printed %q: %v", out, err)
	}
	// Both interrupted cells say so, once each (the first may say it
	// after the next prompt: see console.py).
	if !r.Loop || r.LoopSeconds > 3 || !r.Input || !r.After || r.RanOn || r.Interrupted != 2 {
		t.Errorf("Ctrl-C in jupyter console: loop %v (%.1fs), input %v, next cell %v, ran on %v, %d cells said they were interrupted; screen:\n%s", r.Loop, r.LoopSeconds, r.Input, r.After, r.RanOn, r.Interrupted, r.Screen)
	}
}

// TestE2EConsoleProgress: jupyter console prints a display when it comes
// and ignores its updates, so a progress bar's first frame is all it ever
// shows of it; that line must stay true after the solve has ended (no
// "12%", no "ETA 3 s" under a finished cell).
func TestE2EConsoleProgress(t *testing.T) {
	env := buildAndInstall(t)
	kerneltest.Require(t, "jupyter-console python3-pexpect", "jupyter_console", "pexpect")
	cmd := exec.Command(python, "testdata/console.py", "progress")
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("console.py progress: %v\n%s", err, stderr.String())
	}
	var r struct {
		Solved bool   `json:"solved"`
		Cell   string `json:"cell"`
		Screen string `json:"screen"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("console.py printed %q: %v", out, err)
	}
	if !r.Solved {
		t.Fatalf("the solve did not end with its count; screen:\n%s", r.Screen)
	}
	if !strings.Contains(r.Cell, "CN(6,2) values, heaps 0..13: 7.5M positions") || strings.Contains(r.Cell, "ETA") || strings.Contains(r.Cell, "%") {
		t.Errorf("what the console keeps of the progress bar:\n%s", r.Cell)
	}
}

// TestE2ESilentClients: ten connections that say nothing (or stop inside
// the greeting) do not delay a new client.
func TestE2ESilentClients(t *testing.T) {
	var r struct {
		ReadySeconds float64 `json:"ready_seconds"`
		Seconds      float64 `json:"seconds"`
		Cell         pyRun   `json:"cell"`
	}
	scenario(t, "silent", &r)
	if r.Cell.status() != "ok" || result(r.Cell) != "42" || r.Seconds > 3 {
		t.Errorf("a client after silent ones: ready after %.2fs, cell %s %q after %.2fs", r.ReadySeconds, r.Cell.status(), result(r.Cell), r.Seconds)
	}
	t.Logf("served %.2fs after connecting (ready after %.2fs)", r.Seconds, r.ReadySeconds)
}

func TestE2EClosedStdio(t *testing.T) {
	var r struct{ Cells []pyRun }
	scenario(t, "closed_stdio", &r)
	if len(r.Cells) != 2 || r.Cells[0].status() != "ok" {
		t.Fatalf("cells: %+v", r.Cells)
	}
	if after := r.Cells[1]; after.status() != "ok" || after.text("stdout") != "out\ndirect\n" || after.text("stderr") != "err\n" {
		t.Errorf("after closing os.Stdout and os.Stderr: %s stdout %q stderr %q", after.status(), after.text("stdout"), after.text("stderr"))
	}
}

// TestE2EMemoryLimit: GRUNDY_MEMORY_LIMIT is the session's limit: the
// library counts what the session holds, and the engine process cannot
// map much more than the limit.
func TestE2EMemoryLimit(t *testing.T) {
	var r struct {
		Limit, Hold, Refused, Freed pyRun
		AddressSpace                []string `json:"address_space"`
	}
	scenario(t, "memory", &r)
	if result(r.Limit) != "536870912" {
		t.Errorf("solve.MemoryLimit = %q, want the session's 512 MiB", result(r.Limit))
	}
	if got := r.Refused.text("stdout"); r.Refused.status() != "ok" || !strings.Contains(got, "the session already holds") || !strings.Contains(got, "512 MiB limit") {
		t.Errorf("a table beside 300 MiB held: %s %q", r.Refused.status(), got)
	}
	if got := r.Freed.text("stdout"); !strings.Contains(got, "<nil> 7529536\n") {
		t.Errorf("after freeing: %s %q", r.Freed.status(), got)
	}
	if len(r.AddressSpace) != 1 {
		t.Fatalf("address space limits: %v", r.AddressSpace)
	}
	as, err := strconv.ParseInt(r.AddressSpace[0], 10, 64)
	if err != nil || as < 512<<20 || as > 4<<30 {
		t.Errorf("the engine process's address space limit is %s bytes", r.AddressSpace[0])
	}
}
