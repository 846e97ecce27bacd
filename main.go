// Command grundy is a Jupyter kernel and scripting environment, in Go, for
// research on impartial combinatorial games.
//
//	grundy kernel CONNECTION_FILE   serve one Jupyter session
//	grundy install [--user | --prefix DIR]
//	grundy run FILE.go | FILE.ipynb run a script or a notebook headless
//	grundy solve SPEC --max N       solve a game from the shell
//	grundy check [NB.ipynb...]      re-check the seeds' claims, or that notebooks reproduce
//	grundy version
//
// This file only dispatches: each command lives in the package it serves
// (kernel, engine/runner, stdlib/cli).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"syscall"

	"grundy/engine/remote"
	"grundy/engine/runner"
	"grundy/kernel"
	"grundy/stdlib/cli"
)

// version is set at build time with -ldflags "-X main.version=..." when
// releasing; a development build says so.
var version = "0.1.0-dev"

type command struct {
	name, summary string
	// run gets a context that Ctrl-C, SIGTERM and SIGHUP cancel (the
	// kernel's is never cancelled).
	run func(ctx context.Context, args []string) error
}

var commands = []command{
	{"check", "reproduce the source documents' claims, or check that notebooks reproduce", check},
	{"install", "install the Jupyter kernelspec \"grundy\"", func(_ context.Context, args []string) error {
		return kernel.InstallCommand(args, version)
	}},
	{"kernel", "serve one Jupyter session (Jupyter runs this)", func(_ context.Context, args []string) error {
		return kernel.ServeCommand(args, version)
	}},
	{"run", "run a Go script or a notebook headless", func(ctx context.Context, args []string) error {
		return runner.RunCommand(ctx, args, os.Stdout)
	}},
	{"solve", "solve a game from the shell: grundy solve 'CN(6,2)' --max 11", func(ctx context.Context, args []string) error {
		return cli.Solve(ctx, args, os.Stdout, os.Stderr)
	}},
	{"version", "print grundy's version", func(context.Context, []string) error {
		fmt.Printf("grundy %s\n", version)
		return nil
	}},
}

// check sends notebooks to the runner and everything else to the claims.
func check(ctx context.Context, args []string) error {
	if slices.ContainsFunc(args, cli.IsNotebook) {
		return runner.CheckCommand(ctx, args, os.Stdout)
	}
	return cli.Claims(ctx, args, os.Stdout)
}

func usage() {
	fmt.Fprintf(os.Stderr, "usage: grundy COMMAND [ARGS]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(os.Stderr, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(os.Stderr, "\nRun 'grundy COMMAND -h' for a command's options.\n")
}

func main() {
	// The engine process is this binary, started again by the kernel and
	// by grundy run; users never type its command.
	remote.RunIfChild()
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "--help" || os.Args[1] == "help" {
		usage()
		if len(os.Args) < 2 {
			os.Exit(2)
		}
		return
	}
	i := slices.IndexFunc(commands, func(c command) bool { return c.name == os.Args[1] })
	if i < 0 {
		fmt.Fprintf(os.Stderr, "grundy: unknown command %q\n\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	// A bug must not greet a user with a Go stack trace: say what broke
	// and how to report it.
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "grundy %s: internal error: %v\nThis is a bug in grundy; please report it with the command you ran.\n", os.Args[1], r)
			os.Exit(2)
		}
	}()
	ctx := context.Background()
	if os.Args[1] != "kernel" {
		// (The kernel handles SIGINT itself, for Jupyter's interrupt_mode
		// "signal", and Jupyter ends it with SIGTERM.)
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		defer stop()
	}
	err := commands[i].run(ctx, os.Args[2:])
	var exit *runner.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.Code()) // a script's os.Exit: it has said what it wanted
	}
	if errors.Is(err, flag.ErrHelp) {
		return // the command printed its usage, as asked
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "grundy %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}
