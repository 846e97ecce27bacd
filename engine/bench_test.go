package engine

import (
	"context"
	"testing"
	"time"
)

// BenchmarkNewSession: interpreter ready with the whole library and the
// prelude loaded (the issue asks for at most 150 ms).
func BenchmarkNewSession(b *testing.B) {
	for b.Loop() {
		it, err := NewInterp(Options{})
		if err != nil {
			b.Fatal(err)
		}
		it.Close()
	}
}

// BenchmarkTrivialCell: "x + 1" in a warm session (well under 1 ms).
func BenchmarkTrivialCell(b *testing.B) {
	it := newTestInterp(b)
	if _, _, err := runCell(b, it, "x := 1"); err != nil {
		b.Fatal(err)
	}
	out := discardOutput{}
	ctx := context.Background()
	for b.Loop() {
		if _, err := it.Execute(ctx, "x + 1", out); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSpeedBounds keeps the two numbers honest in the default test run,
// with generous margins for a loaded CI machine.
func TestSpeedBounds(t *testing.T) {
	start := time.Now()
	it, err := NewInterp(Options{})
	if err != nil {
		t.Fatal(err)
	}
	startup := time.Since(start)
	defer it.Close()
	if startup > 600*time.Millisecond {
		t.Errorf("session start took %v; the target is 150 ms", startup)
	}
	runCell(t, it, "x := 1")
	const n = 200
	start = time.Now()
	for range n {
		if _, err := it.Execute(context.Background(), "x + 1", discardOutput{}); err != nil {
			t.Fatal(err)
		}
	}
	per := time.Since(start) / n
	if per > 5*time.Millisecond {
		t.Errorf("trivial cell took %v; the target is well under 1 ms", per)
	}
	t.Logf("session start %v, trivial cell %v", startup, per)
}
