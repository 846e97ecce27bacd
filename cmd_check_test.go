package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"grundy/engine"
	"grundy/stdlib/known"
)

func TestCheckClaims(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		wantErr bool
		want    []string // substrings of the output
	}{
		{"seed 000 at default bounds", []string{"--only", "000/"}, false,
			[]string{"ok    000/214:", "ok    000/face:", "ok    000/certificate:", "0 unexpected"}},
		{"refuted reading is an expected failure", []string{"--only", "002/prop4-printed"}, false,
			[]string{"xfail 002/prop4-printed:", "counterexample (1,2,2)", "1 refuted printed readings fail as documented"}},
		// Heaps <= 1 cannot reach the counterexample (1,0,1,0,2): a
		// refuted reading that holds is unexpected.
		{"refuted reading holding at a small bound", []string{"--only", "001/PN(5,2)", "--bound", "1"}, true,
			[]string{"XPASS 001/PN(5,2):", "raise it", "1 unexpected"}},
		{"seed 003 search claims", []string{"--only", "003/"}, false,
			[]string{"ok    003/hero:", "ok    003/sum-rule:", "ok    003/ordinary:", "9 of 36 misread", "ok    003/worked-example:", "entailing Nim 7 -> 1", "4 claims checked"}},
		{"bound applies", []string{"--only", "000/face", "--bound", "5"}, false, []string{"heaps <= 5;"}},
		{"unknown id", []string{"--only", "no-such-claim"}, true, nil},
		{"negative bound", []string{"--bound", "-2"}, true, nil},
		{"bound and heavy", []string{"--bound", "3", "--heavy"}, true, nil},
		{"option after a notebook", []string{"a.ipynb", "--only", "x"}, true, nil},
		{"not a notebook", []string{"claims.txt"}, true, nil},
		// The ids print as "003/hero", so a seed's prefix alone selects it.
		{"claim id without --only", []string{"--bound", "4", "000/face"}, false, []string{"ok    000/face:", "heaps <= 4;", "0 unexpected"}},
		{"neither notebook nor claim", []string{"999/"}, true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			err := checkCommand(context.Background(), c.args, &out)
			if (err != nil) != c.wantErr {
				t.Fatalf("grundy check %v: err = %v, want error %v\n%s", c.args, err, c.wantErr, out.String())
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("grundy check %v: output lacks %q:\n%s", c.args, w, out.String())
				}
			}
		})
	}
}

// writeTestNotebook writes an nbformat 4.5 notebook of code cells; a cell
// starting with "// nondeterministic" is tagged so.
func writeTestNotebook(t *testing.T, path string, cells ...string) {
	t.Helper()
	var cs []map[string]any
	for i, src := range cells {
		md := map[string]any{}
		if strings.HasPrefix(src, "// nondeterministic") {
			md["tags"] = []string{"nondeterministic"}
		}
		cs = append(cs, map[string]any{"cell_type": "code", "id": "c" + string(rune('a'+i)), "source": src,
			"metadata": md, "outputs": []any{}, "execution_count": nil})
	}
	data, err := json.Marshal(map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": cs})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheckNotebook(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.ipynb")
	stored := filepath.Join(dir, "stored.ipynb")
	writeTestNotebook(t, src,
		`fmt.Println(6 * 7)`,
		// The table prints how long it took: masked, so it reproduces.
		"t, _ := solve.Values(games.CN(3, 2), 4)\nt",
		"// nondeterministic\nimport \"time\"\ntime.Now().UnixNano()",
		"plots.Heatmap(t, \"a b 0\")",
	)
	if err := engine.RunNotebook(src, stored, nil); err != nil {
		t.Fatal(err)
	}
	check := func() (string, error) {
		var out strings.Builder
		err := checkCommand(context.Background(), []string{stored}, &out)
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
	for _, w := range []string{"2 cells differ", "cell 1 (id ca): fmt.Println(6 * 7)", "stdout differs", "- 41", "+ 42", "cell 4 (id cd)", "new image/png", "+ [image/png"} {
		if !strings.Contains(out, w) {
			t.Errorf("report lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "cell 3 ") || strings.Contains(out, "cell 2 ") {
		t.Errorf("the nondeterministic cell or the table's timing was reported:\n%s", out)
	}
}

func TestSanitizeDurations(t *testing.T) {
	for in, want := range map[string]string{
		"solved in 1.01ms (box)":  "solved in <duration> (box)",
		"(2m3.5s, values)":        "(<duration>, values)",
		"took 850µs":              "took <duration>",
		"CN(6,2) heaps 0..3: 214": "CN(6,2) heaps 0..3: 214",
		"4,096 positions":         "4,096 positions",
	} {
		if got := sanitize(in); got != want {
			t.Errorf("sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

// grundy check reports every claim of known, seed 003's search claims
// among them (it used to add four of its own to known's 61).
func TestCheckCountsKnownStatements(t *testing.T) {
	var out strings.Builder
	if err := checkCommand(context.Background(), nil, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	want := fmt.Sprintf("%d claims checked", len(known.Statements()))
	if !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "ok    003/hero:") {
		t.Errorf("grundy check does not report %q with seed 003 among them:\n%s", want, out.String())
	}
}
