package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"grundy/engine/prelude"
	"grundy/stdlib/solve"
)

// TestDiff is the differential oracle: every case in testdata/diff/ (cells
// separated by "// ---" lines, as in testdata/snippets, but with no
// expected output) runs in a fresh engine session and, turned into one Go
// program (see diff_program_test.go), under the Go toolchain; stdout and
// stderr must be equal byte for byte. Cases listed in
// testdata/diff/KNOWN_FAILURES are known not to match yet: the test fails
// when any other case differs, and when a listed case matches (take it off
// the list). Program outputs are cached under the user cache directory,
// keyed by the program's text, the Go version and the library's sources;
// GRUNDY_DIFF_NOCACHE=1 runs every program.
func TestDiff(t *testing.T) {
	files, known := diffCaseFiles(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	oracle, err := newGoOracle(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	var cases []*diffCase
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := &diffCase{name: strings.TrimSuffix(filepath.Base(f), ".go.txt"), cells: strings.Split(string(src), "\n// ---\n"), done: make(chan struct{})}
		names[c.name] = true
		cases = append(cases, c)
	}
	for name := range known.entries {
		if !names[name] {
			t.Errorf("KNOWN_FAILURES lists %s, which is not in testdata/diff", name)
		}
	}
	for _, e := range known.problems {
		t.Error("KNOWN_FAILURES: " + e)
	}

	var selected []*diffCase
	// Each case's subtest waits, parked, for the engine to run it: the
	// deadlock watchdog's bound on goroutines is the cells' own.
	defer func(n int) { deadlockMaxGoroutines = n }(deadlockMaxGoroutines)
	deadlockMaxGoroutines += len(cases)
	t.Run("case", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				selected = append(selected, c)
				t.Parallel()
				<-c.done
				c.judge(t, known.entries[c.name])
			})
		}
		// The subtests start when this function returns; meanwhile the
		// engine and the toolchain work on the selected cases.
		go runDiffCases(oracle, selected)
	})
}

// diffCaseFiles are the cases' files and the known failures.
func diffCaseFiles(t *testing.T) ([]string, *knownFailures) {
	files, err := filepath.Glob("testdata/diff/*.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	known, err := readKnownFailures("testdata/diff/KNOWN_FAILURES")
	if err != nil {
		t.Fatal(err)
	}
	return files, known
}

type diffCase struct {
	name   string
	cells  []string
	engine goRun // what the engine printed, in the program's terms
	want   goRun
	prog   *diffProgram
	err    error // the case cannot be run as a program
	done   chan struct{}
}

func (c *diffCase) judge(t *testing.T, known *knownFailure) {
	if c.err != nil {
		t.Fatalf("not a valid differential case: %v", c.err)
	}
	want := c.want
	if fatal, ok := fatalEnd(want); ok {
		// Go ended the program, and the engine that cell: comparable
		// when it is the case's last.
		want = goRun{Stdout: want.Stdout + "!! " + fatal + "\n", Stderr: want.Stderr[:strings.Index(want.Stderr, fatal)]}
	}
	if want.Exit != 0 {
		t.Fatalf("the program exits with status %d (a differential case must run to its end, or end in a deadlock):\n%s", want.Exit, want.Stderr)
	}
	var diffs []string
	if c.engine.Stdout != want.Stdout {
		diffs = append(diffs, "stdout:\n"+lineDiff(c.engine.Stdout, want.Stdout))
	}
	if c.engine.Stderr != want.Stderr {
		diffs = append(diffs, "stderr:\n"+lineDiff(c.engine.Stderr, want.Stderr))
	}
	switch {
	case len(diffs) == 0 && known != nil:
		t.Errorf("matches go run now: take it off KNOWN_FAILURES (%s: %s)", known.category, known.what)
	case len(diffs) == 0:
	case known != nil:
		t.Skipf("known failure, %s: %s\n%s", known.category, known.what, strings.Join(diffs, "\n"))
	default:
		t.Errorf("engine (-) and go run (+) differ; fix it, or list it in testdata/diff/KNOWN_FAILURES as\n%s CATEGORY what goes wrong\n%s\nprogram:\n%s",
			c.name, strings.Join(diffs, "\n"), c.prog.main)
	}
}

// fatalEnd is the first line of the fatal error that ended a program,
// when it is one the engine reports as the cell's error: a deadlock, or
// a panic in a goroutine other than the cell's (the cell's own are
// recovered by the program's _diffRun); the goroutine dump after it is
// not compared.
func fatalEnd(r goRun) (string, bool) {
	if r.Exit != 2 {
		return "", false
	}
	line := "fatal error: " + DeadlockMessage
	if strings.HasPrefix(r.Stderr, line+"\n") || strings.Contains(r.Stderr, "\n"+line+"\n") {
		return line, true
	}
	at := strings.Index(r.Stderr, "panic: ")
	if at < 0 || at > 0 && r.Stderr[at-1] != '\n' {
		return "", false
	}
	text, _, ok := strings.Cut(r.Stderr[at:], "\n\ngoroutine ")
	if !ok || strings.Contains(text, "\n") {
		return "", false
	}
	return text, true
}

// runDiffCases fills in each case's two outputs: the engine's one case at a
// time, the programs' concurrently.
func runDiffCases(o *goOracle, cases []*diffCase) {
	progsDone := make(chan struct{})
	go func() {
		defer close(progsDone)
		var imports []string
		for _, p := range prelude.Imports {
			imports = append(imports, p.Path)
		}
		for _, c := range cases {
			imports = append(imports, importedPaths(c.cells)...)
		}
		if err := o.prefetch(imports); err != nil {
			for _, c := range cases {
				c.err = err
			}
			return
		}
		progs := make([]*diffProgram, len(cases))
		for i, c := range cases {
			p, err := o.conv.convert(c.cells)
			if err == nil {
				err = o.conv.check(p)
			}
			if err != nil {
				c.err = err
				continue
			}
			progs[i], c.prog = p, p
		}
		runs, errs := o.runAll(progs)
		for i, c := range cases {
			if c.err == nil {
				c.want, c.err = runs[i], errs[i]
			}
		}
	}()
	for _, c := range cases {
		c.engine = runEngineCells(c.cells)
	}
	<-progsDone
	for _, c := range cases {
		close(c.done)
	}
}

var importPathRE = regexp.MustCompile(`"([a-z0-9/._]+)"`)

// importedPaths over-approximates the paths a case imports (any quoted
// path-like string), for prefetching. A string whose first element has a
// dot ("0.07", "game.txt") is left out: go list takes it for a module's
// package and looks for the module, which with GOPROXY=off and a module
// cache that lacks some module of the build list (a fresh machine's)
// failed the whole list, and with it every case. No case imports a
// module other than this one, whose paths have no dot.
func importedPaths(cells []string) []string {
	var out []string
	for _, c := range cells {
		if !strings.Contains(c, "import") {
			continue
		}
		for _, m := range importPathRE.FindAllStringSubmatch(c, -1) {
			first, _, _ := strings.Cut(m[1], "/")
			if first == "" || strings.Contains(first, ".") {
				continue
			}
			out = append(out, m[1])
		}
	}
	return out
}

// runEngineCells runs the cells in a fresh session and writes what it
// shows as the program does: per cell its stdout, then "!! Name: Value"
// for a failure or the value's text/plain on a line; displays (which a
// program cannot make) as "display: MIMEs | text".
func runEngineCells(cells []string) (r goRun) {
	var stdout, stderr strings.Builder
	defer func() {
		if p := recover(); p != nil {
			stdout.WriteString(fmt.Sprintf("!! the engine panicked: %v\n", p))
		}
		r = goRun{Stdout: stdout.String(), Stderr: stderr.String()}
	}()
	// A case is a program of its own under go run, and a session is a
	// process of its own in the kernel: the library's package state (the
	// table cache, which Table.Method names, solve.Workers and
	// solve.MemoryLimit) starts afresh, not as earlier cases of this
	// test process left it.
	solve.ClearCache()
	defer func(workers int, limit int64) { solve.Workers, solve.MemoryLimit = workers, limit }(solve.Workers, solve.MemoryLimit)
	it, err := NewInterp(Options{})
	if err != nil {
		stdout.WriteString("!! NewInterp: " + err.Error() + "\n")
		return
	}
	defer it.Close()
	for _, c := range cells {
		// What a frontend shows: a slow machine's progress bars are
		// cleared and the cell's own output sent again when it ends.
		rec := &recorder{frontend: true}
		// Cells are small; a cell that spins (a known failure) should not
		// hold the test up for long, nor one a loaded machine stop (a
		// second of work took five; the heaviest cases, c109's 256×256
		// nim table, take four seconds alone and timed out at 15 while
		// go test ran the other packages beside the engine's).
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res, err := it.Execute(ctx, c, rec)
		cancel()
		stdout.WriteString(rec.out())
		stderr.WriteString(rec.err())
		for _, d := range rec.displays {
			text, _ := d["text/plain"].(string)
			stdout.WriteString("display: " + mimes(d) + " | " + text + "\n")
		}
		if err != nil {
			var ee *EvalError
			if errors.As(err, &ee) {
				stdout.WriteString("!! " + ee.Name + ": " + ee.Value + "\n")
			} else {
				stdout.WriteString("!! " + err.Error() + "\n")
			}
			continue
		}
		if res.Value != nil {
			text, _ := res.Value["text/plain"].(string)
			stdout.WriteString(text + "\n")
		}
	}
	return
}

// lineDiff marks the lines of got (-) and want (+) that differ, with the
// common lines around them.
func lineDiff(got, want string) string {
	g, w := strings.SplitAfter(got, "\n"), strings.SplitAfter(want, "\n")
	// Longest common subsequence, small inputs.
	n, m := len(g), len(w)
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if g[i] == w[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var b strings.Builder
	line := func(mark, s string) {
		if s == "" {
			return
		}
		q := strconv.Quote(strings.TrimSuffix(s, "\n"))
		b.WriteString(mark + q[1:len(q)-1])
		b.WriteString("\n")
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && g[i] == w[j]:
			line("  ", g[i])
			i++
			j++
		case j < m && (i == n || l[i][j+1] >= l[i+1][j]):
			line("+ ", w[j])
			j++
		default:
			line("- ", g[i])
			i++
		}
	}
	return b.String()
}

// knownFailures is testdata/diff/KNOWN_FAILURES: "## category (N): what"
// summaries, then one line per case: "name category what goes wrong".
type knownFailures struct {
	entries  map[string]*knownFailure
	problems []string
}

type knownFailure struct{ category, what string }

var knownSummary = regexp.MustCompile(`^## ([a-z0-9-]+) \((\d+)\): `)

func readKnownFailures(path string) (*knownFailures, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	k := &knownFailures{entries: map[string]*knownFailure{}}
	summaries := map[string]int{}
	counts := map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if m := knownSummary.FindStringSubmatch(l); m != nil {
			summaries[m[1]], _ = strconv.Atoi(m[2])
			continue
		}
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		fs := strings.Fields(l)
		if len(fs) < 3 {
			k.problems = append(k.problems, fmt.Sprintf("line %d: want \"name category what goes wrong\"", n))
			continue
		}
		if k.entries[fs[0]] != nil {
			k.problems = append(k.problems, fmt.Sprintf("line %d: %s is listed twice", n, fs[0]))
		}
		k.entries[fs[0]] = &knownFailure{category: fs[1], what: strings.Join(fs[2:], " ")}
		counts[fs[1]]++
	}
	var cats []string
	for c := range counts {
		cats = append(cats, c)
	}
	for c := range summaries {
		if counts[c] == 0 {
			cats = append(cats, c)
		}
	}
	sort.Strings(cats)
	for _, c := range cats {
		if summaries[c] != counts[c] {
			k.problems = append(k.problems, fmt.Sprintf("category %s has %d cases; its summary line says %d (\"## %s (%d): ...\")", c, counts[c], summaries[c], c, counts[c]))
		}
	}
	return k, sc.Err()
}
