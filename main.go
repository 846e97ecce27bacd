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
// Each subcommand lives in its own cmd_*.go file.
package main

import (
	"fmt"
	"os"
	"sort"
)

// version is set at build time with -ldflags "-X main.version=..." when
// releasing; a development build says so.
var version = "0.1.0-dev"

type command struct {
	summary string
	run     func(args []string) error
	hidden  bool // internal: not listed in the usage
}

var commands = map[string]command{}

func register(name, summary string, run func(args []string) error) {
	commands[name] = command{summary: summary, run: run}
}

// registerHidden adds a command that grundy runs itself (the engine
// process); users never type it.
func registerHidden(name string, run func(args []string) error) {
	commands[name] = command{run: run, hidden: true}
}

func usage() {
	fmt.Fprintf(os.Stderr, "usage: grundy COMMAND [ARGS]\n\ncommands:\n")
	names := make([]string, 0, len(commands))
	for n, c := range commands {
		if !c.hidden {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(os.Stderr, "\nRun 'grundy COMMAND -h' for a command's options.\n")
}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "--help" || os.Args[1] == "help" {
		usage()
		if len(os.Args) < 2 {
			os.Exit(2)
		}
		return
	}
	c, ok := commands[os.Args[1]]
	if !ok {
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
	if err := c.run(os.Args[2:]); err != nil {
		fmt.Fprintf(os.Stderr, "grundy %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
}

func init() {
	register("version", "print grundy's version", func([]string) error {
		fmt.Printf("grundy %s\n", version)
		return nil
	})
}
