package remote

import (
	"context"
	"testing"

	"grundy/engine"
)

// BenchmarkHop: a trivial cell through the engine process, to set against
// the engine's own BenchmarkTrivialCell (the difference is the hop).
func BenchmarkHop(b *testing.B) {
	exe := testOptions(&testing.T{})
	p := Start(exe)
	defer p.Close()
	ctx := context.Background()
	if _, err := p.Execute(ctx, "x := 1", discard{}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := p.Execute(ctx, "x + 1", discard{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInProcess is the same cell without the hop.
func BenchmarkInProcess(b *testing.B) {
	it, err := engine.NewInterp(engine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer it.Close()
	ctx := context.Background()
	if _, err := it.Execute(ctx, "x := 1", discard{}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := it.Execute(ctx, "x + 1", discard{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHopEmpty(b *testing.B) {
	p := Start(testOptions(&testing.T{}))
	defer p.Close()
	ctx := context.Background()
	p.Execute(ctx, "", discard{})
	for b.Loop() {
		p.Execute(ctx, "", discard{})
	}
}
