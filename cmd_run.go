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

	"grundy/engine"
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
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
		return engine.RunNotebookContext(ctx, path, *out, os.Stdout)
	default:
		// FILE.go, or Go cells under another name (cell-style scripts are
		// not gofmt-able Go files, so a repository may prefer .go.txt).
		if *out != "" {
			if err := os.MkdirAll(*out, 0o755); err != nil {
				return err
			}
		}
		err := engine.RunScript(ctx, path, engine.ScriptOptions{OutDir: *out, Args: fs.Args()[1:]})
		var exit *engine.ExitError
		if errors.As(err, &exit) {
			os.Exit(exit.Code())
		}
		return err
	}
}
