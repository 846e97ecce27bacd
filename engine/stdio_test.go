package engine

import (
	"errors"
	"strings"
	"testing"
)

// A cell that closes os.Stdout or os.Stderr sees them closed, as in Go,
// but the cells after it print as before.
func TestClosedStdioDoesNotSilenceTheSession(t *testing.T) {
	it := newTestInterp(t)
	for _, c := range []struct{ code, stdout string }{
		// (fmt.Print writes to os.Stdout as the cell has it, closed, as
		// in Go: the cell's own output ends there.)
		{"os.Stdout.Close()\n_, err := fmt.Fprintln(os.Stdout, \"lost\")\nclosedErr := err != nil\nfmt.Println(\"lost too\")", ""},
		{"fmt.Println(closedErr)", "true\n"},
		{"fmt.Println(\"fmt still prints\")", "fmt still prints\n"},
		{"os.Stdout.WriteString(\"os.Stdout works again\\n\")", "os.Stdout works again\n"},
		{"os.Stderr.Close()", ""},
		{"fmt.Fprintln(os.Stderr, \"stderr too\")", ""},
	} {
		_, out, err := runCell(t, it, c.code)
		if err != nil || out != c.stdout {
			t.Errorf("%q: stdout %q, %v; want %q", c.code, out, err, c.stdout)
		}
	}
	r := &recorder{}
	if _, err := it.Execute(t.Context(), "fmt.Fprint(os.Stderr, \"stderr too\")", r); err != nil || r.err() != "stderr too" {
		t.Errorf("stderr after closing it: %q, %v", r.err(), err)
	}
}

// The interpreter's "POS: panic: FUNC(...)" lines are kept from stderr,
// also one for a frame whose first node has no position ("-"), which a
// failed assertion of a chan type printed in the cell's stderr.
func TestPanicFilterKeepsFramesFromStderr(t *testing.T) {
	var out strings.Builder
	f := &panicFilter{w: &out}
	f.Write([]byte("cell:3:1: panic: main.f(...)\n-: panic: main(...)\nmine: panic: x(...) of mine\n"))
	if got, want := out.String(), "mine: panic: x(...) of mine\n"; got != want {
		t.Errorf("passed %q, want %q", got, want)
	}
	if got, want := strings.Join(f.take(), "|"), "main.f (entered at cell:3:1)"; got != want {
		t.Errorf("stack %q, want %q", got, want)
	}
}

// The frames the interpreter wrote while unwinding a panic that a cell's
// recover() stopped are not the stack of the cell's next panic.
func TestRecoveredPanicFramesAreForgotten(t *testing.T) {
	it := newTestInterp(t)
	_, _, err := runCell(t, it, `func first(s []int) int { return s[5] }
func second(m map[string]int) { m["x"] = 1 }
func try(f func()) {
	defer func() { recover() }()
	f()
}
try(func() { first(nil) })
second(nil)`)
	var ee *EvalError
	if !errors.As(err, &ee) {
		t.Fatalf("error %v, want a panic", err)
	}
	tb := strings.Join(ee.Traceback, "\n")
	if !strings.Contains(tb, "main.second") || strings.Contains(tb, "main.first") {
		t.Errorf("traceback:\n%s\nwant main.second's frame and not main.first's", tb)
	}
}
