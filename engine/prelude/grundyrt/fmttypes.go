package grundyrt

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// What the printer knows of types. yaegi v0.16.1 builds the types cells
// declare with reflect, which gives them no names and no methods
// (interp/type.go, refType): `type ID int` is int, `type Point struct{...}`
// an unnamed struct whose unexported fields are renamed. The type oracle
// knows better where a value is handed to fmt, and writes what it knows as
// a description (see compat's FmtDesc): the type as Go's reflect would name
// it, with placeholders for named types, then one line per named type:
//
//	[]_0
//	_0 = main.Point = struct { X int; C _1 }
//	_1 = main.Color = int
//	_2 = time.Duration
//
// A named type a cell declared has its underlying type after a second
// " = ", as a native interface type has; other native types have none
// (their reflect types know them). The session
// registers each type its cells declare (Declare) with the closures that
// call its fmt methods, so values found in interfaces, whose static type
// the oracle cannot know, are named and printed too.

// tinfo is what the printer knows of a type beyond its reflect type.
type tinfo struct {
	str    string // the type as reflect.Type.String writes it in Go
	kind   tkind
	elem   *tinfo // pointer, slice and array element; map value
	key    *tinfo // map key
	fields []tfield
	named  *namedType // a type cells declared, with its methods
	under  string     // a named type's underlying type, as str
	// composite: a hidden composite type's (see DeclareComposite), whose
	// values == tells from the composite's bare ones by its name.
	composite bool
}

type tkind uint8

const (
	tkLeaf    tkind = iota // the value's reflect type tells the rest
	tkDynamic              // an interface: the value in it tells
	tkPointer
	tkSlice // slice or array
	tkMap
	tkStruct
)

type tfield struct {
	name     string // as Go names it (an embedded field: its type's name)
	exported bool   // fmt calls no method on what it reaches through an unexported field
	embedded bool
	t        *tinfo
}

// namedType is a type a cell declared: the methods native packages call
// (value and pointer method sets), once declared.
type namedType struct {
	name    string
	methods atomic.Pointer[methodTable]
}

type methodTable struct{ val, ptr methodSet }

// methodSet holds interpreted closures calling a method of T, the value
// first (func(v T) string for String; func(v T, s fmt.State, verb rune) for
// Format; func(v T, target error) bool for Is...): the methods through
// which fmt, errors and encoding/json act on values (see compat's
// CellMethods).
type methodSet struct {
	format, goString, error, string reflect.Value
	is, as, unwrap                  reflect.Value // unwrap: Unwrap() error or Unwrap() []error
	marshalJSON, unmarshalJSON      reflect.Value
	marshalText, unmarshalText      reflect.Value
	isZero                          reflect.Value // for json's omitzero
	// others are the names of the type's other exported methods, which
	// native code does not call: a native interface's wrapper names
	// them (see derive); sigs their signatures (see LaterMethods).
	others []string
	sigs   map[string]string
}

// Types is one session's knowledge of the types its cells declared.
type Types struct {
	mu      sync.Mutex
	rtypes  map[rtypeKey]cellRType // the cellRTypes made (see rtypeOf)
	named   map[string]*namedType
	decl    map[string]*tinfo         // declared types by name
	byRType map[reflect.Type][]*tinfo // declared struct types by the interpreter's reflect type
	descs   map[string]*tinfo         // parsed descriptions
	derived map[reflect.Type]*tinfo   // types known only by their reflect type
	keys    map[mapKey]reflect.Value  // map keys of interface types, by value (InternKey)
	sources map[string]string         // see NoteAssertSources
	seen    map[reflect.Type]bool     // instances of generic types met by NewInstance

	// OnRecover, if set, is called when a cell's recover() stops a panic
	// (see Recovered).
	OnRecover func()
}

// NewTypes is an empty registry.
func NewTypes() *Types {
	return &Types{named: map[string]*namedType{}, decl: map[string]*tinfo{}, byRType: map[reflect.Type][]*tinfo{},
		descs: map[string]*tinfo{}, derived: map[reflect.Type]*tinfo{}, keys: map[mapKey]reflect.Value{}}
}

// Declare registers a type a cell declared: desc describes it (its first
// line names it), ptr is a nil *T (the interpreter's reflect type for T),
// methods are pairs of a key ("main.T.String", "*main.T.Format": the
// method, on T or *T) and a closure calling it.
// It returns true, so that a package-level variable can declare a type.
func (ts *Types) Declare(desc string, ptr any, methods ...any) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.setMethods(methods)
	t := ts.parse(desc)
	if t.named == nil {
		return true
	}
	ts.decl[t.str] = t
	if rt := reflect.TypeOf(ptr); rt != nil && rt.Kind() == reflect.Pointer && rt.Elem().Kind() == reflect.Struct {
		if tag := structName(rt.Elem()); strings.HasPrefix(tag, "main."+LocalType) && tag != t.str {
			// A type declared in a function that compat's
			// localTypeNames declared at the top
			// (main._grundyLocal<pos>_P, named main.P): its values
			// carry the top's name.
			ts.decl[tag] = t
		}
		list := ts.byRType[rt.Elem()]
		for i, o := range list {
			if o.str == t.str {
				list = append(list[:i], list[i+1:]...)
				break
			}
		}
		ts.byRType[rt.Elem()] = append(list, t)
	}
	clear(ts.derived)
	return true
}

// DeclareComposite registers a type the engine declared for a composite
// of cell types (compat's HideComposites, name "main._grundyComposite1")
// as the composite desc describes: the interpreter's box of one of its
// values names it, and its values are printed, named and asserted as the
// composite's ([]main.Celsius).
func (ts *Types) DeclareComposite(name, desc string) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t := ts.parse(desc)
	t.composite = true
	ts.decl[name] = t
	clear(ts.derived)
	return true
}

// setMethods records the closures of methods (see Declare).
func (ts *Types) setMethods(methods []any) {
	tables := map[*namedType]*methodTable{}
	for i := 0; i+1 < len(methods); i += 2 {
		key, _ := methods[i].(string)
		fn := reflect.ValueOf(methods[i+1])
		if _, sig := methods[i+1].(string); fn.IsValid() && fn.Kind() != reflect.Func && !sig {
			continue
		}
		ptr := strings.HasPrefix(key, "*")
		key = strings.TrimPrefix(key, "*")
		dot := strings.LastIndexByte(key, '.')
		if dot < 0 {
			continue
		}
		nt := ts.namedLocked(key[:dot])
		tab := tables[nt]
		if tab == nil {
			tab = &methodTable{}
			tables[nt] = tab
		}
		set := &tab.val
		if ptr {
			set = &tab.ptr
		}
		if sig, ok := methods[i+1].(string); ok || !fn.IsValid() {
			// A method known by its name and signature only
			// (compat.CellMethodNames).
			set.others = append(set.others, key[dot+1:])
			if ok {
				if set.sigs == nil {
					set.sigs = map[string]string{}
				}
				set.sigs[key[dot+1:]] = sig
			}
			continue
		}
		switch key[dot+1:] {
		case "Format":
			set.format = fn
		case "GoString":
			set.goString = fn
		case "Error":
			set.error = fn
		case "String":
			set.string = fn
		case "Is":
			set.is = fn
		case "As":
			set.as = fn
		case "Unwrap":
			set.unwrap = fn
		case "MarshalJSON":
			set.marshalJSON = fn
		case "UnmarshalJSON":
			set.unmarshalJSON = fn
		case "MarshalText":
			set.marshalText = fn
		case "UnmarshalText":
			set.unmarshalText = fn
		case "IsZero":
			set.isZero = fn
		}
	}
	for nt, tab := range tables {
		nt.methods.Store(tab)
	}
}

func (ts *Types) namedLocked(name string) *namedType {
	nt := ts.named[name]
	if nt == nil {
		nt = &namedType{name: name}
		ts.named[name] = nt
	}
	return nt
}

// desc is the parsed description, cached.
func (ts *Types) desc(desc string, methods []any) *tinfo {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if len(methods) > 0 {
		ts.setMethods(methods)
	}
	t := ts.descs[desc]
	if t == nil {
		t = ts.parse(desc)
		ts.descs[desc] = t
	}
	return t
}

// descParams is desc parsed with its placeholders _P<n> for type
// parameters standing for params[n] (see TypedParams), cached.
func (ts *Types) descParams(desc string, params []*tinfo) *tinfo {
	key := desc
	for _, p := range params {
		key += fmt.Sprintf("\x00%p", p)
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t := ts.descs[key]
	if t == nil {
		t = ts.parse(desc, params...)
		ts.descs[key] = t
	}
	return t
}

// parse reads a description (ts.mu held), with params standing for its
// placeholders _P<n>. A description it cannot read describes nothing:
// the values' reflect types then say what they can.
func (ts *Types) parse(desc string, params ...*tinfo) *tinfo {
	lines := strings.Split(desc, "\n")
	refs := map[string]*tinfo{}
	for i, p := range params {
		refs["_P"+strconv.Itoa(i)] = p
	}
	type def struct {
		t   *tinfo
		src string
	}
	var defs []def
	for _, l := range lines[1:] {
		parts := strings.SplitN(l, " = ", 3)
		if len(parts) < 2 {
			continue
		}
		t := &tinfo{str: parts[1]}
		refs[parts[0]] = t
		if len(parts) == 3 {
			defs = append(defs, def{t, parts[2]})
		}
	}
	for _, d := range defs {
		u := ts.build(d.src, refs)
		d.t.kind, d.t.elem, d.t.key, d.t.fields, d.t.under = u.kind, u.elem, u.key, u.fields, u.str
		if u.kind != tkDynamic {
			// An interface's methods are its dynamic values'.
			d.t.named = ts.namedLocked(d.t.str)
		}
	}
	return ts.build(lines[0], refs)
}

func (ts *Types) build(src string, refs map[string]*tinfo) *tinfo {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return &tinfo{kind: tkDynamic, str: src}
	}
	b := descBuilder{src: src, refs: refs}
	return b.build(e)
}

type descBuilder struct {
	src  string
	refs map[string]*tinfo
}

// text is e's source with the placeholders replaced by the names.
func (b descBuilder) text(e ast.Expr) string {
	s := b.src[e.Pos()-1 : e.End()-1]
	if !strings.Contains(s, "_") {
		return s
	}
	var out strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '_' && (i == 0 || !isIdentByte(s[i-1])) {
			j := i + 1
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			if t, ok := b.refs[s[i:j]]; ok {
				out.WriteString(t.str)
				i = j
				continue
			}
		}
		out.WriteByte(s[i])
		i++
	}
	return out.String()
}

func isIdentByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

func (b descBuilder) build(e ast.Expr) *tinfo {
	switch e := e.(type) {
	case *ast.Ident:
		if t, ok := b.refs[e.Name]; ok {
			return t
		}
		if e.Name == "error" {
			return &tinfo{kind: tkDynamic, str: "error"}
		}
		return &tinfo{str: e.Name}
	case *ast.ParenExpr:
		return b.build(e.X)
	case *ast.StarExpr:
		el := b.build(e.X)
		return &tinfo{kind: tkPointer, str: "*" + el.str, elem: el}
	case *ast.ArrayType:
		el := b.build(e.Elt)
		if e.Len == nil {
			return &tinfo{kind: tkSlice, str: "[]" + el.str, elem: el}
		}
		return &tinfo{kind: tkSlice, str: "[" + b.text(e.Len) + "]" + el.str, elem: el}
	case *ast.MapType:
		k, v := b.build(e.Key), b.build(e.Value)
		return &tinfo{kind: tkMap, str: "map[" + k.str + "]" + v.str, key: k, elem: v}
	case *ast.StructType:
		t := &tinfo{kind: tkStruct}
		var parts []string
		for _, f := range e.Fields.List {
			ft := b.build(f.Type)
			tag := ""
			if f.Tag != nil {
				if s, err := strconv.Unquote(f.Tag.Value); err == nil && s != "" {
					tag = " " + strconv.Quote(s)
				}
			}
			if len(f.Names) == 0 {
				name := embeddedName(ft.str)
				t.fields = append(t.fields, tfield{name: name, exported: token.IsExported(name), embedded: true, t: ft})
				parts = append(parts, ft.str+tag)
				continue
			}
			if raw, _ := strconv.Unquote(tagLit(f)); strings.HasPrefix(raw, EmbedTag) && len(f.Names) == 1 {
				// An embedded field named otherwise than its type (type
				// Q = P; struct{ Q }), as compat's structString writes it.
				if rest := strings.TrimPrefix(raw, EmbedTag); rest != "" {
					tag = " " + strconv.Quote(rest)
				} else {
					tag = ""
				}
				name := f.Names[0].Name
				t.fields = append(t.fields, tfield{name: name, exported: token.IsExported(name), embedded: true, t: ft})
				parts = append(parts, ft.str+tag)
				continue
			}
			for _, n := range f.Names {
				t.fields = append(t.fields, tfield{name: n.Name, exported: token.IsExported(n.Name), t: ft})
				parts = append(parts, n.Name+" "+ft.str+tag)
			}
		}
		t.str = structString(parts)
		return t
	case *ast.InterfaceType:
		return &tinfo{kind: tkDynamic, str: b.text(e)}
	default:
		return &tinfo{str: b.text(e)}
	}
}

// tagLit is f's tag as written (quoted), or "".
func tagLit(f *ast.Field) string {
	if f.Tag == nil {
		return ""
	}
	return f.Tag.Value
}

// embeddedName is the field name of an embedded field of type str
// ("*main.Box[int]" gives Box).
func embeddedName(str string) string {
	str = strings.TrimPrefix(str, "*")
	if i := strings.IndexByte(str, '['); i >= 0 {
		str = str[:i]
	}
	if i := strings.LastIndexByte(str, '.'); i >= 0 {
		str = str[i+1:]
	}
	return str
}

func structString(fields []string) string {
	if len(fields) == 0 {
		return "struct {}"
	}
	return "struct { " + strings.Join(fields, "; ") + " }"
}

// byName is the declared type named name ("main.T", "*main.T"), or nil.
func (ts *Types) byName(name string) *tinfo {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.byNameLocked(name)
}

func (ts *Types) byNameLocked(name string) *tinfo {
	if t := ts.decl[name]; t != nil {
		return t
	}
	if el, ok := strings.CutPrefix(name, "*"); ok {
		if e := ts.byNameLocked(el); e != nil {
			return &tinfo{kind: tkPointer, str: name, elem: e}
		}
	}
	return nil
}

// derive is what can be known of a type from the interpreter's reflect
// type alone: a struct type a cell declared is found by its reflect type
// (yaegi gives two declared types of the same structure one reflect
// type, and a basic type and the types declared on it too, so those go
// by their structure); has names the methods a value is known to have
// (yaegi's interface wrapper around it), to choose among declared types.
func (ts *Types) derive(rt reflect.Type, has ...string) *tinfo {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if len(has) > 0 {
		// The declared types of this reflect type with these methods: if
		// just one, the value's.
		var found []*tinfo
		for _, t := range ts.byRType[rt] {
			if t.hasAll(has) {
				found = append(found, t)
			}
		}
		under := ts.deriveLocked(rt).str
		for _, name := range sortedNames(ts.decl) {
			if t := ts.decl[name]; t.under == under && t.kind != tkStruct && t.hasAll(has) {
				found = append(found, t)
			}
		}
		if len(found) == 1 {
			return found[0]
		}
	}
	return ts.deriveLocked(rt)
}

func sortedNames(m map[string]*tinfo) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// hasAll reports whether values of t have each of the methods.
func (t *tinfo) hasAll(methods []string) bool {
	ms, ok := t.methodSet()
	if !ok {
		return false
	}
	for _, m := range methods {
		if !ms.has(m) {
			return false
		}
	}
	return true
}

// has reports whether the set has the method named m.
func (ms methodSet) has(m string) bool {
	var f reflect.Value
	switch m {
	case "Error":
		f = ms.error
	case "String":
		f = ms.string
	case "Format":
		f = ms.format
	case "GoString":
		f = ms.goString
	case "Is":
		f = ms.is
	case "As":
		f = ms.as
	case "Unwrap":
		f = ms.unwrap
	case "MarshalJSON":
		f = ms.marshalJSON
	case "UnmarshalJSON":
		f = ms.unmarshalJSON
	case "MarshalText":
		f = ms.marshalText
	case "UnmarshalText":
		f = ms.unmarshalText
	case "IsZero":
		f = ms.isZero
	}
	return f.IsValid() || slices.Contains(ms.others, m)
}

// methodSet is the methods of values of t, when t is (a pointer to) a
// type cells declared.
func (t *tinfo) methodSet() (methodSet, bool) {
	switch {
	case t == nil:
	case t.named != nil:
		if tab := t.named.methods.Load(); tab != nil {
			return tab.val, true
		}
		return methodSet{}, true
	case t.kind == tkPointer && t.elem != nil && t.elem.named != nil:
		if tab := t.elem.named.methods.Load(); tab != nil {
			return tab.ptr, true
		}
		return methodSet{}, true
	}
	return methodSet{}, false
}

func (ts *Types) deriveLocked(rt reflect.Type) *tinfo {
	if t := ts.derived[rt]; t != nil {
		return t
	}
	name, instance := structName(rt), false
	if strings.HasSuffix(name, "]") {
		name, instance = ts.instanceName(rt, name), true
	}
	if name != "" {
		if t := ts.decl[name]; t != nil {
			return t
		}
	} else if rt.Kind() == reflect.Struct {
		// Declared struct types of the same structure share a reflect
		// type (those without fields, which carry no name): then none
		// is chosen (their methods might not be the value's).
		if list := ts.byRType[rt]; len(list) == 1 {
			return list[0]
		}
	}
	t := &tinfo{}
	ts.derived[rt] = t
	// A named type's name is known before its fields are looked at: a
	// field that refers back to it (next *ring.Ring, Next *L[T]) is
	// described by it (it said "*").
	if name != "" {
		t.str = localTypeName(name)
	} else if rt.Name() != "" {
		t.str = rt.String()
	}
	if name != "" {
		// A type declared in a function: its name and fields.
		defer func() {
			t.str, t.named = localTypeName(name), ts.namedLocked(name)
			if instance && t.named.methods.Load() == nil {
				// An instance of a generic type no cell named: its
				// methods are not known, which is not to say it has
				// none (the interpreter's wrapper may still call them).
				t.named = nil
			}
		}()
	}
	if isBox(rt) {
		t.kind, t.str = tkDynamic, "interface {}"
		return t
	}
	switch rt.Kind() {
	case reflect.Pointer:
		if n := earlyName(rt.Elem()); n != "" {
			t.str = "*" + n // (for what its element's fields make of it: _ [0]*runtime.PanicNilError)
		}
		t.kind, t.elem = tkPointer, ts.deriveLocked(rt.Elem())
		t.str = "*" + t.elem.str
	case reflect.Slice:
		t.kind, t.elem = tkSlice, ts.deriveLocked(rt.Elem())
		t.str = "[]" + t.elem.str
	case reflect.Array:
		t.kind, t.elem = tkSlice, ts.deriveLocked(rt.Elem())
		t.str = "[" + strconv.Itoa(rt.Len()) + "]" + t.elem.str
	case reflect.Map:
		t.kind, t.key, t.elem = tkMap, ts.deriveLocked(rt.Key()), ts.deriveLocked(rt.Elem())
		t.str = "map[" + t.key.str + "]" + t.elem.str
	case reflect.Struct:
		t.kind = tkStruct
		var parts []string
		for i := range structFields(rt) {
			f := rt.Field(i)
			name, tag := fieldName(f)
			ft := ts.deriveLocked(f.Type)
			if tag != "" {
				tag = " " + strconv.Quote(tag)
			}
			embedded := f.Anonymous || strings.Contains(string(f.Tag), EmbedTag)
			if embedded {
				parts = append(parts, ft.str+tag)
			} else {
				parts = append(parts, name+" "+ft.str+tag)
			}
			t.fields = append(t.fields, tfield{name: name, exported: token.IsExported(name), embedded: embedded, t: ft})
		}
		t.str = structString(parts)
	case reflect.Interface:
		t.kind, t.str = tkDynamic, rt.String()
	case reflect.Chan:
		el := ts.deriveLocked(rt.Elem()).str
		switch rt.ChanDir() {
		case reflect.RecvDir:
			t.str = "<-chan " + el
		case reflect.SendDir:
			t.str = "chan<- " + el
		default:
			if rt.Elem().Kind() == reflect.Chan && rt.Elem().ChanDir() == reflect.RecvDir {
				el = "(" + el + ")"
			}
			t.str = "chan " + el
		}
	case reflect.Func:
		t.str = funcString(rt, func(rt reflect.Type) string { return ts.deriveLocked(rt).str })
	default:
		t.str = rt.String()
	}
	if rt.Name() != "" {
		t.str = rt.String()
	}
	return t
}

// earlyName is the name of rt, a named type, as deriveLocked gives it
// before it looks at its fields ("" for an unnamed type, and for an
// instance of a generic type the cells declare, named from its fields).
func earlyName(rt reflect.Type) string {
	if name := structName(rt); name != "" {
		if strings.HasSuffix(name, "]") {
			return ""
		}
		return localTypeName(name)
	}
	if rt.Name() != "" {
		return rt.String()
	}
	return ""
}

// HiddenTags are the tags the compatibility passes put first on the
// unexported fields of the structs cells declare (see compat's
// hiddenFields), which the printer recognises.
const HiddenTags = `json:"-" xml:"-" `

// BlankField+n is the name compat's hiddenFields gives the n-th blank
// field (_) of a struct type with several: yaegi exports each as X_, and
// reflect.StructOf refuses a struct with two fields of one name.
const BlankField = "_grundyBlank"

// EmptyField is the field compat's structNames gives a struct type a cell
// declares without fields, to carry its name (the interpreter exports it
// as X+EmptyField): yaegi made every such type the one reflect type
// struct {}, so a Cat passed for a Cow. The printer and reflect's fields
// leave it out. It is of type Empty, which fmt prints as nothing: a
// native package printing such a value (text/template's {{.}}) prints {}
// as Go's does, not {{}}.
const EmptyField = "_grundyEmpty"

// ParamField (+ a type parameter's name) is the field of no size compat's
// structNames gives a generic struct type for each type parameter that no
// field's type has ([0]*T, last), to tell its instances apart.
const ParamField = "_grundyParam"

// EmbedPad is the field of no size compat's structNames gives, last, a
// struct type whose one field embeds a library type with methods (type
// Span struct{ time.Duration }, type Nat struct{ *big.Int }): yaegi marks
// the field embedded in a struct of one field only, and reflect.StructOf
// then copies the embedded type's methods with offsets the runtime cannot
// resolve, so the session's process died ("type offset base pointer out
// of range") at the first assertion that looked through them (x.(error)
// of such a value in an any). Its methods are the engine's (compat's
// embedMethods); named as a ParamField, the printer and reflect's fields
// leave it out.
const EmbedPad = ParamField + "Embed"

// Empty is the type of the field EmptyField: of no size, and written as
// nothing by fmt, whatever the verb.
type Empty struct{}

// Format writes nothing.
func (Empty) Format(fmt.State, rune) {}

// emptyMarked reports whether rt is a struct type a cell declared without
// fields, its only field the one carrying its name (see EmptyField).
func emptyMarked(rt reflect.Type) bool {
	return rt.Kind() == reflect.Struct && rt.NumField() == 1 && rt.Field(0).Name == "X"+EmptyField
}

// NameTag is the tag key under which the first field of a struct type a
// cell declares carries the type's name (see compat's structNames).
const NameTag = "grundy"

// EmbedTag is the tag compat's hiddenFields puts on an embedded field of
// a struct type with other fields: yaegi v0.16.1 marks such a field as
// embedded (Anonymous) only in a struct without other fields
// (interp/type.go, refType: golang/go#15924), so a value of an unnamed
// struct type in an interface lost it (%T said struct { Base main.Base;
// Y int }, reflect found no promoted field).
const EmbedTag = `grundyembed:"" `

// UnexportedEmbedTag is the tag compat's hiddenFields puts on an embedded
// field of an unexported type (struct{ pos; N int }): yaegi v0.16.1
// exports it as X+name, untagged otherwise, and reflect named it Xpos,
// exported and settable.
const UnexportedEmbedTag = `grundyunexported:"" `

// NameTags matches NameTag's tags, in a tag or in source (quoted).
var NameTags = regexp.MustCompile(NameTag + `:(\\?"[^"\\]*\\?") `)

// LocalType starts the name compat's localTypeNames gives a struct type
// declared in a function, _grundyLocal<pos>_P for P, so that it is a type
// of its own to the interpreter.
const LocalType = "_grundyLocal"

// localTypeName is name (main._grundyLocal<pos>_P), or a message naming
// such types, as Go names them: main.P.
func localTypeName(name string) string {
	if !strings.Contains(name, LocalType) {
		return name
	}
	return localNames.ReplaceAllString(name, "")
}

var localNames = regexp.MustCompile(LocalType + "[0-9]+_")

// LocalTypeNames writes the names a message gives types declared in
// functions (see LocalType) as Go writes them.
func LocalTypeNames(msg string) string { return localTypeName(msg) }

// structName is the name a struct type a cell declared carries in its
// first field's tag ("" for others).
func structName(rt reflect.Type) string {
	if rt.Kind() != reflect.Struct || rt.NumField() == 0 {
		return ""
	}
	tag := strings.TrimPrefix(string(rt.Field(0).Tag), HiddenTags)
	if !strings.HasPrefix(tag, NameTag+":") {
		return ""
	}
	name, _ := reflect.StructTag(tag).Lookup(NameTag)
	return name
}

// instanceName is the name of rt, an instance of a generic struct type
// whose tag says where its type arguments are (see compat's
// instanceTemplate: main.Pair[0,1]): main.Pair[string,int], as Go's
// runtime names it; "" when rt is not so made. A tag the engine wrote the
// instance's name in (main.Pair[main.Nim,string]) is that name.
func (ts *Types) instanceName(rt reflect.Type, template string) string {
	if name := renamedInstance(rt.String()); name != "" {
		return name
	}
	open := strings.IndexByte(template, '[')
	if open < 0 {
		return ""
	}
	paths, ok := argPaths(template[open:])
	if !ok {
		return template // named by the engine (main.Pair[main.Nim,string]: see engine.makeInstances)
	}
	args := make([]string, len(paths))
	for i, p := range paths {
		if p.field >= rt.NumField() {
			return ""
		}
		at := rt.Field(p.field).Type
		for _, step := range p.steps {
			switch {
			case step == 'k' && at.Kind() == reflect.Map:
				at = at.Key()
			case step == 'e' && slices.Contains([]reflect.Kind{reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan, reflect.Map}, at.Kind()):
				at = at.Elem()
			default:
				return ""
			}
		}
		arg := ts.deriveLocked(at)
		if at.Name() != "" && at.PkgPath() == "" && ts.declaredOn(arg.str) {
			// int may be a type a cell declared on int, which the
			// interpreter's reflect type does not tell: no name rather
			// than a wrong one.
			return ""
		}
		args[i] = withPaths(at, arg.str)
	}
	return template[:open] + "[" + strings.Join(args, ",") + "]"
}

// withPaths is s, the name of at, with the native named types in it
// written by their packages' paths, as Go writes an instance's type
// arguments (main.Box[grundy/stdlib/games.Pos], not main.Box[games.Pos]).
func withPaths(at reflect.Type, s string) string {
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		if t.Name() != "" && t.PkgPath() != "" {
			if full := t.PkgPath() + "." + t.Name(); t.PkgPath() != "main" && t.String() != full {
				s = replaceName(s, t.String(), full)
			}
			return
		}
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
			walk(t.Elem())
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
		}
	}
	walk(at)
	return s
}

// replaceName replaces the qualified name old in s, where no identifier,
// path or qualifier goes on before it, by new.
func replaceName(s, old, new string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(old)
		before := i > 0 && (isIdentByte(s[i-1]) || s[i-1] == '/' || s[i-1] == '.')
		after := end < len(s) && isIdentByte(s[end])
		b.WriteString(s[:i])
		if before || after {
			b.WriteString(old)
		} else {
			b.WriteString(new)
		}
		s = s[end:]
	}
}

// argPath is where an instance's type argument is (see compat's
// instanceTemplate): in field, then through steps (e for an element, k
// for a map's key).
type argPath struct {
	field int
	steps string
}

// argPaths are the paths of args, a template's type arguments ("[0,1e]"
// of main.Pair[0,1e]); false when args are not paths (an instance's name
// the engine wrote, [main.Nim,string]).
func argPaths(args string) ([]argPath, bool) {
	if len(args) < 3 || args[1] < '0' || args[1] > '9' {
		return nil, false
	}
	var out []argPath
	for _, p := range strings.Split(args[1:len(args)-1], ",") {
		j := 0
		for j < len(p) && p[j] >= '0' && p[j] <= '9' {
			j++
		}
		f, err := strconv.Atoi(p[:j])
		if err != nil {
			return nil, false
		}
		out = append(out, argPath{f, p[j:]})
	}
	return out, true
}

// declaredOn reports whether a cell declared a type on the basic type
// under (type Nim int).
func (ts *Types) declaredOn(under string) bool {
	for _, t := range ts.decl {
		if t.under == under && t.kind != tkStruct {
			return true
		}
	}
	return false
}

// fieldName is a field's name and tag as the cell wrote them: the
// interpreter exports unexported fields as X+name, and the engine tags
// them first with HiddenTags (see compat's hiddenFields), and the first
// with the struct's name.
func fieldName(f reflect.StructField) (name, tag string) {
	name, tag = f.Name, string(f.Tag)
	tag = strings.Replace(NameTags.ReplaceAllString(tag, ""), EmbedTag, "", 1)
	if rest, ok := strings.CutPrefix(tag, UnexportedEmbedTag); ok && strings.HasPrefix(name, "X") {
		return name[1:], rest
	}
	if rest, ok := strings.CutPrefix(tag, HiddenTags); ok && strings.HasPrefix(name, "X") {
		if strings.HasPrefix(name[1:], BlankField) {
			return "_", rest
		}
		return name[1:], rest
	}
	return name, tag
}

// StructField is f as Go describes the field the cell declared: without
// the tags the engine adds, under its own name, unexported when it is.
func StructField(f reflect.StructField) reflect.StructField {
	name, tag := fieldName(f)
	if name != f.Name {
		f.PkgPath = "main" // the interpreter exported it
	}
	f.Name, f.Tag = name, reflect.StructTag(tag)
	return f
}

func funcString(rt reflect.Type, name func(reflect.Type) string) string {
	var b strings.Builder
	b.WriteString("func(")
	for i := range rt.NumIn() {
		if i > 0 {
			b.WriteString(", ")
		}
		if rt.IsVariadic() && i == rt.NumIn()-1 {
			b.WriteString("..." + name(rt.In(i).Elem()))
		} else {
			b.WriteString(name(rt.In(i)))
		}
	}
	b.WriteString(")")
	switch rt.NumOut() {
	case 0:
	case 1:
		b.WriteString(" " + name(rt.Out(0)))
	default:
		b.WriteString(" (")
		for i := range rt.NumOut() {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(name(rt.Out(i)))
		}
		b.WriteString(")")
	}
	return b.String()
}

// The interpreter's boxes: an interface value of an interpreted interface
// type (or of any, holding a value whose type has methods) is an
// interp.valueInterface{node, value}, node.typ being the dynamic type; a
// value converted to a native interface type is a wrapper struct whose
// first field, IValue, holds it, the others its methods.

const yaegiInterp = "github.com/traefik/yaegi/interp"

func isBox(rt reflect.Type) bool {
	return rt.Kind() == reflect.Struct && rt.PkgPath() == yaegiInterp && rt.Name() == "valueInterface"
}

// BasicBox reports whether v is in the interpreter's box of a value of a
// type cells declared on a basic type (type Tag string with methods):
// yaegi's assertion of such a box to an interface it does not implement
// panics ("method not found: Error") where Go says no, so the error
// helpers ask the session's methods of its type (CellError) instead.
func BasicBox(v any) bool {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || !isBox(rv.Type()) {
		return false
	}
	inner, _, ok := unbox(rv)
	return ok && inner.Kind() != reflect.Struct && inner.Kind() != reflect.Pointer
}

// CellBox reports whether v is in the interpreter's box of a value of a
// type cells declared (main.T, *main.T). Interpreted misses one on a
// library's named type (type Dur time.Duration with a String method):
// yaegi gives its values the library type's reflect type, whose methods
// native code would call instead of the cell's.
func CellBox(v any) bool {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || !isBox(rv.Type()) {
		return false
	}
	_, name, ok := unbox(rv)
	return ok && strings.HasPrefix(strings.TrimPrefix(name, "*"), "main.")
}

// isWrapper reports whether rt is an interpreter's wrapper of a value in
// a native interface: yaegi's (fmt.Stringer) or, of the same shape, one
// of the engine's symbol tables (games.Game, made by yaegi's extract) or
// one of the composed wrappers (an io.Reader with ReadRune and
// UnreadRune, see ComposedWrappers).
func isWrapper(rt reflect.Type) bool {
	return WrapperShape(rt) && (strings.HasPrefix(rt.PkgPath(), "github.com/traefik/yaegi/") || rt.PkgPath() == symbolsPath || composedTypes()[rt])
}

// composedTypes are the composed wrappers' types.
var composedTypes = sync.OnceValue(func() map[reflect.Type]bool {
	m := map[reflect.Type]bool{}
	for _, c := range ComposedWrappers() {
		for _, t := range c.Wrappers {
			m[t] = true
		}
	}
	return m
})

// WrapperShape reports whether t has the shape of a wrapper the
// interpreter puts a cell's value in, for a native interface: a struct
// whose first field, IValue, holds the value (yaegi's own, the symbol
// tables', and the runtime's composed ones).
func WrapperShape(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.NumField() > 0 && t.Field(0).Name == "IValue"
}

// symbolsPath is the package of the engine's symbol tables.
const symbolsPath = "grundy/engine/symbols"

// unbox returns the value in a box and the name of its dynamic type as
// the interpreter writes it ("main.T", "*main.T"); !ok for a nil
// interface.
func unbox(box reflect.Value) (v reflect.Value, name string, ok bool) {
	value := fieldIndex(box.Type(), "value", func(t reflect.Type) bool { return t == reflect.TypeOf(reflect.Value{}) })
	if value == nil {
		return reflect.Value{}, "", false
	}
	if f := fieldAt(box, "node"); f.IsValid() {
		if typ := fieldAt(f.Elem(), "typ"); typ.IsValid() {
			if ix := fieldIndex(typ.Type().Elem(), "str", func(t reflect.Type) bool { return t.Kind() == reflect.String }); ix != nil {
				name = typ.Elem().FieldByIndex(ix).String()
			}
		}
	}
	cp := reflect.New(box.Type()).Elem()
	cp.Set(box)
	v = *(*reflect.Value)(unsafe.Pointer(cp.FieldByIndex(value).UnsafeAddr()))
	if !v.IsValid() || name == "nil" {
		return reflect.Value{}, "", false
	}
	return v, name, true
}

// fieldAt is the non-nil pointer to a struct in s's field name, or the
// zero Value.
func fieldAt(s reflect.Value, name string) reflect.Value {
	ix := fieldIndex(s.Type(), name, func(t reflect.Type) bool { return t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct })
	if ix == nil {
		return reflect.Value{}
	}
	if f := s.FieldByIndex(ix); !f.IsNil() {
		return f
	}
	return reflect.Value{}
}

// fieldIndex is the index of t's field name when its type passes ok, nil
// if none, found once per type and name (FieldByName, on each value
// printed, cost more than the rest of printing a number).
func fieldIndex(t reflect.Type, name string, ok func(reflect.Type) bool) []int {
	key := fieldKey{t, name}
	if ix, found := fieldIndexes.Load(key); found {
		return ix.([]int)
	}
	var ix []int
	if f, found := t.FieldByName(name); found && ok(f.Type) {
		ix = f.Index
	}
	fieldIndexes.Store(key, ix)
	return ix
}

type fieldKey struct {
	t    reflect.Type
	name string
}

var fieldIndexes sync.Map // fieldKey -> []int

// wrapped returns the value in a wrapper and the names of the methods the
// wrapper has.
func wrapped(w reflect.Value) (v reflect.Value, methods []string) {
	for i := 1; i < w.NumField(); i++ {
		if n := w.Type().Field(i).Name; len(n) > 1 {
			methods = append(methods, n[1:])
		}
	}
	return w.Field(0), methods
}

// reflect.Type's names of the types cells declare, which the interpreter's
// reflect types do not carry: a struct type cells declared by its name
// (unless another has its structure), composites of them likewise, and
// unexported fields as the cell wrote them.

// TypeString is t.String() as Go would have it.
func (ts *Types) TypeString(t reflect.Type) string {
	if t == nil {
		return "<nil>"
	}
	if c, ok := t.(cellRType); ok {
		return c.String()
	}
	return ts.derive(t).str
}

// TypeName is t.Name() as Go would have it.
func (ts *Types) TypeName(t reflect.Type) string {
	if c, ok := t.(cellRType); ok {
		return c.Name()
	}
	if isNativeType(t) || t.Name() != "" {
		return t.Name()
	}
	d := ts.derive(t)
	if d.named == nil {
		return ""
	}
	return strings.TrimPrefix(d.str, "main.")
}

// TypePkgPath is t.PkgPath() as Go would have it.
func (ts *Types) TypePkgPath(t reflect.Type) string {
	if c, ok := t.(cellRType); ok {
		return c.PkgPath()
	}
	if isNativeType(t) || t.Name() != "" {
		return t.PkgPath()
	}
	if ts.derive(t).named != nil {
		return "main"
	}
	return ""
}
