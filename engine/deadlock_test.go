package engine

import (
	"context"
	"errors"
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
}

func TestDeadlockReported(t *testing.T) {
	it := newTestInterp(t)
	for i, c := range deadlockCells {
		start := time.Now()
		code := "before" + c.name + " := " + itoa(i) + "\n" + c.code
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
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
		if took > 2*time.Second {
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
		{"library", "t, _ := solve.Values(games.CN(5, 2), 9)\nfmt.Println(t.Count(0) > 0)", "true\n"},
	} {
		start := time.Now()
		_, out, err := runCell(t, it, c.code)
		if err != nil || out != c.out {
			t.Errorf("%s: %q, %v after %v; want %q", c.name, out, err, time.Since(start), c.out)
		}
	}
}
