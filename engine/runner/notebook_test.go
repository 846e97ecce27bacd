package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"grundy/engine"
	"grundy/kernel/kerneltest"
)

// scriptSession is an engine.Session double whose cells are tiny scripts, one
// command a line, so notebook tests do not depend on the interpreter:
//
//	out TEXT | err TEXT | value TEXT | png | show ID TEXT | update ID TEXT |
//	clear | clearwait | fail NAME VALUE | input
type scriptSession struct {
	ran    []string
	closed bool
}

func (s *scriptSession) Execute(ctx context.Context, code string, out engine.Output) (engine.Result, error) {
	s.ran = append(s.ran, code)
	var res engine.Result
	for _, line := range strings.Split(code, "\n") {
		cmd, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch cmd {
		case "out":
			out.Stdout(arg + "\n")
		case "err":
			out.Stderr(arg + "\n")
		case "value":
			res.Value = engine.Bundle{"text/plain": arg, "text/html": "<b>" + arg + "</b>"}
		case "png":
			out.Display(engine.Bundle{"image/png": []byte{0x89, 'P', 'N', 'G'}, "text/plain": "<Figure>"}, nil, "", false)
		case "show", "update":
			id, text, _ := strings.Cut(arg, " ")
			out.Display(engine.Bundle{"text/plain": text}, nil, id, cmd == "update")
		case "clear":
			out.ClearOutput(false)
		case "clearwait":
			out.ClearOutput(true)
		case "input":
			if _, err := out.Input("name? ", false); err != nil {
				out.Stderr(err.Error() + "\n")
			}
		case "fail":
			name, value, _ := strings.Cut(arg, " ")
			return res, &engine.EvalError{Name: name, Value: value, Traceback: []string{name + ": " + value, "  at cell line 1"}}
		}
	}
	return res, nil
}
func (s *scriptSession) Complete(string, int) engine.Completion         { return engine.Completion{} }
func (s *scriptSession) Inspect(string, int, int) (engine.Bundle, bool) { return nil, false }
func (s *scriptSession) IsComplete(string) (string, string)             { return "complete", "" }
func (s *scriptSession) Close() error                                   { s.closed = true; return nil }

func useScriptSession(t *testing.T) *scriptSession {
	t.Helper()
	s := &scriptSession{}
	old := newNotebookSession
	newNotebookSession = func() (engine.Session, error) { return s, nil }
	t.Cleanup(func() { newNotebookSession = old })
	return s
}

type testCell struct {
	typ, src string
	tags     []string
	id       string
}

// writeNotebook writes an nbformat 4.minor notebook made of cells.
func writeNotebook(t *testing.T, dir string, minor int, cells ...testCell) string {
	t.Helper()
	var cs []map[string]any
	for _, c := range cells {
		md := map[string]any{}
		if c.tags != nil {
			md["tags"] = c.tags
		}
		cell := map[string]any{"cell_type": c.typ, "metadata": md, "source": splitLines(c.src)}
		if c.id != "" {
			cell["id"] = c.id
		}
		if c.typ == "code" {
			cell["outputs"] = []any{map[string]any{"output_type": "stream", "name": "stdout", "text": "stale\n"}}
			cell["execution_count"] = 99
		}
		cs = append(cs, cell)
	}
	nb := map[string]any{
		"nbformat": 4, "nbformat_minor": minor, "cells": cs,
		"metadata": map[string]any{"authors": []any{"someone"}, "custom": map[string]any{"big": json.Number("12345678901234567890")}},
	}
	data, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "nb.ipynb")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// codeNotebook writes an nbformat 4.5 notebook of code cells with ids c0,
// c1, ...; a cell whose first line is "// tags: a b" is tagged a and b.
func codeNotebook(t *testing.T, path string, perm os.FileMode, cells ...string) {
	t.Helper()
	var cs []map[string]any
	for i, src := range cells {
		md := map[string]any{}
		if first, _, _ := strings.Cut(src, "\n"); strings.HasPrefix(first, "// tags: ") {
			md["tags"] = strings.Fields(strings.TrimPrefix(first, "// tags: "))
		}
		cs = append(cs, map[string]any{"cell_type": "code", "id": fmt.Sprintf("c%d", i), "metadata": md,
			"execution_count": nil, "outputs": []any{}, "source": src})
	}
	data, err := json.Marshal(map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": cs})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, perm); err != nil {
		t.Fatal(err)
	}
}

func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

func loadNotebook(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb map[string]any
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	return nb
}

func cellsOf(nb map[string]any) []map[string]any {
	var out []map[string]any
	for _, c := range nb["cells"].([]any) {
		out = append(out, c.(map[string]any))
	}
	return out
}

func outputsOf(cell map[string]any) []map[string]any {
	var out []map[string]any
	for _, o := range cell["outputs"].([]any) {
		out = append(out, o.(map[string]any))
	}
	return out
}

// validateNotebook checks path against the nbformat schema with Jupyter's
// own validator.
func validateNotebook(t *testing.T, path string) {
	t.Helper()
	py := kerneltest.Python
	if err := exec.Command(py, "-c", "import nbformat").Run(); err != nil {
		if kerneltest.Required() {
			t.Fatalf("nbformat is required (GRUNDY_REQUIRE_JUPYTER=1) but %s cannot import it: %v", py, err)
		}
		t.Logf("skipping nbformat validation: %s cannot import nbformat (apt install python3-nbformat)", py)
		return
	}
	// Strict: nbformat.read would quietly repair missing ids, and its
	// warnings (a missing id is one) count as failures here.
	script := `import json, sys, warnings
import nbformat
warnings.simplefilter("error")
with open(sys.argv[1], encoding="utf-8") as f:
    raw = json.load(f)
nbformat.validate(raw)
assert (raw["nbformat"], raw["nbformat_minor"]) >= (4, 5), (raw["nbformat"], raw["nbformat_minor"])
ids = [c["id"] for c in raw["cells"]]
assert len(ids) == len(set(ids)), ids
`
	out, err := exec.Command(py, "-c", script, path).CombinedOutput()
	if err != nil {
		t.Fatalf("nbformat rejects %s: %v\n%s", path, err, out)
	}
}

func TestRunNotebook(t *testing.T) {
	sess := useScriptSession(t)
	dir := t.TempDir()
	path := writeNotebook(t, dir, 4,
		testCell{typ: "markdown", src: "# Title\nsome *text*"},
		testCell{typ: "code", src: "out hello\nout world\nerr careful\nout again"},
		testCell{typ: "code", src: "   \n"},
		testCell{typ: "code", src: "value 42"},
		testCell{typ: "code", src: "png\nshow bar 10%", id: "keep-me"},
		testCell{typ: "code", src: "update bar 100%\nout done"},
		testCell{typ: "code", src: "out gone\nclear\nout kept"},
		testCell{typ: "code", src: "out gone\nclearwait\nout kept"},
		testCell{typ: "code", src: "input"},
		testCell{typ: "raw", src: "raw text"},
	)
	var stdout bytes.Buffer
	outPath := filepath.Join(dir, "out.ipynb")
	if err := RunNotebook(context.Background(), path, outPath, &stdout, NotebookOptions{}); err != nil {
		t.Fatalf("RunNotebook: %v", err)
	}
	if !sess.closed {
		t.Error("session not closed")
	}
	if len(sess.ran) != 7 {
		t.Errorf("ran %d cells; want 7 (the blank one skipped)", len(sess.ran))
	}
	validateNotebook(t, outPath)

	nb := loadNotebook(t, outPath)
	if nb["nbformat_minor"].(float64) != 5 {
		t.Errorf("nbformat_minor = %v; want 5", nb["nbformat_minor"])
	}
	md := nb["metadata"].(map[string]any)
	if ks := md["kernelspec"].(map[string]any); ks["name"] != "grundy" || ks["language"] != "go" {
		t.Errorf("kernelspec = %v", ks)
	}
	if li := md["language_info"].(map[string]any); li["name"] != "go" {
		t.Errorf("language_info = %v", li)
	}
	if md["authors"] == nil {
		t.Error("other metadata lost")
	}
	raw, _ := os.ReadFile(outPath)
	if !bytes.Contains(raw, []byte("12345678901234567890")) {
		t.Error("a large number in metadata was not kept exactly")
	}

	cells := cellsOf(nb)
	ids := map[string]bool{}
	for _, c := range cells {
		id, _ := c["id"].(string)
		if id == "" || ids[id] {
			t.Errorf("cell id %q missing or repeated", id)
		}
		ids[id] = true
	}
	if cells[4]["id"] != "keep-me" {
		t.Errorf("existing cell id replaced: %v", cells[4]["id"])
	}

	// Streams merge per name; execution counts skip the blank cell.
	outs := outputsOf(cells[1])
	if len(outs) != 3 || outs[0]["text"] != "hello\nworld\n" || outs[1]["name"] != "stderr" || outs[2]["text"] != "again\n" {
		t.Errorf("cell 2 outputs = %v", outs)
	}
	if cells[1]["execution_count"].(float64) != 1 {
		t.Errorf("cell 2 execution_count = %v", cells[1]["execution_count"])
	}
	if cells[2]["execution_count"] != nil || len(outputsOf(cells[2])) != 0 {
		t.Errorf("blank cell: count %v outputs %v; want none and no stale output", cells[2]["execution_count"], cells[2]["outputs"])
	}
	outs = outputsOf(cells[3])
	if len(outs) != 1 || outs[0]["output_type"] != "execute_result" || outs[0]["execution_count"].(float64) != 2 {
		t.Fatalf("cell 4 outputs = %v", outs)
	}
	if data := outs[0]["data"].(map[string]any); data["text/plain"] != "42" || data["text/html"] != "<b>42</b>" {
		t.Errorf("execute_result data = %v", data)
	}
	outs = outputsOf(cells[4])
	if len(outs) != 2 || outs[0]["output_type"] != "display_data" {
		t.Fatalf("cell 5 outputs = %v", outs)
	}
	if png := outs[0]["data"].(map[string]any)["image/png"]; png != "iVBORw==" {
		t.Errorf("PNG bytes not base64: %v", png)
	}
	if text := outs[1]["data"].(map[string]any)["text/plain"]; text != "100%" {
		t.Errorf("display updated from a later cell shows %v; want 100%%", text)
	}
	if outs := outputsOf(cells[5]); len(outs) != 1 || outs[0]["text"] != "done\n" {
		t.Errorf("an update must not add output: %v", outs)
	}
	for _, i := range []int{6, 7} {
		if outs := outputsOf(cells[i]); len(outs) != 1 || outs[0]["text"] != "kept\n" {
			t.Errorf("cell %d after clear: %v", i+1, outs)
		}
	}
	if outs := outputsOf(cells[8]); len(outs) != 1 || !strings.Contains(outs[0]["text"].(string), "no input") {
		t.Errorf("input cell: %v", outs)
	}
	if _, ok := cells[9]["outputs"]; ok {
		t.Error("a raw cell got outputs")
	}

	for _, want := range []string{"hello\nworld\n", "careful", "42\n", "<Figure>", "wrote " + outPath} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}

	// The source notebook is untouched.
	if orig := loadNotebook(t, path); cellsOf(orig)[1]["execution_count"].(float64) != 99 {
		t.Error("the input notebook was modified")
	}
}

func TestRunNotebookStopsAtFirstError(t *testing.T) {
	sess := useScriptSession(t)
	dir := t.TempDir()
	path := writeNotebook(t, dir, 5,
		testCell{typ: "code", src: "out one"},
		testCell{typ: "code", src: "fail panic expected", tags: []string{"raises-exception"}},
		testCell{typ: "code", src: "out three"},
		testCell{typ: "code", src: "out four\nfail CompileError 1:5: undefined: x"},
		testCell{typ: "code", src: "out never"},
	)
	outPath := filepath.Join(dir, "out.ipynb")
	err := RunNotebook(context.Background(), path, outPath, nil, NotebookOptions{})
	if err == nil {
		t.Fatal("no error for a failing cell")
	}
	for _, want := range []string{"cell 4", "In [4]", "CompileError", "undefined: x", outPath} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if len(sess.ran) != 4 {
		t.Errorf("ran %d cells; want 4", len(sess.ran))
	}
	validateNotebook(t, outPath)
	cells := cellsOf(loadNotebook(t, outPath))
	outs := outputsOf(cells[1])
	if len(outs) != 1 || outs[0]["output_type"] != "error" || outs[0]["ename"] != "panic" {
		t.Errorf("tagged cell outputs = %v", outs)
	}
	outs = outputsOf(cells[3])
	if len(outs) != 2 || outs[1]["output_type"] != "error" || outs[1]["evalue"] != "1:5: undefined: x" {
		t.Errorf("failed cell outputs = %v", outs)
	}
	if tb := outs[1]["traceback"].([]any); len(tb) != 2 {
		t.Errorf("traceback = %v", tb)
	}
	// Cells after the failure keep what they had: nothing of the user's is lost.
	if cells[4]["execution_count"].(float64) != 99 {
		t.Errorf("cell after the failure changed: %v", cells[4])
	}
}

func TestRunNotebookInPlaceAndDefault(t *testing.T) {
	useScriptSession(t)
	dir := t.TempDir()
	path := writeNotebook(t, dir, 5, testCell{typ: "code", src: "value 7"})
	if err := RunNotebook(context.Background(), path, "", nil, NotebookOptions{}); err != nil {
		t.Fatal(err)
	}
	def := DefaultNotebookOut(path)
	if def != filepath.Join(dir, "nb.out.ipynb") {
		t.Errorf("default output %s", def)
	}
	if outs := outputsOf(cellsOf(loadNotebook(t, def))[0]); len(outs) != 1 {
		t.Errorf("default output has %v", outs)
	}
	if outs := outputsOf(cellsOf(loadNotebook(t, path))[0]); outs[0]["text"] != "stale\n" {
		t.Error("without an output path the input was overwritten")
	}

	if err := RunNotebook(context.Background(), path, path, nil, NotebookOptions{}); err != nil {
		t.Fatal(err)
	}
	if outs := outputsOf(cellsOf(loadNotebook(t, path))[0]); len(outs) != 1 || outs[0]["output_type"] != "execute_result" {
		t.Errorf("in-place run left %v", outs)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("in-place run changed the file mode: %v %v", st.Mode(), err)
	}
	validateNotebook(t, path)

	// An output directory receives the notebook under its own name; the
	// notebook's own directory is refused rather than overwriting it.
	outDir := filepath.Join(dir, "results")
	if err := os.Mkdir(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := RunNotebook(context.Background(), path, outDir, nil, NotebookOptions{}); err != nil {
		t.Fatal(err)
	}
	validateNotebook(t, filepath.Join(outDir, "nb.ipynb"))
	if err := RunNotebook(context.Background(), path, dir, nil, NotebookOptions{}); err == nil || !strings.Contains(err.Error(), "own directory") {
		t.Errorf("output to the notebook's directory: %v", err)
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func TestRunNotebookRejects(t *testing.T) {
	useScriptSession(t)
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, content, want string
	}{
		{"bad.ipynb", "{not json", "not a Jupyter notebook"},
		{"nover.ipynb", `{"cells": []}`, "no nbformat"},
		{"old.ipynb", `{"nbformat": 3, "nbformat_minor": 0, "worksheets": []}`, "jupyter nbconvert --to notebook --nbformat 4"},
		{"py.ipynb", `{"nbformat": 4, "nbformat_minor": 5, "cells": [], "metadata": {"kernelspec": {"name": "python3", "language": "python"}}}`, "python notebook"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := write(tc.name, tc.content)
			out := filepath.Join(dir, "x.out.ipynb")
			err := RunNotebook(context.Background(), p, out, nil, NotebookOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want one containing %q", err, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("an output was written for a rejected notebook")
			}
		})
	}
	if err := RunNotebook(context.Background(), filepath.Join(dir, "missing.ipynb"), "", nil, NotebookOptions{}); err == nil {
		t.Error("no error for a missing file")
	}
}

func TestRunNotebookInterrupted(t *testing.T) {
	useScriptSession(t)
	dir := t.TempDir()
	path := writeNotebook(t, dir, 5, testCell{typ: "code", src: "out one"}, testCell{typ: "code", src: "out two"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(dir, "o.ipynb")
	err := RunNotebook(ctx, path, out, nil, NotebookOptions{})
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("error %v; want an interruption", err)
	}
	validateNotebook(t, out)
}
