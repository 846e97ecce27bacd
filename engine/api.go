package engine

import (
	"context"

	"grundy/engine/display"
	"grundy/engine/tooling"
)

// This file is the contract between the kernel (and `grundy run`) and the
// engine. The kernel owns the wire; the engine owns Go. Keep it small.

// Bundle is a Jupyter MIME bundle: MIME type -> data. Text types hold a
// string; image/png and image/jpeg hold base64 text (as Jupyter wants it);
// application/json holds any JSON-encodable value. It is the display
// package's: cells, the library and the runners share one bundle type.
type Bundle = display.Bundle

// Output receives everything a running cell produces, in order. The kernel
// turns each call into an iopub message; `grundy run` writes to the
// terminal and to files. Implementations must be safe for concurrent use:
// goroutines started by a cell may print.
type Output interface {
	Stdout(text string)
	Stderr(text string)
	// Display shows a bundle. displayID is "" for a plain display; with
	// update true it replaces the earlier display with the same id.
	Display(data Bundle, metadata map[string]any, displayID string, update bool)
	// ClearOutput clears the cell's output (wait: only when new output comes).
	ClearOutput(wait bool)
	// Input asks the user for a line of text (Jupyter's input_request). It
	// returns an error when the frontend does not allow stdin.
	Input(prompt string, password bool) (string, error)
}

// Scrollback is an Output that cannot take back what it showed, such as a
// terminal. The engine then leaves a cell's progress where it was drawn:
// taking the bars away clears the cell's output and sends the cell's own
// output again, which a terminal would show twice.
type Scrollback interface {
	Output
	KeepsScrollback() bool
}

// Result is what one Execute produced besides streamed output.
type Result struct {
	// Value is the trailing expression's display bundle, nil when the cell
	// ended with a statement or a call with no value.
	Value    Bundle
	Metadata map[string]any
}

// EvalError is a cell failure as Jupyter shows it (the error reply and the
// error iopub message).
type EvalError struct {
	Name      string   // e.g. "CompileError", "panic", "Interrupted"
	Value     string   // one line: what went wrong, in Go's words
	Traceback []string // lines to show, the first being the summary
	// Restart says the cell left goroutines behind that the engine
	// cannot stop (blocked for good in a sync.WaitGroup or a mutex): a
	// later cell could wake them, and they would run on. An engine
	// process is then replaced and its session replayed (engine/remote).
	Restart bool `json:",omitempty"`
}

func (e *EvalError) Error() string { return e.Name + ": " + e.Value }

// Completion answers complete_request (see package tooling).
type Completion = tooling.Completion

// Session is one interpreter: the kernel holds one per Jupyter session.
// Execute runs cells one at a time; Complete, Inspect and IsComplete may be
// called while no cell runs.
type Session interface {
	// Execute runs a cell. Cancelling ctx (a Jupyter interrupt) stops it;
	// the session stays usable. A failed cell returns an *EvalError.
	Execute(ctx context.Context, code string, out Output) (Result, error)
	Complete(code string, cursor int) Completion
	// Inspect returns a bundle describing the name at cursor; found false
	// when there is nothing to say.
	Inspect(code string, cursor int, detailLevel int) (data Bundle, found bool)
	// IsComplete returns "complete", "incomplete" (with an indent hint) or
	// "invalid".
	IsComplete(code string) (status, indent string)
	Close() error
}
