package engine

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"reflect"
)

// flagSymbols binds the flag package's functions to one FlagSet per
// session that parses the session's os.Args (a script's arguments under
// `grundy run script.go ARGS`). The native package-level functions would
// parse the grundy process's own command line into the process's
// CommandLine. As in Go, a bad flag prints the error and the usage and
// exits with status 2 (-h or -help: status 0), which stops the cell; the
// process goes on.
func flagSymbols(args []string, stderr io.Writer) map[string]reflect.Value {
	name := "cell"
	if len(args) > 0 {
		name = args[0]
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	usage := func() {
		fmt.Fprintf(fs.Output(), "Usage of %s:\n", name)
		fs.PrintDefaults()
	}
	fs.Usage = func() { usage() }
	parse := func() {
		if len(args) == 0 {
			return
		}
		if err := fs.Parse(args[1:]); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				panic(exitCode(0))
			}
			panic(exitCode(2))
		}
	}
	return map[string]reflect.Value{
		"CommandLine":   reflect.ValueOf(&fs).Elem(),
		"Usage":         reflect.ValueOf(&usage).Elem(),
		"Parse":         reflect.ValueOf(parse),
		"Parsed":        reflect.ValueOf(fs.Parsed),
		"Args":          reflect.ValueOf(fs.Args),
		"Arg":           reflect.ValueOf(fs.Arg),
		"NArg":          reflect.ValueOf(fs.NArg),
		"NFlag":         reflect.ValueOf(fs.NFlag),
		"Bool":          reflect.ValueOf(fs.Bool),
		"BoolVar":       reflect.ValueOf(fs.BoolVar),
		"BoolFunc":      reflect.ValueOf(fs.BoolFunc),
		"Duration":      reflect.ValueOf(fs.Duration),
		"DurationVar":   reflect.ValueOf(fs.DurationVar),
		"Float64":       reflect.ValueOf(fs.Float64),
		"Float64Var":    reflect.ValueOf(fs.Float64Var),
		"Func":          reflect.ValueOf(fs.Func),
		"Int":           reflect.ValueOf(fs.Int),
		"IntVar":        reflect.ValueOf(fs.IntVar),
		"Int64":         reflect.ValueOf(fs.Int64),
		"Int64Var":      reflect.ValueOf(fs.Int64Var),
		"String":        reflect.ValueOf(fs.String),
		"StringVar":     reflect.ValueOf(fs.StringVar),
		"TextVar":       reflect.ValueOf(fs.TextVar),
		"Uint":          reflect.ValueOf(fs.Uint),
		"UintVar":       reflect.ValueOf(fs.UintVar),
		"Uint64":        reflect.ValueOf(fs.Uint64),
		"Uint64Var":     reflect.ValueOf(fs.Uint64Var),
		"Var":           reflect.ValueOf(fs.Var),
		"Lookup":        reflect.ValueOf(fs.Lookup),
		"Set":           reflect.ValueOf(fs.Set),
		"Visit":         reflect.ValueOf(fs.Visit),
		"VisitAll":      reflect.ValueOf(fs.VisitAll),
		"PrintDefaults": reflect.ValueOf(fs.PrintDefaults),
	}
}
