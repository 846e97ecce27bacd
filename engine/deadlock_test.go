package engine

import (
	"context"
	"errors"
	"runtime/pprof"
	"testing"
	"time"
)

// deadlockCells block for good, each a way Go reports as "all goroutines
// are asleep"; each declares a variable first, which the next cell reads.
var deadlockCells = []struct{ name, code string }{
	{"receive", "ch := make(chan int)\n<-ch"},
	{"range", "ch := make(chan int, 1)\ngo func() { ch <- 1 }()\nfor v := range ch { fmt.Println(v) }"},
	{"waitgroup", "var wg sync.WaitGroup\nwg.Add(2)\ngo func() { defer wg.Done() }()\nwg.Wait()"},
	{"mutex", "var mu sync.Mutex\nmu.Lock()\nmu.Lock()"},
	{"select", "n := 1\nselect {}"},
	{"send", "ch := make(chan int)\nch <- 1"},
	{"workers", "res := make(chan int)\nfor i := range 3 { go func() { res <- i }() }\nfmt.Println(<-res + <-res + <-res >= 0)\n<-res"},
	{"rwmutex", "var mu sync.RWMutex\nmu.RLock()\nmu.Lock()"},
	{"cond", "c := sync.NewCond(&sync.Mutex{})\nc.L.Lock()\nc.Wait()"},
	{"expired", "<-time.After(10 * time.Millisecond)\nch := make(chan int)\n<-ch"},
	{"function", "func wait(ch chan int) int { return <-ch }\nwait(make(chan int))"},
	{"late", "time.Sleep(2 * time.Second)\n<-make(chan int)"},
}

func TestDeadlockReported(t *testing.T) {
	it := newTestInterp(t)
	for i, c := range deadlockCells {
		start := time.Now()
		code := "before" + c.name + " := " + itoa(i) + "\n" + c.code
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err := it.Execute(ctx, code, &recorder{})
		cancel()
		took := time.Since(start)
		var ee *EvalError
		if !errors.As(err, &ee) || ee.Name != "fatal error" || ee.Value != DeadlockMessage ||
			len(ee.Traceback) < 2 || ee.Traceback[0] != "fatal error: "+DeadlockMessage {
			t.Errorf("%s: got %v after %v, want Go's deadlock error", c.name, err, took)
			continue
		}
		t.Logf("%s: reported after %v: %s (restart %v)", c.name, took.Round(time.Millisecond), ee.Traceback[1], ee.Restart)
		bound := 3 * time.Second
		if c.name == "late" {
			// Past a run's first two looks, they are spaced by
			// their cost, which a loaded machine raises.
			took -= 2 * time.Second
			bound = 10 * time.Second
		}
		if took > bound {
			t.Errorf("%s: reported after %v", c.name, took)
		}
		v, _, err := runCell(t, it, "before"+c.name)
		if err != nil || v != itoa(i) {
			t.Errorf("%s: the next cell got %q, %v; want %d", c.name, v, err, i)
		}
	}
}

// TestDeadlockNotReported: cells that wait on time, or on a goroutine that
// works, are never taken for deadlocked.
func TestDeadlockNotReported(t *testing.T) {
	it := newTestInterp(t)
	for _, c := range []struct{ name, code, out string }{
		{"sleep", "time.Sleep(1500 * time.Millisecond)\nfmt.Println(1)", "1\n"},
		{"after", "<-time.After(1500 * time.Millisecond)\nfmt.Println(2)", "2\n"},
		{"select after", "ch := make(chan int)\nselect {\ncase <-ch:\ncase <-time.After(1500 * time.Millisecond):\n\tfmt.Println(3)\n}", "3\n"},
		{"timer", "tm := time.NewTimer(time.Millisecond)\n<-tm.C\ntm.Reset(1500 * time.Millisecond)\n<-tm.C\nfmt.Println(4)", "4\n"},
		{"ticker", "tk := time.NewTicker(700 * time.Millisecond)\n<-tk.C\n<-tk.C\ntk.Stop()\nfmt.Println(5)", "5\n"},
		{"tick", "c := time.Tick(700 * time.Millisecond)\n<-c\n<-c\nfmt.Println(6)", "6\n"},
		{"context", "ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)\ndefer cancel()\n<-ctx.Done()\nfmt.Println(7)", "7\n"},
		{"afterfunc", "ch := make(chan int)\ntime.AfterFunc(1500*time.Millisecond, func() { ch <- 8 })\nfmt.Println(<-ch)", "8\n"},
		{"busy worker", "done := make(chan int)\ngo func() { n := 0; for i := range 3000000 { n += i % 7 }; done <- n }()\nfmt.Println(<-done > 0)", "true\n"},
		{"sleeping worker", "var wg sync.WaitGroup\nwg.Add(1)\ngo func() { defer wg.Done(); time.Sleep(1500 * time.Millisecond) }()\nwg.Wait()\nfmt.Println(9)", "9\n"},
		{"worker waits on timer", "var mu sync.Mutex\nmu.Lock()\ngo func() { <-time.After(1500 * time.Millisecond); mu.Unlock() }()\nmu.Lock()\nfmt.Println(10)", "10\n"},
		{"ping-pong", "ping, pong := make(chan int), make(chan int)\ngo func() {\n\tfor v := range ping {\n\t\tpong <- v + 1\n\t}\n}()\nv := 0\nstart := time.Now()\nfor time.Since(start) < 1500*time.Millisecond {\n\tping <- v\n\tv = <-pong\n}\nclose(ping)\nfmt.Println(v > 0)", "true\n"},
		{"feeder from an earlier cell", "feed := make(chan int)\ngo func() {\n\tfor i := 0; ; i++ {\n\t\ttime.Sleep(700 * time.Millisecond)\n\t\tfeed <- i\n\t}\n}()", ""},
		{"fed", "fmt.Println(<-feed + <-feed)", "1\n"},
		{"library", "t, _ := solve.Values(games.CN(5, 2), 9)\nfmt.Println(t.Count(0) > 0)", "true\n"},
	} {
		start := time.Now()
		_, out, err := runCell(t, it, c.code)
		if err != nil || out != c.out {
			t.Errorf("%s: %q, %v after %v; want %q", c.name, out, err, time.Since(start), c.out)
		}
	}
}

// BenchmarkDeadlockWatch: what the watchdog costs a cell that does not
// block (a timer armed and stopped, a label set, per run), cells with and
// without it taking turns, as the session's cells grow dearer:
// go test ./engine -run XXX -bench DeadlockWatch -count 5
func BenchmarkDeadlockWatch(b *testing.B) {
	it := newTestInterp(b)
	if _, _, err := runCell(b, it, "x := 1"); err != nil {
		b.Fatal(err)
	}
	defer func(on bool) { deadlockWatch = on }(deadlockWatch)
	var took [2]time.Duration
	for b.Loop() {
		for i, on := range []bool{false, true} {
			deadlockWatch = on
			start := time.Now()
			if _, err := it.Execute(context.Background(), "x + 1", discardOutput{}); err != nil {
				b.Fatal(err)
			}
			took[i] += time.Since(start)
		}
	}
	b.ReportMetric(float64(took[0].Nanoseconds())/float64(b.N), "ns/cell-off")
	b.ReportMetric(float64(took[1].Nanoseconds())/float64(b.N), "ns/cell-on")
	b.ReportMetric(float64(took[1])/float64(took[0]), "on/off")
}

// BenchmarkDeadlockWatchRun: the watchdog's work per run of the
// interpreter alone (compare BenchmarkTrivialCell).
func BenchmarkDeadlockWatchRun(b *testing.B) {
	it := newTestInterp(b)
	for b.Loop() {
		ctx, stop := context.WithCancelCause(context.Background())
		wd := it.watch(it.runs.Add(1), stop)
		pprof.Do(ctx, pprof.Labels(cellLabel, wd.run), func(context.Context) {})
		wd.stop()
		stop(nil)
	}
}

// BenchmarkDeadlockCheck: the looks the watchdog takes at a running cell,
// at most once a second, with n of the cell's goroutines waiting on a
// channel: "look", the first (one goroutine of the cell computes); "states",
// the second, made only when the first saw nothing move.
func BenchmarkDeadlockCheck(b *testing.B) {
	it := newTestInterp(b)
	for _, n := range []int{1, 100, 1000} {
		code := "stop := make(chan bool)\nfor range " + itoa(n) + " {\n\tgo func() { <-stop }()\n}\n" +
			"go func() {\n\tfor n := 1; ; n++ {\n\t\tif n%1000000 == 0 {\n\t\t\tselect {\n\t\t\tcase <-stop:\n\t\t\t\treturn\n\t\t\tdefault:\n\t\t\t}\n\t\t}\n\t}\n}()"
		if _, _, err := runCell(b, it, code); err != nil {
			b.Fatal(err)
		}
		b.Run("look/"+itoa(n), func(b *testing.B) {
			for b.Loop() {
				if sig := it.quietSignature(); sig != "" {
					b.Fatal(sig)
				}
			}
		})
		b.Run("states/"+itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, ok := it.blockedForGood("none"); ok {
					b.Fatal("deadlocked")
				}
			}
		})
		if _, _, err := runCell(b, it, "close(stop)"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDeadlockTimersForgotten: the session does not keep a reference for
// each of the timers a loop makes and drops, and once they are collected
// they no longer keep a deadlock from being reported. (A timer a cell's
// top level made stays referenced by the interpreter's frame.)
func TestDeadlockTimersForgotten(t *testing.T) {
	it := newTestInterp(t)
	if _, _, err := runCell(t, it, "func spin() {\n\tfor range 20000 {\n\t\ttm := time.NewTimer(time.Hour)\n\t\ttm.Stop()\n\t}\n}\nspin()"); err != nil {
		t.Fatal(err)
	}
	// (The interpreter lets go of the last call's frame at the next run.)
	if _, _, err := runCell(t, it, "x := 1"); err != nil {
		t.Fatal(err)
	}
	it.wake.pending(true) // collects garbage, and forgets the timers gone
	it.wake.mu.Lock()
	n := len(it.wake.alive)
	it.wake.mu.Unlock()
	// (The last may still be in a frame the interpreter keeps.)
	if n > 1 {
		t.Errorf("a garbage collection later, %d dropped timers still count as pending", n)
	}
}

// TestDeadlockSessionsApart: sessions sharing a process are programs of
// their own: one's goroutine that sleeps does not keep another's deadlock
// from being reported, nor is a deadlock reported while its own sleeps.
func TestDeadlockSessionsApart(t *testing.T) {
	other := newTestInterp(t)
	if _, _, err := runCell(t, other, "go func() {\n\tfor {\n\t\ttime.Sleep(50 * time.Millisecond)\n\t}\n}()"); err != nil {
		t.Fatal(err)
	}
	it := newTestInterp(t)
	_, _, err := runCell(t, it, "<-make(chan int)")
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Value != DeadlockMessage {
		t.Errorf("beside another session's sleeping goroutine: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = other.Execute(ctx, "<-make(chan int)", &recorder{})
	if !errors.As(err, &ee) || ee.Name != "Interrupted" {
		t.Errorf("beside its own sleeping goroutine: %v, want the cell to wait until interrupted", err)
	}
}
