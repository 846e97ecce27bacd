package symbols

import (
	"reflect"

	"github.com/traefik/yaegi/stdlib"
)

// The standard unique package has only generic API (Make, Handle), which
// a table cannot hold: an empty table lets cells import it, and the
// engine's helpers stand in for what they use (the prelude's genericStd).
func init() {
	if stdlib.Symbols["unique/unique"] == nil {
		stdlib.Symbols["unique/unique"] = map[string]reflect.Value{}
	}
}
