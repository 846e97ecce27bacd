// Package extract generates the yaegi symbol tables for grundy's library
// packages. The generator command and the staleness test share it.
package extract

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	yextract "github.com/traefik/yaegi/extract"
)

// Packages are the import paths preloaded into every session, in the order
// their tables are generated.
var Packages = []string{
	"grundy/stdlib/games",
	"grundy/stdlib/solve",
	"grundy/stdlib/entail",
	"grundy/stdlib/known",
	"grundy/stdlib/progress",
	"grundy/plots",
	"grundy/engine/display",
}

// ModuleRoot is the directory holding grundy's go.mod.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside the grundy module")
	}
	return filepath.Dir(mod), nil
}

// FileName is the table file for an import path.
func FileName(path string) string {
	return "zsym_" + strings.NewReplacer("/", "_", ".", "_").Replace(path) + ".go"
}

// All generates the table of every package that exists, keyed by file
// name. A package that fails to type-check is reported in errs and has no
// entry (the caller keeps its previous table).
func All(root string) (files map[string][]byte, failed map[string]error) {
	files = map[string][]byte{}
	failed = map[string]error{}
	for _, p := range Packages {
		dir := filepath.Join(root, strings.TrimPrefix(p, "grundy/"))
		if !hasGoFiles(dir) {
			continue
		}
		b, err := One(root, p)
		if err != nil {
			failed[FileName(p)] = fmt.Errorf("%s: %v", p, err)
			continue
		}
		files[FileName(p)] = b
	}
	return files, failed
}

// One generates the table of one package.
func One(root, path string) ([]byte, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if err := os.Chdir(root); err != nil {
		return nil, err
	}
	defer os.Chdir(wd)
	e := yextract.Extractor{Dest: "symbols"}
	var buf bytes.Buffer
	if _, err := e.Extract(path, path, &buf); err != nil {
		return nil, err
	}
	// The extractor takes a dotless module path for the standard library
	// and adds a Go version build tag; grundy's tables need none.
	src := buf.String()
	var lines []string
	for _, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(l, "//go:build") || strings.HasPrefix(l, "// +build") {
			continue
		}
		lines = append(lines, l)
	}
	return format.Source([]byte(strings.Join(lines, "\n")))
}

func hasGoFiles(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		n := e.Name()
		if strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			return true
		}
	}
	return false
}
