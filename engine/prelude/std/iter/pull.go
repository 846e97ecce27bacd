package iter

import "runtime"

// Pull turns the push iterator seq into a pull iterator: next returns the
// next value and true, or the zero value and false once seq is done; stop
// ends it early. seq runs on its own goroutine (the interpreter has no
// coroutines); a panic in seq is raised again by the next or stop that
// reached it, and a runtime.Goexit in seq exits the goroutine of that next
// or stop, as Go's coroutine does. next called again inside seq, or a
// yield called while seq waits for next, panics as Go's Pull does.
func Pull[V any](seq Seq[V]) (next func() (V, bool), stop func()) {
	// Each request (true: the next value, false: stop) gets one answer on
	// out; the last, after seq returned or panicked, has over set. No
	// select: the interpreter's select statement shares its cases among
	// the goroutines running it (see compat's selects), and Pulls in
	// several goroutines at once took each other's channels (a deadlock).
	req := make(chan bool)
	out := make(chan V)
	started, done, over := false, false, false
	running, paused := false, false // seq is running a next's turn; seq waits in yield
	var failure any
	exited := false // seq ended by runtime.Goexit
	run := func() {
		returned := false
		defer func() {
			failure = recover()
			exited = failure == nil && !returned
			over = true
			var zero V
			out <- zero
		}()
		if !<-req {
			returned = true
			return
		}
		stopped := false
		seq(func(v V) bool {
			if paused {
				panic("iter.Pull: yield called again before next")
			}
			if stopped {
				return false
			}
			paused = true // (before the value goes: the caller may yield at once)
			out <- v
			stopped = !<-req
			paused = false
			return !stopped
		})
		returned = true
	}
	// finish raises in the caller what ended seq.
	finish := func() {
		if failure != nil {
			panic(failure)
		}
		if exited {
			runtime.Goexit()
		}
	}
	next = func() (V, bool) {
		var zero V
		if done {
			return zero, false
		}
		if running {
			panic("iter.Pull: next called again before yield")
		}
		if !started {
			started = true
			go run()
		}
		running = true
		req <- true
		v := <-out
		running = false
		if over {
			done = true
			finish()
			return zero, false
		}
		return v, true
	}
	stop = func() {
		if done {
			return
		}
		done = true
		if !started {
			return
		}
		req <- false
		<-out
		finish()
	}
	return next, stop
}

// Pull2 is Pull for iterators over pairs. The pair goes through
// variables Pull's channel orders (a [2]any asserted back to K and V gave
// nil for an any: the interpreter's assertion to a type parameter bound
// to the empty interface fails).
func Pull2[K, V any](seq Seq2[K, V]) (next func() (K, V, bool), stop func()) {
	var k K
	var v V
	pairs, stop := Pull(func(yield func(bool) bool) {
		seq(func(a K, b V) bool {
			k = a // (one at a time: the interpreter's parallel assignment of an any panicked)
			v = b
			return yield(true)
		})
	})
	next = func() (K, V, bool) {
		if _, ok := pairs(); ok {
			return k, v, true
		}
		var zk K
		var zv V
		return zk, zv, false
	}
	return next, stop
}
