package grundyrt

import (
	"testing"

	"grundy/engine/symbols"
)

// The interpreter wraps a cell's value for a native interface of the
// library (games.Game) in a wrapper type of the engine's symbol tables:
// Rewrap and the printer must know it as they know yaegi's own.
func TestIsWrapperKnowsEngineSymbols(t *testing.T) {
	v, ok := symbols.Symbols["grundy/stdlib/games/games"]["_Game"]
	if !ok {
		t.Fatal("no wrapper of games.Game in the symbol tables")
	}
	if rt := v.Type().Elem(); !isWrapper(rt) {
		t.Fatalf("isWrapper(%v) is false (package %q)", rt, rt.PkgPath())
	}
}
