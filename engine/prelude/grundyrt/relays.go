package grundyrt

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Relays hand a panic to a function deferred through a value. yaegi
// v0.16.1's recover() reads the panic from the frame the called function
// was made in (interp/run.go, _recover reads f.anc): a function deferred
// by name or written in the defer statement was made where it is
// deferred and sees the panic, but one reached through a value (a method
// value or expression, a closure a call returned, a field, an element, a
// parameter) was made elsewhere, and recover() gave nil there while the
// panic went on. compat's funcdefers defers such a call in a literal that
// recovers the panic and calls it through Relay; recover() in the
// functions the cells declare (not the literals written in a defer
// statement, which see their panic) asks Relayed for it. Only the
// function the deferred call calls takes it, as in Go (a function it
// calls that recovers gets nil): a relay and a recover() name their
// function (f, T.M, a literal by its place); a relay of a function value
// the passes cannot follow (a parameter, a field) names none, and the
// first recover() of the call takes its panic.
var relays struct {
	active atomic.Int32 // relays under way, in any goroutine
	sync.Mutex
	by map[int64][]*relay // by goroutine
}

// relay is the panic Relay hands to the function it calls; pending until
// that function's recover() takes it.
type relay struct {
	v       any
	fn      string // the function called, "" when it is not known
	pending bool
}

// Relay calls f, a deferred call of the function fn ("" when a value),
// given what the deferring literal's recover() returned: with a panic
// under way, fn's recover() takes it (Relayed). It returns the panic to raise again (by an interpreted
// panic, see PanicAgain): f's own, or the one under way when f did not
// recover it; nil when there is none.
func Relay(r any, fn string, f func()) (raise any) {
	defer func() {
		if p := recover(); p != nil {
			raise = PanicAgain(p) // a new panic replaces the one under way
		}
	}()
	if r == nil {
		f()
		return nil
	}
	id := goroutineID()
	p := &relay{v: r, fn: fn, pending: true}
	relays.Lock()
	if relays.by == nil {
		relays.by = map[int64][]*relay{}
	}
	relays.by[id] = append(relays.by[id], p)
	relays.Unlock()
	relays.active.Add(1)
	defer func() {
		relays.active.Add(-1)
		relays.Lock()
		s := relays.by[id]
		if len(s) <= 1 {
			delete(relays.by, id)
		} else {
			relays.by[id] = s[:len(s)-1]
		}
		relays.Unlock()
	}()
	f()
	if p.pending {
		return PanicAgain(r)
	}
	return nil
}

// Relayed is recover() in the function fn a cell declares ("" for a
// literal), given what the interpreter's recover() returned: that, or
// else the panic a Relay of this goroutine has pending for fn, which it
// stops.
func Relayed(r any, fn string) any {
	if r != nil || relays.active.Load() == 0 {
		return r
	}
	id := goroutineID()
	relays.Lock()
	defer relays.Unlock()
	s := relays.by[id]
	if len(s) == 0 || !s[len(s)-1].pending || !calls(s[len(s)-1].fn, fn) {
		return nil
	}
	p := s[len(s)-1]
	p.pending = false
	return p.v
}

// calls reports whether a relay of the function called (a key compat's
// funcdefers wrote: "" for one not known, *.M for a method M through an
// interface) calls fn.
func calls(called, fn string) bool {
	if m, ok := strings.CutPrefix(called, "*."); ok {
		return fn == m || strings.HasSuffix(fn, "."+m)
	}
	return called == "" || called == fn
}

// goroutineID is the running goroutine's number, from the first line of
// its stack ("goroutine 7 [running]:").
func goroutineID() int64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, _ := strconv.ParseInt(string(b), 10, 64)
	return id
}
