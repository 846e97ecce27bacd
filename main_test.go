package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"grundy/engine/remote"
	"grundy/kernel/kerneltest"
)

// main's tests run the real binary, through every command.
func TestMain(m *testing.M) { kerneltest.Main(m) }

// Bad input gets a message, never a Go stack trace, from every command.
func TestBadInputNeverPrintsAStackTrace(t *testing.T) {
	dir := t.TempDir()
	badNB := filepath.Join(dir, "bad.ipynb")
	os.WriteFile(badNB, []byte("{not json"), 0o644)
	badConn := filepath.Join(dir, "conn.json")
	os.WriteFile(badConn, []byte(`{"shell_port": -1}`), 0o644)
	badGo := filepath.Join(dir, "bad.go")
	os.WriteFile(badGo, []byte("x := \n"), 0o644)
	for _, args := range [][]string{
		{"solve", "CN(6,2", "--max", "3"},
		{"solve", "CN(4,2)", "--max", "-3"},
		{"solve", "CN(4,2)", "--max", "x"},
		{"solve", "CN(4,2)", "--max", "99999"},
		{"solve", "CN(4,2)", "--max", "2", "--list"},
		{"solve", "CN(4,2)", "--max", "2", "--list", "-1"},
		{"solve", "Nim(3)", "--max", "2", "--outcomes", "--list", "7"},
		{"run"},
		{"run", filepath.Join(dir, "missing.ipynb")},
		{"run", badNB},
		{"run", badGo},
		{"kernel", filepath.Join(dir, "missing.json")},
		{"kernel", badConn},
		{"install", "--prefix", "/dev/null/x"},
		{"check", "--only", "no/such/claim"},
		{remote.ChildCommand},
		{"no-such-command"},
	} {
		stdout, stderr, err := kerneltest.Run(t, nil, args...)
		if err == nil {
			t.Errorf("grundy %v succeeded: %s", args, stdout)
		} else if strings.TrimSpace(stderr) == "" {
			t.Errorf("grundy %v failed without a word", args)
		}
	}
	stdout, _, err := kerneltest.Run(t, nil, "solve", "CN(4,2)", "--max", "2", "--list", "99")
	if err != nil || !strings.Contains(stdout, "no positions with value 99") {
		t.Errorf("--list of an absent value: %v %q", err, stdout)
	}
}

// Every command's -h prints its usage and succeeds, as go's commands do;
// install, run and kernel failed with "flag: help requested".
func TestHelpFlagSucceeds(t *testing.T) {
	for _, c := range []string{"check", "install", "kernel", "run", "solve"} {
		for _, h := range []string{"-h", "--help"} {
			stdout, stderr, err := kerneltest.Run(t, nil, c, h)
			if err != nil || strings.Contains(stderr, "help requested") || !strings.Contains(stdout+stderr, "usage: grundy "+c) {
				t.Errorf("grundy %s %s: %v\n%s%s", c, h, err, stdout, stderr)
			}
		}
	}
}
