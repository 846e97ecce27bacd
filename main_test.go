package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"grundy/engine/remote"
)

// The test binary stands in for grundy when a command under test starts
// an engine process (it re-executes itself with the hidden subcommand).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == remote.ChildCommand {
		if err := remote.Main(os.Args[2:]); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	if built.path != "" {
		os.RemoveAll(filepath.Dir(built.path))
	}
	os.Exit(code)
}

var built struct {
	once sync.Once
	path string
	err  error
}

// grundyBinary builds grundy once per test run, for tests that run the
// real binary as a user would.
func grundyBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "grundy-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.path = filepath.Join(dir, "grundy")
		if out, err := exec.Command("go", "build", "-o", built.path, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// goTrace matches what a Go stack trace prints, which users must never see.
var goTrace = regexp.MustCompile(`goroutine \d+ \[|\.go:\d+ \+0x`)
