package main

import (
	"os"
	"regexp"
	"testing"

	"grundy/engine/remote"
	"grundy/kernel/kerneltest"
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
	kerneltest.Cleanup()
	os.Exit(code)
}

// grundyBinary is grundy built once per test run, for tests that run the
// real binary as a user would.
func grundyBinary(t *testing.T) string { return kerneltest.Binary(t) }

// goTrace matches what a Go stack trace prints, which users must never see.
var goTrace = regexp.MustCompile(`goroutine \d+ \[|\.go:\d+ \+0x`)
