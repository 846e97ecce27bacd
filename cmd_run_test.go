package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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

// TestRunScriptArgs: a script's os.Args and flag package see the arguments
// after the script's name, through the real binary, as the same program
// built by the Go toolchain does.
func TestRunScriptArgs(t *testing.T) {
	dir := t.TempDir()
	grundy := filepath.Join(dir, "grundy")
	if out, err := exec.Command("go", "build", "-o", grundy, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
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
