package tooling

import "grundy/engine/internal/docextract"

//go:generate go run ../internal/docgen -o docs_generated.go -root ../..

// docEntry is one documented library symbol, extracted from the library's
// source at build time (see internal/docgen). libDocs, in
// docs_generated.go, maps "importpath.Name" and "importpath.Type.Method"
// (and the bare import path, for the package doc) to it.
type docEntry = docextract.Entry
