package notebooks

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"grundy/kernel/kerneltest"
)

// The test builds grundy, installs its kernelspec under a temporary
// prefix put on JUPYTER_PATH, executes every notebook with Debian's
// nbclient through that kernel, then runs `grundy check` on the committed
// notebooks. Without Jupyter the kernel half skips, unless
// GRUNDY_REQUIRE_JUPYTER=1 makes that a failure; the check half needs only
// Go.

const python = kerneltest.Python

// execScript executes each notebook named on the command line after the
// first with the grundy kernel, writes it with its outputs into the
// directory named first, and prints, as JSON, the error outputs of each,
// or why it could not run. A cell tagged raises-exception may fail, as in
// nbconvert. The file is written as the classic Notebook saves one:
// consecutive stream messages of one name become one output (nbclient
// keeps each message, and how a kernel's output splits into messages
// depends on timing), no execution timestamps, keys sorted.
const execScript = `
import json, os, sys
import nbformat
from nbclient import NotebookClient

def merged(outputs):
    out = []
    for o in outputs:
        if o.get("output_type") == "stream" and out and out[-1].get("output_type") == "stream" and out[-1]["name"] == o["name"]:
            out[-1]["text"] += o["text"]
        else:
            out.append(o)
    return out

report = {}
for path in sys.argv[2:]:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    errors = []
    try:
        NotebookClient(nb, kernel_name="grundy", timeout=300, allow_errors=True, record_timing=False).execute()
    except Exception as e:
        errors.append("execution stopped: %s: %s" % (type(e).__name__, e))
    cells = 0
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        cells += 1
        cell.outputs = merged(cell.outputs)
        if "raises-exception" in cell.metadata.get("tags", []):
            continue
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                errors.append("cell %d: %s: %s" % (i + 1, out.ename, out.evalue))
    with open(os.path.join(sys.argv[1], os.path.basename(path)), "w") as f:
        f.write(json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    report[path] = {"cells": cells, "errors": errors}
print(json.dumps(report))
`

func notebookFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no notebooks in notebooks/")
	}
	return files
}

func TestNotebooksRunInJupyter(t *testing.T) {
	kerneltest.Require(t, "python3-nbclient python3-nbformat python3-jupyter-client", "nbclient", "nbformat", "jupyter_client")
	files := notebookFiles(t)
	_, env, err := kerneltest.Install(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// The executed notebooks go to a temporary directory, to compare with
	// the committed ones; GRUNDY_UPDATE_NOTEBOOKS=1 copies them over.
	executed := t.TempDir()
	cmd := exec.Command(python, append([]string{"-c", execScript, executed}, files...)...)
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("executing the notebooks with nbclient: %v\n%s", err, stderr.String())
	}
	var report map[string]struct {
		Cells  int      `json:"cells"`
		Errors []string `json:"errors"`
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("nbclient script printed %q: %v\nstderr: %s", out, err, stderr.String())
	}
	for _, f := range files {
		r, ok := report[f]
		switch {
		case !ok:
			t.Errorf("%s: not executed", f)
		case len(r.Errors) > 0:
			t.Errorf("%s: errors through the Jupyter kernel:\n  %s", f, strings.Join(r.Errors, "\n  "))
		case r.Cells == 0:
			t.Errorf("%s: no code cells", f)
		default:
			t.Logf("%s: %d code cells ran through the kernel without error", f, r.Cells)
		}
	}
	// Rerun through the kernel, on whatever machine, a notebook comes
	// out byte for byte as committed: no progress bar, timing or stream
	// split stays in it.
	update := os.Getenv("GRUNDY_UPDATE_NOTEBOOKS") == "1"
	for _, f := range files {
		fresh, err := os.ReadFile(filepath.Join(executed, f))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		stored, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case bytes.Equal(fresh, stored):
		case update:
			if err := os.WriteFile(f, fresh, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: updated (%d bytes, was %d)", f, len(fresh), len(stored))
		default:
			t.Errorf("%s: rerun through the kernel, it is not byte-identical to the committed file (%d bytes, committed %d); if a change altered the outputs on purpose, rerun with GRUNDY_UPDATE_NOTEBOOKS=1 go test ./notebooks -run InJupyter", f, len(fresh), len(stored))
		}
	}
}

func TestNotebooksReproduce(t *testing.T) {
	files := notebookFiles(t)
	bin := kerneltest.Binary(t)
	cmd := exec.Command(bin, append([]string{"check"}, files...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("grundy check %s: %v\n%s\nIf a library change altered the outputs on purpose, rerun each notebook:\n  go run . run --out notebooks/X.ipynb notebooks/X.ipynb", strings.Join(files, " "), err, out)
	}
	for _, f := range files {
		if !strings.Contains(string(out), "ok    "+f+" reproduces") {
			t.Errorf("grundy check did not report %s as reproducing:\n%s", f, out)
		}
	}
}

func TestMain(m *testing.M) { kerneltest.Main(m) }
