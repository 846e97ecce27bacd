package engine

import (
	"sync"

	"grundy/stdlib/progress"
)

// Progress is transient: the bars a long task shows while a cell runs are
// taken away when the cell ends (unless progress.Keep is set), so that a
// notebook run on a slow machine, where the bars appear, is saved exactly
// as one run on a fast machine, where they never do. A display cannot be
// deleted in Jupyter; the cell's output is cleared and what the cell
// itself produced is sent again, in order. The copy is bounded: past
// replayLimit bytes, or once the cell has asked for input (the frontend
// shows the answer, which a replay cannot restore), the bars stay.

const replayLimit = 1 << 20

type recorded struct {
	stream string // "stdout", "stderr", or "" for a display
	text   string
	data   Bundle
	meta   map[string]any
	id     string
}

// transientOutput passes a cell's output on and keeps a copy of it.
type transientOutput struct {
	Output
	mu    sync.Mutex
	log   []recorded
	bytes int
	keep  bool // too much, or input asked: leave the output as it is
}

// newTransientOutput wraps out, or returns nil when out cannot clear
// (a terminal keeps its scrollback; its bars are one redrawn line).
func newTransientOutput(out Output) *transientOutput {
	switch out.(type) {
	case discardOutput, goroutineOutput:
		return nil
	}
	if s, ok := out.(Scrollback); ok && s.KeepsScrollback() {
		return nil
	}
	return &transientOutput{Output: out}
}

func (t *transientOutput) add(r recorded, size int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.keep {
		return
	}
	if t.bytes += size; t.bytes > replayLimit {
		t.keep, t.log = true, nil
		return
	}
	if r.stream == "" && r.id != "" {
		for i := range t.log {
			if t.log[i].stream == "" && t.log[i].id == r.id {
				// An update: the replay shows the latest content.
				t.log[i].data, t.log[i].meta = r.data, r.meta
				return
			}
		}
	}
	t.log = append(t.log, r)
}

func (t *transientOutput) Stdout(s string) {
	t.add(recorded{stream: "stdout", text: s}, len(s))
	t.Output.Stdout(s)
}

func (t *transientOutput) Stderr(s string) {
	t.add(recorded{stream: "stderr", text: s}, len(s))
	t.Output.Stderr(s)
}

func (t *transientOutput) Display(data Bundle, meta map[string]any, id string, update bool) {
	size := 0
	for _, v := range data {
		if s, ok := v.(string); ok {
			size += len(s)
		}
	}
	t.add(recorded{data: data, meta: meta, id: id}, size)
	t.Output.Display(data, meta, id, update)
}

func (t *transientOutput) ClearOutput(wait bool) {
	t.mu.Lock()
	if !t.keep {
		t.log, t.bytes = nil, 0
	}
	t.mu.Unlock()
	t.Output.ClearOutput(wait)
}

func (t *transientOutput) Input(prompt string, password bool) (string, error) {
	t.mu.Lock()
	t.keep, t.log = true, nil
	t.mu.Unlock()
	return t.Output.Input(prompt, password)
}

// end takes the progress bars away when any was shown: it clears the
// cell's output and sends the cell's own output again. A cell that failed
// keeps them: an interrupted solve's bar ends saying where it stopped.
func (t *transientOutput) end(bar *progressBar, failed bool) {
	if t == nil || failed || progress.Keep || !bar.anyShown() {
		return
	}
	t.mu.Lock()
	log, keep := t.log, t.keep
	t.log = nil
	t.mu.Unlock()
	if keep {
		return
	}
	t.Output.ClearOutput(false)
	for _, r := range log {
		switch r.stream {
		case "stdout":
			t.Output.Stdout(r.text)
		case "stderr":
			t.Output.Stderr(r.text)
		default:
			t.Output.Display(r.data, r.meta, r.id, false)
		}
	}
}
