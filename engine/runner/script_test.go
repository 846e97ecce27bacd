package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"grundy/engine"
)

func TestRunScript(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, src, wantOut, wantErr string
		images                      int
	}{
		{name: "cells.go", src: "x := 2\nfmt.Println(\"x is\", x)\nx * 21\n", wantOut: "x is 2\n42\n"},
		{name: "prog.go", src: "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"from main\")\n}\n", wantOut: "from main\n"},
		{name: "prog_lib.go", src: "package main\n\nimport (\n\t\"fmt\"\n\t\"grundy/stdlib/games\"\n)\n\nfunc name() string { return games.CN(6, 2).Name() }\n\nfunc main() {\n\tfmt.Println(name())\n}\n", wantOut: "CN(6,2)\n"},
		{name: "prog_err.go", src: "package main\n\nfunc main() {\n\tx := nope\n}\n", wantErr: "prog_err.go:4:7: undefined: nope"},
		{name: "img.go", src: "img := image.NewGray(image.Rect(0, 0, 3, 3))\ndisplay.Show(img)\n", wantOut: "[image written to ", images: 1},
		{name: "bad.go", src: "x := 1\ny := x + nope\n", wantErr: "bad.go:2:10: undefined: nope"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out-"+tc.name)
			os.MkdirAll(out, 0o755)
			var stdout, stderr bytes.Buffer
			err := RunScript(context.Background(), path, ScriptOptions{OutDir: out, Stdout: &stdout, Stderr: &stderr})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// A script's text must appear exactly once: main runs once.
			if tc.images == 0 && stdout.String() != tc.wantOut {
				t.Errorf("stdout %q, want %q", stdout.String(), tc.wantOut)
			}
			if !strings.HasPrefix(stdout.String(), tc.wantOut) {
				t.Errorf("stdout %q, want prefix %q", stdout.String(), tc.wantOut)
			}
			pngs, _ := filepath.Glob(filepath.Join(out, "*.png"))
			if len(pngs) != tc.images {
				t.Errorf("%d images written, want %d", len(pngs), tc.images)
			}
		})
	}
}

// Redirected to a file, a script's live displays (progress bars, handles
// it updates) are written once each, in their final state and in order
// with the other output, instead of a redraw line per update.
func TestRunScriptLiveDisplaysNotTerminal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.go")
	src := `h := display.New()
for i := range 100 {
	h.Text(fmt.Sprint("step ", i))
}
fmt.Println("between")
task := progress.Start("demo", 30)
for range 30 {
	time.Sleep(10 * time.Millisecond)
	task.Add(1)
}
task.Done(nil)
h2 := display.New()
h2.Text("last a")
h2.Text("last b")
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer // stdout and stderr together, as 2>&1 would
	if err := RunScript(context.Background(), path, ScriptOptions{Stdout: &out, Stderr: &out}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if strings.ContainsAny(got, "\r\033") {
		t.Errorf("terminal control characters in redirected output: %q", got)
	}
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 4 || lines[0] != "step 99" || lines[1] != "between" ||
		!strings.HasPrefix(lines[2], "demo: 30 positions in ") || lines[3] != "last b" {
		t.Errorf("output lines %q, want step 99, between, the demo summary, last b", lines)
	}
}

// On a terminal a live display is redrawn in place on one line.
func TestTerminalOutputRedrawsOnTerminal(t *testing.T) {
	var errb, outb bytes.Buffer
	term := &TerminalOutput{Out: &outb, Err: &errb, termKnown: true, term: true}
	term.Display(engine.Bundle{"text/plain": "one"}, nil, "x", false)
	term.Display(engine.Bundle{"text/plain": "two"}, nil, "x", true)
	term.Stdout("text\n")
	if want := "\r\033[Kone\r\033[Ktwo\n"; errb.String() != want {
		t.Errorf("stderr %q, want %q", errb.String(), want)
	}
	if outb.String() != "text\n" {
		t.Errorf("stdout %q", outb.String())
	}
}
