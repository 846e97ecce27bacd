package engine

import (
	"context"
	"errors"
)

// TEMPORARY: replaced by the real yaegi-backed session (issue 3). It exists
// so that the kernel builds before the engine lands.

// New starts an interpreter session with the library preloaded.
func New() (Session, error) { return stubSession{}, nil }

type stubSession struct{}

func (stubSession) Execute(ctx context.Context, code string, out Output) (Result, error) {
	return Result{}, &EvalError{Name: "NotImplemented", Value: "the engine is not built yet"}
}
func (stubSession) Complete(code string, cursor int) Completion {
	return Completion{CursorStart: cursor, CursorEnd: cursor}
}
func (stubSession) Inspect(string, int, int) (Bundle, bool) { return nil, false }
func (stubSession) IsComplete(string) (string, string)      { return "unknown", "" }
func (stubSession) Close() error                            { return errors.ErrUnsupported }
