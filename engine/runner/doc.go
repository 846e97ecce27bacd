// Package runner runs cells without Jupyter: `grundy run` on a Go script
// (RunScript: the file's cells in one session, output to the terminal) or
// on a notebook (RunNotebook: each code cell run in order and its outputs
// written back in nbformat), and `grundy check`, which reproduces the
// source documents' claims and checks that notebooks reproduce. It drives
// an engine session through engine's API, as the kernel does.
package runner
