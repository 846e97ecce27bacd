package symbols

import (
	"os"
	"path/filepath"
	"testing"

	"grundy/engine/symbols/gen/extract"
)

// TestTablesAreCurrent regenerates every table in memory and compares it
// with the committed file: a library package whose exported API changed
// without `go generate ./engine/...` fails here.
func TestTablesAreCurrent(t *testing.T) {
	root, err := extract.ModuleRoot()
	if err != nil {
		t.Skip(err)
	}
	files, failed := extract.All(root)
	for name, err := range failed {
		t.Errorf("%s: cannot generate: %v", name, err)
	}
	for name, want := range files {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s is missing: run go generate ./engine/...", name)
			continue
		}
		if string(got) != string(want) {
			t.Errorf("%s is stale: run go generate ./engine/...", name)
		}
	}
	have, _ := filepath.Glob("zsym_*.go")
	for _, name := range have {
		if _, ok := files[name]; !ok && failed[name] == nil {
			t.Errorf("%s belongs to no package: run go generate ./engine/...", name)
		}
	}
}

// TestEveryPackageLoaded: each generated table registered its package.
func TestEveryPackageLoaded(t *testing.T) {
	for _, p := range extract.Packages {
		name := extract.FileName(p)
		if _, err := os.Stat(name); err != nil {
			continue
		}
		key := p + "/" + filepath.Base(p)
		if len(Symbols[key]) == 0 {
			t.Errorf("%s has a table but no symbols under %q", p, key)
		}
	}
}
