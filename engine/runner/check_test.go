package runner

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckNotebook(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.ipynb")
	stored := filepath.Join(dir, "stored.ipynb")
	codeNotebook(t, src, 0o644,
		`fmt.Println(6 * 7)`,
		// A kept progress summary says how long its task took: it
		// reproduces without its timing.
		"progress.Keep, progress.MinDuration = true, 0\ntask := progress.Start(\"demo\", 3)\nfor range 3 {\n\ttime.Sleep(20 * time.Millisecond)\n\ttask.Add(1)\n}\ntask.Done(nil)\nt, _ := solve.Values(games.CN(3, 2), 4)\nt",
		"// tags: nondeterministic\nimport \"time\"\ntime.Now().UnixNano()",
		"plots.Heatmap(t, \"a b 0\")",
	)
	// In an engine process, as grundy run does: the cells set the
	// library's settings, which must not leak into this process.
	if err := RunNotebook(context.Background(), src, stored, nil, NotebookOptions{NewSession: supervised(io.Discard, "")}); err != nil {
		t.Fatal(err)
	}
	if raw, _ := os.ReadFile(stored); !strings.Contains(string(raw), "demo: 3 positions in ") {
		t.Fatalf("the stored notebook keeps no progress summary:\n%s", raw)
	}
	check := func() (string, error) {
		var out strings.Builder
		err := CheckCommand(context.Background(), []string{stored}, &out)
		return out.String(), err
	}
	out, err := check()
	if err != nil || !strings.Contains(out, "reproduces") {
		t.Fatalf("a freshly run notebook should reproduce: %v\n%s", err, out)
	}

	// Tamper with the stored output of the first cell and drop the image
	// of the last: both must be reported, and the check must fail.
	raw, _ := os.ReadFile(stored)
	var nb map[string]any
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatal(err)
	}
	cells := nb["cells"].([]any)
	first := cells[0].(map[string]any)["outputs"].([]any)[0].(map[string]any)
	first["text"] = "41\n"
	last := cells[3].(map[string]any)["outputs"].([]any)[0].(map[string]any)
	if _, ok := last["data"].(map[string]any)["image/png"]; !ok {
		t.Fatalf("the heatmap shows no PNG: %v", last)
	}
	delete(last["data"].(map[string]any), "image/png")
	raw, _ = json.Marshal(nb)
	os.WriteFile(stored, raw, 0o644)
	out, err = check()
	if err == nil {
		t.Fatalf("a tampered notebook passed the check:\n%s", out)
	}
	for _, w := range []string{"2 cells differ", "cell 1 (id c0): fmt.Println(6 * 7)", "stdout differs", "- 41", "+ 42", "cell 4 (id c3)", "new image/png", "+ [image/png",
		"store them again: grundy run " + stored + " --out " + stored, "tag it nondeterministic"} {
		if !strings.Contains(out, w) {
			t.Errorf("report lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "cell 3 ") || strings.Contains(out, "cell 2 ") {
		t.Errorf("the nondeterministic cell or the progress summary's timing was reported:\n%s", out)
	}
}

// Mistakes in grundy check's arguments, once it has notebooks, are
// answered in words.
func TestCheckCommandArgs(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"a.ipynb", "--only", "x"}, "options go before the notebooks"},
		{[]string{"--only", "x", "a.ipynb"}, "apply to the claims"},
		{[]string{"a.ipynb", "claims.txt"}, "claims.txt: not a .ipynb notebook"},
		{[]string{"-v"}, "no notebook to check"},
	} {
		var out strings.Builder
		err := CheckCommand(context.Background(), c.args, &out)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("grundy check %q: %v, want an error saying %q", c.args, err, c.want)
		}
	}
}

// A cell that kills the engine process cannot kill grundy check: the
// notebook runs in an engine process of its own, and the crash is an
// output compared like any other.
func TestCheckSurvivesCrash(t *testing.T) {
	dir := t.TempDir()
	src, stored := filepath.Join(dir, "src.ipynb"), filepath.Join(dir, "stored.ipynb")
	codeNotebook(t, src, 0o644, "x := 41", "// tags: raises-exception\nvar mu sync.Mutex\nmu.Unlock()", "x + 1")
	if err := RunNotebook(context.Background(), src, stored, nil, NotebookOptions{NewSession: supervised(io.Discard, "")}); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	err := CheckCommand(context.Background(), []string{stored}, &out)
	if err != nil || !strings.Contains(out.String(), "ok    "+stored+" reproduces") {
		t.Errorf("grundy check: %v\n%s", err, out.String())
	}
	if raw, _ := os.ReadFile(stored); !strings.Contains(string(raw), "UnlockOfUnlockedMutex") {
		t.Errorf("the stored notebook shows no crash:\n%s", raw)
	}
}

// What a cell prints to stdout and to stderr reaches the kernel through a
// pipe each, so their interleaving varies from run to run (the kernel
// stored all three orders below for this cell over 30 runs): grundy check
// compares each stream's text between displays, not how they interleave.
// A display still has its place among them, and different text differs.
func TestCheckStreamInterleaving(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nb.ipynb")
	stream := func(name, text string) map[string]any {
		return map[string]any{"output_type": "stream", "name": name, "text": text}
	}
	shown := map[string]any{"output_type": "display_data", "metadata": map[string]any{}, "data": map[string]any{"text/plain": "shown"}}
	code := "fmt.Fprint(os.Stderr, \"err1\\n\")\nfmt.Print(\"out\\n\")\nfmt.Fprint(os.Stderr, \"err2\\n\")\ndisplay.Show(\"shown\")\nfmt.Print(\"after\\n\")"
	for _, c := range []struct {
		outputs []any
		ok      bool
	}{
		{[]any{stream("stderr", "err1\n"), stream("stdout", "out\n"), stream("stderr", "err2\n"), shown, stream("stdout", "after\n")}, true},
		{[]any{stream("stdout", "out\n"), stream("stderr", "err1\nerr2\n"), shown, stream("stdout", "after\n")}, true},
		{[]any{stream("stderr", "err1\nerr2\n"), stream("stdout", "out\n"), shown, stream("stdout", "after\n")}, true},
		{[]any{stream("stderr", "err1\nerr2\n"), stream("stdout", "out\nafter\n"), shown}, false},
		{[]any{stream("stderr", "err2\nerr1\n"), stream("stdout", "out\n"), shown, stream("stdout", "after\n")}, false},
	} {
		nb := map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": []any{
			map[string]any{"cell_type": "code", "id": "c0", "metadata": map[string]any{}, "execution_count": 1, "source": code, "outputs": c.outputs},
		}}
		raw, _ := json.Marshal(nb)
		if err := os.WriteFile(path, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		err := CheckCommand(context.Background(), []string{path}, &out)
		if (err == nil) != c.ok {
			t.Errorf("stored %s: check %v, want ok %v\n%s", fmtJSON(c.outputs), err, c.ok, out.String())
		}
	}
}
