package engine

import (
	"fmt"
	"html"
	"strings"
	"sync"

	"grundy/engine/display"
	"grundy/stdlib/progress"
)

// progressBar reports the library's long tasks in the cell's output: one
// display per task, updated in place, replaced by a one-line summary when
// the task ends; the words are progress.Status's, as on the command line.
// It writes to the cell's Output directly, so a task that ends after an
// interrupt still updates its own cell's bar, and so that the cell's own
// output can be told apart (see transient.go).
type progressBar struct {
	out     Output
	flush   func() // forwards pending text first, to keep order
	mu      sync.Mutex
	handles map[string]*barHandle
	shown   bool // any bar was shown in this cell
}

type barHandle struct {
	id    string
	shown bool
}

func newProgressBar(out Output) *progressBar {
	return &progressBar{out: out, handles: map[string]*barHandle{}}
}

func (p *progressBar) show(label string, b display.Bundle, meta map[string]any, last bool) {
	p.mu.Lock()
	h, ok := p.handles[label]
	if !ok {
		h = &barHandle{id: display.New().ID()}
		p.handles[label] = h
	}
	update := h.shown
	h.shown, p.shown = true, true
	if last {
		delete(p.handles, label)
	}
	p.mu.Unlock()
	if p.flush != nil {
		p.flush()
	}
	p.out.Display(Bundle(b), meta, h.id, update)
}

// anyShown reports whether the cell showed a bar.
func (p *progressBar) anyShown() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.shown
}

// Report shows the running task.
func (p *progressBar) Report(s progress.Status) { p.show(s.Label, barBundle(s), nil, false) }

// ProgressSummaryKey marks, in a display's metadata, the summary line that
// replaces a finished task's bar; its value is the line without its
// timing (progress.Status.Untimed). A notebook keeps such lines only with
// progress.Keep; grundy check compares them by that value, since how
// long a task took differs on every run.
const ProgressSummaryKey = "grundy/progress-summary"

// Finish replaces the bar with a one-line summary.
func (p *progressBar) Finish(s progress.Status) {
	line := s.Summary()
	p.show(s.Label, display.Bundle{"text/plain": line, "text/html": "<code>" + html.EscapeString(line) + "</code>"},
		map[string]any{ProgressSummaryKey: s.Untimed()}, true)
}

func barBundle(s progress.Status) display.Bundle {
	const width = 30
	frac := s.Fraction()
	line := s.Line()
	text := line
	if s.Total > 0 {
		filled := int(frac * width)
		text = strings.Repeat("█", filled) + strings.Repeat("░", width-filled) + " " + line
	}
	htm := fmt.Sprintf(`<div style="font-family:monospace"><progress value="%d" max="%d" style="width:20em"></progress> %s</div>`,
		s.Done, max(s.Total, 1), html.EscapeString(line))
	return display.Bundle{"text/plain": text, "text/html": htm}
}
