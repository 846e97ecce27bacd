// Command gen writes the yaegi symbol tables of grundy's own packages into
// engine/symbols, one file per package, so cells can call the natively
// compiled library, and the supplement of the standard library's tables
// (zstd_newer.go: what Go added after yaegi's tables were made). Run it with `go generate ./engine/...`. Packages that do
// not exist yet (or have no Go files) are skipped, and tables of packages
// that disappeared are removed.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/traefik/yaegi/stdlib"

	"grundy/engine/symbols/gen/extract"
)

func main() {
	dir := flag.String("dir", ".", "directory to write the tables into")
	flag.Parse()
	root, err := extract.ModuleRoot()
	if err != nil {
		log.Fatal(err)
	}
	files, failed := extract.All(root)
	for name, err := range failed {
		log.Printf("kept the old %s: %v", name, err)
	}
	std, err := extract.StdTable(root, func(key, name string) bool {
		_, ok := stdlib.Symbols[key][name]
		return ok
	})
	if err != nil {
		log.Fatal(err)
	}
	files[extract.StdFileName] = std
	old, _ := filepath.Glob(filepath.Join(*dir, "zsym_*.go"))
	keep := map[string]bool{}
	for name, content := range files {
		path := filepath.Join(*dir, name)
		keep[path] = true
		if prev, err := os.ReadFile(path); err == nil && string(prev) == string(content) {
			continue
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Println("wrote", path)
	}
	for _, p := range old {
		if !keep[p] && failed[filepath.Base(p)] == nil && strings.HasPrefix(filepath.Base(p), "zsym_") {
			os.Remove(p)
			fmt.Println("removed", p)
		}
	}
}
