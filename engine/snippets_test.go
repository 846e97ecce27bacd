package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"grundy/engine/compat"
)

// The snippet corpus: testdata/snippets/*.go.txt (not .go: they are cells,
// not files gofmt could read), each a sequence of cells
// separated by "// ---" lines, ending with an "// Output:" comment block
// that is the expected transcript (see transcript). Every snippet runs in a
// fresh session through the real engine.
func TestSnippets(t *testing.T) {
	files, err := filepath.Glob("testdata/snippets/*.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 60 {
		t.Errorf("only %d snippets; the corpus should have at least 60", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".go.txt")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			cells, want, ok := parseSnippet(string(src))
			if !ok {
				t.Fatalf("%s has no // Output: block", f)
			}
			it := newTestInterp(t)
			got := transcript(t, it, cells)
			if got != want {
				t.Errorf("%s\n--- got:\n%s\n--- want:\n%s", f, got, want)
			}
		})
	}
}

func parseSnippet(src string) (cells []string, want string, ok bool) {
	i := strings.LastIndex(src, "\n// Output:")
	if i < 0 {
		return nil, "", false
	}
	var exp []string
	for _, l := range strings.Split(strings.TrimRight(src[i+len("\n// Output:"):], "\n"), "\n")[1:] {
		l = strings.TrimPrefix(l, "//")
		l = strings.TrimPrefix(l, " ")
		exp = append(exp, l)
	}
	for _, c := range strings.Split(src[:i], "\n// ---\n") {
		cells = append(cells, c)
	}
	return cells, trimLines(strings.Join(exp, "\n")), true
}

// transcript runs cells and writes, per cell: its stdout, then its stderr
// prefixed "stderr: ", its displays as "display: MIME,... | text", its
// value's text/plain (with "[MIME,...] " in front when it has richer
// forms), or "!! Name: Value" for an error.
func transcript(t *testing.T, it *Interp, cells []string) string {
	var b strings.Builder
	for _, c := range cells {
		rec := &recorder{frontend: true, inputs: []string{"42", "hello world"}}
		// (Generous: a loaded machine stretched two seconds of work past
		// ten.)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if strings.Contains(c, "// interrupt") {
			cancel()
			ctx, cancel = context.WithTimeout(context.Background(), 300*time.Millisecond)
		}
		res, err := it.Execute(ctx, c, rec)
		cancel()
		b.WriteString(rec.out())
		if e := rec.err(); e != "" {
			for _, l := range strings.Split(strings.TrimRight(e, "\n"), "\n") {
				b.WriteString("stderr: " + l + "\n")
			}
		}
		for _, d := range rec.displays {
			b.WriteString("display: " + mimes(d) + " | " + strings.TrimSpace(d["text/plain"].(string)) + "\n")
		}
		if err != nil {
			var ee *EvalError
			if !errors.As(err, &ee) {
				t.Errorf("error %v is not an *EvalError", err)
				b.WriteString("!! " + err.Error() + "\n")
				continue
			}
			b.WriteString("!! " + ee.Name + ": " + ee.Value + "\n")
			continue
		}
		if res.Value != nil {
			if m := mimes(res.Value); m != "text/plain" {
				b.WriteString("[" + m + "] ")
			}
			b.WriteString(res.Value["text/plain"].(string) + "\n")
		}
	}
	return trimLines(b.String())
}

// trimLines drops trailing spaces on each line and trailing newlines.
func trimLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

func mimes(b Bundle) string {
	var ks []string
	for k := range b {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// Each compatibility pass names the snippets that go wrong without it:
// they pass with every pass, and each pass's snippets differ without it
// (or end the process: a goroutine's panic does, without its pass). A pass
// whose snippets all pass without it is no longer needed, or its snippets
// no longer show why it is: delete it, or name a snippet that does. Each
// pass is left out in a process of its own.
func TestPassesAreNeeded(t *testing.T) {
	if name := os.Getenv("GRUNDY_WITHOUT_PASS"); name != "" {
		withoutPass(t, name)
		return
	}
	if testing.Short() {
		t.Skip("runs the snippets of every pass again without it")
	}
	for _, p := range compat.Passes {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			if len(p.Snippets) == 0 {
				t.Fatalf("pass %s names no snippet", p.Name)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestPassesAreNeeded$")
			cmd.Env = append(os.Environ(), "GRUNDY_WITHOUT_PASS="+p.Name)
			out, _ := cmd.CombinedOutput()
			switch {
			case strings.Contains(string(out), withoutSame):
				t.Errorf("every snippet of pass %s (%s) passes without it", p.Name, strings.Join(p.Snippets, ", "))
			case strings.Contains(string(out), "--- FAIL"):
				t.Errorf("pass %s:\n%s", p.Name, out)
			}
		})
	}
}

const withoutSame = "every snippet passes without the pass"

// withoutPass runs the snippets of pass name without it (in the child
// process of TestPassesAreNeeded).
func withoutPass(t *testing.T, name string) {
	var pass compat.Pass
	var without []compat.Pass
	for _, q := range compat.Passes {
		if q.Name == name {
			pass = q
		} else {
			without = append(without, q)
		}
	}
	for _, sn := range pass.Snippets {
		src, err := os.ReadFile(filepath.Join("testdata/snippets", sn+".go.txt"))
		if err != nil {
			t.Fatalf("pass %s names snippet %s: %v", name, sn, err)
		}
		cells, want, _ := parseSnippet(string(src))
		it := newTestInterp(t)
		it.passes = without
		if transcript(t, it, cells) != want {
			return
		}
	}
	fmt.Println(withoutSame)
}
