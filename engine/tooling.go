package engine

import "reflect"

// The tooling (complete, inspect, is_complete) works against this view of a
// live interpreter, so it can be tested without one and so the interpreter
// core and the tooling evolve separately. The core's session type
// implements toolScope and forwards its Complete/Inspect/IsComplete methods
// to the functions below.

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

type toolScope interface {
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
