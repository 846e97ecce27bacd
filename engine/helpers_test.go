package engine

import (
	"context"
	"strings"
	"sync"
	"testing"
)

// recorder is an Output that keeps everything, for tests. With frontend
// set it keeps what a frontend would show instead: ClearOutput empties it
// (at once, or with wait at the next output) as Jupyter's clear_output
// does, so that transient progress bars, which a slow machine shows and
// then clears, leave no trace in a transcript.
type recorder struct {
	frontend bool
	mu       sync.Mutex
	stdout   strings.Builder
	stderr   strings.Builder
	displays []Bundle
	ids      []string
	updates  []bool
	clears   int
	pending  bool // a ClearOutput(wait) not yet applied
	inputs   []string
	prompts  []string
}

func (r *recorder) Stdout(s string) {
	r.mu.Lock()
	r.applyPendingClear()
	r.stdout.WriteString(s)
	r.mu.Unlock()
}
func (r *recorder) Stderr(s string) {
	r.mu.Lock()
	r.applyPendingClear()
	r.stderr.WriteString(s)
	r.mu.Unlock()
}
func (r *recorder) Display(b Bundle, md map[string]any, id string, update bool) {
	r.mu.Lock()
	r.applyPendingClear()
	r.displays = append(r.displays, b)
	r.ids = append(r.ids, id)
	r.updates = append(r.updates, update)
	r.mu.Unlock()
}
func (r *recorder) ClearOutput(wait bool) {
	r.mu.Lock()
	r.clears++
	r.pending = r.frontend
	if !wait {
		r.applyPendingClear()
	}
	r.mu.Unlock()
}

// applyPendingClear empties what was shown if a clear is due; r.mu is held.
func (r *recorder) applyPendingClear() {
	if !r.pending {
		return
	}
	r.pending = false
	r.stdout.Reset()
	r.stderr.Reset()
	r.displays, r.ids, r.updates = nil, nil, nil
}
func (r *recorder) Input(prompt string, password bool) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.prompts = append(r.prompts, prompt)
	if len(r.inputs) == 0 {
		return "", errNoStdin
	}
	s := r.inputs[0]
	r.inputs = r.inputs[1:]
	return s, nil
}

func (r *recorder) out() string { r.mu.Lock(); defer r.mu.Unlock(); return r.stdout.String() }
func (r *recorder) err() string { r.mu.Lock(); defer r.mu.Unlock(); return r.stderr.String() }

func newTestInterp(t testing.TB) *Interp {
	t.Helper()
	it, err := NewInterp(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { it.Close() })
	return it
}

// runCell executes a cell and returns the text/plain of its value, its stdout
// and the error.
func runCell(t testing.TB, it *Interp, code string) (value, stdout string, err error) {
	t.Helper()
	rec := &recorder{}
	res, err := it.Execute(context.Background(), code, rec)
	if res.Value != nil {
		value, _ = res.Value["text/plain"].(string)
	}
	return value, rec.out(), err
}
