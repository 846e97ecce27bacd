package kernel

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"grundy/kernel/kerneltest"
)

func TestInstall(t *testing.T) {
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "fake-grundy")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("JUPYTER_DATA_DIR", filepath.Join(tmp, "data"))
	t.Setenv("JUPYTER_PATH", "")
	cases := []struct {
		name    string
		opt     InstallOptions
		wantDir string
		onPath  bool
	}{
		{"user (JUPYTER_DATA_DIR)", InstallOptions{Binary: bin}, filepath.Join(tmp, "data", "kernels", "grundy"), true},
		{"prefix", InstallOptions{Binary: bin, Prefix: filepath.Join(tmp, "pfx")}, filepath.Join(tmp, "pfx", "share", "jupyter", "kernels", "grundy"), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir, err := Install(tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if dir != tc.wantDir {
				t.Errorf("installed in %s, want %s", dir, tc.wantDir)
			}
			b, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
			if err != nil {
				t.Fatal(err)
			}
			var spec Kernelspec
			if err := json.Unmarshal(b, &spec); err != nil {
				t.Fatal(err)
			}
			if spec.Argv[0] != filepath.Join(dir, "grundy") || spec.InterruptMode != "message" || spec.DisplayName != "Go (grundy)" || spec.Language != "go" {
				t.Errorf("spec = %+v", spec)
			}
			if fi, err := os.Stat(spec.Argv[0]); err != nil || fi.Mode()&0o111 == 0 {
				t.Errorf("binary not installed executable: %v", err)
			}
			for _, size := range []int{32, 64} {
				f, err := os.ReadFile(filepath.Join(dir, "logo-"+itoa(size)+"x"+itoa(size)+".png"))
				if err != nil {
					t.Fatal(err)
				}
				img, err := png.Decode(bytes.NewReader(f))
				if err != nil || img.Bounds().Dx() != size || img.Bounds().Dy() != size {
					t.Errorf("logo %d: %v %v", size, err, img.Bounds())
				}
			}
			if got := OnJupyterPath(dir); got != tc.onPath {
				t.Errorf("OnJupyterPath = %v, want %v", got, tc.onPath)
			}
			msg := InstallMessage(dir)
			if !strings.Contains(msg, "jupyter console --kernel grundy") || strings.Contains(msg, "JUPYTER_PATH=") == tc.onPath {
				t.Errorf("message:\n%s", msg)
			}
			// Reinstalling over an existing install works.
			if _, err := Install(tc.opt); err != nil {
				t.Errorf("reinstall: %v", err)
			}
		})
	}
	t.Setenv("JUPYTER_PATH", filepath.Join(tmp, "pfx", "share", "jupyter"))
	if !OnJupyterPath(cases[1].wantDir) {
		t.Error("a prefix on JUPYTER_PATH is not recognised")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// grundy install tightens a kernel directory of ours that others can
// write to, and refuses one of another user's.
func TestInstallPermissions(t *testing.T) {
	prefix := filepath.Join(t.TempDir(), "pfx")
	kdir := filepath.Join(prefix, "share", "jupyter", "kernels", "grundy")
	if err := os.MkdirAll(kdir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{kdir, filepath.Dir(kdir)} {
		os.Chmod(d, 0o777)
	}
	os.WriteFile(filepath.Join(kdir, "kernel.json"), []byte("{}"), 0o666)
	stdout, stderr, err := kerneltest.Run(t, nil, "install", "--prefix", prefix, "--no-replay", "--memory-limit", "2GiB")
	if err != nil {
		t.Fatalf("install: %v\n%s", err, stderr)
	}
	for _, d := range []string{kdir, filepath.Dir(kdir)} {
		if fi, _ := os.Stat(d); fi.Mode().Perm() != 0o755 || !strings.Contains(stdout, "Tightened "+d) {
			t.Errorf("%s: mode %v; output %q", d, fi.Mode().Perm(), stdout)
		}
	}
	if fi, _ := os.Stat(filepath.Join(kdir, "kernel.json")); fi.Mode().Perm() != 0o644 {
		t.Errorf("kernel.json mode %v", fi.Mode().Perm())
	}
	spec, _ := os.ReadFile(filepath.Join(kdir, "kernel.json"))
	if !strings.Contains(string(spec), `"GRUNDY_REPLAY": "off"`) || !strings.Contains(string(spec), `"GRUNDY_MEMORY_LIMIT": "2GiB"`) {
		t.Errorf("kernel.json: %s", spec)
	}
	if os.Geteuid() != 0 {
		t.Skip("giving a directory to another user needs root")
	}
	os.Chmod(kdir, 0o777)
	if err := os.Chown(kdir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	_, stderr, err = kerneltest.Run(t, nil, "install", "--prefix", prefix)
	if err == nil || !strings.Contains(stderr, "belongs to another user") {
		t.Errorf("a directory of another user's that anyone can write: %v %q", err, stderr)
	}
}

// TestInstallMessageNotebookStarts: the Notebook command that grundy
// install prints starts the Notebook as whoever runs it; as root, Debian's
// Notebook refuses to start without --allow-root.
func TestInstallMessageNotebookStarts(t *testing.T) {
	kerneltest.Require(t, "jupyter-notebook", "notebook")
	args := NotebookCommand()
	if !strings.Contains(InstallMessage(t.TempDir()), strings.Join(args, " ")) {
		t.Fatalf("the message does not print %q", args)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// jupyter, as the user types it, is the launcher in /usr/bin.
	cmd := exec.CommandContext(ctx, args[0], append(args[1:], "--no-browser", "--port=0", "--notebook-dir="+dir, "--NotebookApp.token=")...)
	cmd.Env = append(os.Environ(), "JUPYTER_RUNTIME_DIR="+dir, "JUPYTER_CONFIG_DIR="+dir)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skipf("%v: %v", args, err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	var log strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), "is running at") {
			return
		}
	}
	t.Errorf("%s did not start:\n%s", strings.Join(args, " "), log.String())
}

// A memory limit without its unit (--memory-limit 8, meant as 8GiB) is
// refused, saying what to write, rather than installed as a limit of 8
// bytes under which every solve fails.
func TestInstallRefusesTinyMemoryLimit(t *testing.T) {
	prefix := t.TempDir()
	for limit, want := range map[string]string{
		"8":     "--memory-limit 8: 8 bytes is too little for a session (at least 64 MiB); give the unit: 8GiB or 8MiB",
		"32MiB": "--memory-limit 32MiB: 32 MiB is too little for a session (at least 64 MiB)",
	} {
		_, stderr, err := kerneltest.Run(t, nil, "install", "--prefix", prefix, "--memory-limit", limit)
		if err == nil || !strings.Contains(stderr, want) {
			t.Errorf("--memory-limit %s: %v %q, want %q", limit, err, stderr, want)
		}
	}
	if _, err := os.Stat(filepath.Join(prefix, "share")); err == nil {
		t.Error("a refused install wrote a kernelspec")
	}
}
