package runner

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"grundy/engine"
	"grundy/engine/remote"
)

// RunCommand is `grundy run FILE.go [ARGS...]` and `grundy run
// FILE.ipynb`: a script or a notebook, headless, its cells in a supervised
// engine process. Cancelling ctx (Ctrl-C, SIGTERM, SIGHUP) interrupts the
// running cell; a notebook is still written with the outputs so far. A
// script that calls os.Exit with a non-zero code returns an *ExitError.
func RunCommand(ctx context.Context, args []string, stdout io.Writer) error {
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
	report := engineLog("run")
	defer report.close()
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
		// The notebook is the product; the copy of its outputs on stdout
		// is a courtesy. A reader that stops early (| head) must not cost
		// the notebook: by default Go ends the program at the first write
		// to a closed pipe on stdout; notified, the write fails and the
		// run goes on.
		sigpipe := make(chan os.Signal, 1)
		signal.Notify(sigpipe, syscall.SIGPIPE)
		defer signal.Stop(sigpipe)
		// Cells run in an engine process: a cell that crashes it is an
		// error like any other, and the notebook is written.
		return RunNotebook(ctx, path, *out, stdout, NotebookOptions{
			NewSession:    supervised(report, notebookDir(path)),
			MaxCellOutput: remote.MaxCellOutputFromEnv(),
		})
	default:
		// FILE.go, or Go cells under another name (cell-style scripts are
		// not gofmt-able Go files, so a repository may prefer .go.txt).
		if *out != "" {
			if err := os.MkdirAll(*out, 0o755); err != nil {
				return err
			}
		}
		return RunScript(ctx, path, ScriptOptions{OutDir: *out, Args: fs.Args()[1:], Stdout: stdout,
			NewSession: func(o engine.Options) (engine.Session, error) {
				return remote.Start(remote.Options{Name: o.Name, Args: o.Args, Log: report}), nil
			}})
	}
}

// supervised starts notebook sessions in an engine process that is
// replaced, and the session replayed, when a cell kills it; the process's
// own report of a crash goes to log. Cells run in dir.
func supervised(log io.Writer, dir string) func() (engine.Session, error) {
	return func() (engine.Session, error) {
		return remote.NewSupervisor(remote.SupervisorOptions{Options: remote.Options{Log: log, Dir: dir}, NoReplay: !remote.ReplayFromEnv()}), nil
	}
}

// notebookDir is where a notebook's cells run: its own directory, as
// Jupyter runs a notebook's kernel there, so that a notebook reading
// "data.csv" beside it reproduces from anywhere (grundy check
// shared/paper.ipynb). A script runs where go run would run it: here.
func notebookDir(path string) string {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return filepath.Dir(path)
	}
	return dir
}

// engineLog is where the engine processes of grundy CMD write their own
// report of a crash (the Go runtime's, with stack traces): a file, not
// the terminal, so that the user reads the crash in words.
func engineLog(cmd string) *lazyFile {
	return &lazyFile{cmd: cmd, path: filepath.Join(os.TempDir(), fmt.Sprintf("grundy-engine-%d.log", os.Getpid()))}
}

// lazyFile is created on the first write, so that a run without a crash
// leaves nothing behind; close says where it is when it was written.
type lazyFile struct {
	cmd  string
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
		fmt.Fprintf(os.Stderr, "grundy %s: the engine process's own report is in %s\n", l.cmd, l.path)
		l.f = nil
		l.err = os.ErrClosed
	}
}
