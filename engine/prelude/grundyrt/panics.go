package grundyrt

import (
	"fmt"
	"log"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	rterrors "grundy/engine/prelude/grundyrt/runtime"
)

// Panics. yaegi v0.16.1 raises an interpreted panic(v) with v in a
// reflect.Value (interp/run.go, _panic), so recover() returned the
// reflect.Value and r.(T) failed; a value of a cell type lost its name
// (panic(Code(7)) printed 7, Go main.Code(7)). The compatibility passes
// raise panic(Panic(x, desc)) for values whose types need the printer and
// call recover() as Recovered(recover()): a cell sees the value it
// panicked with, and PanicText prints it as Go's runtime does.

// panicValue is a value a cell panicked with, and its type.
type panicValue struct{ a *typedArg }

// Panic is v for panic(v), with its type as the oracle describes it; for
// a nil v, the *runtime.PanicNilError Go's panic raises instead (the
// interpreter raised nil, which recover() could not tell from no panic).
func (ts *Types) Panic(v any, desc string, methods ...any) any {
	if v == nil || nilBox(v) {
		return panicNil
	}
	return panicValue{&typedArg{v: v, t: ts.desc(desc, methods), ts: ts}}
}

// nilBox reports whether v is yaegi's box of a nil interface value (a nil
// value of a cell's interface type put in an any: var s Shape; panic(s)).
func nilBox(v any) bool {
	rv := reflect.ValueOf(v)
	if !isBox(rv.Type()) {
		return false
	}
	_, _, ok := unbox(rv)
	return !ok
}

// reflectPanic is a panic reflect raises in Go, raised by the engine's
// stand-in for a reflect call of the cells' (ValueField): recovered as
// the string it is, not taken for the interpreter's own index through
// reflect (runtimePanic).
type reflectPanic string

// panicNil is the runtime's own *runtime.PanicNilError (it has no
// constructor), raised by a panic(nil) of compiled code.
var panicNil = func() (e any) {
	defer func() { e = recover() }()
	panic(nil)
}()

// Format prints the value as fmt would print it (native code that
// recovers a panic, fmt's own catchPanic among them, prints it).
func (p panicValue) Format(st fmt.State, verb rune) { p.a.Format(st, verb) }

// Recovered is what recover() returns in Go for what the interpreter's
// recover() returned: the value itself, not the reflect.Value holding it;
// the runtime's error, not reflect's words, for an index out of range or
// a nil pointer the interpreter met through reflect. A panic stopped so
// is over: OnRecover forgets what the interpreter wrote of the frames it
// unwound.
func (ts *Types) Recovered(v any) any {
	r := ts.recoveredValue(v)
	if r != nil && ts.OnRecover != nil {
		ts.OnRecover() // (not for a recover() that stopped nothing)
	}
	return r
}

// PanicAgain is the value to raise again, by an interpreted panic, for
// what an interpreted recover() returned (the prelude's sync.OnceValue
// panics with its function's panic on every call): the interpreter's
// reflect.Value taken off, so that the next panic puts the value in one
// reflect.Value again, not in two (a cell recovered "<int Value>" for
// panic(42)). A cell's typed panic value stays as it is, for Recovered.
func PanicAgain(v any) any {
	if rv, ok := v.(reflect.Value); ok {
		if !rv.IsValid() || !rv.CanInterface() {
			return nil
		}
		return rv.Interface()
	}
	return v
}

// recoveredValue is Recovered without stopping the panic.
func (ts *Types) recoveredValue(v any) any {
	// (In as many reflect.Values as interpreted code raised it again:
	// iter.Pull's next raises its iterator's panic as recover() gave it.)
	for {
		rv, ok := v.(reflect.Value)
		if !ok {
			break
		}
		if !rv.IsValid() || !rv.CanInterface() {
			return nil
		}
		v = rv.Interface()
	}
	if x, ok := v.(reflectPanic); ok {
		return string(x) // (reflect's own words, not the interpreter's)
	}
	if x, ok := v.(panicValue); ok {
		return x.a.v
	}
	if e := ts.runtimePanic(v); e != nil {
		return e
	}
	return v
}

// runtimePanic is the runtime error Go would have raised where the
// interpreter raised reflect's panic v, or nil when v is not one. (Asked
// as its own question: comparing what Recovered returns with v panics
// when v is a slice or map, as panic([]int{1}) raises.)
func (ts *Types) runtimePanic(v any) error {
	switch x := v.(type) {
	case string:
		return ts.reflectPanic(x)
	case *reflect.ValueError:
		if x.Kind == reflect.Invalid || x.Kind == reflect.Pointer {
			// The interpreter's nil dereference, through reflect.
			return runtimeError("invalid memory address or nil pointer dereference")
		}
	case error:
		return ts.reflectPanic(x.Error())
	}
	return nil
}

// The runtime errors the runtime would have raised where the interpreter
// raised reflect's (package runtime names them as Go's runtime does).
var (
	runtimeError   = rterrors.ErrorString
	plainError     = rterrors.PlainError
	boundsError    = rterrors.BoundsError
	assertionError = rterrors.NewTypeAssertionError
)

// Exit is the panic value of os.Exit in a cell: the engine stops the
// cell, and a script ends with the code.
type Exit int

// LogFatal is the method value l.Fatal of a *log.Logger: Go's logs and
// exits with status 1 (the process is the session's: the cell stops as
// for os.Exit(1)). LogFatalf and LogFatalln likewise.
func LogFatal(l *log.Logger) func(v ...any) {
	return func(v ...any) {
		l.Output(2, fmt.Sprint(v...))
		panic(Exit(1))
	}
}

// LogFatalf: see LogFatal.
func LogFatalf(l *log.Logger) func(format string, v ...any) {
	return func(format string, v ...any) {
		l.Output(2, fmt.Sprintf(format, v...))
		panic(Exit(1))
	}
}

// LogFatalln: see LogFatal.
func LogFatalln(l *log.Logger) func(v ...any) {
	return func(v ...any) {
		l.Output(2, fmt.Sprintln(v...))
		panic(Exit(1))
	}
}

// NilValueMethod panics as Go's wrapper for the value method method
// ("main.Code.Error") does when called through a nil pointer to its
// type (typ, "Code").
func NilValueMethod(method, typ string) string {
	panic(plainError("value method " + method + " called using nil *" + typ + " pointer"))
}

// NilDeref panics with the runtime's nil dereference error, as Go does
// where the interpreter would not (a method value of a nil interface).
func NilDeref() {
	panic(runtimeError("invalid memory address or nil pointer dereference"))
}

// RangeContinued panics as Go's runtime does when a function iterator
// calls yield again after the loop body returned false (break, or a jump
// out of the loop), or once the loop is over (exhausted: the iterator
// returned).
func RangeContinued(exhausted bool) {
	if exhausted {
		panic(runtimeError("range function continued iteration after whole loop exit"))
	}
	panic(runtimeError("range function continued iteration after function for loop body returned false"))
}

// RangeRecovered panics as Go's runtime does when a function iterator
// recovers a panic of its loop's body and returns.
func RangeRecovered() {
	panic(runtimeError("range function recovered a loop body panic and did not resume panicking"))
}

// AssertionError is the runtime's error for x.(iface) failing, iface
// missing method (Go's message names x's dynamic type).
func (ts *Types) AssertionError(v any, iface, method string) error {
	if v == nil {
		return assertionError("interface conversion: interface is nil, not " + iface)
	}
	_, t, _ := (&typedArg{v: v, t: &tinfo{kind: tkDynamic}, ts: ts}).resolve()
	if method == "" {
		return assertionError("interface conversion: " + t.str + " is not " + iface)
	}
	return assertionError("interface conversion: " + t.str + " is not " + iface + ": missing method " + method)
}

var cellPosition = regexp.MustCompile(`^[^\s:]+:\d+:\d+: `)

// reflectPanic is the runtime's error for a panic the interpreter raised
// in reflect's words, or its own with a position; nil for others.
func (ts *Types) reflectPanic(msg string) error {
	switch {
	case strings.HasPrefix(msg, "reflect: ") && strings.HasSuffix(msg, " index out of range"),
		strings.HasPrefix(msg, "reflect.Value.Index: "):
		return boundsError("index out of range")
	case strings.HasPrefix(msg, "reflect.Value.Slice") && strings.Contains(msg, "out of"),
		strings.HasPrefix(msg, "reflect.Value.Slice3") && strings.Contains(msg, "out of"):
		return boundsError("slice bounds out of range")
	case strings.HasPrefix(msg, "reflect: call of reflect.Value.") && strings.HasSuffix(msg, " on zero Value"),
		strings.HasPrefix(msg, "reflect: indirection through nil pointer"),
		msg == "reflect: Method on nil interface value",
		msg == "reflect.Value.Call: call of nil function":
		return runtimeError("invalid memory address or nil pointer dereference")
	case msg == "reflect.MakeSlice: negative len", msg == "runtime: allocation size out of range":
		return runtimeError("makeslice: len out of range")
	case msg == "reflect.MakeSlice: negative cap", msg == "reflect.MakeSlice: len > cap":
		return runtimeError("makeslice: cap out of range")
	case msg == "reflect.MakeChan: negative buffer size":
		return plainError("makechan: size out of range")
	case strings.HasPrefix(msg, "reflect: cannot convert slice with length "):
		// "... to array with length 4", "... to pointer to array with length 4"
		if n, m, ok := strings.Cut(strings.TrimPrefix(msg, "reflect: cannot convert slice with length "), " to "); ok {
			if _, l, ok := strings.Cut(m, " with length "); ok {
				return boundsError("cannot convert slice with length " + n + " to array or pointer to array with length " + l)
			}
		}
	}
	if t, ok := strings.CutPrefix(msg, "hash of unhashable type: "); ok {
		// The map's words (internal/runtime/maps) for a key reflect
		// stores; compiled code's are the runtime's.
		return runtimeError("hash of unhashable type " + ts.keyTypeNames(t))
	}
	if msg == uncomparableKeyPanic {
		return runtimeError("comparing uncomparable type " + ts.keyTypeNames(uncomparableKeyType))
	}
	for _, m := range []string{"comparing uncomparable type ", "hash of unhashable type "} {
		if t, ok := strings.CutPrefix(msg, "runtime error: "+m); ok && ts.keyTypeNames(t) != t {
			return runtimeError(m + ts.keyTypeNames(t))
		}
	}
	if loc := cellPosition.FindString(msg); loc != "" && strings.HasPrefix(msg[len(loc):], "interface conversion: ") {
		return assertionError(ts.withSource(ts.typeNames(msg[len(loc):])))
	}
	return nil
}

// keyTypeNames is typeNames of t, a type a panic of a map or of == names:
// the key the engine made of an uncomparable value (uncomparableKey) is
// named by the type of the last such key made, the one the panic is on.
func (ts *Types) keyTypeNames(t string) string {
	if t != uncomparableKeyType {
		return ts.typeNames(t)
	}
	name, _ := lastUncomparable.Load().(string)
	if d := ts.byName(name); d != nil {
		name = d.str // (a hidden composite's box: []main.Heap)
	}
	return name
}

// NoteAssertSources notes, by a concrete type the session's one-value
// assertions assert to, the static type of the values they assert (see
// the compatibility pass assertSources); a type noted with two is noted
// with none.
func (ts *Types) NoteAssertSources(m map[string]string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.sources == nil {
		ts.sources = map[string]string{}
	}
	for t, src := range m {
		if old, ok := ts.sources[t]; ok && old != src {
			src = ""
		}
		ts.sources[t] = src
	}
}

// withSource is the interpreter's message for a failed assertion to a
// concrete type with the asserted value's static type where the session
// notes one: the interpreter says "interface {}" for any, and, from a
// native interface, names a missing method as if the type were one.
func (ts *Types) withSource(msg string) string {
	const prefix = "interface conversion: "
	rest := strings.TrimPrefix(msg, prefix)
	var dyn, want string
	if x, ok := strings.CutPrefix(rest, "interface {} is "); ok {
		i := strings.LastIndex(x, ", not ")
		if i < 0 {
			return msg
		}
		dyn, want = x[:i], x[i+len(", not "):]
	} else if i := strings.Index(rest, " is not "); i >= 0 {
		j := strings.LastIndex(rest, ": missing method ")
		if j < i {
			return msg
		}
		dyn, want = rest[:i], rest[i+len(" is not "):j]
	} else {
		return msg
	}
	ts.mu.Lock()
	src := ts.sources[want]
	ts.mu.Unlock()
	if src == "" {
		return msg
	}
	return prefix + src + " is " + dyn + ", not " + want
}

// typeNames is a type as reflect writes it with the interpreter's struct
// types for a cell's types named as Go names them.
func (ts *Types) typeNames(t string) string {
	return localTypeName(ts.withNames(renameCellStructs(t)))
}

// withNames is a message of the interpreter's with the reflect types of the
// struct types cells declared replaced by their names (those of the
// same structure as another are left).
func (ts *Types) withNames(msg string) string {
	ts.mu.Lock()
	var olds []string
	names := map[string]string{}
	for rt, list := range ts.byRType {
		if len(list) == 1 {
			olds = append(olds, rt.String())
			names[rt.String()] = list[0].str
		}
	}
	ts.mu.Unlock()
	// Longest first: one struct's text can hold another's.
	sort.Slice(olds, func(i, j int) bool { return len(olds[i]) > len(olds[j]) })
	for _, o := range olds {
		msg = strings.ReplaceAll(msg, o, names[o])
	}
	return msg
}

// PanicText is what Go's runtime prints after "panic: " for a panic's
// value v (see printpanicval in runtime/error.go): an error's Error, a
// Stringer's String, a number or string as print prints it, named by its
// type when the type is not predeclared (main.Code(7)), and otherwise
// the type in parentheses, then (where the runtime prints an address)
// the value as %v prints it. Newlines are followed by a tab.
func (ts *Types) PanicText(v any) string {
	v = raised(v)
	var a *typedArg
	switch x := v.(type) {
	case nil:
		return "nil"
	case reflectPanic:
		v = string(x)
		a = &typedArg{v: v, t: &tinfo{kind: tkDynamic}, ts: ts}
	case panicValue:
		a = x.a
	default:
		if err := ts.runtimePanic(x); err != nil {
			return indented(err.Error())
		}
		a = &typedArg{v: v, t: &tinfo{kind: tkDynamic}, ts: ts}
	}
	val, t, w := a.resolve()
	if !val.IsValid() {
		return "nil"
	}
	m, _ := methodsOf(ts, val, t, w)
	switch {
	case m.error != nil:
		return indented(callText(m.error))
	case m.string != nil:
		return indented(callText(m.string))
	}
	var s string
	switch val.Kind() {
	case reflect.Bool:
		s = strconv.FormatBool(val.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		s = strconv.FormatInt(val.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		s = strconv.FormatUint(val.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		s = strconv.FormatFloat(val.Float(), 'g', -1, val.Type().Bits())
	case reflect.Complex64, reflect.Complex128:
		s = strconv.FormatComplex(val.Complex(), 'g', -1, val.Type().Bits())
		if predeclared(t) {
			return s
		}
		return t.str + s
	case reflect.String:
		if predeclared(t) {
			return indented(val.String())
		}
		return t.str + `("` + indented(val.String()) + `")`
	default:
		return "(" + t.str + ") " + Sprint(a)
	}
	if predeclared(t) {
		return s
	}
	return t.str + "(" + s + ")"
}

// callText calls a method for PanicText; a panic in it is Go's "panic
// while printing panic value".
func callText(f func() string) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprint("panic while printing panic value: ", r)
		}
	}()
	return f()
}

// predeclared reports whether t is a predeclared type (print prints its
// values bare).
func predeclared(t *tinfo) bool { return !strings.Contains(t.str, ".") }

func indented(s string) string { return strings.ReplaceAll(s, "\n", "\n\t") }

// cellReturn is what a return among a cell's statements raises (see
// compat's cellReturns): the cell ends there, as a function returns.
type cellReturn struct{}

// Return ends the cell that calls it among its statements.
func Return() { panic(cellReturn{}) }

// IsReturn reports whether a panic's value (or the reflect.Value the
// interpreter raised it in) is a cell's return.
func IsReturn(v any) bool {
	_, ok := raised(v).(cellReturn)
	return ok
}

// raised is the value an interpreted panic(v) raised: the interpreter
// raises it in a reflect.Value.
func raised(v any) any {
	if rv, ok := v.(reflect.Value); ok && rv.IsValid() && rv.CanInterface() {
		return rv.Interface()
	}
	return v
}
