package kernel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ?name, name? and help(name) show in the pager what Shift-Tab shows;
// the Help menu links to the library reference installed beside the
// kernelspec, with kernel.js, which shows Go's tabs as indentation in the
// classic Notebook.
func TestE2EHelp(t *testing.T) {
	var r struct {
		Cells      map[string]pyRun `json:"cells"`
		Inspect    pyMsg            `json:"inspect"`
		KernelInfo pyMsg            `json:"kernel_info"`
	}
	scenario(t, "help", &r)
	want, _ := r.Inspect.Content["data"].(map[string]any)["text/plain"].(string)
	if !strings.Contains(want, "func Values(") {
		t.Fatalf("inspect of solve.Values: %v", r.Inspect.Content)
	}
	for _, code := range []string{"?solve.Values", "solve.Values?", "help(solve.Values)", "  ?? solve.Values "} {
		c := r.Cells[code]
		payload, _ := c.Reply.Content["payload"].([]any)
		if c.status() != "ok" || len(payload) != 1 {
			t.Errorf("%q: status %s, payload %v", code, c.status(), payload)
			continue
		}
		page, _ := payload[0].(map[string]any)
		data, _ := page["data"].(map[string]any)
		if page["source"] != "page" || !strings.Contains(data["text/plain"].(string), "func Values(") {
			t.Errorf("%q: payload %v", code, page)
		}
		if code != "  ?? solve.Values " && data["text/plain"] != want {
			t.Errorf("%q shows\n%v\nShift-Tab shows\n%v", code, data["text/plain"], want)
		}
		if c.types() != "status execute_input status" {
			t.Errorf("%q: iopub %s; a help request runs nothing", code, c.types())
		}
	}
	if c := r.Cells["?solve.Nope"]; c.status() != "ok" || !strings.Contains(c.text("stdout"), "No documentation for solve.Nope") {
		t.Errorf("?solve.Nope: %s %q", c.status(), c.text("stdout"))
	}
	// help() and GoNB's %help say where help is; magics and shell
	// escapes, which are not Go, say what to write in Go instead.
	for _, code := range []string{"help()", "%help"} {
		if c := r.Cells[code]; c.status() != "ok" || !strings.Contains(c.text("stdout"), "?name, name? or help(name)") {
			t.Errorf("%s: %s %q", code, c.status(), c.text("stdout"))
		}
	}
	for code, want := range map[string]string{
		"%%writefile x.go\npackage main": `%%writefile: cells are Go; grundy has no IPython or GoNB magics; write a file in Go: os.WriteFile(`,
		"!pip install numpy":             "!pip: cells are Go, and shell commands do not run in them",
	} {
		c := r.Cells[code]
		if evalue, _ := c.Reply.Content["evalue"].(string); c.status() != "error" || c.Reply.Content["ename"] != "CompileError" || !strings.HasPrefix(evalue, want) {
			t.Errorf("%q: %s %v", code, c.status(), c.Reply.Content)
		}
	}
	links := fmtAny(r.KernelInfo.Content["help_links"])
	if !strings.Contains(links, "../kernelspecs/grundy/"+ReferenceFile) {
		t.Errorf("help_links %s do not reach the library reference", links)
	}
	dir := kernelDir(buildAndInstall(t))
	ref, err := os.ReadFile(filepath.Join(dir, ReferenceFile))
	if err != nil || !strings.Contains(string(ref), "func Values(g games.Game") || !strings.Contains(string(ref), "func Heatmap(") {
		t.Errorf("installed reference: %v (%d bytes)", err, len(ref))
	}
	js, err := os.ReadFile(filepath.Join(dir, "kernel.js"))
	if err != nil || !strings.Contains(string(js), "indentWithTabs: true") || !strings.Contains(string(js), "span.cm-tab { background: none; }") {
		t.Errorf("installed kernel.js: %v", err)
	}
}
