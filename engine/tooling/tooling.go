// Package tooling answers the questions a frontend asks about code being
// typed, without running it: completion (Complete), inspection (Inspect:
// a library symbol's declaration and doc comment, a variable's type and
// value) and whether a cell is ready to run (IsComplete). It works against
// a small view of a live session (Session), so it can be tested without
// an interpreter and evolves apart from it; the engine's session
// implements the view and forwards its Complete, Inspect and IsComplete
// here.
package tooling

import (
	"reflect"

	"grundy/engine/display"
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

// Global is a name a cell declared at top level.
//
// Extension for the core (compatible, optional): a method declared in a
// cell may be listed as Kind "method" with Name "T.M" (T the receiver's
// type name, without * or type parameters) and Type its signature without
// the receiver, e.g. "func(x int) int". yaegi builds cell-defined types
// with reflect, which cannot carry interpreted methods, so this is the only
// way completion after "v." and inspect of "v.M" can know them. The
// tooling skips such entries in top-level completion.
type Global struct {
	Name string
	Kind string // "func", "var", "const", "type", "import" or "method"
	Type string // Go type as source text, when known
}

// Session is the view of a live session the tooling works against.
type Session interface {
	// Globals lists names declared by cells so far (latest declaration wins).
	Globals() []Global
	// Packages maps each importable package (preloaded or imported by a
	// cell) by the name a cell uses for it, to its import path and symbols.
	Packages() map[string]PackageSymbols
	// TypeOf gives the type of a side-effect-free expression (an identifier
	// or a selector chain such as t.Face) in the live session.
	TypeOf(expr string) (reflect.Type, bool)
	// ValueOf gives the current value of a variable, for inspection.
	ValueOf(expr string) (reflect.Value, bool)
}

// PackageSymbols is one package as the interpreter sees it.
type PackageSymbols struct {
	Path    string
	Symbols map[string]reflect.Value
}

// The tooling itself: complete (complete.go), inspect (inspect.go) and
// isComplete (iscomplete.go).
