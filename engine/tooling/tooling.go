// Package tooling answers the questions a frontend asks about code being
// typed, without running it: completion (Complete), inspection (Inspect:
// a library symbol's declaration and doc comment, a variable's type and
// value) and whether a cell is ready to run (IsComplete). It works against
// a small view of a live session (Session): its type oracle, which types
// the cell being edited as the compiler would, and the live values of its
// variables. So it can be tested without an interpreter and evolves apart
// from it; the engine's session implements the view and forwards its
// Complete, Inspect and IsComplete here.
package tooling

import (
	"reflect"

	"grundy/engine/display"
	"grundy/engine/typecheck"
)

// Completion answers complete_request. Cursor positions are in Unicode code
// points, as the Jupyter protocol counts them.
type Completion struct {
	Matches     []string
	CursorStart int
	CursorEnd   int
	Metadata    map[string]any
}

// Complete completes the name at cursor (in code points) in code.
func Complete(s Session, code string, cursor int) Completion { return complete(s, code, cursor) }

// Inspect describes the name at cursor; found is false when there is
// nothing to say.
func Inspect(s Session, code string, cursor, detail int) (data display.Bundle, found bool) {
	return inspect(s, code, cursor, detail)
}

// IsComplete returns "complete", "incomplete" (with an indent hint) or
// "invalid".
func IsComplete(code string) (status, indent string) { return isComplete(code) }

// Session is the view of a live session the tooling works against.
type Session interface {
	// Types is the type oracle's view of the session: what the cells run
	// so far declared, and the packages a cell can use.
	Types() *typecheck.Session
	// ValueOf gives the current value of a side-effect-free expression (a
	// variable, a selector chain such as t.Face, a package's variable), for
	// inspection.
	ValueOf(expr string) (reflect.Value, bool)
}
