package engine

import (
	"encoding/base64"
	"errors"
	"fmt"
	"go/parser"
	"image"
	"io"
	"log"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"grundy/engine/display"
	"grundy/engine/symbols"
)

// The engine's own helpers, visible to interpreted code as package
// grundyrt. Cells never name it: the rewriter and the prelude do.
const (
	rtPath      = "grundyrt/grundyrt"
	showFunc    = "_grundyShow"
	goRecover   = "_grundyGoPanic"
	deferFunc   = "_grundyDefer"
	recoverFunc = "_grundyRecover"
)

// runtimeState is what the native helpers report back to the engine.
type runtimeState struct {
	mu       sync.Mutex
	captured []any
	result   *Result
	// resultNil: the shown value was a nil interface (a call's nil error).
	resultNil bool
	err       *EvalError
	it        *Interp

	// A cell's top-level defers (see cellDefer), and while they run the
	// cell's panic, if any, for recover().
	deferred  []func()
	panicking bool
	panicVal  any
}

func (r *runtimeState) beginCell() {
	r.mu.Lock()
	r.result, r.err, r.resultNil = nil, nil, false
	r.mu.Unlock()
}

func (r *runtimeState) capture(vals ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.captured = make([]any, len(vals))
	for i, v := range vals {
		r.captured[i] = unwrapInterpreted(v)
	}
}

func (r *runtimeState) takeCaptured() []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.captured
	r.captured = nil
	return c
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

func (r *runtimeState) nilResult() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.resultNil
}

// show records the trailing values of a cell. parts holds what the
// interpreted prelude found by duck typing (interpreted methods are not
// visible to native code); the rest is completed here. Go's (value, error)
// convention: a non-nil error last makes the cell fail with it, a nil one
// is dropped.
func (r *runtimeState) show(vals []any, parts []map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range vals {
		vals[i] = unwrapInterpreted(vals[i])
	}
	for i, v := range vals {
		// Native errors: interpreted type switches miss them.
		if e, ok := v.(error); ok && parts[i]["error"] == nil {
			parts[i]["error"] = e.Error()
		}
	}
	if n := len(vals); n > 1 {
		if e, ok := parts[n-1]["error"].(string); ok {
			r.err = errorValue(e)
			return
		}
		if vals[n-1] == nil {
			vals, parts = vals[:n-1], parts[:n-1]
		}
	}
	if len(vals) == 1 {
		if e, ok := parts[0]["error"].(string); ok {
			r.err = errorValue(e)
			return
		}
		b := bundleOf(vals[0], parts[0])
		r.result = &Result{Value: b}
		r.resultNil = vals[0] == nil
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

// bundleOf merges the interpreted findings with the native convention.
func bundleOf(v any, parts map[string]any) Bundle {
	var b display.Bundle
	if len(parts) > 0 && !onlyText(parts) {
		b = display.Bundle{}
	} else {
		b = display.Render(v)
	}
	for k, x := range parts {
		switch k {
		case "image/png", "image/jpeg":
			if data, ok := x.([]byte); ok {
				b[k] = base64.StdEncoding.EncodeToString(data)
			}
		case "image/svg+xml":
			if data, ok := x.([]byte); ok {
				b[k] = string(data)
			}
		case "error":
		default:
			b[k] = x
		}
	}
	if img, ok := v.(image.Image); ok && b["image/png"] == nil {
		for k, x := range display.Render(img) {
			if _, have := b[k]; !have {
				b[k] = x
			}
		}
	}
	if _, ok := b["text/plain"]; !ok {
		b["text/plain"] = display.Text(v)
	}
	return Bundle(b)
}

func onlyText(p map[string]any) bool {
	for k := range p {
		if k != "text/plain" {
			return false
		}
	}
	return true
}

func (r *runtimeState) symbols(it *Interp) map[string]reflect.Value {
	r.it = it
	return map[string]reflect.Value{
		"Show":    reflect.ValueOf(r.show),
		"Capture": reflect.ValueOf(r.capture),
		"Display": reflect.ValueOf(func(v any, parts map[string]any) {
			display.Show(display.Bundle(bundleOf(unwrapInterpreted(v), parts)))
		}),
		"Render": reflect.ValueOf(func(v any, parts map[string]any) display.Bundle {
			return display.Bundle(bundleOf(unwrapInterpreted(v), parts))
		}),
		"GoPanic": reflect.ValueOf(func(v any) {
			it.goroutinePanic(unwrapInterpreted(v))
		}),
		"Clear":         reflect.ValueOf(clearValue),
		"ErrorsAs":      reflect.ValueOf(errorsAs),
		"ErrorsIs":      reflect.ValueOf(errorsIs),
		"NativeError":   reflect.ValueOf(nativeError),
		"IsNativeError": reflect.ValueOf(isNativeError),
		"ErrorKey":      reflect.ValueOf(errorKey),
		"FmtRaw":        reflect.ValueOf(unwrapInterpreted),
		"FmtStruct": reflect.ValueOf(func(raw any, names []string, vals []any) any {
			return fmtStruct{raw: unwrapInterpreted(raw), names: names, vals: vals}
		}),
		"FmtAs": reflect.ValueOf(func(v any, s string) any {
			return fmtAs{raw: unwrapInterpreted(v), s: s}
		}),
		"WrapError":   reflect.ValueOf(wrapError),
		"FmtMap":      reflect.ValueOf(newFmtMap),
		"FmtMapText":  reflect.ValueOf(fmtMapText),
		"Interpreted": reflect.ValueOf(mayHaveInterpretedMethods),
		"Defer": reflect.ValueOf(func(f func()) {
			r.mu.Lock()
			r.deferred = append(r.deferred, f)
			r.mu.Unlock()
		}),
		"Recover": reflect.ValueOf(func() any {
			r.mu.Lock()
			defer r.mu.Unlock()
			if !r.panicking {
				return nil
			}
			r.panicking = false
			return r.panicVal
		}),
	}
}

// mayHaveInterpretedMethods tells whether v's type could carry methods
// that native code cannot see: a type built by the interpreter has no
// name (or no package path). Native values are rendered natively, which is
// both faster and exact.
func mayHaveInterpretedMethods(v any) bool {
	t := reflect.TypeOf(unwrapInterpreted(v))
	if t == nil {
		return false
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() == "" || t.Name() == ""
}

// unwrapInterpreted returns the Go value inside yaegi's internal wrapper
// for interpreted values stored in interfaces (interp.valueInterface), which
// is what native code receives for "any" arguments coming from []any.
func unwrapInterpreted(v any) any {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Kind() != reflect.Struct || rv.Type().PkgPath() != "github.com/traefik/yaegi/interp" {
		return v
	}
	f, ok := rv.Type().FieldByName("value")
	if !ok || f.Type != reflect.TypeOf(reflect.Value{}) {
		return v
	}
	cp := reflect.New(rv.Type()).Elem()
	cp.Set(rv)
	inner := *(*reflect.Value)(unsafe.Pointer(cp.FieldByIndex(f.Index).UnsafeAddr()))
	if !inner.IsValid() {
		return nil
	}
	if inner.Kind() == reflect.Interface {
		if inner.IsNil() {
			return nil
		}
		inner = inner.Elem()
	}
	if !inner.CanInterface() {
		return v
	}
	return unwrapInterpreted(inner.Interface())
}

// errorsAs is errors.As for interpreted error types: native errors.As
// sees yaegi's wrapper instead of the cell's type.
func errorsAs(err error, target any) bool {
	tv := reflect.ValueOf(unwrapInterpreted(target))
	if !tv.IsValid() || tv.Kind() != reflect.Pointer || tv.IsNil() {
		panic("errors: target must be a non-nil pointer")
	}
	want := tv.Type().Elem()
	return walkErrors(err, func(err error) bool {
		cand := unwrapInterpreted(yaegiErrorValue(err))
		if cv := reflect.ValueOf(cand); cv.IsValid() && cv.Type().AssignableTo(want) {
			tv.Elem().Set(cv)
			return true
		}
		// Native errors.As panics on targets of cell types (their
		// methods are invisible to it).
		return (want.Kind() == reflect.Interface || want.Implements(errorType)) && errors.As(err, target)
	})
}

// walkErrors calls f on err and the errors it wraps, depth first, as
// errors.Is and errors.As visit them (Unwrap() error and Unwrap() []error,
// as errors.Join and fmt.Errorf with several %w make), until f says done.
func walkErrors(err error, f func(error) bool) bool {
	for err != nil {
		if f(err) {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if walkErrors(e, f) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// nativeError returns v as an error when v needs no interpreted method
// to be one: nil, a native error, or a wrapper yaegi already built.
func nativeError(v any) error {
	e, _ := unwrapInterpreted(v).(error)
	return e
}

func isNativeError(v any) bool {
	u := unwrapInterpreted(v)
	_, ok := u.(error)
	return u == nil || ok
}

// wrapError builds yaegi's error wrapper (the type of like, a wrapper yaegi
// built for the same value) around the whole value v with its Error method
// msg. yaegi v0.16.1 builds it around the last field of a struct value
// (getConcreteValue), which breaks type assertions, type switches,
// errors.As and errors.Is on cell error types with value receivers.
func wrapError(v any, msg func() string, like error) error {
	w := reflect.ValueOf(like)
	u := reflect.ValueOf(unwrapInterpreted(v))
	if !w.IsValid() || w.Kind() != reflect.Struct || w.NumField() != 2 || w.Type().Field(0).Name != "IValue" || !u.IsValid() {
		return like
	}
	nw := reflect.New(w.Type()).Elem()
	nw.Field(0).Set(u)
	nw.Field(1).Set(reflect.ValueOf(msg))
	return nw.Interface().(error)
}

// fmtAs formats as fmt formats a value with an Error or String method: s
// for the verbs that call the method, the raw value for the others.
type fmtAs struct {
	raw any
	s   string
}

func (f fmtAs) Format(st fmt.State, verb rune) {
	switch {
	case verb == 'v' && st.Flag('#'), !strings.ContainsRune("vsqxX", verb):
		fmt.Fprintf(st, fmt.FormatString(st, verb), f.raw)
	default:
		fmt.Fprintf(st, fmt.FormatString(st, verb), f.s)
	}
}

// fmtStruct formats a cell struct as fmt would, with its fields' values
// (some of them fmtAs) formatted by the same verb.
type fmtStruct struct {
	raw   any
	names []string
	vals  []any
}

func (f fmtStruct) Format(st fmt.State, verb rune) {
	if verb == 'v' && st.Flag('#') || verb == 'T' || verb == 'p' {
		fmt.Fprintf(st, fmt.FormatString(st, verb), f.raw)
		return
	}
	format := fmt.FormatString(st, verb)
	io.WriteString(st, "{")
	for i, v := range f.vals {
		if i > 0 {
			io.WriteString(st, " ")
		}
		if verb == 'v' && st.Flag('+') {
			io.WriteString(st, f.names[i]+":")
		}
		fmt.Fprintf(st, format, v)
	}
	io.WriteString(st, "}")
}

// errorKey is what == compares for an error: the value inside yaegi's
// wrapper, or the native error itself.
func errorKey(v any) any {
	u := unwrapInterpreted(v)
	if e, ok := u.(error); ok {
		return unwrapInterpreted(yaegiErrorValue(e))
	}
	return u
}

// errorsIs is errors.Is for interpreted error values: each conversion of
// one to error makes a new wrapper, so native errors.Is never finds a
// sentinel a cell declared. The values inside the wrappers are compared.
func errorsIs(err, target error) bool {
	if errors.Is(err, target) {
		return true
	}
	if err == nil || target == nil {
		return false
	}
	want := unwrapInterpreted(yaegiErrorValue(target))
	return walkErrors(err, func(err error) bool {
		return sameValue(unwrapInterpreted(yaegiErrorValue(err)), want)
	})
}

// sameValue is a == b for values of one comparable type.
func sameValue(a, b any) (same bool) {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta == nil || ta != tb || !ta.Comparable() {
		return false
	}
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

// yaegiErrorValue returns the interpreted value inside yaegi's error
// wrapper (a struct with the value in field IValue), or err itself.
func yaegiErrorValue(err error) any {
	rv := reflect.ValueOf(err)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() == reflect.Struct && rv.Type().PkgPath() == "github.com/traefik/yaegi/interp" {
		if f := rv.FieldByName("IValue"); f.IsValid() && f.CanInterface() {
			return f.Interface()
		}
	}
	return err
}

// clearValue is the builtin clear: delete a map's entries, zero a slice.
func clearValue(x any) {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Map, reflect.Slice:
		v.Clear()
	}
}

// goroutinePanic reports a panic in a goroutine a cell started (the
// rewriter wraps every go statement so it cannot kill the process).
func (it *Interp) goroutinePanic(v any) {
	stack := it.io.interpStderr.take()
	msg := "panic in goroutine: " + panicMessage(v)
	for _, s := range stack {
		msg += "\n  " + s
	}
	if out := it.io.output(); out != nil {
		out.Stderr(msg + "\n")
	}
}

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
		"Print":   reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fprint(stdout, a...) }),
		"Printf":  reflect.ValueOf(func(f string, a ...any) (int, error) { return fmt.Fprintf(stdout, f, a...) }),
		"Println": reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fprintln(stdout, a...) }),
		"Scan":    reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fscan(stdin, a...) }),
		"Scanf":   reflect.ValueOf(func(f string, a ...any) (int, error) { return fmt.Fscanf(stdin, f, a...) }),
		"Scanln":  reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fscanln(stdin, a...) }),
	}
}

// fmtFieldSymbols replaces fmt's formatting functions with ones that clean
// cell structs' field names (see cleanFieldNames). They go under a key
// that does not make yaegi install its own Printf over them, with the
// interface wrappers yaegi uses for the originals (so fmt still sees the
// String and Error methods of cell types).
func fmtFieldSymbols(stdout io.Writer, hidden *atomic.Pointer[map[string]bool]) interp.Exports {
	printf := reflect.ValueOf(func(f string, a ...any) (int, error) {
		return io.WriteString(stdout, cleanFieldNames(fmt.Sprintf(f, a...), f, a, hidden))
	})
	sprintf := reflect.ValueOf(func(f string, a ...any) string {
		return cleanFieldNames(fmt.Sprintf(f, a...), f, a, hidden)
	})
	fprintf := reflect.ValueOf(func(w io.Writer, f string, a ...any) (int, error) {
		return io.WriteString(w, cleanFieldNames(fmt.Sprintf(f, a...), f, a, hidden))
	})
	// Print and Println are the engine's too (yaegi's stdio fix replaced
	// them), so that they get the wrappers below.
	print := reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fprint(stdout, a...) })
	println := reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fprintln(stdout, a...) })
	// yaegi's lists (Formatter, Stringer) lack error: fmt showed a cell
	// type's value with an Error method as a plain struct. error comes
	// before Stringer, as fmt prefers Error.
	wrappers := []reflect.Type{
		reflect.TypeOf((*fmt.Formatter)(nil)).Elem(),
		errorType,
		reflect.TypeOf((*fmt.Stringer)(nil)).Elem(),
	}
	mt := map[reflect.Value][]reflect.Type{}
	for _, f := range []reflect.Value{printf, sprintf, fprintf, print, println,
		reflect.ValueOf(fmt.Sprint), reflect.ValueOf(fmt.Sprintln), reflect.ValueOf(fmt.Fprint),
		reflect.ValueOf(fmt.Fprintln), reflect.ValueOf(fmt.Errorf)} {
		mt[f] = wrappers
	}
	return interp.Exports{
		"fmt/./fmt": {"Printf": printf, "Sprintf": sprintf, "Fprintf": fprintf, "Print": print, "Println": println},
		".":         {"MapTypes": reflect.ValueOf(mt)},
	}
}

// cleanFieldNames undoes, in what %+v, %#v and %T print for cell-defined
// structs, yaegi's renaming of unexported fields (x becomes Xx) and the
// engine's hiding tags. hidden holds the unexported field names of the
// session's struct types.
func cleanFieldNames(out, format string, args []any, hidden *atomic.Pointer[map[string]bool]) string {
	if !strings.Contains(format, "%+v") && !strings.Contains(format, "%#v") && !strings.Contains(format, "%T") {
		return out
	}
	cell := false
	for _, a := range args {
		if mayHaveInterpretedMethods(a) {
			cell = true
		}
	}
	names := hidden.Load()
	if !cell || names == nil || len(*names) == 0 {
		return out
	}
	// %T prints tags quoted: the engine's alone, or in front of the cell's.
	q := strconv.Quote(hiddenTags)
	out = strings.ReplaceAll(out, " "+q, "")
	out = strings.ReplaceAll(out, q[:len(q)-1], `"`)
	return xField.ReplaceAllStringFunc(out, func(m string) string {
		if (*names)[m[1:]] {
			return m[1:]
		}
		return m
	})
}

var xField = regexp.MustCompile(`\bX[a-z_][A-Za-z0-9_]*\b`)

// logSymbols points the log package at the stderr pipe, with Fatal
// panicking instead of exiting the kernel.
func logSymbols(w io.Writer) map[string]reflect.Value {
	l := log.New(w, "", log.LstdFlags)
	return map[string]reflect.Value{
		"Fatal":     reflect.ValueOf(l.Panic),
		"Fatalf":    reflect.ValueOf(l.Panicf),
		"Fatalln":   reflect.ValueOf(l.Panicln),
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

// preloaded are the packages a cell uses without importing them.
var preloaded = []struct{ name, path string }{
	{"fmt", "fmt"}, {"log", "log"}, {"math", "math"}, {"strings", "strings"}, {"sort", "sort"},
	{"strconv", "strconv"}, {"errors", "errors"}, {"time", "time"}, {"os", "os"},
	{"bits", "math/bits"}, {"rand", "math/rand"}, {"big", "math/big"},
	{"bytes", "bytes"}, {"bufio", "bufio"}, {"unicode", "unicode"}, {"utf8", "unicode/utf8"},
	{"sync", "sync"}, {"atomic", "sync/atomic"}, {"context", "context"}, {"image", "image"},
	{"color", "image/color"}, {"io", "io"}, {"json", "encoding/json"}, {"regexp", "regexp"},
	{"slices", "slices"}, {"maps", "maps"}, {"cmp", "cmp"}, {"iter", "iter"},
	{"games", "grundy/stdlib/games"}, {"solve", "grundy/stdlib/solve"},
	{"entail", "grundy/stdlib/entail"}, {"known", "grundy/stdlib/known"},
	{"progress", "grundy/stdlib/progress"}, {"plots", "grundy/plots"},
	{"display", "grundy/engine/display"},
}

// aliasPackages are provided as interpreted source by the engine.
var aliasPackages = map[string]bool{"slices": true, "maps": true, "cmp": true, "iter": true}

func (it *Interp) loadPrelude() error {
	for i, src := range genericSources {
		f, err := parser.ParseFile(it.fset, fmt.Sprintf("grundy_generic%d.go", i), src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if _, err := it.yi.CompileAST(f); err != nil {
			return err
		}
	}
	// Imports are per file in yaegi: cells and the prelude all use the
	// session's file name, so they share them.
	imports := "package main\nimport (\n"
	for _, p := range preloaded {
		if _, ok := symbolsHave(p.path); !ok {
			continue
		}
		it.pkgs[p.name] = p.path
		if aliasPackages[p.path] {
			// Compiled source packages are visible under their name already.
			continue
		}
		imports += fmt.Sprintf("\t%s %q\n", p.name, p.path)
	}
	imports += "\tgrundyrt \"grundyrt\"\n)\n"
	for _, src := range []string{imports, preludeSource} {
		f, err := parser.ParseFile(it.fset, it.name, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		prog, err := it.yi.CompileAST(f)
		if err != nil {
			return err
		}
		if _, err := it.yi.Execute(prog); err != nil {
			return err
		}
	}
	return nil
}

// symbolsHave reports whether a package can be imported (a native table or
// engine-provided source).
func symbolsHave(path string) (string, bool) {
	if aliasPackages[path] {
		return path, true
	}
	key := path + "/" + importName(path)
	if _, ok := stdlib.Symbols[key]; ok {
		return key, true
	}
	if _, ok := symbols.Symbols[key]; ok {
		return key, true
	}
	return "", false
}

// fmtMap prints a map of cell-defined Stringers as fmt would: keys in
// fmt's order (by the keys' values), each key and value by its String
// method (the interpreted hook computed the texts).
type fmtMap struct{ keys, vals []string }

func newFmtMap(keys []any, keyText, valText []string) any {
	idx := make([]int, len(keys))
	vals := make([]reflect.Value, len(keys))
	for i := range idx {
		idx[i] = i
		vals[i] = reflect.ValueOf(unwrapInterpreted(keys[i]))
	}
	sort.SliceStable(idx, func(a, b int) bool {
		return compareKeys(vals[idx[a]], vals[idx[b]], keyText[idx[a]], keyText[idx[b]]) < 0
	})
	m := fmtMap{}
	for _, i := range idx {
		m.keys = append(m.keys, keyText[i])
		m.vals = append(m.vals, valText[i])
	}
	return m
}

func (m fmtMap) String() string {
	var b strings.Builder
	b.WriteString("map[")
	for i := range m.keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(m.keys[i] + ":" + m.vals[i])
	}
	b.WriteString("]")
	return b.String()
}

func (m fmtMap) Format(f fmt.State, verb rune) { io.WriteString(f, m.String()) }

func fmtMapText(v any) (string, bool) {
	m, ok := v.(fmtMap)
	if !ok {
		return "", false
	}
	return m.String(), true
}

// compareKeys orders map keys as fmt does (numbers, strings, bools,
// structs and arrays field by field), falling back on their texts.
func compareKeys(a, b reflect.Value, at, bt string) int {
	if !a.IsValid() || !b.IsValid() || a.Kind() != b.Kind() {
		return strings.Compare(at, bt)
	}
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmpOrdered(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmpOrdered(a.Uint(), b.Uint())
	case reflect.Float32, reflect.Float64:
		return cmpOrdered(a.Float(), b.Float())
	case reflect.String:
		return strings.Compare(a.String(), b.String())
	case reflect.Bool:
		switch {
		case a.Bool() == b.Bool():
			return 0
		case !a.Bool():
			return -1
		}
		return 1
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if c := compareKeys(a.Field(i), b.Field(i), at, bt); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if c := compareKeys(a.Index(i), b.Index(i), at, bt); c != 0 {
				return c
			}
		}
		return 0
	}
	return strings.Compare(at, bt)
}

func cmpOrdered[T int64 | uint64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
