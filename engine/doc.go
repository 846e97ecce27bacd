// Package engine runs Go cells: a session (Interp) keeps what earlier
// cells declared, and runs each new cell through the same steps: split
// into imports, declarations and statements (package cell), typed by the
// oracle over the session's declarations and the preloaded library
// (package typecheck), refused or rewritten by the compatibility passes
// (package compat) so that the interpreter, yaegi, computes what Go
// computes, then compiled and run against the prelude (package prelude)
// with its output, displays and errors in Go's words sent to an Output.
// api.go is the contract with the kernel and the runners (package
// runner); package remote runs a session in a child process, so that a
// crash or an endless recursion ends the child and not the kernel;
// package tooling answers completion, inspection and is-complete
// questions about a live session.
package engine
