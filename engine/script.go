package engine

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ScriptOptions configure RunScript.
type ScriptOptions struct {
	// OutDir receives image files; "" means next to the script.
	OutDir string
	// Args are the script's os.Args[1:].
	Args []string
	// Stdout and Stderr default to the process's.
	Stdout, Stderr io.Writer
	// NewSession starts the session the script runs in; nil means an
	// interpreter in this process. `grundy run` gives it an engine
	// process, so that a script that crashes it is reported in words.
	NewSession func(Options) (Session, error)
}

// RunScript runs a Go file with the engine, the way `grundy run FILE.go`
// does: the file is one cell (statements at top level allowed), or a
// package main whose main function is then called. Text goes to Stdout,
// images are written as files and their paths printed.
func RunScript(ctx context.Context, path string, opt ScriptOptions) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if opt.Stdout == nil {
		opt.Stdout = os.Stdout
	}
	if opt.Stderr == nil {
		opt.Stderr = os.Stderr
	}
	outDir := opt.OutDir
	if outDir == "" {
		outDir = filepath.Dir(path)
	}
	newSession := opt.NewSession
	if newSession == nil {
		newSession = func(o Options) (Session, error) { return NewInterp(o) }
	}
	it, err := newSession(Options{Name: filepath.Base(path), Args: append([]string{path}, opt.Args...)})
	if err != nil {
		return err
	}
	defer it.Close()
	code, hasMain := scriptBody(string(src))
	term := &TerminalOutput{Out: opt.Stdout, Err: opt.Stderr, ImageDir: outDir,
		ImagePrefix: scriptStem(path)}
	res, err := it.Execute(ctx, code, term)
	if err == nil && hasMain {
		res, err = it.Execute(ctx, scriptMain+"()", term)
	}
	if err == nil && res.Value != nil {
		term.Display(res.Value, nil, "", false)
	}
	term.endLine()
	var ee *EvalError
	if errors.As(err, &ee) {
		if ee.Name == "Exit" {
			if strings.HasPrefix(ee.Value, "os.Exit(0)") {
				return nil
			}
			return &ExitError{Msg: ee.Value}
		}
		return fmt.Errorf("%s", strings.Join(ee.Traceback, "\n"))
	}
	return err
}

// scriptStem is the script's name without .go, .txt or .go.txt, for
// naming its image files.
func scriptStem(path string) string {
	base := filepath.Base(path)
	base = strings.TrimSuffix(base, ".txt")
	return strings.TrimSuffix(base, ".go")
}

// ExitError is a script that called os.Exit with a non-zero code.
type ExitError struct{ Msg string }

func (e *ExitError) Error() string { return e.Msg }

// Code is the exit code the script asked for.
func (e *ExitError) Code() int {
	var c int
	fmt.Sscanf(e.Msg, "os.Exit(%d)", &c)
	return c
}

// scriptMain is what a script's func main is renamed to: yaegi runs a
// function called main whenever it evaluates declarations of package main,
// and the engine evaluates a cell's declarations more than once (to check,
// then to run), so main must be called exactly once, by name.
const scriptMain = "grundyMain"

// scriptBody blanks out a package clause (keeping positions), renames func
// main to scriptMain and says whether the file declares it.
func scriptBody(src string) (string, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.PackageClauseOnly)
	if err != nil || f.Name == nil {
		return src, false
	}
	start := fset.Position(f.Package).Offset
	end := fset.Position(f.Name.End()).Offset
	b := []byte(src)
	for i := start; i < end; i++ {
		b[i] = ' '
	}
	fullSet := token.NewFileSet()
	full, err := parser.ParseFile(fullSet, "", src, parser.SkipObjectResolution)
	if err != nil {
		return string(b), false
	}
	for _, d := range full.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "main" {
			at := fullSet.Position(fn.Name.Pos()).Offset
			return string(b[:at]) + scriptMain + string(b[at+len("main"):]), true
		}
	}
	return string(b), false
}

// TerminalOutput is an Output for a terminal: text as it comes, images as
// files whose paths are printed, in-place display updates (progress bars)
// rewritten on one line. When Err is not a terminal (a file, a pipe), a
// live display is written once, as one line in its latest state, when
// other output follows or the script ends: redrawing it there would fill
// the file with a line per update.
type TerminalOutput struct {
	Out, Err    io.Writer
	ImageDir    string
	ImagePrefix string

	mu       sync.Mutex
	n        int
	inlineID string // display id last printed without a newline

	termKnown, term bool
	pending         []liveDisplay // latest state of live displays not yet written (Err not a terminal)
}

type liveDisplay struct{ id, text string }

// errIsTerminal: whether Err is a character device; any writer other than
// an *os.File counts as not a terminal.
func (t *TerminalOutput) errIsTerminal() bool {
	if !t.termKnown {
		t.termKnown = true
		if f, ok := t.Err.(*os.File); ok {
			if fi, err := f.Stat(); err == nil {
				t.term = fi.Mode()&os.ModeCharDevice != 0
			}
		}
	}
	return t.term
}

func (t *TerminalOutput) endLine() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.endLineLocked()
}

// endLineLocked ends a redrawn line, or writes the live displays held back
// for a non-terminal, before other output.
func (t *TerminalOutput) endLineLocked() {
	if t.inlineID != "" {
		fmt.Fprintln(t.Err)
		t.inlineID = ""
	}
	for _, d := range t.pending {
		fmt.Fprintln(t.Err, d.text)
	}
	t.pending = t.pending[:0]
}

// holdLive keeps only the latest state of a live display for a
// non-terminal.
func (t *TerminalOutput) holdLive(id, text string) {
	for i := range t.pending {
		if t.pending[i].id == id {
			t.pending[i].text = text
			return
		}
	}
	t.pending = append(t.pending, liveDisplay{id, text})
}

// Stdout writes text.
func (t *TerminalOutput) Stdout(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.endLineLocked()
	io.WriteString(t.Out, s)
}

// Stderr writes text.
func (t *TerminalOutput) Stderr(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.endLineLocked()
	io.WriteString(t.Err, s)
}

// Display prints text/plain and writes images to files.
func (t *TerminalOutput) Display(data Bundle, _ map[string]any, id string, update bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	text, _ := data["text/plain"].(string)
	if id != "" && !t.errIsTerminal() {
		if text != "" {
			t.holdLive(id, text)
		}
		return
	}
	if id != "" {
		// Progress bars and other live displays: redraw one stderr line.
		if t.inlineID != "" && t.inlineID != id {
			fmt.Fprintln(t.Err)
		}
		fmt.Fprintf(t.Err, "\r\033[K%s", text)
		t.inlineID = id
		return
	}
	t.endLineLocked()
	wrote := false
	for _, kind := range []struct{ mime, ext string }{{"image/png", ".png"}, {"image/svg+xml", ".svg"}, {"image/jpeg", ".jpg"}} {
		v, ok := data[kind.mime].(string)
		if !ok {
			continue
		}
		var content []byte
		if kind.mime == "image/svg+xml" {
			content = []byte(v)
		} else {
			b, err := base64.StdEncoding.DecodeString(v)
			if err != nil {
				continue
			}
			content = b
		}
		t.n++
		name := filepath.Join(t.ImageDir, fmt.Sprintf("%s-%d%s", t.ImagePrefix, t.n, kind.ext))
		if err := os.WriteFile(name, content, 0o644); err != nil {
			fmt.Fprintf(t.Err, "cannot write %s: %v\n", name, err)
			continue
		}
		fmt.Fprintf(t.Out, "[image written to %s]\n", name)
		wrote = true
		break
	}
	if !wrote || !strings.HasPrefix(text, "[") {
		if text != "" {
			fmt.Fprintln(t.Out, text)
		}
	}
}

// ClearOutput does nothing on a terminal.
func (t *TerminalOutput) ClearOutput(bool) {}

// Input reads a line from the process's standard input.
func (t *TerminalOutput) Input(prompt string, _ bool) (string, error) {
	t.mu.Lock()
	if prompt != "" {
		io.WriteString(t.Out, prompt)
	}
	t.mu.Unlock()
	var line []byte
	buf := make([]byte, 1)
	for {
		n, err := os.Stdin.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				return string(line), nil
			}
			line = append(line, buf[0])
		}
		if err != nil {
			if len(line) > 0 {
				return string(line), nil
			}
			return "", err
		}
	}
}
