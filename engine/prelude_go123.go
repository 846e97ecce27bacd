package engine

// Generic functions Go 1.23 added to the packages the engine provides as
// interpreted source (see genericSources), written the same way: slices
// stand for iterators where the engine's slices.Values and maps.Keys return
// slices (slices.Chunk), and a parameter that takes an iterator has a
// func(yield ...) type, where the rewriter turns those stand-ins into real
// iterators (see iteratorArgs).
func init() {
	genericSources = append(genericSources, go123Sources...)
}

var go123Sources = []string{`package iter

// Pull turns the push iterator seq into a pull iterator: next returns the
// next value and true, or the zero value and false once seq is done; stop
// ends it early. seq runs on its own goroutine (the interpreter has no
// coroutines); a panic in seq is raised again by the next or stop that
// reached it.
func Pull[V any](seq func(yield func(V) bool)) (func() (V, bool), func()) {
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
	next := func() (V, bool) {
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
	stop := func() {
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
func Pull2[K, V any](seq func(yield func(K, V) bool)) (func() (K, V, bool), func()) {
	next, stop := Pull(func(yield func([2]any) bool) {
		seq(func(k K, v V) bool { return yield([2]any{k, v}) })
	})
	next2 := func() (K, V, bool) {
		p, ok := next()
		k, _ := p[0].(K)
		v, _ := p[1].(V)
		return k, v, ok
	}
	return next2, stop
}
`, `package slices

// Chunk stands for the iterator over consecutive sub-slices of up to n
// elements of s (each with its capacity clipped, as Go's).
func Chunk[E any](s []E, n int) [][]E {
	if n < 1 {
		panic("cannot be less than 1")
	}
	var out [][]E
	for i := 0; i < len(s); i += n {
		end := i + n
		if end > len(s) {
			end = len(s)
		}
		out = append(out, s[i:end:end])
	}
	return out
}

func AppendSeq[E any](s []E, seq func(yield func(E) bool)) []E {
	seq(func(v E) bool {
		s = append(s, v)
		return true
	})
	return s
}

func SortedStableFunc[E any](seq func(yield func(E) bool), c func(E, E) int) []E {
	var s []E
	seq(func(v E) bool {
		s = append(s, v)
		return true
	})
	SortStableFunc(s, c)
	return s
}
`, `package maps

func Insert[K comparable, V any](m map[K]V, seq func(yield func(K, V) bool)) {
	seq(func(k K, v V) bool {
		m[k] = v
		return true
	})
}
`}
