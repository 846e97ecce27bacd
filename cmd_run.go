package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"grundy/engine"
	"grundy/engine/remote"
)

func init() {
	register("run", "run a Go script or a notebook headless", runRun)
}

func runRun(args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	out := fs.String("out", "", "for FILE.go: write images into `DIR` (default: next to the script); for FILE.ipynb: write the executed notebook to this path")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: grundy run [--out DIR] FILE.go [ARGS...]\n       grundy run FILE.ipynb [--out FILE.ipynb]\n\n"+
			"Runs a Go script with the same engine as the notebook kernel: text goes\n"+
			"to the terminal, images are written as files. A notebook runs headless\n"+
			"and is written back with its outputs.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() < 1 {
		fs.Usage()
		return fmt.Errorf("missing the file to run")
	}
	path := fs.Arg(0)
	// The engine process's own report of a crash (the Go runtime's, with
	// stack traces) goes to a file, not to the terminal: the user reads
	// the crash in words.
	report := &lazyFile{path: filepath.Join(os.TempDir(), fmt.Sprintf("grundy-engine-%d.log", os.Getpid()))}
	defer report.close()
	// Ctrl-C, or the terminal or a job system ending the run, interrupts
	// the cell; a notebook is still written with the outputs so far.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ipynb":
		// A notebook has no arguments of its own, so options may follow it
		// (grundy run paper.ipynb --out done.ipynb), as users type them.
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return err
		}
		if fs.NArg() > 0 {
			return fmt.Errorf("a notebook takes no arguments (got %q); options: --out FILE", fs.Arg(0))
		}
		// Cells run in an engine process: a cell that crashes it is an
		// error like any other, and the notebook is written.
		return engine.RunNotebookWith(ctx, path, *out, os.Stdout, engine.NotebookOptions{
			NewSession: func() (engine.Session, error) {
				return remote.NewSupervisor(remote.SupervisorOptions{Options: remote.Options{Log: report}, NoReplay: !replayOn()}), nil
			},
			MaxCellOutput: maxCellOutput(),
		})
	default:
		// FILE.go, or Go cells under another name (cell-style scripts are
		// not gofmt-able Go files, so a repository may prefer .go.txt).
		if *out != "" {
			if err := os.MkdirAll(*out, 0o755); err != nil {
				return err
			}
		}
		err := engine.RunScript(ctx, path, engine.ScriptOptions{OutDir: *out, Args: fs.Args()[1:],
			NewSession: func(o engine.Options) (engine.Session, error) {
				return remote.Start(remote.Options{Name: o.Name, Args: o.Args, Log: report}), nil
			}})
		var exit *engine.ExitError
		if errors.As(err, &exit) {
			report.close()
			os.Exit(exit.Code())
		}
		return err
	}
}

// lazyFile is created on the first write, so that a run without a crash
// leaves nothing behind; close says where it is when it was written.
type lazyFile struct {
	path string
	mu   sync.Mutex
	f    *os.File
	err  error
}

func (l *lazyFile) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil && l.err == nil {
		l.f, l.err = os.Create(l.path)
	}
	if l.err != nil {
		return len(p), nil // a lost diagnostic must not fail the run
	}
	return l.f.Write(p)
}

func (l *lazyFile) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		l.f.Close()
		fmt.Fprintf(os.Stderr, "grundy run: the engine process's own report is in %s\n", l.path)
		l.f = nil
		l.err = os.ErrClosed
	}
}
