package grundyrt

// Deferred runs the deferred calls of one call of an interpreted function
// as Go does when one of them panics. yaegi v0.16.1 runs a function's
// deferred calls in a loop that a panic leaves (interp/run.go, runCfg):
// the calls after it did not run, and an earlier deferred recover() did
// not see the new panic. Each deferred call runs through Run, which keeps
// its panic pending; a deferred recover() takes it (Recover); Done, the
// function's first deferred call and so its last, raises it again if no
// recover took it.
type Deferred struct {
	panicking bool
	value     any
}

// NewDeferred is the state for one call of a function.
func NewDeferred() *Deferred { return &Deferred{} }

// Run makes a deferred call; a panic it raises replaces the pending one.
func (d *Deferred) Run(f func()) {
	defer func() {
		if r := recover(); r != nil {
			d.Raise(r)
		}
	}()
	f()
}

// Raise makes v the pending panic (panic(v) in a deferred function).
func (d *Deferred) Raise(v any) { d.panicking, d.value = true, v }

// Recover is recover() in a deferred function, given what the
// interpreter's recover() returned: the pending panic if there is one,
// which it stops.
func (d *Deferred) Recover(r any) any {
	if !d.panicking {
		return r
	}
	v := d.value
	d.panicking, d.value = false, nil
	return v
}

// Done raises the pending panic again once the deferred calls have run.
func (d *Deferred) Done() {
	if d.panicking {
		panic(d.value)
	}
}
