package symbols

import (
	"log"
	"reflect"

	"github.com/traefik/yaegi/stdlib"
)

// log.New and log.Logger are log's own: yaegi's table has a logger type
// of its own under both names (stdlib/restricted.go, logLogger), so that
// Fatal cannot exit, which has no SetPrefix (l.SetPrefix was "undefined
// method"), printed as *stdlib.logLogger, and was not the type of
// log.Default(). The type oracle and the interpreter both read this
// table; the engine's loggerFatal pass keeps Fatal of a *log.Logger from
// exiting.
func init() {
	stdlib.Symbols["log/log"]["New"] = reflect.ValueOf(log.New)
	stdlib.Symbols["log/log"]["Logger"] = reflect.ValueOf((*log.Logger)(nil))
}
