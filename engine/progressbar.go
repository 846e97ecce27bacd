package engine

import (
	"fmt"
	"html"
	"strings"
	"sync"
	"time"

	"grundy/engine/display"
	"grundy/stdlib/progress"
)

// progressBar reports the library's long tasks in the cell's output: one
// display per task, updated in place with rate and ETA, replaced by a
// one-line summary when the task ends.
// It writes to the cell's Output directly, so a task that ends after an
// interrupt still updates its own cell's bar.
type progressBar struct {
	out     Output
	flush   func() // forwards pending text first, to keep order
	mu      sync.Mutex
	handles map[string]*barHandle
}

type barHandle struct {
	id    string
	shown bool
}

func newProgressBar(out Output) *progressBar {
	return &progressBar{out: out, handles: map[string]*barHandle{}}
}

func (p *progressBar) show(label string, b display.Bundle, last bool) {
	p.mu.Lock()
	h, ok := p.handles[label]
	if !ok {
		h = &barHandle{id: display.New().ID()}
		p.handles[label] = h
	}
	update := h.shown
	h.shown = true
	if last {
		delete(p.handles, label)
	}
	p.mu.Unlock()
	if p.flush != nil {
		p.flush()
	}
	p.out.Display(Bundle(b), nil, h.id, update)
}

// Report shows the running task.
func (p *progressBar) Report(s progress.Status) { p.show(s.Label, barBundle(s), false) }

// Finish replaces the bar with a one-line summary.
func (p *progressBar) Finish(s progress.Status) {
	line := summaryLine(s)
	p.show(s.Label, display.Bundle{"text/plain": line, "text/html": "<code>" + html.EscapeString(line) + "</code>"}, true)
}

func barBundle(s progress.Status) display.Bundle {
	const width = 30
	frac := 0.0
	if s.Total > 0 {
		frac = float64(s.Done) / float64(s.Total)
		if frac > 1 {
			frac = 1
		}
	}
	filled := int(frac * width)
	bar := strings.Repeat("█", filled) + strings.Repeat("░", width-filled)
	detail := fmt.Sprintf("%s/%s  %s/s", count(s.Done), countTotal(s.Total), count(int64(s.Rate())))
	if eta := s.ETA(); eta > 0 {
		detail += "  ETA " + roundDur(eta)
	}
	text := fmt.Sprintf("%s %s %3.0f%%  %s", s.Label, bar, frac*100, detail)
	if s.Total <= 0 {
		text = fmt.Sprintf("%s  %s  elapsed %s", s.Label, detail, roundDur(s.Elapsed))
	}
	htm := fmt.Sprintf(`<div style="font-family:monospace">%s <progress value="%d" max="%d" style="width:20em"></progress> %.0f%% &nbsp;%s</div>`,
		html.EscapeString(s.Label), s.Done, max(s.Total, 1), frac*100, html.EscapeString(detail))
	return display.Bundle{"text/plain": text, "text/html": htm}
}

func summaryLine(s progress.Status) string {
	state := "done"
	if s.Err != nil {
		state = "stopped: " + s.Err.Error()
	}
	return fmt.Sprintf("%s: %s, %s in %s (%s/s)", s.Label, state, count(s.Done), roundDur(s.Elapsed), count(int64(s.Rate())))
}

func count(n int64) string {
	switch {
	case n >= 10_000_000_000:
		return fmt.Sprintf("%.1fG", float64(n)/1e9)
	case n >= 10_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

func countTotal(n int64) string {
	if n <= 0 {
		return "?"
	}
	return count(n)
}

func roundDur(d time.Duration) string {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second).String()
	case d >= time.Second:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Millisecond).String()
}
