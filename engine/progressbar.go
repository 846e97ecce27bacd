package engine

import (
	"fmt"
	"html"
	"strings"
	"time"

	"grundy/engine/display"
	"grundy/stdlib/progress"
)

// progressBar reports the library's long tasks in the cell's output: one
// display per task, updated in place with rate and ETA, replaced by a
// one-line summary when the task ends.
type progressBar struct {
	handles map[string]*display.Handle
}

func newProgressBar() *progressBar { return &progressBar{handles: map[string]*display.Handle{}} }

func (p *progressBar) handle(label string) *display.Handle {
	h, ok := p.handles[label]
	if !ok {
		h = display.New()
		p.handles[label] = h
	}
	return h
}

// Report and Finish are called from one ticker goroutine per task, and a
// cell runs its tasks one after another, so the map needs no lock beyond
// what tasks with the same label would share.
func (p *progressBar) Report(s progress.Status) { p.handle(s.Label).Update(barBundle(s)) }

func (p *progressBar) Finish(s progress.Status) {
	h := p.handle(s.Label)
	delete(p.handles, s.Label)
	line := summaryLine(s)
	h.Update(display.Bundle{"text/plain": line, "text/html": "<code>" + html.EscapeString(line) + "</code>"})
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
