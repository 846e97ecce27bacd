package grundyrt

import (
	"reflect"
	"runtime"
	"strings"
)

// The select statements the compat pass selects writes: each execution
// builds its own cases, where the interpreter fills one slice of cases per
// select statement (yaegi v0.16.1, interp/run.go, _select), which
// goroutines running the same select at once overwrote for each other.

// selector makes the selects of one session (the engine's deadlock
// watchdog knows its frames by this type's name); stop is closed when a
// cell is interrupted, or found deadlocked.
type selector struct{ stop func() <-chan struct{} }

// Select is a select of the cases dirs spells, one letter each ('r' a
// receive from a channel into the variable a pointer points to, or
// nowhere for a nil pointer, 's' a
// send of what it points to, 'd' the default), with a channel and a
// pointer in args for each receive and send. It returns the case chosen
// and, for a receive, whether a value came. The session's stop ends the
// goroutine waiting in it, as an interrupted sleep does.
func (sel selector) Select(dirs string, args ...any) (int, bool) {
	var buf [8]reflect.SelectCase // (most selects have a few cases: no allocation)
	rc := buf[:0]
	if len(dirs) >= len(buf) {
		rc = make([]reflect.SelectCase, 0, len(dirs)+1)
	}
	a := 0
	for i := range len(dirs) {
		switch dirs[i] {
		case 'd':
			rc = append(rc, reflect.SelectCase{Dir: reflect.SelectDefault})
			continue
		case 'r':
			rc = append(rc, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(args[a])})
		case 's':
			rc = append(rc, reflect.SelectCase{Dir: reflect.SelectSend, Chan: reflect.ValueOf(args[a]), Send: reflect.ValueOf(args[a+1]).Elem()})
		}
		a += 2
	}
	if s := sel.stop(); s != nil {
		rc = append(rc, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(s)})
	}
	i, v, ok := reflect.Select(rc)
	if i == len(dirs) {
		runtime.Goexit() // stopped
	}
	if dirs[i] == 'r' {
		// (the pointer of the i-th case: two arguments for each case
		// before it but a default)
		at := 2*i - 2*strings.Count(dirs[:i], "d") + 1
		if p := args[at]; p != nil {
			reflect.ValueOf(p).Elem().Set(v)
		}
	}
	return i, ok
}
