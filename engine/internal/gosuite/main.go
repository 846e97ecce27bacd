// Command gosuite probes the engine with the Go toolchain's own test
// programs: each program of $GOROOT/test marked "// run" (in the
// directories given, by default the top level, ken, interface, chan,
// typeparam and fixedbugs) is run with go run and with grundy run, and
// the programs whose output or exit status differ are listed, with the
// first line grundy wrote. A difference is a construct to look at: an
// engine defect (a category to fix), a refusal (a construct the engine
// cannot run, which says so), or a program about the runtime itself
// (finalizers, stack traces, unsafe) that a notebook never meets.
//
//	go run ./engine/internal/gosuite [-j 2] [-timeout 30s] [dir...]
//
// It builds grundy from this checkout first. Programs run with their
// directory as working directory; go run's outputs are cached under the
// user cache directory, by file content and Go version.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

func main() {
	jobs := flag.Int("j", 2, "programs run at once")
	timeout := flag.Duration("timeout", 30*time.Second, "time each run may take")
	flag.Parse()
	dirs := flag.Args()
	if len(dirs) == 0 {
		dirs = []string{".", "ken", "interface", "chan", "typeparam", "fixedbugs"}
	}
	root := filepath.Join(runtime.GOROOT(), "test")
	var files []string
	for _, d := range dirs {
		matches, _ := filepath.Glob(filepath.Join(root, d, "*.go"))
		for _, f := range matches {
			if src, err := os.ReadFile(f); err == nil && bytes.HasPrefix(src, []byte("// run\n")) {
				files = append(files, f)
			}
		}
	}
	if len(files) == 0 {
		fail("no // run programs under %s for %v", root, dirs)
	}
	tmp, err := os.MkdirTemp("", "gosuite")
	if err != nil {
		fail("%v", err)
	}
	defer os.RemoveAll(tmp)
	grundy := filepath.Join(tmp, "grundy")
	if out, err := exec.Command("go", "build", "-o", grundy, ".").CombinedOutput(); err != nil {
		fail("building grundy (run this from the repository's root): %v\n%s", err, out)
	}
	cache, _ := os.UserCacheDir()
	cache = filepath.Join(cache, "grundy", "gosuite")
	os.MkdirAll(cache, 0o755)

	type result struct{ name, first string }
	var (
		mu    sync.Mutex
		diffs []result
		same  int
		wg    sync.WaitGroup
		slots = make(chan struct{}, max(*jobs, 1))
	)
	for _, f := range files {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			want := cached(cache, f, func() string { return run(*timeout, f, "go", "run", f) })
			got := run(*timeout, f, grundy, "run", f)
			name, _ := filepath.Rel(root, f)
			mu.Lock()
			defer mu.Unlock()
			if got == want {
				same++
				return
			}
			first, _, _ := strings.Cut(strings.TrimSpace(got), "\n")
			diffs = append(diffs, result{name, first})
		}()
	}
	wg.Wait()
	sort.Slice(diffs, func(i, j int) bool { return diffs[i].name < diffs[j].name })
	for _, d := range diffs {
		fmt.Printf("%-40s %s\n", d.name, d.first)
	}
	fmt.Printf("%d programs: %d the same, %d different\n", len(files), same, len(diffs))
}

// run is what a command writes, both streams, then its exit status.
func run(timeout time.Duration, file, name string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = filepath.Dir(file)
	out, err := cmd.CombinedOutput()
	status := 0
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		status = -1 // timed out
	case errors.As(err, &exit):
		status = exit.ExitCode()
	case err != nil:
		status = -2
	}
	return fmt.Sprintf("%s\nexit status %d\n", out, status)
}

// cached is produce()'s result, kept by the file's content and Go's version.
func cached(dir, file string, produce func() string) string {
	src, _ := os.ReadFile(file)
	h := sha256.Sum256(append(src, runtime.Version()...))
	path := filepath.Join(dir, hex.EncodeToString(h[:16]))
	if b, err := os.ReadFile(path); err == nil {
		return string(b)
	}
	out := produce()
	if !strings.Contains(out, "exit status -1\n") {
		os.WriteFile(path, []byte(out), 0o644)
	}
	return out
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "gosuite: "+format+"\n", args...)
	os.Exit(1)
}
