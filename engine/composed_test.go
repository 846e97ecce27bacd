package engine

import (
	"reflect"
	"testing"

	"grundy/engine/prelude/grundyrt"

	"github.com/traefik/yaegi/stdlib"
)

// fmt's scanning functions are in the symbols under the names composedWrappers
// gives fmt.Scanner for.
func TestScanFuncsKeys(t *testing.T) {
	for _, f := range scanFuncs {
		if !stdlib.Symbols["fmt/fmt"][f].IsValid() {
			t.Errorf("fmt.%s: not in the symbols", f)
		}
	}
}

// Each composed wrapper list replaces the list of an interface wrapper
// the symbols have, and each wrapper has the interface's methods: a key
// missing from the symbols would leave yaegi's list in place unnoticed.
func TestComposedWrappersKeys(t *testing.T) {
	for _, c := range grundyrt.ComposedWrappers() {
		w := stdlib.Symbols[c.Key][c.Wrapper]
		if !w.IsValid() {
			t.Errorf("%s %s: no such wrapper in the symbols", c.Key, c.Wrapper)
			continue
		}
		iface := stdlib.Symbols[c.Key][c.Wrapper[1:]].Type().Elem()
		for i, wt := range c.Wrappers {
			if !wt.Implements(iface) {
				t.Errorf("%s %s: %v does not implement %v", c.Key, c.Wrapper, wt, iface)
			}
			if wt.Field(0).Name != "IValue" {
				t.Errorf("%v: field 0 is %s, yaegi unwraps by IValue", wt, wt.Field(0).Name)
			}
			if i > 0 && wt.NumMethod() > c.Wrappers[i-1].NumMethod() {
				t.Errorf("%s %s: %v comes after a smaller wrapper (yaegi takes the first that fits)", c.Key, c.Wrapper, wt)
			}
			for f := 1; f < wt.NumField(); f++ {
				if _, ok := wt.MethodByName(wt.Field(f).Name[1:]); !ok || wt.Field(f).Type.Kind() != reflect.Func {
					t.Errorf("%v: field %s names no method", wt, wt.Field(f).Name)
				}
			}
		}
	}
}
