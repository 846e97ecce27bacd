package tooling

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"grundy/engine/internal/docextract"
)

// Docs for Go's standard library are read on demand from GOROOT's source,
// which any machine with a Go toolchain has; generating them would tie the
// committed file to one Go release. Without GOROOT, inspect falls back to
// the signature reflect knows.

var stdDocs struct {
	sync.Mutex
	pkgs map[string]map[string]docEntry // import path -> entries (nil: unavailable)
}

// goroot returns the Go source tree, or "" when there is none.
// StdlibDocs reports whether inspection can show the standard library's
// doc comments here (they are read from its source, when present).
func StdlibDocs() bool { return goroot() != "" }

func goroot() string {
	for _, dir := range []string{os.Getenv("GOROOT"), runtime.GOROOT()} { //nolint:staticcheck // the build's GOROOT is the best guess left
		if dir == "" {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, "src", "fmt")); err == nil && st.IsDir() {
			return dir
		}
	}
	return ""
}

// stdlibDoc returns the doc entry for key ("path", "path.Name" or
// "path.Type.Method") of a standard library package.
func stdlibDoc(importPath, key string) (docEntry, bool) {
	stdDocs.Lock()
	defer stdDocs.Unlock()
	if stdDocs.pkgs == nil {
		stdDocs.pkgs = map[string]map[string]docEntry{}
	}
	entries, seen := stdDocs.pkgs[importPath]
	if !seen {
		entries = loadStdlibDocs(importPath)
		stdDocs.pkgs[importPath] = entries
	}
	e, ok := entries[key]
	return e, ok
}

func loadStdlibDocs(importPath string) map[string]docEntry {
	root := goroot()
	if root == "" || strings.Contains(importPath, "..") {
		return nil
	}
	dir := filepath.Join(root, "src", filepath.FromSlash(importPath))
	// The files this platform builds, so per-OS variants do not collide.
	bp, err := build.Default.ImportDir(dir, 0)
	if err != nil {
		return nil
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			return nil
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil
	}
	all := map[string]docEntry{}
	if err := docextract.Package(fset, files, importPath, all); err != nil {
		return nil
	}
	return all
}
