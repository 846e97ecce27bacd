package notebooks

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"grundy/kernel/kerneltest"
)

// The five notebooks as a reader sees them: the classic Notebook in
// headless Chromium (testdata/browser_check.py) shows every stored figure
// loaded, no error output and no console error of grundy's, Go's tabs as
// indentation (kernel.js), and the Help menu opens the library reference.
func TestNotebooksInBrowser(t *testing.T) {
	kerneltest.Require(t, "jupyter-notebook python3-selenium", "notebook", "selenium")
	for _, tool := range []string{"jupyter-notebook", "/usr/bin/chromium", "/usr/bin/chromedriver"} {
		if _, err := exec.LookPath(tool); err != nil {
			msg := tool + " is missing (apt-get install jupyter-notebook chromium chromium-driver python3-selenium)"
			if kerneltest.Required() {
				t.Fatal(msg + "; GRUNDY_REQUIRE_JUPYTER=1 requires it")
			}
			t.Skip(msg)
		}
	}
	dir := t.TempDir()
	_, env, err := kerneltest.Install(filepath.Join(dir, "jupyter"))
	if err != nil {
		t.Fatal(err)
	}
	// A copy, so the Notebook server cannot touch the committed files.
	copies := filepath.Join(dir, "notebooks")
	if err := os.MkdirAll(copies, 0o755); err != nil {
		t.Fatal(err)
	}
	files := notebookFiles(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(copies, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(python, "testdata/browser_check.py", copies)
	cmd.Env = append(env, "TMPDIR="+dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("browser_check.py: %v\n%s", err, stderr.String())
	}
	var r struct {
		Error     string `json:"error"`
		Notebooks map[string]struct {
			Error          string     `json:"error"`
			Figures        int        `json:"figures"`
			Loaded         int        `json:"loaded"`
			StoredFigures  int        `json:"stored_figures"`
			Errors         []string   `json:"errors"`
			Console        []string   `json:"console"`
			Tabs           int        `json:"tabs"`
			TabArrows      int        `json:"tabArrows"`
			KernelJS       bool       `json:"kernelJS"`
			IndentWithTabs bool       `json:"indentWithTabs"`
			Mode           string     `json:"mode"`
			HelpLinks      [][]string `json:"helpLinks"`
		} `json:"notebooks"`
		ReferenceTitle   string `json:"reference_title"`
		ReferenceEntries int    `json:"reference_entries"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("browser_check.py printed %q: %v\n%s", out, err, stderr.String())
	}
	if r.Error != "" {
		t.Fatal(r.Error)
	}
	tabs := 0
	for _, f := range files {
		nb, ok := r.Notebooks[f]
		switch {
		case !ok:
			t.Errorf("%s: not opened", f)
			continue
		case nb.Error != "":
			t.Errorf("%s: %s", f, nb.Error)
			continue
		}
		if nb.StoredFigures == 0 || nb.Figures != nb.StoredFigures || nb.Loaded != nb.Figures {
			t.Errorf("%s: stores %d figures, the page shows %d of which %d loaded", f, nb.StoredFigures, nb.Figures, nb.Loaded)
		}
		if len(nb.Errors) > 0 {
			t.Errorf("%s: error outputs on the page: %q", f, nb.Errors)
		}
		for _, msg := range nb.Console {
			// The Notebook always tries to load the ipywidgets extension
			// (a hard-coded fallback in its main.js); without ipywidgets
			// that is a 404 of the Notebook's own, not grundy's.
			if !strings.Contains(msg, "/nbextensions/widgets/") {
				t.Errorf("%s: browser console error: %s", f, msg)
			}
		}
		if !nb.KernelJS || !nb.IndentWithTabs || nb.TabArrows != 0 || nb.Mode != "text/x-go" {
			t.Errorf("%s: kernel.js %v, indentWithTabs %v, %d of %d tabs drawn as arrows, mode %q", f, nb.KernelJS, nb.IndentWithTabs, nb.TabArrows, nb.Tabs, nb.Mode)
		}
		tabs += nb.Tabs
		if len(nb.HelpLinks) == 0 || !strings.Contains(nb.HelpLinks[0][1], "/kernelspecs/grundy/reference.html") {
			t.Errorf("%s: Help menu links %v", f, nb.HelpLinks)
		}
	}
	if tabs == 0 {
		t.Error("no cell shows a tab: the arrow check checked nothing")
	}
	if !strings.Contains(r.ReferenceTitle, "library reference") || r.ReferenceEntries < 100 {
		t.Errorf("the Help menu's reference opened as %q with %d entries", r.ReferenceTitle, r.ReferenceEntries)
	}
}
