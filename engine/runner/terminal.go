package runner

import (
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"grundy/engine"
)

// TerminalOutput is an engine.Output for a terminal: text as it comes, images as
// files whose paths are printed, in-place display updates (progress bars)
// rewritten on one line. When Err is not a terminal (a file, a pipe), a
// live display is written once, as one line in its latest state, when
// other output follows or the script ends: redrawing it there would fill
// the file with a line per update.
type TerminalOutput struct {
	Out, Err    io.Writer
	ImageDir    string
	ImagePrefix string

	mu       sync.Mutex
	n        int
	inlineID string // display id last printed without a newline

	termKnown, term bool
	pending         []liveDisplay // latest state of live displays not yet written (Err not a terminal)
}

type liveDisplay struct{ id, text string }

// errIsTerminal: whether Err is a character device; any writer other than
// an *os.File counts as not a terminal.
func (t *TerminalOutput) errIsTerminal() bool {
	if !t.termKnown {
		t.termKnown = true
		if f, ok := t.Err.(*os.File); ok {
			if fi, err := f.Stat(); err == nil {
				t.term = fi.Mode()&os.ModeCharDevice != 0
			}
		}
	}
	return t.term
}

func (t *TerminalOutput) endLine() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.endLineLocked()
}

// endLineLocked ends a redrawn line, or writes the live displays held back
// for a non-terminal, before other output.
func (t *TerminalOutput) endLineLocked() {
	if t.inlineID != "" {
		fmt.Fprintln(t.Err)
		t.inlineID = ""
	}
	for _, d := range t.pending {
		fmt.Fprintln(t.Err, d.text)
	}
	t.pending = t.pending[:0]
}

// holdLive keeps only the latest state of a live display for a
// non-terminal.
func (t *TerminalOutput) holdLive(id, text string) {
	for i := range t.pending {
		if t.pending[i].id == id {
			t.pending[i].text = text
			return
		}
	}
	t.pending = append(t.pending, liveDisplay{id, text})
}

// Stdout writes text.
func (t *TerminalOutput) Stdout(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.endLineLocked()
	io.WriteString(t.Out, s)
}

// Stderr writes text.
func (t *TerminalOutput) Stderr(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.endLineLocked()
	io.WriteString(t.Err, s)
}

// Display prints text/plain and writes images to files.
func (t *TerminalOutput) Display(data engine.Bundle, _ map[string]any, id string, update bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	text, _ := data["text/plain"].(string)
	if id != "" && !t.errIsTerminal() {
		if text != "" {
			t.holdLive(id, text)
		}
		return
	}
	if id != "" {
		// Progress bars and other live displays: redraw one stderr line.
		if t.inlineID != "" && t.inlineID != id {
			fmt.Fprintln(t.Err)
		}
		fmt.Fprintf(t.Err, "\r\033[K%s", text)
		t.inlineID = id
		return
	}
	t.endLineLocked()
	wrote := false
	for _, kind := range []struct{ mime, ext string }{{"image/png", ".png"}, {"image/svg+xml", ".svg"}, {"image/jpeg", ".jpg"}} {
		v, ok := data[kind.mime].(string)
		if !ok {
			continue
		}
		var content []byte
		if kind.mime == "image/svg+xml" {
			content = []byte(v)
		} else {
			b, err := base64.StdEncoding.DecodeString(v)
			if err != nil {
				continue
			}
			content = b
		}
		t.n++
		name := filepath.Join(t.ImageDir, fmt.Sprintf("%s-%d%s", t.ImagePrefix, t.n, kind.ext))
		if err := os.WriteFile(name, content, 0o644); err != nil {
			fmt.Fprintf(t.Err, "cannot write %s: %v\n", name, err)
			continue
		}
		fmt.Fprintf(t.Out, "[image written to %s]\n", name)
		wrote = true
		break
	}
	if !wrote || !strings.HasPrefix(text, "[") {
		if text != "" {
			fmt.Fprintln(t.Out, text)
		}
	}
}

// ClearOutput does nothing on a terminal.
func (t *TerminalOutput) ClearOutput(bool) {}

// KeepsScrollback says that what was written stays: the engine does not
// take progress bars away by clearing and writing the cell's output again.
func (t *TerminalOutput) KeepsScrollback() bool { return true }

// Input reads a line from the process's standard input.
func (t *TerminalOutput) Input(prompt string, _ bool) (string, error) {
	t.mu.Lock()
	if prompt != "" {
		io.WriteString(t.Out, prompt)
	}
	t.mu.Unlock()
	var line []byte
	buf := make([]byte, 1)
	for {
		n, err := os.Stdin.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				return string(line), nil
			}
			line = append(line, buf[0])
		}
		if err != nil {
			if len(line) > 0 {
				return string(line), nil
			}
			return "", err
		}
	}
}
