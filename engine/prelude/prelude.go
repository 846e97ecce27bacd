// Package prelude is the code every session loads before its first cell,
// and the names by which the compatibility passes call it:
//
//   - helpers/: interpreted helpers compiled into each session's main
//     package (min, max, clear, display by duck typing, error conversions,
//     fmt of cell types);
//   - std/: the engine's iter, cmp, slices and maps, interpreted under those
//     import paths in place of the standard ones;
//   - grundyrt/: the native functions both of those call.
//
// All three are ordinary Go packages, formatted, vetted and type-checked by
// the toolchain; the interpreted ones are embedded here and loaded as
// source. A name written by a pass and declared by the prelude is a
// constant below, checked against the declarations by this package's tests.
package prelude

import (
	"embed"
	"path"
	"reflect"
	"sort"
	"strings"
	"sync"

	"grundy/engine/prelude/grundyrt"
)

//go:embed helpers/*.go std/*/*.go generic/errors/*.go generic/sync/*.go generic/sync/atomic/*.go generic/unique/*.go generic/math/rand/v2/*.go
var files embed.FS

// The helpers' names, as the passes write them.
const (
	Show                  = "_grundyShow"                  // func(vs ...any): a cell's trailing values
	ShowNative            = "_grundyShowNative"            // likewise, when no value can be of a cell type
	ShowAfterDefers       = "_grundyShowAfterDefers"       // Show, once the cell's top-level defers ran
	ShowNativeAfterDefers = "_grundyShowNativeAfterDefers" // ShowNative, likewise
	Display               = "_grundyDisplay"               // display.Show with the methods of cell types
	Render                = "_grundyRender"                // display.Render likewise
	ShownAs               = "_grundyShownAs"               // func(v, typed any) any: a shown instance of a generic type, with its Typed
	Go                    = "_grundyGo"                    // func(f func()): runs a goroutine, reporting its panic
	Defer                 = "_grundyDefer"                 // registers a top-level defer with the session
	Trail                 = "_grundyTrail"                 // a cell's trailing value, kept for after its top-level defers
	AsError               = "_grundyAsError"               // a value to error, whole (see the helper)
	AsErrorFunc           = "_grundyAsErrorFunc"           // likewise, with its Error method as a function
	ErrorAssert           = "_grundyErrorAssert"           // v, ok := x.(error)
	ErrorMust             = "_grundyErrorMust"             // x.(error)
	Index                 = "_grundyIndex"                 // an index checked in place (see compat's bounds)
	ShiftCount            = "_grundyShiftCount"            // likewise a signed shift count
	OutOfRange            = "_grundyOutOfRange"            // panics as Go does for an index out of range
	SliceBounds           = "_grundySliceBounds"           // likewise for slice bounds out of range
	NegShift              = "_grundyNegShift"              // likewise for a negative shift count
	IsNil                 = "_grundyIsNil"                 // func(v any) bool: an interface conversion compared with nil
	InternAny             = "_grundyInternAny"             // func(k any) any: a key of a map keyed by any, interned
	InWrapper             = "_grundyInWrapper"             // func(v any) any: grundyrt.InWrapper, for an assertion's subject
	Unwrap                = "_grundyUnwrap"                // func(v any) any: grundyrt.Unwrap, likewise
)

// GenericStd are the helpers that run the generic API of native standard
// packages (package path and name, as the type oracle knows them from
// generic/): yaegi's symbol tables cannot hold generic code.
var GenericStd = map[string]string{
	"errors.AsType":       "_grundyErrorsAsType",
	"sync.OnceValue":      "_grundyOnceValue",
	"sync.OnceValues":     "_grundyOnceValues",
	"sync/atomic.Pointer": "_grundyAtomicPointer",
	"math/rand/v2.N":      "_grundyRandN",
	"unique.Make":         "_grundyUniqueMake",
	"unique.Handle":       "_grundyUniqueHandle",
}

// Generic are the declarations of the generic API of native standard
// packages, for the type oracle, which adds them to the packages their
// tables make: import path -> files.
func Generic() map[string][]string {
	out := map[string][]string{}
	for _, p := range []string{"errors", "sync", "sync/atomic", "unique", "math/rand/v2"} {
		for _, f := range read(path.Join("generic", p)) {
			out[p] = append(out[p], f.Src)
		}
	}
	return out
}

// Temp starts every name the passes invent (temporaries, copies of generic
// functions); cells never declare such names.
const Temp = "_grundy"

// Boxed is the method the passes give a cell type on a basic type without
// methods, so that the interpreter keeps its values in interfaces with
// their type (see compat's boxBasic).
const Boxed = Temp + "Boxed"

// HiddenComposite starts the names of the types the engine declares for
// composites of cell types put in interfaces (see compat's
// HideComposites).
const HiddenComposite = Temp + "Composite"

// Runtime is the name and import path of package grundyrt in cells' files;
// RuntimeKey is its key in the interpreter's symbol tables.
const (
	Runtime    = "grundyrt"
	RuntimeKey = "grundyrt/grundyrt"
)

// Functions of package grundyrt the passes call.
const (
	RTDecodeRune           = "DecodeRune"
	RTRangeContinued       = "RangeContinued" // a function iterator calling yield after the loop body said false or the loop ended
	RTRangeRecovered       = "RangeRecovered" // a function iterator returning after it recovered a panic of the loop body
	RTSlogValue            = "SlogValue"      // a cell value as log/slog's handlers must print it
	RTSlogDynamic          = "SlogDynamic"    // an interface's value for log/slog, stopping the cell where the handlers would miss its methods
	RTMinInt               = "MinInt"         // the least element of an []int, bounding a loop over it (compat's loop versions)
	RTMaxInt               = "MaxInt"         // likewise the greatest
	RTFloatTo              = "FloatTo"        // begins the names of gc's conversions of a float to a narrow integer type (FloatToInt32...)
	RTIntToFloat32         = "IntToFloat32"   // gc's conversion of an int64 to float32, rounding once
	RTUintToFloat32        = "UintToFloat32"  // likewise of a uint64
	RTArrayLen             = "ArrayLen"       // len or cap of a pointer to an array from a call or a receive, which Go does not dereference
	RTValuePointer         = "ValuePointer"   // reflect.Value.Pointer of a value that may hold a function the cells wrote
	RTNilValueMethod       = "NilValueMethod" // a value method called through a nil pointer, as Go's wrapper panics
	RTNilDeref             = "NilDeref"       // Go's nil dereference, where the interpreter would not raise it (a method value of a nil interface)
	RTLogFatal             = "LogFatal"       // a *log.Logger's Fatal, which stops the cell as os.Exit(1) does
	RTLogFatalf            = "LogFatalf"      // likewise Fatalf
	RTLogFatalln           = "LogFatalln"     // likewise Fatalln
	RTDeferred             = "NewDeferred"
	RTRelay                = "Relay"   // a call deferred through a value, with the panic its recover() takes (funcdefers)
	RTRelayed              = "Relayed" // recover() in a declared function, taking a Relay's panic
	RTErrorsIs             = "ErrorsIs"
	RTErrorsAs             = "ErrorsAs"
	RTErrorsAsDynamic      = "ErrorsAsDynamic" // errors.As of a target held in an interface
	RTErrorsAsLater        = "ErrorsAsLater"   // errors.As of a target of a cell type without Error where compiled
	RTErrorsUnwrap         = "ErrorsUnwrap"
	RTErrorsAsKnown        = "ErrorsAsKnown" // errors.As to a cell interface: the cell's type switch stores
	RTCompareKey           = "CompareKey"
	RTEqual                = "Equal"        // == on structs and arrays holding interfaces, by CompareKey's rules
	RTCompareKeyAs         = "CompareKeyAs" // likewise for a value of a type on a basic type with methods, by its static type
	RTRewrap               = "Rewrap"
	RTRewrapBox            = "RewrapBox" // a boxed cell value into a native interface's wrapper, in place of the bare one
	RTInWrapper            = "InWrapper" // the value Rewrap put in a wrapper, for an assertion to its struct type
	RTWrapNil              = "WrapNil"
	RTEmpty                = "Empty"     // the type of the field carrying the name of a struct type without fields
	RTConverted            = "Converted" // T(x) to a type parameter T in a generic function or method
	RTInternKey            = "InternKey"
	RTAtomicStore          = "AtomicStore"          // the check of atomic.Value's Store and Swap that the value's type is the one stored
	RTAtomicCompare        = "AtomicCompare"        // the check of atomic.Value's CompareAndSwap that old and new are of one type
	RTAnyKey               = "AnyKey"               // a key of a map keyed by any, out of yaegi's wrappers
	RTFmtTyped             = "Typed"                // a value for fmt with its type (see compat's fmtArgs)
	RTFmtParam             = "TypedParam"           // likewise a value of a type parameter's type
	RTFmtParams            = "TypedParams"          // likewise a value of a type made of type parameters
	RTFmtWrapped           = "Wrapped"              // a value as the interpreter hands it to fmt
	RTFmtSpread            = "Spread"               // likewise each element of f(xs...)
	RTFmtTuple             = "Tuple"                // likewise the results of f(g())
	RTFmtState             = "State"                // fmt.State, for the closures calling Format methods
	RTWriter               = "Writer"               // io.Writer, for the writer a cell hands fmt.Fprint (see compat's fmtArgs)
	RTDeclare              = "Declare"              // registers a type a cell declared, with its fmt methods
	RTDeclareComposite     = "DeclareComposite"     // registers a hidden composite type (compat's HideComposites) as the composite it stands for
	RTMendCycle            = "MendCycle"            // mends the fields of structs referring to each other that yaegi built wrong (compat's CycleMend)
	RTNewInstance          = "NewInstance"          // whether an instance of a generic type is new to the printer
	RTInstanceMethods      = "InstanceMethods"      // registers an instance's fmt methods
	RTSprint               = "Sprint"               // fmt.Sprint for Typed values (log's functions)
	RTSprintf              = "Sprintf"              // likewise fmt.Sprintf
	RTSprintln             = "Sprintln"             // likewise fmt.Sprintln
	RTTypeName             = "TypeName"             // reflect.Type's Name, knowing cell types
	RTTypeString           = "TypeString"           // likewise String
	RTTypePkgPath          = "TypePkgPath"          // likewise PkgPath
	RTStructField          = "StructField"          // reflect.Type's Field(i) (called with the type), without the engine's tags and names
	RTFieldByName          = "FieldByName"          // likewise reflect.Type's FieldByName
	RTValueFieldByName     = "ValueFieldByName"     // likewise reflect.Value's FieldByName
	RTFieldByNameFunc      = "FieldByNameFunc"      // likewise reflect.Type's FieldByNameFunc
	RTValueFieldByNameFunc = "ValueFieldByNameFunc" // likewise reflect.Value's FieldByNameFunc
	RTValueField           = "ValueField"           // reflect.Value's Field, read-only for an unexported field
	RTFieldByIndex         = "FieldByIndex"         // reflect.Type's FieldByIndex, each step as StructField
	RTValueFieldByIndex    = "ValueFieldByIndex"    // reflect.Value's FieldByIndex, each step as ValueField
	RTVisibleFields        = "VisibleFields"        // likewise reflect.VisibleFields
	RTTypeNumField         = "TypeNumField"         // reflect.Type's NumField (called with the type), without the engine's field of a struct without fields
	RTValueNumField        = "ValueNumField"        // likewise reflect.Value's NumField
	RTTypeOf               = "TypeOf"               // reflect.TypeOf by the value's static type
	RTValueOf              = "ValueOf"              // reflect.ValueOf of an interface value, out of the interpreter's box
	RTTypeOfParam          = "TypeOfParam"          // reflect.TypeOf of a type parameter's value, out of the interpreter's wrapper
	RTValueElem            = "ValueElem"            // reflect.Value's Elem, out of the interpreter's box or wrapper
	RTValueSet             = "ValueSet"             // reflect.Value's Set, an unnamed struct converted to a named one
	RTSameType             = "SameType"             // == of reflect.Types, TypeOf's named ones against the interpreter's
	RTAssignableTo         = "AssignableTo"         // reflect.Type's AssignableTo by Go's rule for named types
	RTDeepEqual            = "DeepEqual"            // reflect.DeepEqual with the operands' types
	RTRType                = "RType"                // a reflect.Type as reflect's constructors take it
	RTHasType              = "HasType"              // whether an interface value's dynamic type is the one named
	RTAssertsExactly       = "AssertsExactly"       // v, ok := x.(T) to a type parameter T: false where the interpreter's own would pass another type
	RTMustAssertExactly    = "MustAssertExactly"    // x.(T) likewise, panicking as Go does
	RTMustAssertParam      = "MustAssertParam"      // likewise, with a zero T in an interface; the value out of a box
	RTAssertsParam         = "AssertsParam"         // v, ok := x.(T) to a type parameter: AssertsExactly, and the value out of a boxed T's box
	RTParamValue           = "ParamValue"           // x for x.(T) after those, out of the box of a T bound to a cell type on a basic type
	RTExact                = "Exact"                // x in x.(T), T a slice, map, array or channel type: x, or a value the assertion fails on
	RTMustExact            = "MustExact"            // likewise for the one-value form, panicking as Go does
	RTMustHaveType         = "MustHaveType"         // likewise, panicking as a failed x.(T) does
	RTHasTypeIn            = "HasTypeIn"            // HasType, with the value in a native interface's wrapper
	RTMustHaveTypeIn       = "MustHaveTypeIn"       // MustHaveType, likewise
	RTAssertInto           = "AssertInto"           // x.(*T) into a variable of type *T, T an instance written with two or more type arguments
	RTMustAssertInto       = "MustAssertInto"       // likewise, panicking as a failed x.(*T) does
	RTPanic                = "Panic"                // a value for panic with its type
	RTTextTemplate         = "TextTemplate"         // a text/template checked against the methods of the data's cell types
	RTTextBuiltins         = "TextBuiltins"         // a new text/template whose print, printf and println name cell types as Go does
	RTHTMLBuiltins         = "HTMLBuiltins"         // the same for html/template
	RTHTMLTemplate         = "HTMLTemplate"         // likewise html/template
	RTTemplateError        = "TemplateError"        // a template's Execute error, naming cell types as Go does
	RTTemplateData         = "TemplateData"         // a template's data, checked for values of cell types in interfaces
	RTJSONMarshal          = "JSONMarshal"          // json.Marshal of a Typed value
	RTJSONMarshalIndent    = "JSONMarshalIndent"    // likewise json.MarshalIndent
	RTJSONEncode           = "JSONEncode"           // likewise (*json.Encoder).Encode
	RTJSONUnmarshal        = "JSONUnmarshal"        // json.Unmarshal into a Typed pointer
	RTJSONDecode           = "JSONDecode"           // likewise (*json.Decoder).Decode
	RTXMLMarshal           = "XMLMarshal"           // xml.Marshal naming the top elements of cell struct types
	RTXMLMarshalIndent     = "XMLMarshalIndent"     // likewise xml.MarshalIndent
	RTXMLEncode            = "XMLEncode"            // likewise (*xml.Encoder).Encode
	RTRecovered            = "Recovered"            // what recover() returns in Go
	RTRecover              = "Recover"              // recover() in a top-level deferred function: the cell's panic, from the session (a native call: an interpreted helper returning it lost a boxed value's type)
	RTAssertionError       = "AssertionError"       // the runtime's error for a failed x.(I)
	RTAssertPanic          = "AssertPanic"          // the panic of a failed assertion to an interface, naming the missing method
	RTNativeMethods        = "NativeMethods"        // stops an assertion of a library value to a cell interface
	RTLaterMethods         = "LaterMethods"         // stops an assertion compiled before the value's type had the methods
	RTNativeIn             = "NativeIn"             // whether a value is of one of the library types an assertion tries
	RTUnwrap               = "Unwrap"               // the value in yaegi's valueInterface (a library value in a cell interface, in an any)
	RTReturn               = "Return"               // a return among a cell's statements: ends the cell
	RTSelect               = "Select"               // a select made by the runtime
	RTSetZero              = "SetZero"              // sets a variable to its zero value (earlierReads' copies)
	RTPrint                = "Print"                // the builtins print and println, to standard error
)

// Methods of grundyrt.Deferred the passes call.
const (
	DeferredRun     = "Run"
	DeferredRaise   = "Raise"
	DeferredRecover = "Recover"
	DeferredDone    = "Done"
)

// Import is a package a session imports for its cells.
type Import struct{ Name, Path string }

// Imports are the packages a cell uses without importing them, by the
// names it uses.
var Imports = []Import{
	{"fmt", "fmt"}, {"log", "log"}, {"math", "math"}, {"strings", "strings"}, {"sort", "sort"},
	{"strconv", "strconv"}, {"errors", "errors"}, {"time", "time"}, {"os", "os"},
	{"bits", "math/bits"}, {"big", "math/big"},
	{"bytes", "bytes"}, {"bufio", "bufio"}, {"unicode", "unicode"}, {"utf8", "unicode/utf8"},
	{"sync", "sync"}, {"atomic", "sync/atomic"}, {"context", "context"},
	{"io", "io"}, {"json", "encoding/json"}, {"regexp", "regexp"},
	{"slices", "slices"}, {"maps", "maps"}, {"cmp", "cmp"}, {"iter", "iter"},
	{"games", "grundy/stdlib/games"}, {"solve", "grundy/stdlib/solve"},
	{"entail", "grundy/stdlib/entail"}, {"known", "grundy/stdlib/known"},
	{"progress", "grundy/stdlib/progress"}, {"plots", "grundy/plots"},
	{"display", "grundy/engine/display"},
}

// File is one source file of the prelude.
type File struct {
	Name string // its path in this package, e.g. "std/slices/slices.go"
	Src  string
}

// Helpers are the files of package helpers, to be compiled into a
// session's main package (their package clause and imports are the
// loader's to drop: the session's file already imports what they use).
func Helpers() []File { return helpers() }

var helpers = sync.OnceValue(func() []File { return read("helpers") })

// Package is one of the engine's source packages, imports of sibling
// packages rewritten to their paths.
type Package struct {
	Path   string // the import path cells use: "slices"
	Source []File // as written: Go's declarations, which the type oracle takes
	Files  []File // as the interpreter compiles them (see interpreted)
}

// Sources are the engine's source packages as the type oracle takes them:
// import path -> files.
func Sources() map[string][]string {
	out := map[string][]string{}
	for _, p := range Packages() {
		for _, f := range p.Source {
			out[p.Path] = append(out[p.Path], f.Src)
		}
	}
	return out
}

// stdPrefix is how the std packages import each other natively, and
// runtimePath how they import grundyrt.
const (
	stdPrefix   = "grundy/engine/prelude/std/"
	runtimePath = "grundy/engine/prelude/grundyrt"
)

// RuntimeTypes is package grundyrt as a table for the type oracle, which
// needs it for the std packages' sake (it binds no session).
func RuntimeTypes() map[string]map[string]reflect.Value {
	return map[string]map[string]reflect.Value{RuntimeKey: grundyrt.Table(nil, grundyrt.NewTypes())}
}

// Packages are the engine's source packages, each after the ones it
// imports.
func Packages() []Package { return packages() }

var packages = sync.OnceValue(func() []Package {
	dirs, err := files.ReadDir("std")
	if err != nil {
		panic("prelude: " + err.Error()) // embedded: cannot happen
	}
	sources := map[string][]File{}
	for _, d := range dirs {
		src := read(path.Join("std", d.Name()))
		for i := range src {
			src[i].Src = strings.ReplaceAll(src[i].Src, `"`+stdPrefix, `"`)
			src[i].Src = strings.ReplaceAll(src[i].Src, `"`+runtimePath+`"`, `"`+Runtime+`"`)
		}
		sources[d.Name()] = src
	}
	names := declaredNames(sources)
	byPath := map[string]Package{}
	for p, src := range sources {
		files := make([]File, len(src))
		for i := range src {
			interp, err := interpreted(src[i].Name, src[i].Src, names)
			if err != nil {
				panic("prelude: " + err.Error()) // embedded, and tested
			}
			files[i] = File{Name: src[i].Name, Src: interp}
		}
		byPath[p] = Package{Path: p, Source: src, Files: files}
	}
	// Dependencies first: a package's imports among its siblings.
	var out []Package
	done := map[string]bool{}
	var visit func(p string)
	visit = func(p string) {
		if done[p] {
			return
		}
		done[p] = true
		for _, f := range byPath[p].Source {
			for dep := range byPath {
				if strings.Contains(f.Src, `import "`+dep+`"`) || strings.Contains(f.Src, "\t\""+dep+"\"\n") {
					visit(dep)
				}
			}
		}
		out = append(out, byPath[p])
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		visit(p)
	}
	return out
})

// read lists the Go files of an embedded directory (no tests).
func read(dir string) []File {
	ents, err := files.ReadDir(dir)
	if err != nil {
		panic("prelude: " + err.Error())
	}
	var out []File
	for _, e := range ents {
		name := path.Join(dir, e.Name())
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := files.ReadFile(name)
		if err != nil {
			panic("prelude: " + err.Error())
		}
		out = append(out, File{Name: name, Src: string(b)})
	}
	return out
}
