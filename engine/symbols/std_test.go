package symbols

import (
	"os"
	"testing"

	"github.com/traefik/yaegi/stdlib"

	"grundy/engine/symbols/gen/extract"
)

// TestStdTableIsCurrent regenerates the standard library supplement: a
// go.mod that names a newer Go, or a newer yaegi, changes it.
func TestStdTableIsCurrent(t *testing.T) {
	root, err := extract.ModuleRoot()
	if err != nil {
		t.Skip(err)
	}
	want, err := extract.StdTable(root, func(key, name string) bool {
		_, ok := stdlib.Symbols[key][name]
		return ok && !stdAdded[key+"."+name]
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(extract.StdFileName)
	if err != nil || string(got) != string(want) {
		t.Errorf("%s is stale: run go generate ./engine/...", extract.StdFileName)
	}
}

// TestStdTableMerged: the supplement reached yaegi's table, new packages
// included.
func TestStdTableMerged(t *testing.T) {
	for key, name := range map[string]string{
		"strings/strings":        "Lines",
		"bytes/bytes":            "SplitSeq",
		"crypto/sha3/sha3":       "Sum256",
		"unicode/utf16/utf16":    "RuneLen",
		"encoding/binary/binary": "Append",
	} {
		if _, ok := stdlib.Symbols[key][name]; !ok {
			t.Errorf("%s has no %s", key, name)
		}
	}
}
