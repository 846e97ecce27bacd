package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"grundy/engine"
	"grundy/kernel/kerneltest"
)

// TestRunScriptDeadlock: a script whose goroutines all block for good ends
// as the same program under go run does: what it printed, Go's fatal error
// as the first line on stderr, exit status 2; whether the interpreter can
// stop its goroutines (channels) or not (a WaitGroup).
func TestRunScriptDeadlock(t *testing.T) {
	dir := t.TempDir()
	grundy := kerneltest.Binary(t)
	for name, body := range map[string]string{
		"channels":  "\tch := make(chan int)\n\tgo func() { ch <- 1 }()\n\tfor v := range ch {\n\t\tfmt.Println(v)\n\t}",
		"waitgroup": "\tvar wg sync.WaitGroup\n\twg.Add(2)\n\tgo func() { defer wg.Done(); fmt.Println(1) }()\n\twg.Wait()",
	} {
		script := filepath.Join(dir, name+".go")
		src := "package main\n\nimport (\n\t\"fmt\"\n\t\"sync\"\n)\n\nvar _ sync.Mutex\n\nfunc main() {\n\tfmt.Println(\"start\")\n" + body + "\n}\n"
		if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		native := filepath.Join(dir, name)
		if out, err := exec.Command("go", "build", "-o", native, script).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", script, err, out)
		}
		wantOut, wantErr, wantCode := runCommand(t, native)
		gotOut, gotErr, gotCode := runCommand(t, grundy, "run", script)
		first := func(s string) string { return strings.SplitN(s, "\n", 2)[0] }
		if gotOut != wantOut || first(gotErr) != first(wantErr) || gotCode != wantCode ||
			first(gotErr) != "fatal error: "+engine.DeadlockMessage || gotCode != 2 {
			t.Errorf("%s: grundy run: %d %q %q\ngo build: %d %q %q", name, gotCode, gotOut, gotErr, wantCode, wantOut, first(wantErr))
		}
		t.Logf("%s: stderr %q", name, gotErr)
	}
}
