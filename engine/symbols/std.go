package symbols

import (
	"reflect"

	"github.com/traefik/yaegi/stdlib"
)

// yaegi v0.16.1's tables of the standard library stop at Go 1.22. What
// later releases added (functions such as strings.Lines and
// binary.Append, types, variables, constants, and packages such as
// crypto/sha3) is generated into zstd_newer.go from the toolchain's api
// files and merged into yaegi's stdlib.Symbols here, so everything that
// reads that table (the interpreter, imports, completion) sees one
// standard library. Generic functions cannot be tabled: the engine
// provides those of iter, slices and maps as source, and refuses the
// others with a message (see the engine's unavailable APIs).

// stdAdded holds "key.Name" for every symbol addStd added, so the
// staleness test can tell yaegi's own table from the supplement.
var stdAdded = map[string]bool{}

func addStd(key string, syms map[string]reflect.Value) {
	m := stdlib.Symbols[key]
	if m == nil {
		m = map[string]reflect.Value{}
		stdlib.Symbols[key] = m
	}
	for name, v := range syms {
		if _, ok := m[name]; !ok {
			m[name] = v
			stdAdded[key+"."+name] = true
		}
	}
}
