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

// A cell's value in an io.Reader with ReadRune and UnreadRune, or an
// io.Writer with WriteString, sits in a composed wrapper: Rewrap and the
// printer must know it too (%T said grundyrt.readerRuneScanner, and
// r.(T) was false).
func TestIsWrapperKnowsComposed(t *testing.T) {
	for _, c := range ComposedWrappers() {
		for _, rt := range c.Wrappers {
			if !isWrapper(rt) {
				t.Errorf("isWrapper(%v) is false (package %q)", rt, rt.PkgPath())
			}
		}
	}
}
