package remote

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"grundy/engine"
)

// The test binary doubles as the engine process, as the grundy binary
// does: Start runs it with ChildCommand.
func TestMain(m *testing.M) {
	RunIfChild()
	os.Exit(m.Run())
}

func testOptions(t *testing.T) Options {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Options{Command: []string{exe, ChildCommand}, Log: &lockedBuffer{}, MemoryLimit: 1 << 30}
}

// recorder is an engine.Output that keeps everything.
type recorder struct {
	mu       sync.Mutex
	stdout   strings.Builder
	stderr   strings.Builder
	displays []engine.Bundle
	answer   string
}

func (r *recorder) Stdout(s string) { r.mu.Lock(); r.stdout.WriteString(s); r.mu.Unlock() }
func (r *recorder) Stderr(s string) { r.mu.Lock(); r.stderr.WriteString(s); r.mu.Unlock() }
func (r *recorder) Display(b engine.Bundle, _ map[string]any, _ string, _ bool) {
	r.mu.Lock()
	r.displays = append(r.displays, b)
	r.mu.Unlock()
}
func (r *recorder) ClearOutput(bool) {}
func (r *recorder) Input(prompt string, _ bool) (string, error) {
	if r.answer == "" {
		return "", errors.New("no input")
	}
	return r.answer, nil
}

func (r *recorder) out() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stdout.String()
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func run(t *testing.T, s engine.Session, code string) (*recorder, engine.Result, error) {
	t.Helper()
	r := &recorder{}
	res, err := s.Execute(context.Background(), code, r)
	return r, res, err
}

func TestProcessExecute(t *testing.T) {
	p := Start(testOptions(t))
	defer p.Close()
	r, res, err := run(t, p, "x := 20\nfmt.Println(\"hello\")\nx*2 + 2")
	if err != nil || r.out() != "hello\n" || res.Value["text/plain"] != "42" {
		t.Fatalf("got %q, %v, %v", r.out(), res.Value, err)
	}
	_, _, err = run(t, p, "undefinedThing")
	var ee *engine.EvalError
	if !errors.As(err, &ee) || ee.Name != "CompileError" {
		t.Errorf("compile error came back as %#v", err)
	}
	r = &recorder{answer: "Ada"}
	if _, err := p.Execute(context.Background(), "var s string\nfmt.Scanln(&s)\nfmt.Println(\"got\", s)", r); err != nil || r.out() != "got Ada\n" {
		t.Errorf("input: %q, %v", r.out(), err)
	}
	r, _, err = run(t, p, "display.Markdown(\"**hi**\")")
	if err != nil || len(r.displays) != 1 {
		t.Errorf("display: %v, %v", r.displays, err)
	}
	c := p.Complete("fmt.Prin", 8)
	if !strings.Contains(strings.Join(c.Matches, " "), "Println") {
		t.Errorf("complete: %+v", c)
	}
	if _, found := p.Inspect("fmt.Println", 5, 0); !found {
		t.Error("inspect found nothing")
	}
	if st, _ := p.IsComplete("for {"); st != "incomplete" {
		t.Errorf("is_complete: %s", st)
	}
}

// A cell that closes os.Stdout must not silence the session.
func TestProcessLargeOutput(t *testing.T) {
	p := Start(testOptions(t))
	defer p.Close()
	r, _, err := run(t, p, `line := strings.Repeat("x", 999) + "\n"
for i := 0; i < 10000; i++ { fmt.Print(line) }`)
	if err != nil || len(r.out()) != 10000*1000 {
		t.Fatalf("got %d bytes, %v", len(r.out()), err)
	}
}

func TestProcessInterrupt(t *testing.T) {
	p := Start(testOptions(t))
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := p.Execute(ctx, "for {}", &recorder{})
	var ee *engine.EvalError
	if !errors.As(err, &ee) || ee.Name != "Interrupted" || p.Dead() {
		t.Fatalf("interrupted loop: %#v (dead %v)", err, p.Dead())
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %s", d)
	}
	if _, res, err := run(t, p, "1 + 1"); err != nil || res.Value["text/plain"] != "2" {
		t.Errorf("after: %v %v", res.Value, err)
	}
}

// A cell stuck in a call that never looks at the interrupt has its
// process stopped after the grace period; it never runs on.
func TestProcessStuckInterrupt(t *testing.T) {
	opt := testOptions(t)
	opt.InterruptGrace = 300 * time.Millisecond
	p := Start(opt)
	defer p.Close()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// wg.Wait is native and knows nothing of interrupts. The interrupt
	// comes once the cell is in it (on a loaded machine compiling the
	// cell can take longer than any fixed delay, and a cell interrupted
	// before it starts rightly never runs): "started" is written 100 ms
	// after the cell reaches wg.Wait's statement, not before it, when an
	// interrupt could still stop the cell between two statements.
	code := `var wg sync.WaitGroup
wg.Add(1)
time.AfterFunc(time.Second, wg.Done)
time.AfterFunc(100*time.Millisecond, func() { os.WriteFile("` + dir + `/started", nil, 0o644) })
wg.Wait()
os.WriteFile("` + dir + `/ran-on", nil, 0o644)`
	cancelWhenStarted(ctx, cancel, dir)
	_, err := p.Execute(ctx, code, &recorder{})
	var c *Crash
	if !errors.As(err, &c) || c.Name != "Interrupted" || !strings.Contains(c.Message, "did not stop within 300ms") {
		t.Fatalf("stuck cell: %#v", err)
	}
	time.Sleep(1500 * time.Millisecond)
	if _, err := os.Stat(dir + "/ran-on"); err == nil {
		t.Error("the interrupted cell ran on after its reply")
	}
}

func TestSupervisorReplaysAfterCrash(t *testing.T) {
	s := NewSupervisor(SupervisorOptions{Options: testOptions(t)})
	defer s.Close()
	ctx := context.Background()
	for i, code := range []string{"x := 41", "undefinedThing", "func inc(n int) int { return n + 1 }"} {
		_, _ = s.Execute(Label(ctx, "In ["+string(rune('1'+i))+"]"), code, &recorder{})
	}
	if _, err := s.Execute(NoReplay(ctx), "x = 1000", &recorder{}); err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	_, err := s.Execute(Label(ctx, "In [4]"), "var mu sync.Mutex\nmu.Unlock()", r)
	var ee *engine.EvalError
	if !errors.As(err, &ee) || ee.Name != "UnlockOfUnlockedMutex" {
		t.Fatalf("crash: %#v", err)
	}
	tb := strings.Join(ee.Traceback, "\n")
	if !strings.Contains(tb, "replayed In [1], In [3] in") || strings.Contains(tb, "In [2]") {
		t.Errorf("traceback: %s", tb)
	}
	if !strings.Contains(r.stderr.String(), "replaying 2 earlier cells") {
		t.Errorf("stderr: %q", r.stderr.String())
	}
	// x is back as cell 1 left it: the user expression that changed it is
	// not replayed; the crashing cell neither.
	_, res, err := run(t, s, "inc(x)")
	if err != nil || res.Value["text/plain"] != "42" {
		t.Errorf("after replay: %v %v", res.Value, err)
	}
}

func TestSupervisorNoReplay(t *testing.T) {
	s := NewSupervisor(SupervisorOptions{Options: testOptions(t), NoReplay: true})
	defer s.Close()
	run(t, s, "x := 1")
	_, _, err := run(t, s, "var mu sync.Mutex\nmu.Unlock()")
	var ee *engine.EvalError
	if !errors.As(err, &ee) || !strings.Contains(strings.Join(ee.Traceback, "\n"), "replay is off") {
		t.Fatalf("crash: %#v", err)
	}
	if _, _, err := run(t, s, "x"); err == nil {
		t.Error("x survived with replay off")
	}
}

// An interrupted cell inside a native call that ends within the grace
// period: the reply waits for the call, and the cell does not run on
// (yaegi would wake it when the next cell starts).
func TestProcessInterruptWaitsForTheCell(t *testing.T) {
	p := Start(testOptions(t))
	defer p.Close()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Interrupted once in the native wait: "started" is written 100 ms
	// after the cell reaches wg.Wait (see TestProcessStuckInterrupt), so
	// the interrupt cannot stop the cell between two statements before it.
	code := `var wg sync.WaitGroup
wg.Add(1)
time.AfterFunc(800*time.Millisecond, wg.Done)
time.AfterFunc(100*time.Millisecond, func() { os.WriteFile("` + dir + `/started", nil, 0o644) })
wg.Wait()
os.WriteFile("` + dir + `/ran-on", nil, 0o644)`
	cancelWhenStarted(ctx, cancel, dir)
	_, err := p.Execute(ctx, code, &recorder{})
	var ee *engine.EvalError
	if !errors.As(err, &ee) || ee.Name != "Interrupted" || p.Dead() {
		t.Fatalf("interrupted cell: %#v (dead %v)", err, p.Dead())
	}
	st, serr := os.Stat(dir + "/started")
	if serr != nil {
		t.Fatal(serr)
	}
	if d := time.Since(st.ModTime()); d < 600*time.Millisecond {
		t.Errorf("the reply came %s after the cell started, before the native call ended", d)
	}
	if _, res, err := run(t, p, "2 + 2"); err != nil || res.Value["text/plain"] != "4" {
		t.Errorf("next cell: %v %v", res.Value, err)
	}
	time.Sleep(300 * time.Millisecond)
	if _, err := os.Stat(dir + "/ran-on"); err == nil {
		t.Error("the interrupted cell ran on")
	}
}

// cancelWhenStarted cancels ctx once the cell has written dir/started.
func cancelWhenStarted(ctx context.Context, cancel func(), dir string) {
	go func() {
		for {
			if _, err := os.Stat(dir + "/started"); err == nil {
				cancel()
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
}
