package engine

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"log"
	"reflect"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"grundy/engine/display"
	"grundy/engine/prelude"
	"grundy/engine/prelude/grundyrt"
	"grundy/engine/symbols"
	"grundy/engine/typecheck"
)

// runtimeState is what the native helpers report back to the engine.
type runtimeState struct {
	mu     sync.Mutex
	result *Result
	err    *EvalError
	it     *Interp
	types  *grundyrt.Types // the printer's knowledge of the session's types

	// A cell's top-level defers (see cellDefer), and while they run the
	// cell's panic, if any, for recover().
	deferred  []func()
	panicking bool
	panicVal  any
	// later shows the trailing values through the interpreted helpers
	// (ShowLater), which find their display methods, once the cell's
	// top-level defers ran.
	later func()
	// trailCall: the trailing expression is a call, whose only result
	// (after a nil error) is shown only when it is not nil.
	trailCall bool
}

func (r *runtimeState) beginCell() {
	r.mu.Lock()
	r.result, r.err, r.later, r.trailCall = nil, nil, nil, false
	r.mu.Unlock()
}

// ShowLater keeps show for after the cell's top-level defers, if it has
// any to run.
func (r *runtimeState) ShowLater(show func()) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.deferred) == 0 {
		return false
	}
	r.later = show
	return true
}

// takeLater is what ShowLater kept, once.
func (r *runtimeState) takeLater() func() {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.later
	r.later = nil
	return f
}

// showsTrailCall says whether the trailing expression the cell shows is
// a call (w.Flush(), tmpl.Execute(...): one whose only result is a nil
// error shows nothing, after the cell's defers neither).
func (r *runtimeState) showsTrailCall(call bool) {
	r.mu.Lock()
	r.trailCall = call
	r.mu.Unlock()
}

func (r *runtimeState) takeResult() (Result, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return Result{}, r.err
	}
	if r.result == nil {
		return Result{}, nil
	}
	return *r.result, nil
}

// Show records the trailing values of a cell. parts holds what the
// interpreted helpers found of the display methods (interpreted methods
// are not visible to native code). Go's (value, error) convention: a
// non-nil error last makes the cell fail with it, a nil one is dropped.
func (r *runtimeState) Show(vals []any, parts []display.Parts) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range vals {
		vals[i] = grundyrt.Unwrap(vals[i])
	}
	if parts == nil {
		parts = make([]display.Parts, len(vals))
	}
	errText := func(i int) (string, bool) {
		if e, ok := vals[i].(error); ok {
			return e.Error(), true
		}
		s, ok := parts[i]["Error"].Value.(string)
		return s, ok
	}
	if n := len(vals); n > 1 {
		if e, ok := errText(n - 1); ok {
			r.err = errorValue(e)
			return
		}
		if vals[n-1] == nil {
			vals, parts = vals[:n-1], parts[:n-1]
		}
	}
	if len(vals) == 1 {
		if e, ok := errText(0); ok {
			r.err = errorValue(e)
			return
		}
		if vals[0] == nil && r.trailCall {
			return // (see showsTrailCall)
		}
		r.result = &Result{Value: bundleOf(vals[0], parts[0])}
		return
	}
	// Several values: one text line, like a tuple.
	text := ""
	for i, v := range vals {
		if i > 0 {
			text += " "
		}
		text += bundleOf(v, parts[i])["text/plain"].(string)
	}
	r.result = &Result{Value: Bundle{"text/plain": text}}
}

// errorValue is a cell's trailing non-nil error as Jupyter shows it: the
// first line as the summary, every line in the traceback (library errors
// may point at the mistake on following lines).
func errorValue(msg string) *EvalError {
	lines := strings.Split(strings.TrimRight(msg, "\n"), "\n")
	lines[0] = "error: " + lines[0]
	return &EvalError{Name: "error", Value: firstLine(msg), Traceback: lines}
}

// bundleOf is the bundle a value shows as, by the one display convention:
// the methods the interpreted helpers found (interp) for a value of a cell
// type, the methods native code sees for any other.
func bundleOf(v any, interp display.Parts) Bundle {
	if b, ok := v.(display.Bundle); ok {
		return b
	}
	parts := interp
	if !hasMethodParts(interp) {
		// Compiled types (and collections the helpers gave a text
		// for): their methods are visible here.
		parts = display.PartsOf(v)
		if t, ok := interp[display.TextPart]; ok {
			parts[display.TextPart] = t
		}
	}
	return display.FromParts(v, parts)
}

// hasMethodParts reports whether the helpers found any display method.
func hasMethodParts(p display.Parts) bool {
	for k := range p {
		if k != display.TextPart {
			return true
		}
	}
	return false
}

// Display shows a value by the display convention, with what the
// interpreted helpers found by duck typing.
func (r *runtimeState) Display(v any, parts display.Parts) {
	display.Show(bundleOf(grundyrt.Unwrap(v), parts))
}

// Render is the bundle Display would show.
func (r *runtimeState) Render(v any, parts display.Parts) display.Bundle {
	return bundleOf(grundyrt.Unwrap(v), parts)
}

// Stderr is the running cell's standard error (the builtins print and
// println write there: grundyrt.Print).
func (r *runtimeState) Stderr() io.Writer { return r.it.io.cellStderr }

// Stopped is closed when the running cell is interrupted or deadlocked:
// the selects the engine writes end there (grundyrt.Select).
func (r *runtimeState) Stopped() <-chan struct{} {
	if stop := r.it.intr.Load(); stop != nil {
		return stop.ch
	}
	return nil
}

// GoPanic reports a goroutine's panic.
func (r *runtimeState) GoPanic(v any) { r.it.goroutinePanic(grundyrt.Unwrap(v)) }

// Defer registers a top-level defer of the running cell.
func (r *runtimeState) Defer(f func()) {
	r.mu.Lock()
	r.deferred = append(r.deferred, f)
	r.mu.Unlock()
}

// Recover is recover() in a cell's top-level deferred function: the
// cell's panic, once, as the interpreter raised it (its reflect.Value
// taken off): the passes call it as grundyrt.Recovered(grundyrt.Recover())
// and through relays, and Recovered gives the cell the value. (Given
// Recovered's result, a value of a cell type on a basic type in yaegi's
// valueInterface, the interpreter unwrapped it when it passed it to the
// next native function, and the cell recovered a bare int.)
func (r *runtimeState) Recover() any {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.panicking {
		return nil
	}
	r.panicking = false
	return r.panicVal
}

// goroutinePanic reports a panic in a goroutine a cell started (the
// rewriter wraps every go statement so it cannot kill the process).
func (it *Interp) goroutinePanic(v any) {
	stack := it.io.interpStderr.take()
	if code, ok := v.(exitCode); ok {
		// A Go program would end here; the session goes on.
		if out := it.io.output(); out != nil {
			out.Stderr(fmt.Sprintf("os.Exit(%d) in a goroutine ended that goroutine; the session goes on (a Go program would have ended)\n", int(code)))
		}
		it.exits.Add(-1)
		return
	}
	if wd := it.running.Load(); wd != nil {
		// Go would end the program here: the running cell ends, with
		// the panic as its error, whether its goroutine or an earlier
		// cell's (or a timer's) panicked.
		if run := ownRun(); it.ownGoroutine(run) {
			wd.goroutinePanicked(goroutinePanicError(it.panicMessage(v), stack, run == wd.run))
			return
		}
	}
	msg := "panic in goroutine: " + it.panicMessage(v)
	for _, s := range stack {
		msg += "\n  " + s
	}
	if out := it.io.output(); out != nil {
		out.Stderr(msg + "\n")
	}
}

// goroutinePanicError is the error of a cell one of whose goroutines
// panicked while it ran, as panicError words a panic of its own.
func goroutinePanicError(msg string, stack []string, own bool) *EvalError {
	whose := "in a goroutine the cell started"
	if !own {
		whose = "in a goroutine an earlier cell started (or a timer's function)"
	}
	tb := []string{"panic: " + msg, "", whose + ": a Go program ends there, so grundy ended the cell (its other goroutines stop where they next wait)"}
	if len(stack) > 0 {
		tb = append(tb, interpretedStack(stack)...)
	}
	return &EvalError{Name: "panic", Value: msg, Traceback: tb}
}

var errorType = reflect.TypeFor[error]()

// stdlibExports is yaegi's standard library table with fmt under a key
// that does not trigger yaegi's own stdio fixes and interpreted generic
// packages (the engine does both itself: see fmtSymbols and
// genericSources). The tables themselves are shared, not copied.
func stdlibExports() interp.Exports {
	ex := make(interp.Exports, len(stdlib.Symbols))
	for k, v := range stdlib.Symbols {
		switch k {
		case "fmt/fmt":
			ex["fmt/./fmt"] = v
		case "slices/slices", "maps/maps", "cmp/cmp":
			// provided as interpreted source
		default:
			ex[k] = v
		}
	}
	return ex
}

// fmtSymbols sends fmt's printing to the capture pipe and its scanning to
// the frontend.
func fmtSymbols(stdout io.Writer, stdin io.Reader) map[string]reflect.Value {
	return map[string]reflect.Value{
		"Print":   reflect.ValueOf(func(a ...any) (int, error) { return io.WriteString(stdout, grundyrt.Sprint(a...)) }),
		"Printf":  reflect.ValueOf(func(f string, a ...any) (int, error) { return io.WriteString(stdout, grundyrt.Sprintf(f, a...)) }),
		"Println": reflect.ValueOf(func(a ...any) (int, error) { return io.WriteString(stdout, grundyrt.Sprintln(a...)) }),
		"Scan":    reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fscan(stdin, a...) }),
		"Scanf":   reflect.ValueOf(func(f string, a ...any) (int, error) { return fmt.Fscanf(stdin, f, a...) }),
		"Scanln":  reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fscanln(stdin, a...) }),
	}
}

// fmtPrintSymbols are fmt's printing functions for cells: a value the
// compatibility passes hand fmt with its type (grundyrt.Typed) goes
// through the engine's printer, the others to fmt. They go under a key
// that does not make yaegi install its own Printf over them, with the
// interface wrappers yaegi uses for the originals (so a call the passes
// did not see still finds the String and Error methods of cell types),
// as grundyrt's Wrapped (wrapped, as the session's table has it) has.
func fmtPrintSymbols(stdout io.Writer, wrapped reflect.Value) interp.Exports {
	printf := reflect.ValueOf(func(f string, a ...any) (int, error) { return io.WriteString(stdout, grundyrt.Sprintf(f, a...)) })
	fprintf := reflect.ValueOf(func(w io.Writer, f string, a ...any) (int, error) {
		return grundyrt.WriteOnce(w, grundyrt.Sprintf(f, a...))
	})
	print := reflect.ValueOf(func(a ...any) (int, error) { return io.WriteString(stdout, grundyrt.Sprint(a...)) })
	println := reflect.ValueOf(func(a ...any) (int, error) { return io.WriteString(stdout, grundyrt.Sprintln(a...)) })
	fprint := reflect.ValueOf(func(w io.Writer, a ...any) (int, error) { return grundyrt.WriteOnce(w, grundyrt.Sprint(a...)) })
	fprintln := reflect.ValueOf(func(w io.Writer, a ...any) (int, error) { return grundyrt.WriteOnce(w, grundyrt.Sprintln(a...)) })
	sprintf, sprint, sprintln := reflect.ValueOf(grundyrt.Sprintf), reflect.ValueOf(grundyrt.Sprint), reflect.ValueOf(grundyrt.Sprintln)
	errorf := reflect.ValueOf(grundyrt.Errorf)
	appendf := reflect.ValueOf(func(b []byte, f string, a ...any) []byte { return append(b, grundyrt.Sprintf(f, a...)...) })
	appendp := reflect.ValueOf(func(b []byte, a ...any) []byte { return append(b, grundyrt.Sprint(a...)...) })
	appendln := reflect.ValueOf(func(b []byte, a ...any) []byte { return append(b, grundyrt.Sprintln(a...)...) })
	// yaegi's lists (Formatter, Stringer) lack error: fmt showed a cell
	// type's value with an Error method as a plain struct. error comes
	// before Stringer, as fmt prefers Error.
	wrappers := []reflect.Type{
		reflect.TypeOf((*fmt.Formatter)(nil)).Elem(),
		errorType,
		reflect.TypeOf((*fmt.Stringer)(nil)).Elem(),
	}
	mt := map[reflect.Value][]reflect.Type{}
	for _, f := range []reflect.Value{printf, fprintf, print, println, fprint, fprintln, sprintf, sprint, sprintln, errorf, appendf, appendp, appendln, wrapped} {
		mt[f] = wrappers
	}
	return interp.Exports{
		"fmt/./fmt": {"Printf": printf, "Fprintf": fprintf, "Print": print, "Println": println, "Fprint": fprint, "Fprintln": fprintln,
			"Sprintf": sprintf, "Sprint": sprint, "Sprintln": sprintln, "Errorf": errorf, "Appendf": appendf, "Append": appendp, "Appendln": appendln},
		".": {"MapTypes": reflect.ValueOf(mt)},
	}
}

// composedWrappers gives yaegi the wrappers for a cell's value with the
// optional methods the standard library asserts (io.StringWriter on an
// io.Writer, ...: grundyrt.ComposedWrappers), in place of its own lists,
// keyed as its getWrapper looks them up: by the interface's wrapper in
// the symbols.
//
// It also lists fmt.Scanner for fmt's scanning functions from strings and
// readers: yaegi's lists have it for Scan, Scanf and Scanln only, so
// fmt.Sscan(s, &p), p of a cell type with a Scan method, failed with
// "can't scan type".
func composedWrappers() interp.Exports {
	mt := map[reflect.Value][]reflect.Type{}
	for _, c := range grundyrt.ComposedWrappers() {
		mt[stdlib.Symbols[c.Key][c.Wrapper]] = c.Wrappers
	}
	scanner := []reflect.Type{reflect.TypeFor[fmt.Scanner]()}
	for _, f := range scanFuncs {
		mt[stdlib.Symbols["fmt/fmt"][f]] = scanner
	}
	return interp.Exports{".": {"MapTypes": reflect.ValueOf(mt)}}
}

// scanFuncs are fmt's scanning functions from strings and readers, which
// composedWrappers has see a cell's fmt.Scanner.
var scanFuncs = []string{"Sscan", "Sscanf", "Sscanln", "Fscan", "Fscanf", "Fscanln"}

// logSymbols points the log package at the stderr pipe, with Fatal
// stopping the cell as os.Exit(1) does instead of exiting the kernel.
func logSymbols(w io.Writer) map[string]reflect.Value {
	l := log.New(w, "", log.LstdFlags)
	return map[string]reflect.Value{
		"Fatal":     reflect.ValueOf(grundyrt.LogFatal(l)),
		"Fatalf":    reflect.ValueOf(grundyrt.LogFatalf(l)),
		"Fatalln":   reflect.ValueOf(grundyrt.LogFatalln(l)),
		"Flags":     reflect.ValueOf(l.Flags),
		"Output":    reflect.ValueOf(l.Output),
		"Panic":     reflect.ValueOf(l.Panic),
		"Panicf":    reflect.ValueOf(l.Panicf),
		"Panicln":   reflect.ValueOf(l.Panicln),
		"Prefix":    reflect.ValueOf(l.Prefix),
		"Print":     reflect.ValueOf(l.Print),
		"Printf":    reflect.ValueOf(l.Printf),
		"Println":   reflect.ValueOf(l.Println),
		"SetFlags":  reflect.ValueOf(l.SetFlags),
		"SetOutput": reflect.ValueOf(l.SetOutput),
		"SetPrefix": reflect.ValueOf(l.SetPrefix),
		"Writer":    reflect.ValueOf(l.Writer),
		"Default":   reflect.ValueOf(func() *log.Logger { return l }),
	}
}

// sinkFor adapts an Output to the display package's Sink. Text the cell
// printed before a display is forwarded first, so output keeps its order.
func sinkFor(out Output, io *stdio) display.Sink { return outputSink{out, io} }

type outputSink struct {
	out Output
	io  *stdio
}

func (s outputSink) Display(data display.Bundle, md map[string]any, id string, update bool) {
	s.io.flush()
	s.out.Display(Bundle(data), md, id, update)
}

func (s outputSink) Clear(wait bool) {
	s.io.flush()
	s.out.ClearOutput(wait)
}

// aliasPackages are provided as interpreted source by the engine (made
// when first needed: the prelude's packages are derived from source, which
// would otherwise double the start of every grundy command).
var aliasPackages = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, p := range prelude.Packages() {
		m[p.Path] = true
	}
	return m
})

func (it *Interp) loadPrelude() error {
	for _, p := range prelude.Packages() {
		for _, f := range p.Files {
			pf, err := parser.ParseFile(it.fset, f.Name, f.Src, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			if _, err := it.yi.CompileAST(pf); err != nil {
				return fmt.Errorf("%s: %v", f.Name, err)
			}
		}
	}
	// Imports are per file in yaegi: cells and the helpers all use the
	// session's file name, so they share them.
	imports := "package main\nimport (\n"
	for _, p := range prelude.Imports {
		if _, ok := symbolsHave(p.Path); !ok {
			continue
		}
		it.pkgs[p.Name] = p.Path
		if aliasPackages()[p.Path] {
			// Compiled source packages are visible under their name already.
			continue
		}
		imports += fmt.Sprintf("\t%s %q\n", p.Name, p.Path)
	}
	imports += fmt.Sprintf("\t%s %q\n)\n", prelude.Runtime, prelude.Runtime)
	f, err := parser.ParseFile(it.fset, it.name, imports, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	helpers, err := parser.ParseFile(it.fset, it.name, helperSource(), parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	prelude.DropTypeTerms(helpers) // min and max of time.Duration values
	for _, file := range []*ast.File{f, helpers} {
		prog, err := it.yi.CompileAST(file)
		if err != nil {
			return err
		}
		if _, err := it.yi.Execute(prog); err != nil {
			return err
		}
	}
	return nil
}

// helperSource is the prelude's helpers as one file of package main:
// yaegi tells declarations apart by position, which files parsed
// separately under the session's one name would repeat. Only the
// declarations: the session's imports serve them.
var helperSource = sync.OnceValue(func() string {
	var src strings.Builder
	src.WriteString("package main\n")
	for _, h := range prelude.Helpers() {
		hf, err := parser.ParseFile(token.NewFileSet(), h.Name, h.Src, parser.ImportsOnly)
		if err != nil {
			panic("engine: prelude " + h.Name + ": " + err.Error()) // embedded, and tested
		}
		src.WriteString(h.Src[hf.End()-hf.FileStart:])
		src.WriteString("\n")
	}
	return src.String()
})

// symbolsHave reports whether a package can be imported (a native table or
// engine-provided source).
func symbolsHave(path string) (string, bool) {
	if aliasPackages()[path] {
		return path, true
	}
	key := path + "/" + typecheck.ImportName(path)
	if _, ok := stdlib.Symbols[key]; ok {
		return key, true
	}
	if _, ok := symbols.Symbols[key]; ok {
		return key, true
	}
	return "", false
}
