package grundyrt

import (
	"reflect"
	"runtime"
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
// receive from a channel into the variable a pointer points to, 's' a
// send of what it points to, 'd' the default), with a channel and a
// pointer in args for each receive and send. It returns the case chosen
// and, for a receive, whether a value came. The session's stop ends the
// goroutine waiting in it, as an interrupted sleep does.
func (sel selector) Select(dirs string, args ...any) (int, bool) {
	rc := make([]reflect.SelectCase, len(dirs), len(dirs)+1)
	ptrs := make([]reflect.Value, len(dirs))
	a := 0
	for i := range len(dirs) {
		switch dirs[i] {
		case 'd':
			rc[i].Dir = reflect.SelectDefault
			continue
		case 'r':
			rc[i].Dir = reflect.SelectRecv
		case 's':
			rc[i].Dir = reflect.SelectSend
		}
		rc[i].Chan, ptrs[i] = reflect.ValueOf(args[a]), reflect.ValueOf(args[a+1])
		if dirs[i] == 's' {
			rc[i].Send = ptrs[i].Elem()
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
		ptrs[i].Elem().Set(v)
	}
	return i, ok
}
