package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"grundy/stdlib/progress"
)

// A notebook saves the same bytes whether or not its long tasks showed a
// progress bar (they do on a slow machine, not on a fast one): the bars
// go when the cell ends, and what the cell wrote stays, in order. With
// progress.Keep the summary line stays instead.
func TestProgressIsTransient(t *testing.T) {
	dir := t.TempDir()
	path := writeNotebook(t, dir, 5,
		testCell{typ: "code", src: `fmt.Println("before")
task := progress.Start("demo", 20)
for range 20 {
	time.Sleep(15 * time.Millisecond)
	task.Add(1)
}
task.Done(nil)
display.Markdown("**shown**")
h := display.New()
h.Update("first")
h.Update("last")
fmt.Fprintln(os.Stderr, "after")
6 * 7`},
		testCell{typ: "code", src: `fmt.Println("next cell")`},
	)
	run := func(name string, minDuration time.Duration, keep bool) []byte {
		t.Helper()
		oldMin, oldKeep := progress.MinDuration, progress.Keep
		progress.MinDuration, progress.Keep = minDuration, keep
		defer func() { progress.MinDuration, progress.Keep = oldMin, oldKeep }()
		out := filepath.Join(dir, name+".ipynb")
		if err := RunNotebook(context.Background(), path, out, nil, NotebookOptions{}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	fast := run("fast", time.Hour, false)
	slow := run("slow", 0, false)
	kept := run("kept", 0, true)
	if !bytes.Equal(fast, slow) {
		t.Errorf("the notebook differs when the progress bar showed:\n--- without a bar\n%s\n--- with one\n%s", fast, slow)
	}
	for _, want := range []string{"before", "**shown**", "last", "after", "42", "next cell"} {
		if !bytes.Contains(slow, []byte(want)) {
			t.Errorf("the replayed output lacks %q:\n%s", want, slow)
		}
	}
	if !bytes.Contains(kept, []byte("demo: 20 positions in ")) {
		t.Errorf("with progress.Keep the summary line should stay:\n%s", kept)
	}
}
