package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunScript(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, src, wantOut, wantErr string
		images                      int
	}{
		{name: "cells.go", src: "x := 2\nfmt.Println(\"x is\", x)\nx * 21\n", wantOut: "x is 2\n42\n"},
		{name: "prog.go", src: "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"from main\")\n}\n", wantOut: "from main\n"},
		{name: "prog_lib.go", src: "package main\n\nimport (\n\t\"fmt\"\n\t\"grundy/stdlib/games\"\n)\n\nfunc name() string { return games.CN(6, 2).Name() }\n\nfunc main() {\n\tfmt.Println(name())\n}\n", wantOut: "CN(6,2)\n"},
		{name: "prog_err.go", src: "package main\n\nfunc main() {\n\tx := nope\n}\n", wantErr: "prog_err.go:4:7: undefined: nope"},
		{name: "img.go", src: "img := image.NewGray(image.Rect(0, 0, 3, 3))\ndisplay.Show(img)\n", wantOut: "[image written to ", images: 1},
		{name: "bad.go", src: "x := 1\ny := x + nope\n", wantErr: "bad.go:2:10: undefined: nope"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out-"+tc.name)
			os.MkdirAll(out, 0o755)
			var stdout, stderr bytes.Buffer
			err := RunScript(context.Background(), path, ScriptOptions{OutDir: out, Stdout: &stdout, Stderr: &stderr})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// A script's text must appear exactly once: main runs once.
			if tc.images == 0 && stdout.String() != tc.wantOut {
				t.Errorf("stdout %q, want %q", stdout.String(), tc.wantOut)
			}
			if !strings.HasPrefix(stdout.String(), tc.wantOut) {
				t.Errorf("stdout %q, want prefix %q", stdout.String(), tc.wantOut)
			}
			pngs, _ := filepath.Glob(filepath.Join(out, "*.png"))
			if len(pngs) != tc.images {
				t.Errorf("%d images written, want %d", len(pngs), tc.images)
			}
		})
	}
}
