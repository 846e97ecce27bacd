// Package symbols holds the yaegi symbol tables of grundy's own library
// packages (generated, see zsym_*.go), so that cells call the natively
// compiled code. Regenerate with `go generate ./engine/...` after changing
// a library package's exported API; a test fails when they are stale.
package symbols

import "reflect"

//go:generate go run ./gen

// Symbols maps "importpath/name" to the package's exported symbols, in the
// form interp.Use takes.
var Symbols = map[string]map[string]reflect.Value{}
