package symbols

import (
	"reflect"

	"github.com/traefik/yaegi/stdlib"

	rterrors "grundy/engine/prelude/grundyrt/runtime"
)

// A failed type assertion in the interpreter is the engine's error, not
// the runtime's (whose fields are unexported, its message made from the
// runtime's types): runtime.TypeAssertionError is the engine's type in
// the table, so a cell's r.(*runtime.TypeAssertionError), errors.As to
// one and the type oracle all mean the error the engine raises.
func init() {
	stdlib.Symbols["runtime/runtime"]["TypeAssertionError"] = reflect.ValueOf((*rterrors.TypeAssertionError)(nil))
}
