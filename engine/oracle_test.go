package engine

import (
	"testing"

	"grundy/engine/prelude"
	"grundy/engine/symbols"
	"grundy/engine/typecheck"

	"github.com/traefik/yaegi/stdlib"
)

// The type oracle's universe imports every package a cell may use in
// any order: package grundyrt's table first (the passes ask for it when
// they convert to a library interface), whose types name the engine's
// source packages, must not leave one of them broken: iter imported
// grundyrt, then reflect (whose Type.Fields returns an iter.Seq); checked
// while that package was half made, it failed, and slices and maps with
// it, for every later session of the process. The engine's source
// packages import no package whose types name theirs.
func TestOracleImportOrder(t *testing.T) {
	for _, first := range []string{prelude.Runtime, "reflect", "strings", "bytes", "slices", "maps", "iter", "cmp"} {
		u := typecheck.NewUniverse(prelude.Sources(), prelude.RuntimeTypes(), stdlib.Symbols, symbols.Symbols).WithGeneric(prelude.Generic()).WithHelpers(prelude.GenericStd)
		if _, err := u.Import(first); err != nil {
			t.Errorf("import %s first: %v", first, err)
		}
		for _, p := range []string{prelude.Runtime, "iter", "slices", "maps", "cmp"} {
			if _, err := u.Import(p); err != nil {
				t.Errorf("import %s after %s: %v", p, first, err)
			}
		}
	}
}
