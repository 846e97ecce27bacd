// Package helpers is the interpreted half of the prelude: Go that the
// engine compiles into each session's main package, so that cells and the
// code the compatibility passes write call it unqualified. It must run as
// interpreted code because only interpreted code sees the methods of types
// that cells define (yaegi v0.16.1 builds cell types with reflect, which
// cannot carry methods).
//
// The files are embedded by package prelude and loaded as they are; the
// package also compiles natively, only so that the toolchain formats, vets
// and type-checks them like any Go. Nothing calls it natively. The names
// other code uses are constants in package prelude.
package helpers
