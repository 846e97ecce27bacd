package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"grundy/engine/internal/docextract"
)

// TestGeneratedDocsCurrent fails when a library doc comment or signature
// changed since engine/docs_generated.go was last generated.
func TestGeneratedDocsCurrent(t *testing.T) {
	want, err := generate("../../..")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../tooling/docs_generated.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("engine/tooling/docs_generated.go is stale: run go generate ./engine/... and commit it\n%s", firstDiff(string(got), string(want)))
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			// Show both lines from a little before the first differing byte.
			at := 0
			for at < len(gl) && at < len(wl) && gl[at] == wl[at] {
				at++
			}
			from := max(0, at-60)
			return "first difference at line " + strconv.Itoa(i+1) + ", column " + strconv.Itoa(at+1) +
				":\n committed: ..." + clip(gl[from:]) + "\n generated: ..." + clip(wl[from:])
		}
	}
	return ""
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// TestExtract checks the extraction on a small package written here, so it
// does not depend on what the library holds today.
func TestExtract(t *testing.T) {
	dir := t.TempDir()
	src := `// Package demo is for tests.
package demo

// Kind says what a thing is.
type Kind int

const (
	// Small things.
	Small Kind = iota
	Large // big ones
)

// Game is a game.
type Game struct {
	Name string // its name
	heaps int
}

// New makes a game of n heaps.
func New(n int) *Game { return &Game{heaps: n} }

// Heaps returns the number of heaps.
func (g *Game) Heaps() int { return g.heaps }

func (g *Game) hidden() {}

// Mover moves.
type Mover interface {
	// Move plays one move from p.
	Move(p []int) []int
	hidden()
}

// Limit is how big a table may get.
var Limit = 1 << 30
`
	if err := os.WriteFile(filepath.Join(dir, "demo.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	all := map[string]docextract.Entry{}
	if err := extract(dir, "grundy/demo", all); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key, kind, sigHas, docHas string
	}{
		{"grundy/demo", "package", `package demo // import "grundy/demo"`, "for tests"},
		{"grundy/demo.Kind", "type", "type Kind int", "what a thing is"},
		{"grundy/demo.Small", "const", "Small Kind = iota", "Small things."},
		{"grundy/demo.Large", "const", "Large", "big ones"},
		{"grundy/demo.Game", "type", "Name string", "Game is a game."},
		{"grundy/demo.New", "func", "func New(n int) *Game", "makes a game of n heaps"},
		{"grundy/demo.Game.Heaps", "method", "func (g *Game) Heaps() int", "number of heaps"},
		{"grundy/demo.Limit", "var", "var Limit = 1 << 30", "how big"},
		{"grundy/demo.Mover.Move", "method", "func (Mover) Move(p []int) []int", "plays one move"},
	}
	for _, tc := range tests {
		e, ok := all[tc.key]
		if !ok {
			t.Errorf("%s: missing", tc.key)
			continue
		}
		if e.Kind != tc.kind || !strings.Contains(e.Sig, tc.sigHas) || !strings.Contains(e.Doc, tc.docHas) {
			t.Errorf("%s = %+v; want kind %q, sig containing %q, doc containing %q", tc.key, e, tc.kind, tc.sigHas, tc.docHas)
		}
	}
	for _, hidden := range []string{"grundy/demo.Game.hidden", "grundy/demo.heaps", "grundy/demo.Mover.hidden"} {
		if _, ok := all[hidden]; ok {
			t.Errorf("%s: unexported, should be left out", hidden)
		}
	}
	if strings.Contains(all["grundy/demo.Game"].Sig, "heaps") {
		t.Errorf("unexported field shown: %s", all["grundy/demo.Game"].Sig)
	}
	if strings.Contains(all["grundy/demo.New"].Sig, "return") {
		t.Errorf("function body in signature: %s", all["grundy/demo.New"].Sig)
	}
}
