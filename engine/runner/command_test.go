package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"grundy/engine/remote"
	"grundy/kernel/kerneltest"
)

func TestMain(m *testing.M) {
	// grundy run starts engine processes: this test binary doubles as one.
	remote.RunIfChild()
	kerneltest.Main(m)
}

func TestRunNotebookOptionsAfterFile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "nb.ipynb")
	nb := `{"nbformat": 4, "nbformat_minor": 5, "metadata": {},
	 "cells": [{"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": null, "outputs": [],
	            "source": ["x := 6\n", "x * 7"]}]}`
	if err := os.WriteFile(src, []byte(nb), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{src, "--out", filepath.Join(dir, "after.ipynb")},
		{"--out", filepath.Join(dir, "before.ipynb"), src},
	} {
		if err := RunCommand(context.Background(), args, io.Discard); err != nil {
			t.Fatalf("grundy run %v: %v", args, err)
		}
	}
	for _, name := range []string{"after.ipynb", "before.ipynb"} {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Cells []struct {
				Outputs []struct {
					Data map[string]any `json:"data"`
				} `json:"outputs"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got.Cells) != 1 || len(got.Cells[0].Outputs) != 1 || got.Cells[0].Outputs[0].Data["text/plain"] != "42" {
			t.Errorf("%s: outputs %s, want one result 42", name, raw)
		}
	}
	err := RunCommand(context.Background(), []string{src, "extra"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "takes no arguments") {
		t.Errorf("a stray argument after a notebook: error %v, want 'takes no arguments'", err)
	}
}

type runCell struct {
	ExecutionCount *int             `json:"execution_count"`
	Outputs        []map[string]any `json:"outputs"`
}

func readNotebookCells(t *testing.T, path string) []runCell {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct{ Cells []runCell }
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatalf("%s is not a valid notebook: %v", path, err)
	}
	return nb.Cells
}

// A cell that kills the engine process still leaves a valid notebook with
// every output so far, and the run says why it stopped; with the cell
// tagged raises-exception the run goes on in a rebuilt session.
func TestRunNotebookSurvivesCrash(t *testing.T) {
	dir := t.TempDir()
	for _, raises := range []bool{false, true} {
		crash := "var mu sync.Mutex\nmu.Unlock()"
		if raises {
			crash = "// tags: raises-exception\n" + crash
		}
		src, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
		codeNotebook(t, src, 0o644, `fmt.Println("before")`, "x := 41", crash, "x + 1")
		_, stderr, err := kerneltest.Run(t, nil, "run", src, "--out", out)
		if (err == nil) == !raises {
			t.Errorf("raises-exception %v: exit %v\n%s", raises, err, stderr)
		}
		cells := readNotebookCells(t, out)
		if len(cells) != 4 || fmtJSON(cells[0].Outputs) != `[{"name":"stdout","output_type":"stream","text":"before\n"}]` {
			t.Fatalf("cells: %s", fmtJSON(cells))
		}
		var ename any
		for _, o := range cells[2].Outputs {
			if o["output_type"] == "error" {
				ename = o["ename"]
			}
		}
		if ename != "UnlockOfUnlockedMutex" {
			t.Errorf("the crashing cell's outputs: %s", fmtJSON(cells[2].Outputs))
		}
		if !raises && (cells[3].ExecutionCount != nil || !strings.Contains(stderr, "UnlockOfUnlockedMutex")) {
			t.Errorf("after the crash: cell 4 %s; stderr %q", fmtJSON(cells[3]), stderr)
		}
		if raises && !strings.Contains(fmtJSON(cells[3].Outputs), `"text/plain":"42"`) {
			t.Errorf("after the crash, in the rebuilt session: %s", fmtJSON(cells[3].Outputs))
		}
	}
}

func fmtJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// --out is checked before any cell runs; a symbolic link is written
// through to its target; the output keeps the input's permissions.
func TestRunNotebookOut(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "nb.ipynb")
	marker := filepath.Join(dir, "ran")
	codeNotebook(t, src, 0o600, `os.WriteFile("`+marker+`", nil, 0o644)`, "6 * 7")
	_, stderr, err := kerneltest.Run(t, nil, "run", src, "--out", filepath.Join(dir, "missing", "out.ipynb"))
	if err == nil || !strings.Contains(stderr, "no cell was run") {
		t.Errorf("--out into a missing directory: %v %q", err, stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a cell ran although the output could not be written")
	}
	target := filepath.Join(dir, "target.ipynb")
	if err := os.WriteFile(target, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.ipynb")
	if err := os.Symlink("target.ipynb", link); err != nil {
		t.Fatal(err)
	}
	if _, stderr, err := kerneltest.Run(t, nil, "run", src, "--out", link); err != nil {
		t.Fatalf("grundy run: %v\n%s", err, stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	if cells := readNotebookCells(t, target); len(cells) != 2 || !strings.Contains(fmtJSON(cells[1].Outputs), `"42"`) {
		t.Errorf("the target: %s", fmtJSON(cells))
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("the output's mode is %v, the input's 0600", fi.Mode().Perm())
	}
}

// Printing 200 MiB: the notebook stores the capped part and says where it
// cut, and no process holds the whole output in memory.
func TestRunNotebookOutputBounded(t *testing.T) {
	dir := t.TempDir()
	src, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
	codeNotebook(t, src, 0o644, "line := strings.Repeat(\"x\", 1<<20-1) + \"\\n\"\nfor i := 0; i < 200; i++ {\n\tfmt.Print(line)\n}", `"after"`)
	cmd := exec.Command(kerneltest.Binary(t), "run", src, "--out", out)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("grundy run: %v\n%s", err, stderr.String())
	}
	maxRSS := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // the largest of grundy run and its engine process
	cells := readNotebookCells(t, out)
	var stored int
	var notes []string
	for _, o := range cells[0].Outputs {
		text, _ := o["text"].(string)
		if o["name"] == "stdout" {
			stored += len(text)
		} else {
			notes = append(notes, text)
		}
	}
	if stored > 4<<20 || stored < 4<<20-(1<<20) || len(notes) != 1 || !strings.Contains(notes[0], "passed 4 MiB; the rest is not stored in the notebook") ||
		!strings.Contains(notes[0], "more bytes of output were not stored") {
		t.Errorf("stored %d bytes of stdout; notes %q", stored, notes)
	}
	if !strings.Contains(fmtJSON(cells[1].Outputs), "after") {
		t.Errorf("the next cell: %s", fmtJSON(cells[1].Outputs))
	}
	if maxRSS > 200<<20 {
		t.Errorf("peak memory %d MiB for 200 MiB of output", maxRSS>>20)
	}
	t.Logf("200 MiB printed: peak RSS %d MiB", maxRSS>>20)
}

// A script that crashes its engine process is reported in words, with no
// Go stack trace, and a non-zero exit.
func TestRunScriptCrash(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "deep.go")
	if err := os.WriteFile(script, []byte("func f(n int) int { return f(n+1) + 1 }\nfmt.Println(\"start\")\nf(0)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := kerneltest.Run(t, []string{"GRUNDY_MEMORY_LIMIT=512MiB"}, "run", script)
	if err == nil || stdout != "start\n" || !strings.Contains(stderr, "StackOverflow: the cell recursed without end") ||
		!strings.Contains(stderr, "the engine process's own report is in") {
		t.Errorf("exit %v, stdout %q, stderr %q", err, stdout, stderr)
	}
}

// TestRunScriptExits: a script that calls os.Exit, log.Fatal or a
// logger's Fatalf ends as the same program built by the Go toolchain
// does: its output so far, the logged message, the exit status, and
// nothing more (no panic report, no deferred call of the cell).
func TestRunScriptExits(t *testing.T) {
	dir := t.TempDir()
	grundy := kerneltest.Binary(t)
	program, native := nativeProgram(t, dir, "exits.go", `package main

import (
	"fmt"
	"log"
	"os"
)

func main() {
	log.SetFlags(0)
	fmt.Println("start")
	l := log.New(os.Stderr, "solve: ", 0)
	switch os.Args[1] {
	case "exit":
		os.Exit(4)
	case "logger":
		l.Fatalf("heap %d too large", 7)
	case "fatalln":
		log.Fatalln("no", "P-positions")
	}
	log.Fatal("no P-positions")
}
`)
	// Cells: the cell's deferred call does not run either.
	cells := filepath.Join(dir, "cells.go")
	if err := os.WriteFile(cells, []byte("defer fmt.Println(\"deferred\")\nfmt.Println(\"start\")\nos.Exit(3)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"exit"}, {"logger"}, {"fatalln"}, {"log"}} {
		wantOut, wantErr, wantCode := runCommand(t, native, args...)
		gotOut, gotErr, gotCode := runCommand(t, grundy, append([]string{"run", program}, args...)...)
		if gotOut != wantOut || gotErr != wantErr || gotCode != wantCode {
			t.Errorf("grundy run exits.go %s: stdout %q, stderr %q, status %d; the built program: %q, %q, %d",
				args[0], gotOut, gotErr, gotCode, wantOut, wantErr, wantCode)
		}
	}
	if out, errOut, code := runCommand(t, grundy, "run", cells); out != "start\n" || errOut != "" || code != 3 {
		t.Errorf("grundy run cells.go: stdout %q, stderr %q, status %d; want \"start\\n\", nothing, 3", out, errOut, code)
	}
}

// TestRunScriptArgs: a script's os.Args and flag package see the arguments
// after the script's name, through the real binary, as the same program
// built by the Go toolchain does.
func TestRunScriptArgs(t *testing.T) {
	dir := t.TempDir()
	grundy := kerneltest.Binary(t)
	src := `package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

var first = len(os.Args)

func main() {
	n := flag.Int("n", 1, "how many")
	var name string
	flag.StringVar(&name, "name", "world", "who")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Println("usage: args [-n N] [-name S] WORD...")
		os.Exit(3)
	}
	fmt.Println(first, len(os.Args[1:]), strings.Join(os.Args[1:], "|"))
	fmt.Println(*n, name, flag.NArg(), flag.Args(), flag.Parsed())
}
`
	script, native := nativeProgram(t, dir, "args.go", src)
	run := func(bin string, args ...string) (string, string, int) { return runCommand(t, bin, args...) }
	for _, args := range [][]string{
		{"-n", "5", "-name=ann", "x y", "z"},
		{"only"},
		{"--", "-n", "7"},
		{},
		{"-bogus", "w"},
	} {
		wantOut, wantErr, wantCode := run(native, args...)
		gotOut, gotErr, gotCode := run(grundy, append([]string{"run", script}, args...)...)
		if gotOut != wantOut || gotCode != wantCode {
			t.Errorf("grundy run args.go %q: stdout %q, status %d; the built program: %q, status %d\nstderr: %s",
				args, gotOut, gotCode, wantOut, wantCode, gotErr)
		}
		if first := strings.SplitN(wantErr, "\n", 2)[0]; !strings.HasPrefix(gotErr, first) {
			t.Errorf("grundy run args.go %q: stderr %q, want it to start %q", args, gotErr, first)
		}
	}

	// Cells (no package clause) see them too.
	cells := filepath.Join(dir, "cells.go")
	if err := os.WriteFile(cells, []byte("for i, a := range os.Args[1:] {\n\tfmt.Println(i, a)\n}\nlen(os.Args)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := run(grundy, "run", cells, "p", "q r")
	if out != "0 p\n1 q r\n3\n" || code != 0 {
		t.Errorf("grundy run cells.go p 'q r': %q (status %d, stderr %q)", out, code, stderr)
	}
}

// A script whose task shows a progress bar prints its own output once:
// the engine process is told that a terminal keeps what it showed, so it
// does not take the bars away by writing the cell's output again.
func TestRunScriptProgressPrintsOnce(t *testing.T) {
	script := filepath.Join(t.TempDir(), "bar.go")
	src := "fmt.Println(\"before\")\nprogress.MinDuration = 0\ntask := progress.Start(\"demo\", 5)\n" +
		"for range 5 {\n\ttime.Sleep(20 * time.Millisecond)\n\ttask.Add(1)\n}\ntask.Done(nil)\nfmt.Println(\"after\")\n"
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := kerneltest.Run(t, nil, "run", script)
	if err != nil || stdout != "before\nafter\n" || !strings.HasPrefix(stderr, "demo: 5 positions in ") {
		t.Errorf("exit %v, stdout %q, stderr %q; want the script's lines once and the bar's summary", err, stdout, stderr)
	}
}

// IPython's ?name, name? and help(name) show in a headless run what
// Shift-Tab shows in the kernel, on the terminal as the kernel shows it in
// the pager; like the pager's, the text is no output of the cell's, so the
// notebook reproduces under grundy check. A name with no documentation
// says so in the cell's output, as in the kernel.
func TestRunNotebookHelp(t *testing.T) {
	dir := t.TempDir()
	src, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
	codeNotebook(t, src, 0o644, "?solve.Values", "solve.Values?", "help(solve.Values)", "?solve.Nope", "6 * 7")
	stdout, stderr, err := kerneltest.Run(t, nil, "run", src, "--out", out)
	if err != nil {
		t.Fatalf("grundy run: %v\n%s", err, stderr)
	}
	if n := strings.Count(stdout, "func Values(g games.Game"); n != 3 {
		t.Errorf("the documentation of solve.Values shows %d times, want 3:\n%s", n, stdout)
	}
	cells := readNotebookCells(t, out)
	for i, want := range []string{`[]`, `[]`, `[]`, `[{"name":"stdout","output_type":"stream","text":"No documentation for solve.Nope: check the name (Tab completes it).\n"}]`} {
		if got := fmtJSON(cells[i].Outputs); got != want || cells[i].ExecutionCount == nil || *cells[i].ExecutionCount != i+1 {
			t.Errorf("cell %d: outputs %s (In [%v]), want %s", i+1, got, cells[i].ExecutionCount, want)
		}
	}
	if !strings.Contains(fmtJSON(cells[4].Outputs), `"text/plain":"42"`) {
		t.Errorf("the cell after: %s", fmtJSON(cells[4].Outputs))
	}
	if stdout, stderr, err := kerneltest.Run(t, nil, "check", out); err != nil || !strings.Contains(stdout, "reproduces") {
		t.Errorf("grundy check: %v\n%s%s", err, stdout, stderr)
	}
	// help() says where help is; a GoNB or IPython magic is no Go, and
	// fails saying what to write instead, as in the kernel.
	codeNotebook(t, src, 0o644, "help()", "// tags: raises-exception\n%%time\nsolve.Values(games.CN(5, 2), 5)", "6 * 7")
	if _, stderr, err := kerneltest.Run(t, nil, "run", src, "--out", out); err != nil {
		t.Fatalf("grundy run: %v\n%s", err, stderr)
	}
	cells = readNotebookCells(t, out)
	if got := fmtJSON(cells[0].Outputs); !strings.Contains(got, "?name, name? or help(name)") {
		t.Errorf("help(): %s", got)
	}
	if got := fmtJSON(cells[1].Outputs); !strings.Contains(got, `"ename":"CompileError","evalue":"%%time: cells are Go; grundy has no IPython or GoNB magics; time code in Go: start := time.Now()`) {
		t.Errorf("%%%%time: %s", got)
	}
	if !strings.Contains(fmtJSON(cells[2].Outputs), `"text/plain":"42"`) {
		t.Errorf("the cell after: %s", fmtJSON(cells[2].Outputs))
	}
	// A script that is one such line shows the same.
	script := filepath.Join(dir, "help.go")
	os.WriteFile(script, []byte("help(solve.Values)\n"), 0o644)
	if stdout, stderr, err := kerneltest.Run(t, nil, "run", script); err != nil || !strings.Contains(stdout, "func Values(g games.Game") {
		t.Errorf("grundy run help.go: %v\n%s%s", err, stdout, stderr)
	}
}

// A script that panics on its second line is not reported as failing on
// its first: the interpreter names, for each frame, the first node the
// frame ran (yaegi v0.16.1, issue #1266), so the report says that each
// function was entered there, not that it failed there.
func TestRunScriptPanicPositions(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "p1.go")
	os.WriteFile(script, []byte("x := []int{1}\nfmt.Println(x[3])\n"), 0o644)
	_, stderr, err := kerneltest.Run(t, nil, "run", script)
	// (The script's own frame alone is not shown: it would only say
	// where the script starts.)
	if err == nil || !strings.Contains(stderr, "panic: runtime error: index out of range") ||
		strings.Contains(stderr, "p1.go:1") || strings.Contains(stderr, "interpreted stack") {
		t.Errorf("exit %v, stderr %q", err, stderr)
	}
	script = filepath.Join(dir, "p3.go")
	os.WriteFile(script, []byte("func f() {\n\tfmt.Println(\"in f\")\n\tpanic(\"boom\")\n}\nf()\n"), 0o644)
	_, stderr, err = kerneltest.Run(t, nil, "run", script)
	if err == nil || !strings.Contains(stderr, "panic: boom") || !strings.Contains(stderr, "main.f (entered at p3.go:2:2)\n  main (entered at p3.go:5:1)") {
		t.Errorf("exit %v, stderr %q", err, stderr)
	}
}

// TestRunNotebookReaderGoesAway: `grundy run nb.ipynb --out out.ipynb |
// head -1`: the terminal copy of the outputs loses its reader after one
// line, and the notebook, the command's product, is still written whole.
// Without care Go ends the program on its first write to the closed pipe
// (SIGPIPE), and no notebook is written at all.
func TestRunNotebookReaderGoesAway(t *testing.T) {
	dir := t.TempDir()
	src, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
	codeNotebook(t, src, 0o644, `fmt.Println("first")`,
		"time.Sleep(300 * time.Millisecond)\nfor i := range 2000 {\n\tfmt.Println(\"line\", i)\n}", `"last"`)
	cmd := exec.Command(kerneltest.Binary(t), "run", src, "--out", out)
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	first := make([]byte, len("first\n"))
	if _, err := io.ReadFull(pipe, first); err != nil || string(first) != "first\n" {
		t.Fatalf("read %q, %v", first, err)
	}
	pipe.Close() // as head does once it has its line
	if err := cmd.Wait(); err != nil {
		t.Fatalf("grundy run, its reader gone: %v\n%s", err, stderr.String())
	}
	cells := readNotebookCells(t, out)
	if len(cells) != 3 || !strings.Contains(fmtJSON(cells[1].Outputs), "line 1999") || !strings.Contains(fmtJSON(cells[2].Outputs), "last") {
		t.Errorf("the notebook written: %s", fmtJSON(cells))
	}
}

// TestRunNotebookTerminatedGroup: SIGTERM or SIGHUP to the whole process
// group (timeout(1), a closed terminal, a job control kill) is an
// interrupt: the notebook is written with the cell stopped as
// "Interrupted", not with the engine process reported as crashed.
func TestRunNotebookTerminatedGroup(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			src, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
			codeNotebook(t, src, 0o644, `x := 1`, "fmt.Println(\"looping\")\nfor {\n\ttime.Sleep(time.Millisecond)\n}")
			cmd := exec.Command(kerneltest.Binary(t), "run", src, "--out", out)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			pipe, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			first := make([]byte, len("looping\n"))
			if _, err := io.ReadFull(pipe, first); err != nil {
				t.Fatalf("read %q, %v", first, err)
			}
			syscall.Kill(-cmd.Process.Pid, sig)
			go io.Copy(io.Discard, pipe)
			cmd.Wait()
			cells := readNotebookCells(t, out)
			if len(cells) != 2 || !strings.Contains(fmtJSON(cells[1].Outputs), `"ename":"Interrupted"`) || strings.Contains(fmtJSON(cells[1].Outputs), "engine process") {
				t.Errorf("%v to the process group: the second cell's outputs %s; stderr %s", sig, fmtJSON(cells[1].Outputs), stderr.String())
			}
		})
	}
}

// A recursion Go runs a million calls deep runs in a script too: the
// stack limit is Go's own (1 GiB), not one that calls it endless.
func TestRunScriptDeepRecursion(t *testing.T) {
	if testing.Short() {
		t.Skip("a million nested interpreted calls take a few seconds")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "deep.go")
	src := "func depth(n int) int {\n\tif n == 0 {\n\t\treturn 0\n\t}\n\treturn depth(n-1) + 1\n}\nfmt.Println(depth(1_000_000))\n"
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := kerneltest.Run(t, nil, "run", script)
	if err != nil || stdout != "1000000\n" {
		t.Errorf("exit %v, stdout %q, stderr %q", err, stdout, stderr)
	}
}

// runCommand runs a binary to its end: what it printed and its exit
// status.
// nativeProgram writes src to dir/name and builds it with the Go
// toolchain: the source's path and the binary's.
func nativeProgram(t *testing.T, dir, name, src string) (program, native string) {
	t.Helper()
	program, native = filepath.Join(dir, name), filepath.Join(dir, strings.TrimSuffix(name, ".go")+"-native")
	if err := os.WriteFile(program, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("go", "build", "-o", native, program).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", program, err, out)
	}
	return program, native
}

func runCommand(t *testing.T, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// A notebook's cells run in its own directory, as Jupyter runs them, so
// that one reading a file beside it reproduces from anywhere: grundy run
// and grundy check of shared/paper.ipynb, from another directory, after
// a crash too (the rebuilt session runs there as well).
func TestNotebookRunsInItsDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "data.txt"), []byte("beside the notebook"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
	codeNotebook(t, src, 0o644,
		`b, err := os.ReadFile("data.txt")
if err != nil { fmt.Println(err); return }
string(b)`,
		`os.WriteFile("made.txt", []byte("x"), 0o644)`,
		"// tags: raises-exception\nvar mu sync.Mutex\nmu.Unlock()",
		`_, err = os.Stat("made.txt")
err == nil`)
	// The test's own directory is elsewhere (the package's).
	if _, stderr, err := kerneltest.Run(t, nil, "run", src, "--out", out); err != nil {
		t.Fatalf("grundy run: %v\n%s", err, stderr)
	}
	cells := readNotebookCells(t, out)
	if got := fmtJSON(cells[0].Outputs); !strings.Contains(got, `"text/plain":"beside the notebook"`) {
		t.Errorf("the cell reading data.txt beside the notebook: %s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err != nil {
		t.Errorf("the file a cell wrote is not beside the notebook: %v", err)
	}
	if got := fmtJSON(cells[3].Outputs); !strings.Contains(got, `"text/plain":"true"`) {
		t.Errorf("after the crash, the rebuilt session does not run beside the notebook: %s", got)
	}
	stdout, stderr, err := kerneltest.Run(t, nil, "check", out)
	if err != nil || !strings.Contains(stdout, "reproduces") {
		t.Errorf("grundy check from another directory: %v\n%s%s", err, stdout, stderr)
	}
}

// A cell that reads input in a headless run gets io.EOF, as it would
// from an empty standard input, and its output says why, once, as the
// kernel's does when its frontend allows no input.
func TestRunNotebookInputSaysWhy(t *testing.T) {
	dir := t.TempDir()
	src, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
	codeNotebook(t, src, 0o644, "var a, b string\n_, err := fmt.Scan(&a)\n_, err2 := fmt.Scan(&b)\nfmt.Println(err, err2)")
	if _, stderr, err := kerneltest.Run(t, nil, "run", src, "--out", out); err != nil {
		t.Fatalf("grundy run: %v\n%s", err, stderr)
	}
	got := fmtJSON(readNotebookCells(t, out)[0].Outputs)
	want := `[{"name":"stderr","output_type":"stream","text":"[grundy: no input in a headless notebook run: standard input is empty here; give the cell its data in code instead]\n"},{"name":"stdout","output_type":"stream","text":"EOF EOF\n"}]`
	if got != want {
		t.Errorf("outputs %s\nwant %s", got, want)
	}
}
