package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/importer"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"grundy/engine/prelude"
)

// goOracle builds and runs the programs that stand for differential cases
// (see diff_program_test.go), in one temporary module that requires this
// one, so library packages are the working tree's.
type goOracle struct {
	goBin   string
	root    string // this module's directory
	modDir  string // the temporary module
	version string // go env GOVERSION
	libHash string // of the library sources programs may import
	cache   string // directory of cached outputs, "" for none

	mu      sync.Mutex
	exports map[string]string // import path -> export data file
	conv    *diffConverter
}

// goRun is what a program printed.
type goRun struct {
	Stdout, Stderr string
	Exit           int
}

func newGoOracle(root, tmp string) (*goOracle, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("the differential tests need the Go toolchain: %v", err)
	}
	o := &goOracle{goBin: goBin, root: root, modDir: tmp, exports: map[string]string{}}
	if os.Getenv("GRUNDY_DIFF_NOCACHE") == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			o.cache = filepath.Join(dir, "grundy", "diff")
		}
	}
	out, err := o.goCmd(root, "env", "GOVERSION")
	if err != nil {
		return nil, err
	}
	o.version = strings.TrimSpace(out)
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	goLine := regexp.MustCompile(`(?m)^go \S+$`).Find(gomod)
	mod := fmt.Sprintf("module grundydiff\n\n%s\n\nrequire grundy v0.0.0\n\nreplace grundy => %s\n", goLine, root)
	if err := os.WriteFile(filepath.Join(tmp, "go.mod"), []byte(mod), 0o644); err != nil {
		return nil, err
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "go.sum"), sum, 0o644); err != nil {
		return nil, err
	}
	if o.libHash, err = hashTree(root, sum); err != nil {
		return nil, err
	}
	names, err := o.goCmd(tmp, "list", "-f", "{{.ImportPath}} {{.Name}}", "std")
	if err != nil {
		return nil, err
	}
	harness, err := os.ReadFile(filepath.Join(root, "engine", "testdata", "diff_harness.go"))
	if err != nil {
		return nil, err
	}
	o.conv = &diffConverter{autoNames: autoImportNames(names), harness: string(harness)}
	o.conv.importer = importer.ForCompiler(token.NewFileSet(), "gc", o.lookup)
	return o, nil
}

// autoImportNames are the package names a cell may use without an import,
// from the engine's preloaded packages and `go list std` lines "path name".
func autoImportNames(goList string) map[string]string {
	byName := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(goList), "\n") {
		path, name, _ := strings.Cut(l, " ")
		if strings.Contains(path, "internal") || strings.HasPrefix(path, "vendor/") {
			continue
		}
		byName[name] = append(byName[name], path)
	}
	m := prelude.PreferredPackages()
	for name, paths := range byName {
		if len(paths) == 1 {
			m[name] = paths[0]
		}
	}
	for _, p := range prelude.Imports {
		m[p.Name] = p.Path
	}
	return m
}

// hashTree hashes the sources of this module a program can import (not
// tests), with go.sum.
func hashTree(root string, sum []byte) (string, error) {
	h := sha256.New()
	h.Write(sum)
	for _, dir := range []string{"stdlib", "plots", "engine/display"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%s %d\n", p[len(root):], len(b))
			h.Write(b)
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func (o *goOracle) goCmd(dir string, args ...string) (string, error) {
	cmd := exec.Command(o.goBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOPROXY=off", "GOFLAGS=-mod=mod -buildvcs=false")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

// prefetch finds the export data of many packages in one go list.
func (o *goOracle) prefetch(paths []string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	var need []string
	for _, p := range paths {
		if _, ok := o.exports[p]; !ok && !slices.Contains(need, p) {
			need = append(need, p)
		}
	}
	if len(need) == 0 {
		return nil
	}
	out, err := o.goCmd(o.modDir, append([]string{"list", "-e", "-export", "-f", "{{.ImportPath}}\t{{.Export}}"}, need...)...)
	if err != nil {
		return err
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if path, file, ok := strings.Cut(l, "\t"); ok && file != "" {
			o.exports[path] = file
		}
	}
	return nil
}

func (o *goOracle) lookup(path string) (io.ReadCloser, error) {
	if err := o.prefetch([]string{path}); err != nil {
		return nil, err
	}
	o.mu.Lock()
	file, ok := o.exports[path]
	o.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no export data for %q", path)
	}
	return os.Open(file)
}

// key identifies a program's output: its text, the toolchain and, when it
// imports this module, the library's sources.
func (o *goOracle) key(p *diffProgram) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%s/%s\n%s\n%s\n", cachedRunFormat, o.version, runtime.GOOS, runtime.GOARCH, p.main, o.conv.harness)
	for _, imp := range p.imports {
		if strings.HasPrefix(imp, "grundy/") {
			fmt.Fprintf(h, "lib %s\n", o.libHash)
			break
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// cachedRun is a goRun as the cache stores it: output as bytes, which
// JSON keeps as they are (a string field would have invalid UTF-8, which
// a case may print, turned into U+FFFD, and the case would differ from
// the second run on).
type cachedRun struct {
	Stdout, Stderr []byte
	Exit           int
}

// cachedRunFormat is part of every cache key, so that entries of an
// earlier format are not read as this one.
const cachedRunFormat = "cachedRun bytes"

func (o *goOracle) cached(key string) (goRun, bool) {
	if o.cache == "" {
		return goRun{}, false
	}
	b, err := os.ReadFile(filepath.Join(o.cache, key+".json"))
	if err != nil {
		return goRun{}, false
	}
	var c cachedRun
	if json.Unmarshal(b, &c) != nil {
		return goRun{}, false
	}
	return goRun{Stdout: string(c.Stdout), Stderr: string(c.Stderr), Exit: c.Exit}, true
}

func (o *goOracle) store(key string, r goRun) {
	if o.cache == "" {
		return
	}
	b, _ := json.Marshal(cachedRun{Stdout: []byte(r.Stdout), Stderr: []byte(r.Stderr), Exit: r.Exit})
	if os.MkdirAll(o.cache, 0o755) == nil {
		tmp := filepath.Join(o.cache, key+".tmp"+fmt.Sprint(os.Getpid()))
		if os.WriteFile(tmp, b, 0o644) == nil {
			os.Rename(tmp, filepath.Join(o.cache, key+".json"))
		}
	}
}

// runAll gives each program's output, or why there is none: programs not
// in the cache are built and run in parallel, a batch at a time.
func (o *goOracle) runAll(progs []*diffProgram) ([]goRun, []error) {
	runs := make([]goRun, len(progs))
	errs := make([]error, len(progs))
	var todo []int
	for i, p := range progs {
		if p == nil {
			continue
		}
		if r, ok := o.cached(o.key(p)); ok {
			runs[i] = r
			continue
		}
		dir := filepath.Join(o.modDir, fmt.Sprintf("c%d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			errs[i] = err
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(p.main), 0o644); err != nil {
			errs[i] = err
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, "harness.go"), []byte(o.conv.harness), 0o644); err != nil {
			errs[i] = err
			continue
		}
		todo = append(todo, i)
	}
	// In batches, each built with one go build and run, so that what a
	// batch ran is cached before the next is built: without the cache
	// (a fresh machine) the 11,000 programs take most of an hour to link
	// on 2 cores, and a run stopped part way keeps what it did.
	for len(todo) > 0 {
		n := min(len(todo), buildBatch)
		o.buildAndRun(progs, todo[:n], runs, errs)
		todo = todo[n:]
	}
	return runs, errs
}

// buildBatch is how many programs one go build links.
const buildBatch = 400

// buildAndRun builds the programs todo with one go build and runs them in
// parallel, storing each output in the cache.
func (o *goOracle) buildAndRun(progs []*diffProgram, todo []int, runs []goRun, errs []error) {
	args := []string{"build", "-ldflags=-s -w", "-o", filepath.Join(o.modDir, "bin") + "/"}
	for _, i := range todo {
		args = append(args, fmt.Sprintf("./c%d", i))
	}
	_, err := o.goCmd(o.modDir, args...)
	buildLog := map[int]string{}
	if err != nil {
		// "# grundydiff/c12" heads the errors of each program.
		for _, sec := range strings.Split(err.Error(), "\n# ")[1:] {
			var i int
			if _, e := fmt.Sscanf(sec, "grundydiff/c%d", &i); e == nil {
				buildLog[i] = sec
			}
		}
		if len(buildLog) == 0 {
			for _, i := range todo {
				errs[i] = err
			}
			return
		}
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				if log, ok := buildLog[i]; ok {
					errs[i] = errors.New("go build: " + log)
					continue
				}
				runs[i], errs[i] = o.run(filepath.Join(o.modDir, "bin", fmt.Sprintf("c%d", i)))
				if errs[i] == nil {
					o.store(o.key(progs[i]), runs[i])
				}
			}
		}()
	}
	for _, i := range todo {
		work <- i
	}
	close(work)
	wg.Wait()
}

func (o *goOracle) run(bin string) (goRun, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Dir = o.modDir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := goRun{Stdout: stdout.String(), Stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return r, fmt.Errorf("the program did not finish in 30 s")
	case errors.As(err, &ee):
		r.Exit = ee.ExitCode()
	case err != nil:
		return r, err
	}
	return r, nil
}
