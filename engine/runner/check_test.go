package runner

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
	if err := RunNotebook(src, stored, nil); err != nil {
		t.Fatal(err)
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
