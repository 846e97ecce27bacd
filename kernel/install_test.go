package kernel

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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
