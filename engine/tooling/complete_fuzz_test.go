package tooling

import (
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzTooling: whatever half-typed text a frontend sends, the tooling
// answers without panicking and with a span around the cursor.
func FuzzTooling(f *testing.F) {
	for _, seed := range []string{
		"", "games.", "table.Face(\"a b\").", "x := [](", "func (p *point) M(", "for i := range 10 {\n\tpt.",
		"`raw", "/* open", "s := \"é→\"; strings.To", "a, b := games.Load(", "type (\n\tq struct{ a int }\n", "))]]}}..",
		"t, _ := (table).Face(\"x\")[0].", "var (x = 1; y", "import (\n\"fmt\"\n", "x.\n\n\ty", "func[T any](", "&table.",
		"func (b *box) Twice() {\n\tb.", "s := &Stack[box]{}\ns.Top().", "xs := []box{\n\t{n: 1},\n\tboxes[0].", "box{}.Get(",
	} {
		f.Add(seed, utf8.RuneCountInString(seed))
		f.Add(seed, 1)
	}
	sc := newFakeScope(f, oracleCells...)
	f.Fuzz(func(t *testing.T, code string, cursor int) {
		n := utf8.RuneCountInString(code)
		if cursor < 0 || cursor > n {
			cursor = n
		}
		c := complete(sc, code, cursor)
		if c.CursorStart > cursor || c.CursorEnd < cursor || c.CursorEnd > n {
			t.Fatalf("complete(%q, %d): span %d..%d", code, cursor, c.CursorStart, c.CursorEnd)
		}
		inspect(sc, code, cursor, 0)
		switch status, _ := isComplete(code); status {
		case "complete", "incomplete", "invalid":
		default:
			t.Fatalf("isComplete(%q) = %q", code, status)
		}
	})
}

// TestToolingLongInputs: the tooling runs on every keystroke, so no input
// may make it crawl. A 3000-link selector chain once took 14 s (the chain
// was rebuilt at every link).
func TestToolingLongInputs(t *testing.T) {
	sc := newFakeScope(t)
	inputs := []string{
		strings.Repeat("(", 5000), strings.Repeat(")", 5000) + ".", strings.Repeat("a := ", 3000),
		strings.Repeat("x.", 3000), strings.Repeat("x.", 999) + "x", strings.Repeat("f(", 3000) + "x",
		strings.Repeat("func (", 2000), strings.Repeat("var (", 2000), strings.Repeat("type (", 2000),
		strings.Repeat("a, ", 3000) + " := f()", strings.Repeat("x[0]", 3000) + ".",
		strings.Repeat("t := t.x\n", 2000) + "t.", strings.Repeat("x().", 1000),
	}
	for _, code := range inputs {
		// CPU time, not wall time: on a loaded machine (go test ./... on
		// two cores) the wall clock measures the other processes too.
		start := cpuTime(t)
		n := utf8.RuneCountInString(code)
		complete(sc, code, n)
		inspect(sc, code, n, 0)
		isComplete(code)
		if d := cpuTime(t) - start; d > time.Second {
			t.Errorf("%.20q...: %v of CPU time", code, d)
		}
	}
}

// cpuTime is the CPU time this process has used so far.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
