package grundyrt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// The printer: fmt's printing, for arguments the compatibility passes
// hand fmt with what the type oracle knows of them (Typed). It walks a
// value as fmt does (see fmt's printValue and handleMethods: methods
// first, then by kind, Go syntax for %#v, map keys in order, pointers
// followed at the top only), naming types by the oracle and calling the
// fmt methods of cell types through the session's closures; the leaves
// (numbers, strings, pointers as numbers) and every value of a native type
// with no cell type in it go to fmt itself, so they print exactly as fmt
// prints them.

// typedArg is a value handed to fmt with its static type.
type typedArg struct {
	v    any // as the interpreter passed it: a raw value, a box or a wrapper
	t    *tinfo
	ts   *Types
	hint any // the interpreter's wrapper of the same value, if any (see TypedParam)
}

// Typed is v, for fmt, with its type as the oracle describes it (see
// fmttypes.go); methods are closures for fmt methods of named types the
// session has not declared (local and generic types), as for Declare.
func (ts *Types) Typed(v any, desc string, methods ...any) any {
	return &typedArg{v: v, t: ts.desc(desc, methods), ts: ts}
}

// TypedParam is Typed for a value whose static type is a type parameter
// (its type is the instantiation's, which only the interpreter knows): v
// as the interpreter passes it to any, and w the same value as it passes
// it to fmt (Wrapped), in a wrapper with its Error, String or Format
// method when it has one. The wrapper names the methods, which tell types
// of one reflect type apart (type C float64 from float64).
func (ts *Types) TypedParam(v, w any) any {
	return &typedArg{v: v, t: &tinfo{kind: tkDynamic}, ts: ts, hint: w}
}

// TypedParams is Typed for a value whose static type is made of type
// parameters (xs []T): desc describes it with a placeholder _P<n> for
// the n-th parameter, and samples are triples, for each parameter, of a
// zero value of its type as the interpreter passes it to any and to fmt
// (see TypedParam), and a pointer to it: what the instance's type
// argument is. A parameter bound to an interface type has no value to
// tell, but its pointer's type may name it (fmt.Stringer).
func (ts *Types) TypedParams(v any, desc string, samples ...any) any {
	params := make([]*tinfo, 0, len(samples)/3)
	for i := 0; i+2 < len(samples); i += 3 {
		var hint reflect.Value
		if h := reflect.ValueOf(samples[i+1]); h.IsValid() && isWrapper(h.Type()) {
			hint = h
		}
		pv, pt, _ := ts.resolveWith(reflect.ValueOf(samples[i]), dynamic, hint)
		if !pv.IsValid() || pt == nil {
			pt = ts.ifaceParam(reflect.TypeOf(samples[i+2]))
		}
		params = append(params, pt)
	}
	return &typedArg{v: v, t: ts.descParams(desc, params), ts: ts}
}

// ifaceParam describes a type parameter bound to an interface type, ptr
// the interpreter's type of a pointer to one: a native interface is
// named by its reflect type; a cell's is kept in a struct of the
// interpreter's, which names nothing.
func (ts *Types) ifaceParam(ptr reflect.Type) *tinfo {
	if ptr == nil || ptr.Kind() != reflect.Pointer || ptr.Elem().Kind() != reflect.Interface || ptr.Elem().NumMethod() == 0 {
		return dynamic
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	str := ptr.Elem().String()
	key := "\x00interface " + str // not a description
	if t := ts.descs[key]; t != nil {
		return t
	}
	t := &tinfo{kind: tkDynamic, str: str}
	ts.descs[key] = t
	return t
}

// dynamic describes a value of an interface type, which it tells.
var dynamic = &tinfo{kind: tkDynamic, str: "interface {}"}

// Wrapped is v as the interpreter hands it to fmt (the engine gives it
// fmt's interface wrappers).
func Wrapped(v any) any { return v }

// Spread is Typed for each element of xs, whose type desc describes
// (fmt.Println(xs...)).
func (ts *Types) Spread(xs []any, desc string) []any {
	t := ts.desc(desc, nil)
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = &typedArg{v: x, t: t, ts: ts}
	}
	return out
}

// Tuple is Spread for the values of a call with several results
// (fmt.Println(f())): descs describes each, one per line group, separated
// by a NUL.
func (ts *Types) Tuple(descs string) func(vals ...any) []any {
	ds := strings.Split(descs, "\x00")
	return func(vals ...any) []any {
		out := make([]any, len(vals))
		for i, v := range vals {
			d := "interface {}"
			if i < len(ds) {
				d = ds[i]
			}
			out[i] = &typedArg{v: v, t: ts.desc(d, nil), ts: ts}
		}
		return out
	}
}

// Format prints the value when native fmt is handed it (a display's %v).
func (a *typedArg) Format(st fmt.State, verb rune) {
	p := newPrinter()
	p.f.setFrom(st, verb)
	p.printArg(a, verb)
	st.Write(p.buf)
}

// HasTyped reports whether any of a needs the printer.
func HasTyped(a []any) bool {
	for _, x := range a {
		if _, ok := x.(*typedArg); ok {
			return true
		}
	}
	return false
}

// Sprintf is fmt.Sprintf for arguments some of which are Typed.
func Sprintf(format string, a ...any) string {
	if !HasTyped(a) {
		return fmt.Sprintf(format, a...)
	}
	p := newPrinter()
	p.doPrintf(format, a)
	return string(p.buf)
}

// Sprint is fmt.Sprint likewise.
func Sprint(a ...any) string {
	if !HasTyped(a) {
		return fmt.Sprint(a...)
	}
	p := newPrinter()
	p.doPrint(a)
	return string(p.buf)
}

// Sprintln is fmt.Sprintln likewise.
func Sprintln(a ...any) string {
	if !HasTyped(a) {
		return fmt.Sprintln(a...)
	}
	p := newPrinter()
	p.doPrintln(a)
	return string(p.buf)
}

// Errorf is fmt.Errorf likewise: the message is the printer's, the error
// of fmt's own types (wrapping the %w arguments as it does).
func Errorf(format string, a ...any) error {
	if !HasTyped(a) {
		return fmt.Errorf(format, a...)
	}
	p := newPrinter()
	p.wrapErrs = true
	p.doPrintf(format, a)
	wrapped := p.wrapped
	if len(wrapped) > 1 && p.reordered {
		wrapped = sortedUnique(wrapped)
	}
	var errs []error
	for _, i := range wrapped {
		if e, ok := nativeArg(a[i]).(error); ok {
			errs = append(errs, e)
		} else if e := cellErrorArg(a[i]); e != nil {
			errs = append(errs, e)
		}
	}
	return fmtError(string(p.buf), len(p.wrapped), errs)
}

// fmtError is the error fmt.Errorf makes of the message msg with n %w
// verbs whose arguments that are errors are errs: a *fmt.wrapError for
// one (its error nil when the argument was none), a *fmt.wrapErrors for
// more, as fmt decides by the verbs, not by the errors among them. It is
// built, not made by fmt.Errorf, which would call the errors' Error
// methods again (and print a panicking one's panic twice).
func fmtError(msg string, n int, errs []error) error {
	var w error
	var wrapped any
	switch {
	case n == 0:
		return errors.New(msg)
	case n == 1:
		w = fmt.Errorf("%w", io.EOF)
		if len(errs) == 1 {
			wrapped = errs[0]
		}
	default:
		w, wrapped = fmt.Errorf("%w%w", io.EOF, io.EOF), errs
	}
	v := reflect.New(reflect.TypeOf(w).Elem())
	set := func(i int, x any) {
		f := v.Elem().Field(i)
		f = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
		if x != nil {
			f.Set(reflect.ValueOf(x))
		}
	}
	set(0, msg)
	set(1, wrapped)
	return v.Interface().(error)
}

func sortedUnique(xs []int) []int {
	out := append([]int(nil), xs...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	k := 0
	for i, x := range out {
		if i == 0 || x != out[k-1] {
			out[k] = x
			k++
		}
	}
	return out[:k]
}

// nativeArg is an argument as the interpreter passed it.
func nativeArg(a any) any {
	if t, ok := a.(*typedArg); ok {
		return t.v
	}
	return a
}

// flags are one verb's flags, as fmt's.
type flags struct {
	minus, plus, sharp, space, zero bool
	plusV, sharpV                   bool
	wid, prec                       int
	widPresent, precPresent         bool
}

func (f *flags) setFrom(st fmt.State, verb rune) {
	f.minus, f.plus, f.sharp, f.space, f.zero = st.Flag('-'), st.Flag('+'), st.Flag('#'), st.Flag(' '), st.Flag('0')
	f.wid, f.widPresent = st.Width()
	f.prec, f.precPresent = st.Precision()
	if verb == 'v' {
		f.sharpV, f.sharp = f.sharp, false
		f.plusV, f.plus = f.plus, false
	}
}

// format is the verb with these flags as a format for fmt.
func (f *flags) format(verb rune) string {
	b := make([]byte, 0, 16)
	b = append(b, '%')
	if f.minus {
		b = append(b, '-')
	}
	if f.plus || f.plusV {
		b = append(b, '+')
	}
	if f.sharp || f.sharpV {
		b = append(b, '#')
	}
	if f.space {
		b = append(b, ' ')
	}
	if f.zero {
		b = append(b, '0')
	}
	if f.widPresent {
		b = fmt.Appendf(b, "%d", f.wid)
	}
	if f.precPresent {
		b = fmt.Appendf(b, ".%d", f.prec)
	}
	return string(utf8.AppendRune(b, verb))
}

type printer struct {
	ts        *Types // the session's, from the first Typed argument
	buf       []byte
	f         flags
	erroring  bool // printing a bad verb's value: no methods
	panicking bool // printing a method's panic
	wrapErrs  bool // Errorf: %w is valid
	wrapped   []int
	reordered bool
}

func newPrinter() *printer { return &printer{} }

// fmt.State, for the Format methods of cell types.

func (p *printer) Write(b []byte) (int, error) {
	p.buf = append(p.buf, b...)
	return len(b), nil
}

func (p *printer) WriteString(s string) (int, error) {
	p.buf = append(p.buf, s...)
	return len(s), nil
}

func (p *printer) Width() (int, bool)     { return p.f.wid, p.f.widPresent }
func (p *printer) Precision() (int, bool) { return p.f.prec, p.f.precPresent }

func (p *printer) Flag(c int) bool {
	switch c {
	case '-':
		return p.f.minus
	case '+':
		return p.f.plus || p.f.plusV
	case '#':
		return p.f.sharp || p.f.sharpV
	case ' ':
		return p.f.space
	case '0':
		return p.f.zero
	}
	return false
}

// types is the session's registry (an empty one when no argument came
// from a session).
func (p *printer) types() *Types {
	if p.ts == nil {
		p.ts = NewTypes()
	}
	return p.ts
}

// native has fmt print x with the current verb and flags.
func (p *printer) native(verb rune, x any) {
	p.buf = fmt.Appendf(p.buf, p.f.format(verb), x)
}

// pad writes s as fmt's padString does.
func (p *printer) pad(s string) {
	f := p.f
	p.buf = fmt.Appendf(p.buf, (&flags{minus: f.minus, zero: f.zero, wid: f.wid, widPresent: f.widPresent}).format('s'), s)
}

// fmtS writes s as %s would (fmt's fmtS: width and precision).
func (p *printer) fmtS(s string) {
	f := p.f
	p.buf = fmt.Appendf(p.buf, (&flags{minus: f.minus, zero: f.zero, wid: f.wid, widPresent: f.widPresent, prec: f.prec, precPresent: f.precPresent}).format('s'), s)
}

func (p *printer) doPrintf(format string, a []any) {
	end := len(format)
	argNum := 0
	afterIndex := false
	for i := 0; i < end; {
		goodArgNum := true
		lasti := i
		for i < end && format[i] != '%' {
			i++
		}
		if i > lasti {
			p.buf = append(p.buf, format[lasti:i]...)
		}
		if i >= end {
			break
		}
		i++
		p.f = flags{}
	flagLoop:
		for ; i < end; i++ {
			switch format[i] {
			case '#':
				p.f.sharp = true
			case '0':
				p.f.zero = true
			case '+':
				p.f.plus = true
			case '-':
				p.f.minus = true
			case ' ':
				p.f.space = true
			default:
				break flagLoop
			}
		}
		argNum, i, afterIndex = p.argNumber(argNum, format, i, len(a), &goodArgNum)
		if i < end && format[i] == '*' {
			i++
			p.f.wid, p.f.widPresent, argNum = intFromArg(a, argNum)
			if !p.f.widPresent {
				p.buf = append(p.buf, "%!(BADWIDTH)"...)
			}
			if p.f.wid < 0 {
				p.f.wid = -p.f.wid
				p.f.minus = true
				p.f.zero = false
			}
			afterIndex = false
		} else {
			p.f.wid, p.f.widPresent, i = parsenum(format, i, end)
			if afterIndex && p.f.widPresent {
				goodArgNum = false
			}
		}
		if i+1 < end && format[i] == '.' {
			i++
			if afterIndex {
				goodArgNum = false
			}
			argNum, i, afterIndex = p.argNumber(argNum, format, i, len(a), &goodArgNum)
			if i < end && format[i] == '*' {
				i++
				p.f.prec, p.f.precPresent, argNum = intFromArg(a, argNum)
				if p.f.prec < 0 {
					p.f.prec = 0
					p.f.precPresent = false
				}
				if !p.f.precPresent {
					p.buf = append(p.buf, "%!(BADPREC)"...)
				}
				afterIndex = false
			} else {
				p.f.prec, p.f.precPresent, i = parsenum(format, i, end)
				if !p.f.precPresent {
					p.f.prec = 0
					p.f.precPresent = true
				}
			}
		}
		if !afterIndex {
			argNum, i, afterIndex = p.argNumber(argNum, format, i, len(a), &goodArgNum)
		}
		if i >= end {
			p.buf = append(p.buf, "%!(NOVERB)"...)
			break
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size
		switch {
		case verb == '%':
			p.buf = append(p.buf, '%')
		case !goodArgNum:
			p.buf = utf8.AppendRune(append(p.buf, "%!"...), verb)
			p.buf = append(p.buf, "(BADINDEX)"...)
		case argNum >= len(a):
			p.buf = utf8.AppendRune(append(p.buf, "%!"...), verb)
			p.buf = append(p.buf, "(MISSING)"...)
		default:
			if verb == 'w' {
				p.wrapped = append(p.wrapped, argNum)
			}
			if verb == 'v' || verb == 'w' {
				p.f.sharpV, p.f.sharp = p.f.sharp, false
				p.f.plusV, p.f.plus = p.f.plus, false
			}
			p.printArg(a[argNum], verb)
			argNum++
		}
	}
	if !p.reordered && argNum < len(a) {
		p.f = flags{}
		p.buf = append(p.buf, "%!(EXTRA "...)
		for i, arg := range a[argNum:] {
			if i > 0 {
				p.buf = append(p.buf, ", "...)
			}
			if t, ok := arg.(*typedArg); ok {
				v, ti, _ := t.resolve()
				if !v.IsValid() {
					p.buf = append(p.buf, "<nil>"...)
					continue
				}
				p.buf = append(p.buf, ti.str...)
				p.buf = append(p.buf, '=')
				p.printArg(arg, 'v')
				continue
			}
			if arg == nil {
				p.buf = append(p.buf, "<nil>"...)
			} else {
				p.buf = append(p.buf, reflect.TypeOf(arg).String()...)
				p.buf = append(p.buf, '=')
				p.printArg(arg, 'v')
			}
		}
		p.buf = append(p.buf, ')')
	}
}

func (p *printer) argNumber(argNum int, format string, i, numArgs int, good *bool) (int, int, bool) {
	if len(format) <= i || format[i] != '[' {
		return argNum, i, false
	}
	p.reordered = true
	index, wid, ok := parseArgNumber(format[i:])
	if ok && 0 <= index && index < numArgs {
		return index, i + wid, true
	}
	*good = false
	return argNum, i + wid, ok
}

func parseArgNumber(format string) (index, wid int, ok bool) {
	if len(format) < 3 {
		return 0, 1, false
	}
	for i := 1; i < len(format); i++ {
		if format[i] == ']' {
			n, ok, newi := parsenum(format, 1, i)
			if !ok || newi != i {
				return 0, i + 1, false
			}
			return n - 1, i + 1, true
		}
	}
	return 0, 1, false
}

func tooLarge(x int) bool { return x > 1e6 || x < -1e6 }

func parsenum(s string, start, end int) (num int, isnum bool, newi int) {
	if start >= end {
		return 0, false, end
	}
	for newi = start; newi < end && '0' <= s[newi] && s[newi] <= '9'; newi++ {
		if tooLarge(num) {
			return 0, false, end
		}
		num = num*10 + int(s[newi]-'0')
		isnum = true
	}
	return
}

func intFromArg(a []any, argNum int) (num int, isInt bool, newArgNum int) {
	newArgNum = argNum
	if argNum < len(a) {
		v := reflect.ValueOf(a[argNum])
		if t, ok := a[argNum].(*typedArg); ok {
			v, _, _ = t.resolve()
		}
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n := v.Int()
			if int64(int(n)) == n {
				num, isInt = int(n), true
			}
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			n := v.Uint()
			if int64(n) >= 0 && uint64(int(n)) == n {
				num, isInt = int(n), true
			}
		}
		newArgNum = argNum + 1
		if tooLarge(num) {
			num, isInt = 0, false
		}
	}
	return
}

func (p *printer) doPrint(a []any) {
	prevString := false
	for i, arg := range a {
		isString := argKind(arg) == reflect.String
		if i > 0 && !isString && !prevString {
			p.buf = append(p.buf, ' ')
		}
		p.f = flags{}
		p.printArg(arg, 'v')
		prevString = isString
	}
}

func (p *printer) doPrintln(a []any) {
	for i, arg := range a {
		if i > 0 {
			p.buf = append(p.buf, ' ')
		}
		p.f = flags{}
		p.printArg(arg, 'v')
	}
	p.buf = append(p.buf, '\n')
}

func argKind(a any) reflect.Kind {
	if t, ok := a.(*typedArg); ok {
		v, _, _ := t.resolve()
		return v.Kind()
	}
	if a == nil {
		return reflect.Invalid
	}
	return reflect.TypeOf(a).Kind()
}

// resolve is the value to print and its type: through the interpreter's
// boxes and wrappers to the dynamic value (invalid for nil) when the
// static type is an interface; w is the wrapper, whose methods call the
// value's.
func (a *typedArg) resolve() (v reflect.Value, t *tinfo, w reflect.Value) {
	var hint reflect.Value
	if h := reflect.ValueOf(a.hint); h.IsValid() && isWrapper(h.Type()) {
		hint = h
	}
	return a.ts.resolveWith(reflect.ValueOf(a.v), a.t, hint)
}

func (ts *Types) resolve(v reflect.Value, t *tinfo) (reflect.Value, *tinfo, reflect.Value) {
	return ts.resolveWith(v, t, reflect.Value{})
}

// resolveWith is resolve with the interpreter's wrapper of the value
// known (invalid if none).
func (ts *Types) resolveWith(v reflect.Value, t *tinfo, hint reflect.Value) (reflect.Value, *tinfo, reflect.Value) {
	var w reflect.Value
	var has []string
	if hint.IsValid() {
		w = hint
		_, has = wrapped(hint)
	}
	for v.IsValid() {
		switch {
		case v.Kind() == reflect.Interface:
			if v.IsNil() {
				return reflect.Value{}, t, w
			}
			if !v.CanInterface() && v.CanAddr() {
				v = readable(v) // (an unexported field's: unbox copies the box)
			}
			v, t = v.Elem(), nil
			continue
		case isBox(v.Type()):
			inner, name, ok := unbox(v)
			if !ok {
				return reflect.Value{}, t, w
			}
			v, t = inner, ts.byName(name)
			continue
		case isWrapper(v.Type()):
			w = v
			v, has = wrapped(v)
			t = nil
			continue
		}
		break
	}
	if !v.IsValid() {
		return v, t, w
	}
	if t == nil || t.kind == tkDynamic {
		t = ts.derive(v.Type(), has...)
	}
	return v, t, w
}

// printArg prints one argument (fmt's printArg).
var reflectValueType = reflect.TypeFor[reflect.Value]()

func (p *printer) printArg(arg any, verb rune) {
	a, ok := arg.(*typedArg)
	if !ok {
		if verb == 'w' && p.wrapErrs {
			if _, isErr := arg.(error); isErr {
				verb = 'v'
			}
		}
		p.native(verb, arg)
		return
	}
	if p.ts == nil {
		p.ts = a.ts
	}
	v, t, w := a.resolve()
	if !v.IsValid() {
		switch verb {
		case 'T', 'v':
			p.pad("<nil>")
		default:
			p.badVerb(verb, reflect.Value{}, nil)
		}
		return
	}
	switch verb {
	case 'T':
		p.fmtS(t.str)
		return
	case 'p':
		p.fmtPointer(v, t, 'p')
		return
	}
	if v.Type() == bytesType && t.str == "[]uint8" {
		// fmt's own case: its %#v names the type []byte (not a []Heap,
		// type Heap uint8, which the interpreter keeps as one).
		p.native(verb, v.Bytes())
		return
	}
	if v.Type() == reflectValueType {
		// fmt's own case too: a reflect.Value prints what it holds, not
		// its String (<int Value>), a cell's struct with its fields'
		// names (%+v said {Xbal:5}), its methods called when it can give
		// its value (fmt's printValue at depth 0).
		held := v.Interface().(reflect.Value)
		if !held.IsValid() {
			p.native(verb, held)
			return
		}
		v, t, w = p.ts.resolve(held, nil)
		switch {
		case !v.IsValid(): // (a nil interface)
			p.native(verb, held)
		case held.CanInterface() && p.handleMethods(v, t, w, verb):
		default:
			p.printValue(v, t, verb, 0, false)
		}
		return
	}
	if p.handleMethods(v, t, w, verb) {
		return
	}
	p.printValue(v, t, verb, 0, false)
}

var bytesType = reflect.TypeOf([]byte(nil))

// methods are the fmt methods a value has, bound to it.
type methods struct {
	format   func(fmt.State, rune)
	goString func() string
	error    func() string
	string   func() string
}

// methodsOf finds v's fmt methods: those of a type cells declared (the
// session's closures), or those native code sees (a native type's, or
// the interpreter's wrapper's).
func methodsOf(ts *Types, v reflect.Value, t *tinfo, w reflect.Value) (m methods, ok bool) {
	if ms, cell := t.methodSet(); cell {
		call := func(fn reflect.Value) func() string {
			if !fn.IsValid() || !v.Type().AssignableTo(fn.Type().In(0)) {
				return nil
			}
			return func() string { return fn.Call([]reflect.Value{v})[0].String() }
		}
		m.error, m.string, m.goString = call(ms.error), call(ms.string), call(ms.goString)
		if fn := ms.format; fn.IsValid() && v.Type().AssignableTo(fn.Type().In(0)) {
			m.format = func(st fmt.State, verb rune) {
				fn.Call([]reflect.Value{v, reflect.ValueOf(&st).Elem(), reflect.ValueOf(verb)})
			}
		}
		return m, true
	}
	x := v
	if w.IsValid() {
		x = w
	} else if !isNativeType(v.Type()) {
		return m, false
	}
	if !x.CanInterface() {
		return m, false
	}
	if c, ok := x.Interface().(context.Context); ok && ts != nil {
		if _, ours := contextStruct(x); ours {
			m.string = func() string { return ts.contextName(c) }
			return m, true
		}
	}
	if rt, ok := x.Interface().(reflect.Type); ok && ts != nil {
		// The interpreter's reflect type of a cell type: its name.
		m.string = func() string { return ts.TypeString(rt) }
		return m, true
	}
	switch i := x.Interface().(type) {
	case fmt.Formatter:
		m.format = i.Format
	}
	if i, ok := x.Interface().(fmt.GoStringer); ok {
		m.goString = i.GoString
	}
	if i, ok := x.Interface().(error); ok {
		m.error = i.Error
	}
	if i, ok := x.Interface().(fmt.Stringer); ok {
		m.string = i.String
	}
	return m, true
}

// isNativeType: values of rt have the methods reflect says (a type the
// interpreter built has none; a pointer to a native type is native).
func isNativeType(rt reflect.Type) bool {
	if rt.Name() != "" {
		return !strings.HasPrefix(rt.PkgPath(), "github.com/traefik/yaegi/")
	}
	return rt.Kind() == reflect.Pointer && rt.Elem().Name() != "" && rt.Elem().PkgPath() != ""
}

// handleMethods is fmt's handleMethods: a Formatter formats itself; %#v
// uses GoString; the verbs that take a string use Error, else String.
func (p *printer) handleMethods(v reflect.Value, t *tinfo, w reflect.Value, verb rune) (handled bool) {
	if p.erroring {
		return false
	}
	m, _ := methodsOf(p.ts, v, t, w)
	if verb == 'w' {
		if m.error == nil || !p.wrapErrs {
			p.badVerb(verb, v, t)
			return true
		}
		verb = 'v'
	}
	if m.format != nil {
		handled = true
		defer p.catchPanic(v, verb, "Format")
		m.format(p, verb)
		return true
	}
	if p.f.sharpV {
		if m.goString != nil {
			handled = true
			defer p.catchPanic(v, verb, "GoString")
			p.fmtS(m.goString())
			return true
		}
		return false
	}
	switch verb {
	case 'v', 's', 'x', 'X', 'q':
		switch {
		case m.error != nil:
			handled = true
			defer p.catchPanic(v, verb, "Error")
			p.native(verb, m.error())
			return true
		case m.string != nil:
			handled = true
			defer p.catchPanic(v, verb, "String")
			p.native(verb, m.string())
			return true
		}
	}
	return false
}

// catchPanic is fmt's catchPanic: a method's panic is printed in its
// place ("<nil>" for a nil pointer receiver).
func (p *printer) catchPanic(v reflect.Value, verb rune, method string) {
	err := recover()
	if err == nil {
		return
	}
	if rv, ok := err.(reflect.Value); ok && rv.IsValid() && rv.CanInterface() {
		// A panic in interpreted code carries its value so.
		err = Unwrap(rv.Interface())
	}
	if _, typed := err.(panicValue); !typed {
		// The runtime's error where the interpreter raised reflect's (a
		// nil dereference).
		err = p.types().Recovered(err)
	}
	if v.Kind() == reflect.Pointer && v.IsNil() {
		p.buf = append(p.buf, "<nil>"...)
		return
	}
	if p.panicking {
		panic(err)
	}
	old := p.f
	p.f = flags{}
	p.buf = utf8.AppendRune(append(p.buf, "%!"...), verb)
	p.buf = append(p.buf, "(PANIC="+method+" method: "...)
	p.panicking = true
	p.native('v', err)
	p.panicking = false
	p.buf = append(p.buf, ')')
	p.f = old
}

// badVerb is fmt's badVerb: %!verb(type=value).
func (p *printer) badVerb(verb rune, v reflect.Value, t *tinfo) {
	p.erroring = true
	defer func() { p.erroring = false }()
	p.buf = utf8.AppendRune(append(p.buf, "%!"...), verb)
	p.buf = append(p.buf, '(')
	if v.IsValid() {
		p.buf = append(p.buf, t.str...)
		p.buf = append(p.buf, '=')
		p.printValue(v, t, 'v', 0, true)
	} else {
		p.buf = append(p.buf, "<nil>"...)
	}
	p.buf = append(p.buf, ')')
}

// printValue is fmt's printValue over the value's reflect type and what
// the oracle knew of it (t, possibly nil); ro: reached through an
// unexported field, where fmt calls no method.
func (p *printer) printValue(v reflect.Value, t *tinfo, verb rune, depth int, ro bool) {
	var w reflect.Value
	if v.IsValid() && (v.Kind() == reflect.Interface || isBox(v.Type()) || isWrapper(v.Type())) {
		static := t
		v, t, w = p.types().resolve(v, t)
		if !v.IsValid() {
			if p.f.sharpV {
				str := "interface {}"
				if static != nil {
					str = static.str
				}
				p.buf = append(p.buf, str...)
				p.buf = append(p.buf, "(nil)"...)
			} else {
				p.buf = append(p.buf, "<nil>"...)
			}
			return
		}
		depth++
	}
	if !v.IsValid() {
		if depth == 0 {
			p.buf = append(p.buf, "<invalid reflect.Value>"...)
		} else if verb == 'v' {
			p.buf = append(p.buf, "<nil>"...)
		} else {
			p.badVerb(verb, v, t)
		}
		return
	}
	t = p.structure(v, t)
	if depth > 0 && !ro && p.handleMethods(v, t, w, verb) {
		return
	}
	if heldFunc(v.Type(), t) != nil {
		// A function type that refers to itself is a struct holding the
		// function to the interpreter (compat's selfFuncs): the function
		// is printed (<nil>, or its address).
		v = v.Field(0)
	}
	switch v.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		p.leaf(v, t, verb)
	case reflect.Map:
		if p.f.sharpV {
			p.buf = append(p.buf, t.str...)
			if v.IsNil() {
				p.buf = append(p.buf, "(nil)"...)
				return
			}
			p.buf = append(p.buf, '{')
		} else {
			p.buf = append(p.buf, "map["...)
		}
		for i, kv := range sortedMap(v) {
			if i > 0 {
				if p.f.sharpV {
					p.buf = append(p.buf, ", "...)
				} else {
					p.buf = append(p.buf, ' ')
				}
			}
			p.printValue(kv[0], t.key, verb, depth+1, ro)
			p.buf = append(p.buf, ':')
			p.printValue(kv[1], t.elem, verb, depth+1, ro)
		}
		if p.f.sharpV {
			p.buf = append(p.buf, '}')
		} else {
			p.buf = append(p.buf, ']')
		}
	case reflect.Struct:
		if !v.CanAddr() && v.CanInterface() && v.NumField() > 0 {
			// Addressable, for its unexported fields' boxes to be read.
			cp := reflect.New(v.Type()).Elem()
			cp.Set(v)
			v = cp
		}
		if p.f.sharpV {
			p.buf = append(p.buf, t.str...)
		}
		p.buf = append(p.buf, '{')
		for i := range structFields(v.Type()) {
			if i > 0 {
				if p.f.sharpV {
					p.buf = append(p.buf, ", "...)
				} else {
					p.buf = append(p.buf, ' ')
				}
			}
			f := t.fields[i]
			if p.f.plusV || p.f.sharpV {
				p.buf = append(p.buf, f.name...)
				p.buf = append(p.buf, ':')
			}
			p.printValue(v.Field(i), f.t, verb, depth+1, ro || !f.exported)
		}
		p.buf = append(p.buf, '}')
	case reflect.Array, reflect.Slice:
		switch verb {
		case 's', 'q', 'x', 'X':
			if v.Type().Elem().Kind() == reflect.Uint8 {
				b := make([]byte, v.Len())
				for i := range b {
					b[i] = byte(v.Index(i).Uint())
				}
				p.native(verb, b)
				return
			}
		}
		if p.f.sharpV {
			p.buf = append(p.buf, t.str...)
			if v.Kind() == reflect.Slice && v.IsNil() {
				p.buf = append(p.buf, "(nil)"...)
				return
			}
			p.buf = append(p.buf, '{')
			for i := range v.Len() {
				if i > 0 {
					p.buf = append(p.buf, ", "...)
				}
				p.printValue(v.Index(i), t.elem, verb, depth+1, ro)
			}
			p.buf = append(p.buf, '}')
		} else {
			p.buf = append(p.buf, '[')
			for i := range v.Len() {
				if i > 0 {
					p.buf = append(p.buf, ' ')
				}
				p.printValue(v.Index(i), t.elem, verb, depth+1, ro)
			}
			p.buf = append(p.buf, ']')
		}
	case reflect.Pointer:
		if depth == 0 && !v.IsNil() && !isBox(v.Type().Elem()) { // (a pointer to a variable of an interface type the cells declare, or any holding a value with methods, points at yaegi's box: an address, as Go prints a pointer to an interface)
			switch e := v.Elem(); e.Kind() {
			case reflect.Array, reflect.Slice, reflect.Struct, reflect.Map:
				p.buf = append(p.buf, '&')
				p.printValue(e, t.elem, verb, depth+1, ro)
				return
			}
		}
		p.fmtPointer(v, t, verb)
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		p.fmtPointer(v, t, verb)
	default:
		p.native(verb, v)
	}
}

// structFields is the number of fields of rt, a struct type, that the
// cell declared: none for one marked empty (see EmptyField), and not the
// fields after them that tell a generic type's instances apart (see
// ParamField).
func structFields(rt reflect.Type) int {
	if emptyMarked(rt) {
		return 0
	}
	n := rt.NumField()
	for n > 0 && strings.HasPrefix(rt.Field(n-1).Name, "X"+ParamField) {
		n--
	}
	return n
}

// structure is t completed by what v's reflect type says where the
// oracle's description says nothing (a native type, an interface's
// dynamic type) or does not fit the value.
func (p *printer) structure(v reflect.Value, t *tinfo) *tinfo {
	fits := t != nil
	if fits {
		switch v.Kind() {
		case reflect.Pointer:
			fits = t.kind == tkPointer && t.elem != nil
		case reflect.Slice, reflect.Array:
			fits = t.kind == tkSlice && t.elem != nil
		case reflect.Map:
			fits = t.kind == tkMap && t.key != nil && t.elem != nil
		case reflect.Struct:
			fits = t.kind == tkStruct && len(t.fields) == structFields(v.Type())
		}
	}
	if fits {
		return t
	}
	d := p.types().derive(v.Type())
	if t != nil && t.str != "" && t.kind != tkDynamic {
		// The oracle's name (a func type with cell types in it), the
		// reflect type's structure.
		c := *d
		c.str, c.named = t.str, t.named
		return &c
	}
	return d
}

// leaf prints a boolean, number or string: by fmt, as a value of the
// basic type, unless the verb is wrong for it (fmt then names the type).
func (p *printer) leaf(v reflect.Value, t *tinfo, verb rune) {
	var x any
	var verbs string // the verbs fmt takes, the first being what %v is
	switch v.Kind() {
	case reflect.Bool:
		x, verbs = v.Bool(), "t"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, verbs = v.Int(), "dbcoOqxXU"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		x, verbs = v.Uint(), "dbcoOqxXU"
	case reflect.Float32:
		x, verbs = float32(v.Float()), "gbGxXfFeE"
	case reflect.Float64:
		x, verbs = v.Float(), "gbGxXfFeE"
	case reflect.Complex64:
		x, verbs = complex64(v.Complex()), "gbGxXfFeE"
	case reflect.Complex128:
		x, verbs = v.Complex(), "gbGxXfFeE"
	case reflect.String:
		x, verbs = v.String(), "sxXq"
	}
	if verb != 'v' && !strings.ContainsRune(verbs, verb) {
		p.badVerb(verb, v, t)
		return
	}
	if verb == 'v' && (p.f.plus || p.f.sharp) {
		// A bad verb's value: %v with the flags as they were, which
		// fmt.Sprintf would take for %+v or %#v.
		verb = rune(verbs[0])
	}
	p.native(verb, x)
}

// fmtPointer is fmt's fmtPointer.
func (p *printer) fmtPointer(v reflect.Value, t *tinfo, verb rune) {
	switch v.Kind() {
	case reflect.Chan, reflect.Func, reflect.Map, reflect.Pointer, reflect.Slice, reflect.UnsafePointer:
	default:
		p.badVerb(verb, v, t)
		return
	}
	u := v.UnsafePointer()
	switch verb {
	case 'v':
		if p.f.sharpV {
			p.buf = append(p.buf, '(')
			p.buf = append(p.buf, t.str...)
			p.buf = append(p.buf, ")("...)
			if u == nil {
				p.buf = append(p.buf, "nil"...)
			} else {
				p.buf = fmt.Appendf(p.buf, "%#x", uintptr(u))
			}
			p.buf = append(p.buf, ')')
			return
		}
		if u == nil {
			p.pad("<nil>")
			return
		}
		// fmt's fmt0x64: hexadecimal, 0x unless the # flag.
		f := p.f
		f.sharp, f.sharpV, f.plusV = !p.f.sharp, false, false
		p.buf = fmt.Appendf(p.buf, f.format('x'), uint64(uintptr(u)))
	case 'p', 'b', 'o', 'd', 'x', 'X':
		p.native(verb, u)
	default:
		p.badVerb(verb, v, t)
	}
}

// Text is v as fmt's %v prints it, v's type being what the interpreter
// says of it (a cell's trailing value, shown), or what Typed gave it.
func (ts *Types) Text(v any) string {
	p := newPrinter()
	p.ts = ts
	p.printArg(ts.typedOrDynamic(v), 'v')
	return string(p.buf)
}

// typedOrDynamic is v as the printer takes it: with the type Typed gave
// it, or else with the type the interpreter says it has.
func (ts *Types) typedOrDynamic(v any) *typedArg {
	if a, ok := v.(*typedArg); ok {
		return a
	}
	return &typedArg{v: v, t: &tinfo{kind: tkDynamic}, ts: ts}
}
