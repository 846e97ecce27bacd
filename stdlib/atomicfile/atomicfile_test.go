package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// The test binary doubles as a process that is killed in the middle of a
// Write.
func TestMain(m *testing.M) {
	if path := os.Getenv("ATOMICFILE_SLOW_WRITE"); path != "" {
		Write(path, 0o644, func(w io.Writer) error {
			for {
				w.Write(bytes.Repeat([]byte("new "), 1<<18))
				time.Sleep(10 * time.Millisecond)
			}
		})
		return
	}
	os.Exit(m.Run())
}

func TestKilledMidWriteLeavesTheOldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "table")
	if err := WriteFile(path, []byte("old and whole"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_SLOW_WRITE="+path)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Kill()
	cmd.Wait()
	if b, err := os.ReadFile(path); err != nil || string(b) != "old and whole" {
		t.Errorf("after a crash mid-write: %q, %v", b, err)
	}
}

func TestFailedWriteLeavesTheOldFileAndNoTemporary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nb.ipynb")
	if err := WriteFile(path, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	err := Write(path, 0o644, func(w io.Writer) error {
		w.Write([]byte("half"))
		return errors.New("disk full")
	})
	if err == nil {
		t.Fatal("the failure was not reported")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("content %q", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	if err := CheckWritable(filepath.Join(dir, "new.ipynb")); err != nil {
		t.Errorf("a new file in a writable directory: %v", err)
	}
	if err := CheckWritable(filepath.Join(dir, "missing", "x.ipynb")); err == nil {
		t.Error("a file in a missing directory passes")
	}
	if err := CheckWritable(dir); err == nil {
		t.Error("a directory passes")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}
