package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"grundy/engine/remote"
)

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
		if err := runRun(args); err != nil {
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
	err := runRun([]string{src, "extra"})
	if err == nil || !strings.Contains(err.Error(), "takes no arguments") {
		t.Errorf("a stray argument after a notebook: error %v, want 'takes no arguments'", err)
	}
}

// notebookJSON writes a notebook of code cells; a cell starting with
// "//raises" is tagged raises-exception.
func notebookJSON(t *testing.T, path string, perm os.FileMode, cells ...string) {
	t.Helper()
	var cs []map[string]any
	for i, src := range cells {
		md := map[string]any{}
		if strings.HasPrefix(src, "//raises\n") {
			md["tags"] = []string{"raises-exception"}
		}
		cs = append(cs, map[string]any{"cell_type": "code", "id": fmt.Sprintf("c%d", i), "metadata": md,
			"execution_count": nil, "outputs": []any{}, "source": src})
	}
	b, _ := json.Marshal(map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": cs})
	if err := os.WriteFile(path, b, perm); err != nil {
		t.Fatal(err)
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

func runGrundy(t *testing.T, env []string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := exec.Command(grundyBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	if goTrace.MatchString(o.String() + e.String()) {
		t.Errorf("grundy %v printed a Go stack trace:\n%s%s", args, o.String(), e.String())
	}
	return o.String(), e.String(), err
}

// A cell that kills the engine process still leaves a valid notebook with
// every output so far, and the run says why it stopped; with the cell
// tagged raises-exception the run goes on in a rebuilt session.
func TestRunNotebookSurvivesCrash(t *testing.T) {
	dir := t.TempDir()
	for _, raises := range []bool{false, true} {
		crash := "var mu sync.Mutex\nmu.Unlock()"
		if raises {
			crash = "//raises\n" + crash
		}
		src, out := filepath.Join(dir, "nb.ipynb"), filepath.Join(dir, "out.ipynb")
		notebookJSON(t, src, 0o644, `fmt.Println("before")`, "x := 41", crash, "x + 1")
		_, stderr, err := runGrundy(t, nil, "run", src, "--out", out)
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
	notebookJSON(t, src, 0o600, `os.WriteFile("`+marker+`", nil, 0o644)`, "6 * 7")
	_, stderr, err := runGrundy(t, nil, "run", src, "--out", filepath.Join(dir, "missing", "out.ipynb"))
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
	if _, stderr, err := runGrundy(t, nil, "run", src, "--out", link); err != nil {
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
	notebookJSON(t, src, 0o644, "line := strings.Repeat(\"x\", 1<<20-1) + \"\\n\"\nfor i := 0; i < 200; i++ {\n\tfmt.Print(line)\n}", `"after"`)
	cmd := exec.Command(grundyBinary(t), "run", src, "--out", out)
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
	stdout, stderr, err := runGrundy(t, []string{"GRUNDY_MEMORY_LIMIT=512MiB"}, "run", script)
	if err == nil || stdout != "start\n" || !strings.Contains(stderr, "StackOverflow: the cell recursed without end") ||
		!strings.Contains(stderr, "the engine process's own report is in") {
		t.Errorf("exit %v, stdout %q, stderr %q", err, stdout, stderr)
	}
}

// Bad input gets a message, never a Go stack trace, from every command.
func TestBadInputNeverPrintsAStackTrace(t *testing.T) {
	dir := t.TempDir()
	badNB := filepath.Join(dir, "bad.ipynb")
	os.WriteFile(badNB, []byte("{not json"), 0o644)
	badConn := filepath.Join(dir, "conn.json")
	os.WriteFile(badConn, []byte(`{"shell_port": -1}`), 0o644)
	badGo := filepath.Join(dir, "bad.go")
	os.WriteFile(badGo, []byte("x := \n"), 0o644)
	for _, args := range [][]string{
		{"solve", "CN(6,2", "--max", "3"},
		{"solve", "CN(4,2)", "--max", "-3"},
		{"solve", "CN(4,2)", "--max", "x"},
		{"solve", "CN(4,2)", "--max", "99999"},
		{"solve", "CN(4,2)", "--max", "2", "--list"},
		{"solve", "CN(4,2)", "--max", "2", "--list", "-1"},
		{"solve", "Nim(3)", "--max", "2", "--outcomes", "--list", "7"},
		{"run"},
		{"run", filepath.Join(dir, "missing.ipynb")},
		{"run", badNB},
		{"run", badGo},
		{"kernel", filepath.Join(dir, "missing.json")},
		{"kernel", badConn},
		{"install", "--prefix", "/dev/null/x"},
		{"check", "--only", "no/such/claim"},
		{remote.ChildCommand},
		{"no-such-command"},
	} {
		stdout, stderr, err := runGrundy(t, nil, args...)
		if err == nil {
			t.Errorf("grundy %v succeeded: %s", args, stdout)
		} else if strings.TrimSpace(stderr) == "" {
			t.Errorf("grundy %v failed without a word", args)
		}
	}
	stdout, _, err := runGrundy(t, nil, "solve", "CN(4,2)", "--max", "2", "--list", "99")
	if err != nil || !strings.Contains(stdout, "no positions with value 99") {
		t.Errorf("--list of an absent value: %v %q", err, stdout)
	}
}

// grundy install tightens a kernel directory of ours that others can
// write to, and refuses one of another user's.
func TestInstallPermissions(t *testing.T) {
	prefix := filepath.Join(t.TempDir(), "pfx")
	kdir := filepath.Join(prefix, "share", "jupyter", "kernels", "grundy")
	if err := os.MkdirAll(kdir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{kdir, filepath.Dir(kdir)} {
		os.Chmod(d, 0o777)
	}
	os.WriteFile(filepath.Join(kdir, "kernel.json"), []byte("{}"), 0o666)
	stdout, stderr, err := runGrundy(t, nil, "install", "--prefix", prefix, "--no-replay", "--memory-limit", "2GiB")
	if err != nil {
		t.Fatalf("install: %v\n%s", err, stderr)
	}
	for _, d := range []string{kdir, filepath.Dir(kdir)} {
		if fi, _ := os.Stat(d); fi.Mode().Perm() != 0o755 || !strings.Contains(stdout, "Tightened "+d) {
			t.Errorf("%s: mode %v; output %q", d, fi.Mode().Perm(), stdout)
		}
	}
	if fi, _ := os.Stat(filepath.Join(kdir, "kernel.json")); fi.Mode().Perm() != 0o644 {
		t.Errorf("kernel.json mode %v", fi.Mode().Perm())
	}
	spec, _ := os.ReadFile(filepath.Join(kdir, "kernel.json"))
	if !strings.Contains(string(spec), `"GRUNDY_REPLAY": "off"`) || !strings.Contains(string(spec), `"GRUNDY_MEMORY_LIMIT": "2GiB"`) {
		t.Errorf("kernel.json: %s", spec)
	}
	if os.Geteuid() != 0 {
		t.Skip("giving a directory to another user needs root")
	}
	os.Chmod(kdir, 0o777)
	if err := os.Chown(kdir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	_, stderr, err = runGrundy(t, nil, "install", "--prefix", prefix)
	if err == nil || !strings.Contains(stderr, "belongs to another user") {
		t.Errorf("a directory of another user's that anyone can write: %v %q", err, stderr)
	}
}

// TestRunScriptArgs: a script's os.Args and flag package see the arguments
// after the script's name, through the real binary, as the same program
// built by the Go toolchain does.
func TestRunScriptArgs(t *testing.T) {
	dir := t.TempDir()
	grundy := grundyBinary(t)
	script := filepath.Join(dir, "args.go")
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
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	native := filepath.Join(dir, "native")
	if out, err := exec.Command("go", "build", "-o", native, script).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", script, err, out)
	}
	run := func(bin string, args ...string) (string, string, int) {
		cmd := exec.Command(bin, args...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), code
	}
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
