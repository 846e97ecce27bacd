package engine

import (
	"context"
	"errors"
	"log"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"grundy/engine/compat"
)

func TestExecuteBasics(t *testing.T) {
	it := newTestInterp(t)
	tests := []struct {
		code, value, stdout, errSub string
	}{
		{code: "1 + 2", value: "3"},
		{code: "x := 40", value: ""},
		{code: "x + 2", value: "42"},
		{code: `fmt.Println("hi", x)`, stdout: "hi 40\n"},
		{code: "func sq(n int) int { return n * n }\nsq(x)", value: "1600"},
		{code: "y", errSub: "cell:1:1: undefined: y"},
		{code: "var z int = \"s\"", errSub: "cell:1:13:"},
		{code: "a := 1\nb := a +\n", errSub: "cell:2:9: expected operand, found end of input"},
		{code: `panic("boom")`, errSub: "panic: boom"},
		{code: "x", value: "40"}, // the session survived
	}
	for _, tc := range tests {
		value, stdout, err := runCell(t, it, tc.code)
		if tc.errSub != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errSub) {
				t.Errorf("%q: error %v, want one containing %q", tc.code, err, tc.errSub)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.code, err)
			continue
		}
		if value != tc.value || stdout != tc.stdout {
			t.Errorf("%q: value %q stdout %q, want %q and %q", tc.code, value, stdout, tc.value, tc.stdout)
		}
	}
}

func TestInterruptKeepsSession(t *testing.T) {
	it := newTestInterp(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := it.Execute(ctx, "n := 0\nfor { n++ }", &recorder{})
	if took := time.Since(start); took > time.Second {
		t.Errorf("interrupt took %v, want well under a second", took)
	}
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Name != "Interrupted" {
		t.Fatalf("got %v, want an Interrupted EvalError", err)
	}
	v, _, err := runCell(t, it, "n > 0")
	if err != nil || v != "true" {
		t.Errorf("after interrupt: %q, %v; want true", v, err)
	}
}

func TestStdinGoesThroughInput(t *testing.T) {
	it := newTestInterp(t)
	rec := &recorder{inputs: []string{"hello", "second line"}}
	res, err := it.Execute(context.Background(), `var s string
fmt.Scan(&s)
r := bufio.NewReader(os.Stdin)
line, _ := r.ReadString('\n')
s + "|" + line`, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Value["text/plain"]; got != "hello|second line\n" {
		t.Errorf("got %q", got)
	}
}

func TestStreamsCaptured(t *testing.T) {
	it := newTestInterp(t)
	rec := &recorder{}
	_, err := it.Execute(context.Background(), `fmt.Print("a")
os.Stdout.WriteString("b")
fmt.Fprint(os.Stdout, "c")
println("d")
fmt.Fprint(os.Stderr, "e")
log.SetFlags(0)
log.Print("f")`, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.out(); got != "abc" && !strings.HasPrefix(got, "abc") {
		t.Errorf("stdout %q, want abc...", got)
	}
	if got := rec.err(); !strings.Contains(got, "e") || !strings.Contains(got, "f\n") {
		t.Errorf("stderr %q, want e and f", got)
	}
}

// Text printed before a display arrives before it.
func TestOutputOrderWithDisplays(t *testing.T) {
	it := newTestInterp(t)
	rec := &orderRecorder{}
	_, err := it.Execute(context.Background(), `fmt.Println("before")
display.Markdown("*middle*")
fmt.Println("after")`, rec)
	if err != nil {
		t.Fatal(err)
	}
	it.io.flush()
	if got := strings.Join(rec.events, "|"); got != "out:before\n|display|out:after\n" {
		t.Errorf("events %q", got)
	}
}

type orderRecorder struct {
	recorder
	events []string
}

func (r *orderRecorder) Stdout(s string) {
	r.mu.Lock()
	r.events = append(r.events, "out:"+s)
	r.mu.Unlock()
}
func (r *orderRecorder) Display(b Bundle, md map[string]any, id string, update bool) {
	r.mu.Lock()
	r.events = append(r.events, "display")
	r.mu.Unlock()
}

// Interrupts reach a blocked channel operation and a sleeping cell.
func TestInterruptBlockedCells(t *testing.T) {
	it := newTestInterp(t)
	for _, code := range []string{"<-make(chan int)", "time.Sleep(20 * time.Second)", "select {}", "var mu sync.Mutex\nmu.Lock()\nmu.Lock()"} {
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		start := time.Now()
		_, err := it.Execute(ctx, code, &recorder{})
		cancel()
		if took := time.Since(start); took > time.Second {
			t.Errorf("%q: interrupt took %v", code, took)
		}
		var ee *EvalError
		if !errors.As(err, &ee) || ee.Name != "Interrupted" {
			t.Errorf("%q: got %v, want Interrupted", code, err)
		}
		if v, _, err := runCell(t, it, "2 * 21"); err != nil || v != "42" {
			t.Errorf("after %q: %q %v", code, v, err)
		}
	}
}

// A top-level statement interrupted inside time.Sleep does not resume
// later and run the rest of its cell.
func TestInterruptedSleepDoesNotResume(t *testing.T) {
	it := newTestInterp(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	it.Execute(ctx, "late := false\ntime.Sleep(400 * time.Millisecond)\nlate = true", &recorder{})
	runCell(t, it, "1") // a new cell starts while the old one would still sleep
	time.Sleep(600 * time.Millisecond)
	if v, _, err := runCell(t, it, "late"); err != nil || v != "false" {
		t.Errorf("late = %q (%v): the interrupted cell resumed", v, err)
	}
}

// Ranges the interpreter cannot type end in a one-line error, and nothing
// of the interpreter's internals reaches the process's log output.
func TestRangeErrorsStayQuiet(t *testing.T) {
	var logged strings.Builder
	prev := log.Writer()
	log.SetOutput(&logged)
	defer log.SetOutput(prev)
	it := newTestInterp(t)
	for _, code := range []string{
		"for x := range nosuch { fmt.Println(x) }",
		"var a any = func(yield func(int) bool) { yield(7) }\nfor x := range a.(func(func(int) bool)) { fmt.Println(x) }",
		"type W struct{ f func() any }\nw := W{func() any { return func(yield func(int) bool) {} }}\nfor x := range w.f() { fmt.Println(x) }",
	} {
		_, _, err := runCell(t, it, code)
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error is not one line: %q", code, err)
		}
	}
	if logged.Len() > 0 {
		t.Errorf("interpreter internals logged: %q", logged.String())
	}
}

// A native deferred call (wg.Done) still runs when an interrupt stops the
// goroutine that deferred it, also in a function whose other deferred calls
// the engine routes through its own runner: the rewritten defers must keep
// native calls native, or a cell waiting on the group never returns.
func TestInterruptRunsNativeDefers(t *testing.T) {
	it := newTestInterp(t)
	code := `var wg sync.WaitGroup
block := make(chan int)
for range 3 {
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { fmt.Sprint("an interpreted deferred call") }()
		<-block
	}()
}
wg.Wait()`
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	it.Execute(ctx, code, &recorder{})
	check := `done := make(chan bool)
go func() { wg.Wait(); close(done) }()
waited := "stuck"
select {
case <-done:
	waited = "done"
case <-time.After(2 * time.Second):
}
waited`
	if v, _, err := runCell(t, it, check); err != nil || v != "done" {
		t.Errorf("wg.Wait after the interrupt: %s %v", v, err)
	}
}

// A goroutine of an earlier cell that sleeps when a later cell is
// interrupted stops quietly: the interrupt used to panic out of its sleep,
// past the interpreted recover the engine gives goroutines (yaegi skips
// interpreted deferred calls once stopped), and ended the process.
func TestInterruptSparesSleepingGoroutines(t *testing.T) {
	it := newTestInterp(t)
	runCell(t, it, "ticks := 0\ngo func() {\n\tfor {\n\t\ttime.Sleep(5 * time.Millisecond)\n\t\tticks++\n\t}\n}()")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := it.Execute(ctx, "for {\n}", &recorder{})
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Name != "Interrupted" {
		t.Fatalf("the loop gave %v, want Interrupted", err)
	}
	time.Sleep(50 * time.Millisecond)
	if v, _, err := runCell(t, it, "6 * 7"); err != nil || v != "42" {
		t.Fatalf("after the interrupt: %q, %v", v, err)
	}
}

// A goroutine waiting in a select the engine makes (one in a function:
// compat's selects) ends with the interrupted cell, as one the interpreter
// makes does, and the session goes on; a worker of a later cell selects
// again.
func TestInterruptEndsSelectingGoroutines(t *testing.T) {
	it := newTestInterp(t)
	runCell(t, it, "func wait(in <-chan int, out chan<- int, quit chan bool) {\n\tselect {\n\tcase v := <-in:\n\t\tout <- v\n\tcase <-quit:\n\t}\n}")
	interruptWaiting(t, it, "go wait(make(chan int), make(chan int), nil)\nfor {\n\ttime.Sleep(time.Millisecond)\n}")
	if v, _, err := runCell(t, it, "in, out := make(chan int, 1), make(chan int, 1)\nin <- 7\ngo wait(in, out, nil)\n<-out"); err != nil || v != "7" {
		t.Fatalf("after the interrupt: %q, %v", v, err)
	}
}

// A select among a cell's statements (the interpreter's, with plain
// cases) is interrupted too, and the session goes on.
func TestInterruptEndsTopLevelSelect(t *testing.T) {
	it := newTestInterp(t)
	interruptWaiting(t, it, "tick := time.NewTicker(time.Millisecond)\nn := 0\nfor {\n\tselect {\n\tcase <-tick.C:\n\t\tn++\n\t}\n}")
	if v, _, err := runCell(t, it, "ch := make(chan int, 1)\nch <- 3\nr := 0\nselect {\ncase r = <-ch:\n}\nr * 2"); err != nil || v != "6" {
		t.Fatalf("after the interrupt: %q, %v", v, err)
	}
}

// interruptWaiting runs code, which waits for ever, interrupts it, and
// waits until no goroutine waits in the runtime's select any more.
// (Goroutines an earlier test's session left waiting, a differential
// case's server loop that main would have ended, are not this cell's.)
func interruptWaiting(t *testing.T, it *Interp, code string) {
	t.Helper()
	before := strings.Count(allStacks(), "grundyrt.selector")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := it.Execute(ctx, code, &recorder{})
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Name != "Interrupted" {
		t.Fatalf("the cell gave %v, want Interrupted", err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for strings.Count(allStacks(), "grundyrt.selector") > before {
		if time.Now().After(deadline) {
			t.Fatal("a goroutine still waits in the runtime's select after the interrupt")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func allStacks() string {
	buf := make([]byte, 1<<20)
	return string(buf[:runtime.Stack(buf, true)])
}

// A panic while preparing a cell (a bug in a pass or the type checker)
// is the cell's error; the session and its variables go on.
func TestPreparePanicKeepsSession(t *testing.T) {
	it := newTestInterp(t)
	if _, _, err := runCell(t, it, "x := 41"); err != nil {
		t.Fatal(err)
	}
	passes := it.passes
	it.passes = append(slices.Clip(passes), compat.Pass{Name: "boom", Run: func(*compat.Cell) { panic("boom") }})
	_, _, err := runCell(t, it, "y := x")
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Name != "InternalError" || !strings.Contains(ee.Value, "(boom)") || !strings.Contains(ee.Value, "bug in grundy") {
		t.Fatalf("a panicking pass: got %v, want an InternalError naming the panic", err)
	}
	it.passes = passes
	_, out, err := runCell(t, it, "fmt.Println(x + 1)")
	if err != nil || out != "42\n" {
		t.Fatalf("after the panic: %q, %v; want 42", out, err)
	}
}
