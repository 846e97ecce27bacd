package iter

// Pull turns the push iterator seq into a pull iterator: next returns the
// next value and true, or the zero value and false once seq is done; stop
// ends it early. seq runs on its own goroutine (the interpreter has no
// coroutines); a panic in seq is raised again by the next or stop that
// reached it.
func Pull[V any](seq Seq[V]) (next func() (V, bool), stop func()) {
	req := make(chan bool)
	out := make(chan V)
	end := make(chan struct{})
	started, done := false, false
	var failure any
	run := func() {
		defer close(end)
		defer func() { failure = recover() }()
		if !<-req {
			return
		}
		seq(func(v V) bool {
			out <- v
			more := <-req
			return more
		})
	}
	next = func() (V, bool) {
		var zero V
		if done {
			return zero, false
		}
		if !started {
			started = true
			go run()
		}
		select {
		case req <- true:
		case <-end:
		}
		select {
		case v := <-out:
			return v, true
		case <-end:
			done = true
			if failure != nil {
				panic(failure)
			}
			return zero, false
		}
	}
	stop = func() {
		if done {
			return
		}
		done = true
		if !started {
			return
		}
		select {
		case req <- false:
			<-end
		case <-end:
		}
		if failure != nil {
			panic(failure)
		}
	}
	return next, stop
}

// Pull2 is Pull for iterators over pairs.
func Pull2[K, V any](seq Seq2[K, V]) (next func() (K, V, bool), stop func()) {
	pairs, stop := Pull(func(yield func([2]any) bool) {
		seq(func(k K, v V) bool { return yield([2]any{k, v}) })
	})
	next = func() (K, V, bool) {
		p, ok := pairs()
		k, _ := p[0].(K)
		v, _ := p[1].(V)
		return k, v, ok
	}
	return next, stop
}
