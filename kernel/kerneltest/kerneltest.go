// Package kerneltest is what the tests of the real grundy binary share:
// building it once per test run, finding Debian's Jupyter (used with
// /usr/bin/python3), and installing a fresh build into a private Jupyter
// path, so that tests drive the binary and the kernel exactly as a user
// and a user's Jupyter would.
package kerneltest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Python is the interpreter Debian's Jupyter packages install into.
const Python = "/usr/bin/python3"

// Required reports whether GRUNDY_REQUIRE_JUPYTER=1 (set by .ci/run) makes
// a missing Jupyter a failure rather than a skip.
func Required() bool { return os.Getenv("GRUNDY_REQUIRE_JUPYTER") == "1" }

// Require skips the test, or fails it under GRUNDY_REQUIRE_JUPYTER=1,
// unless Python can import every module. debs names the Debian packages
// that provide them, for the message.
func Require(t testing.TB, debs string, modules ...string) {
	t.Helper()
	if err := exec.Command(Python, "-c", "import "+strings.Join(modules, ", ")).Run(); err != nil {
		msg := fmt.Sprintf("%s cannot import %s (apt-get install %s): %v", Python, strings.Join(modules, ", "), debs, err)
		if Required() {
			t.Fatal(msg + "; GRUNDY_REQUIRE_JUPYTER=1 requires it")
		}
		t.Skip(msg)
	}
}

var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// Binary builds grundy once per test process and returns its path. A
// package whose tests call it removes the build with Main.
func Binary(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "grundy-bin-")
		if built.err == nil {
			built.path, built.err = build(built.dir)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// Run runs the grundy binary with args, env added to the environment,
// and fails the test if it prints a Go stack trace, which a user must
// never see.
func Run(t testing.TB, env []string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := exec.Command(Binary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	if goTrace.MatchString(o.String() + e.String()) {
		t.Errorf("grundy %v printed a Go stack trace:\n%s%s", args, o.String(), e.String())
	}
	return o.String(), e.String(), err
}

// goTrace matches what a Go stack trace prints.
var goTrace = regexp.MustCompile(`goroutine \d+ \[|\.go:\d+ \+0x`)

// Main runs a package's tests, then removes what Binary built, and any
// dirs given; call it from TestMain.
func Main(m *testing.M, dirs ...*string) {
	code := m.Run()
	for _, d := range append(dirs, &built.dir) {
		if *d != "" {
			os.RemoveAll(*d)
		}
	}
	os.Exit(code)
}

// build compiles the module's grundy command into dir. The go command
// finds the module from the test's directory, which is inside it.
func build(dir string) (string, error) {
	bin := filepath.Join(dir, "grundy")
	if out, err := exec.Command("go", "build", "-o", bin, "grundy").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
}

// Install builds grundy, installs its kernelspec with `grundy install
// --prefix` under dir, and returns the installed binary (the copy beside
// kernel.json, which is what Jupyter runs) and an environment whose
// Jupyter paths all point inside dir.
func Install(dir string) (bin string, env []string, err error) {
	build, err := build(filepath.Join(dir, "build"))
	if err != nil {
		return "", nil, err
	}
	prefix := filepath.Join(dir, "prefix")
	data := filepath.Join(prefix, "share", "jupyter")
	env = append(os.Environ(),
		"JUPYTER_PATH="+data,
		"JUPYTER_DATA_DIR="+filepath.Join(dir, "userdata"),
		"JUPYTER_RUNTIME_DIR="+filepath.Join(dir, "runtime"),
		"JUPYTER_CONFIG_DIR="+filepath.Join(dir, "config"),
		"IPYTHONDIR="+filepath.Join(dir, "ipython"),
	)
	inst := exec.Command(build, "install", "--prefix", prefix)
	inst.Env = env
	if out, err := inst.CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("grundy install --prefix: %v\n%s", err, out)
	}
	// The build can go, as `go run . install` deletes its own: the kernel
	// must run from the copy beside kernel.json.
	if err := os.RemoveAll(filepath.Dir(build)); err != nil {
		return "", nil, err
	}
	return filepath.Join(data, "kernels", "grundy", "grundy"), env, nil
}
