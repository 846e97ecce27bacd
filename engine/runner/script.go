package runner

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"

	"grundy/engine"
	"grundy/engine/remote"
	"grundy/engine/tooling"
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
	NewSession func(engine.Options) (engine.Session, error)
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
		newSession = func(o engine.Options) (engine.Session, error) { return engine.NewInterp(o) }
	}
	it, err := newSession(engine.Options{Name: filepath.Base(path), Args: append([]string{path}, opt.Args...)})
	if err != nil {
		return err
	}
	defer it.Close()
	code, hasMain := scriptBody(string(src))
	term := &TerminalOutput{Out: opt.Stdout, Err: opt.Stderr, ImageDir: outDir,
		ImagePrefix: scriptStem(path)}
	if name, detail, ok := tooling.HelpRequest(code); ok {
		showHelp(it, name, detail, term, opt.Stdout)
		return nil
	}
	res, err := it.Execute(ctx, code, term)
	if err == nil && hasMain {
		res, err = it.Execute(ctx, scriptMain+"()", term)
	}
	if err == nil && res.Value != nil {
		term.Display(res.Value, nil, "", false)
	}
	term.endLine()
	var ee *engine.EvalError
	if crash := (*remote.Crash)(nil); errors.As(err, &crash) && crash.Name == "fatal error" {
		// A deadlock whose goroutines could not be stopped ended the
		// engine process: still Go's fatal error.
		ee = crash.EvalError()
	}
	if ee != nil || errors.As(err, &ee) {
		if ee.Name == "Exit" {
			if strings.HasPrefix(ee.Value, "os.Exit(0)") {
				return nil
			}
			return &ExitError{Msg: ee.Value}
		}
		if ee.Name == "fatal error" {
			// As go run: the runtime's words on stderr, then status 2.
			fmt.Fprintf(opt.Stderr, "%s\n\n%s\n", ee.Traceback[0], strings.Join(ee.Traceback[1:], "\n"))
			return &ExitError{Msg: ee.Traceback[0], Status: 2}
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

// ExitError is a script that called os.Exit with a non-zero code, or that
// Go would have ended with a fatal error (Status 2), which it has
// reported already.
type ExitError struct {
	Msg    string
	Status int
}

func (e *ExitError) Error() string { return e.Msg }

// Code is the exit code the script asked for.
func (e *ExitError) Code() int {
	if e.Status != 0 {
		return e.Status
	}
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
