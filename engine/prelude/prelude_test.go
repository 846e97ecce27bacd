package prelude

import (
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/traefik/yaegi/stdlib"

	"grundy/engine/display"
	"grundy/engine/prelude/grundyrt"
	"grundy/engine/symbols"
	"grundy/engine/typecheck"
)

// declared lists the top-level names of files.
func declared(t *testing.T, files []File) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		pf, err := parser.ParseFile(fset, f.Name, f.Src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range pf.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							names[n.Name] = true
						}
					case *ast.TypeSpec:
						names[sp.Name.Name] = true
					}
				}
			}
		}
	}
	return names
}

// Every name a pass writes is declared where the pass expects it.
func TestNamesAreDeclared(t *testing.T) {
	helpers := declared(t, Helpers())
	for _, n := range []string{Show, ShowNative, Display, Render, Go, Defer, AsError, AsErrorFunc, ErrorAssert, ErrorMust, Index, ShiftCount, OutOfRange, SliceBounds, NegShift} {
		if !helpers[n] {
			t.Errorf("%s is not declared in helpers/", n)
		}
	}
	generic := Generic()
	for api, n := range GenericStd {
		if !helpers[n] {
			t.Errorf("%s (for %s) is not declared in helpers/", n, api)
		}
		i := strings.LastIndexByte(api, '.')
		var files []File
		for _, src := range generic[api[:i]] {
			files = append(files, File{Name: api[:i], Src: src})
		}
		if !declared(t, files)[api[i+1:]] {
			t.Errorf("%s is not declared in generic/", api)
		}
	}
	table := grundyrt.Table(nil, grundyrt.NewTypes())
	for _, n := range []string{RTErrorsIs, RTErrorsAs, RTErrorsAsDynamic, RTErrorsAsLater, RTSlogDynamic, RTErrorsAsKnown, RTErrorsUnwrap, RTJSONMarshal, RTJSONMarshalIndent, RTJSONEncode, RTTextTemplate, RTTextBuiltins, RTHTMLBuiltins, RTHTMLTemplate, RTTemplateError, RTJSONUnmarshal, RTJSONDecode, RTCompareKey, RTEqual, RTRewrap, RTInWrapper, RTWrapNil, RTEmpty, RTInternKey, RTFmtTyped, RTFmtParam, RTFmtWrapped, RTFmtSpread, RTFmtTuple, RTFmtState, RTWriter, RTDeclare, RTDeclareComposite, RTMendCycle, RTAtomicStore, RTAtomicCompare, RTHasTypeIn, RTMustHaveTypeIn, RTNewInstance, RTInstanceMethods, RTSprint, RTSprintf, RTSprintln, RTPanic, RTRecovered, RTRecover, RTDecodeRune, RTDeferred, RTRelay, RTRelayed, RTTypeName, RTTypeString, RTTypePkgPath, RTStructField, RTFieldByName, RTFieldByNameFunc, RTValueFieldByNameFunc, RTFieldByIndex, RTValueFieldByIndex, RTValueFieldByName, RTValueField, RTVisibleFields, RTValueOf, RTTypeOfParam, RTValueElem, RTValueSet, RTSameType, RTAssignableTo, RTDeepEqual, RTAssertionError, RTAssertPanic, RTNativeMethods, RTLaterMethods, RTNativeIn, RTUnwrap, RTReturn, RTSelect, RTSetZero, RTPrint, RTFloatTo + "Int8", RTFloatTo + "Int16", RTFloatTo + "Int32", RTFloatTo + "Uint8", RTFloatTo + "Uint16", RTFloatTo + "Uint32", RTIntToFloat32, RTUintToFloat32} {
		if _, ok := table[n]; !ok {
			t.Errorf("grundyrt.%s is not in the interpreter's table", n)
		}
	}
	for _, n := range []string{DeferredRun, DeferredRaise, DeferredRecover, DeferredDone} {
		if _, ok := reflect.TypeFor[*grundyrt.Deferred]().MethodByName(n); !ok {
			t.Errorf("grundyrt.Deferred has no method %s", n)
		}
	}
}

// The embedded files are gofmt-formatted (they are what the interpreter
// compiles, so what a reader sees in an error must be what is there).
func TestFormatted(t *testing.T) {
	all := Helpers()
	for p, srcs := range Generic() {
		for _, src := range srcs {
			all = append(all, File{Name: "generic/" + p, Src: src})
		}
	}
	for _, p := range Packages() {
		all = append(all, p.Source...)
		all = append(all, p.Files...)
	}
	for _, f := range all {
		out, err := format.Source([]byte(f.Src))
		if err != nil {
			t.Errorf("%s: %v", f.Name, err)
		} else if string(out) != f.Src {
			t.Errorf("%s is not gofmt-formatted", f.Name)
		}
	}
}

// go vet passes on the prelude's packages (they are ordinary Go).
func TestVetted(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	out, err := exec.Command("go", "vet", "grundy/engine/prelude/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go vet: %v\n%s", err, out)
	}
}

// The helpers type-check as the interpreter runs them: in package main,
// against the interpreter's own table of grundyrt and the engine's source
// packages, with no error.
func TestHelpersTypeCheckAsInterpreted(t *testing.T) {
	rt := map[string]typecheck.Table{RuntimeKey: grundyrt.Table(nil, grundyrt.NewTypes())}
	u := typecheck.NewUniverse(Sources(), rt, stdlib.Symbols, symbols.Symbols)
	fset := token.NewFileSet()
	var files []*ast.File
	for _, h := range Helpers() {
		f, err := parser.ParseFile(fset, h.Name, h.Src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		f.Name.Name = "main"
		for _, is := range f.Imports {
			if p, _ := strconv.Unquote(is.Path.Value); p == "grundy/engine/prelude/grundyrt" {
				is.Path.Value = strconv.Quote(Runtime)
			}
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: u}
	if _, err := conf.Check("main", fset, files, nil); err != nil {
		t.Error(err)
	}
}

// The helpers find every method of the display convention (display.Methods)
// and no other: one convention for compiled and interpreted types.
func TestHelpersFollowTheDisplayConvention(t *testing.T) {
	fset := token.NewFileSet()
	found := map[string]bool{}
	for _, h := range Helpers() {
		f, err := parser.ParseFile(fset, h.Name, h.Src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			fd, ok := n.(*ast.FuncDecl)
			if !ok || fd.Name.Name != "_grundyPart" {
				return true
			}
			// The method names the switch on method handles.
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if cc, ok := n.(*ast.CaseClause); ok {
					for _, e := range cc.List {
						if lit, ok := e.(*ast.BasicLit); ok {
							name, _ := strconv.Unquote(lit.Value)
							found[name] = true
						}
					}
				}
				return true
			})
			return false
		})
	}
	for _, m := range display.Methods {
		if !found[m] {
			t.Errorf("the helpers do not find display method %s", m)
		}
		delete(found, m)
	}
	for m := range found {
		t.Errorf("the helpers find %s, which display.Methods does not list", m)
	}
}

// The engine's source packages declare what Go's declare: every exported
// name of Go's slices, maps, cmp and iter, with the same type (type
// parameters and constraints included), so cells are typed as Go types
// them.
func TestStdDeclaresGoAPI(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the toolchain's sources")
	}
	u := typecheck.NewUniverse(Sources(), RuntimeTypes(), stdlib.Symbols)
	goImp := importer.ForCompiler(token.NewFileSet(), "source", nil)
	qual := func(p *types.Package) string { return p.Name() }
	for _, p := range Packages() {
		mine, err := u.Import(p.Path)
		if err != nil {
			t.Fatalf("%s: %v", p.Path, err)
		}
		theirs, err := goImp.Import(p.Path)
		if err != nil {
			t.Fatalf("Go's %s: %v", p.Path, err)
		}
		for _, name := range theirs.Scope().Names() {
			obj := theirs.Scope().Lookup(name)
			if !obj.Exported() {
				continue
			}
			have := mine.Scope().Lookup(name)
			if have == nil {
				t.Errorf("%s.%s is missing", p.Path, name)
				continue
			}
			want := types.TypeString(obj.Type(), qual)
			if n, ok := obj.Type().(*types.Named); ok {
				want = types.TypeString(n.Underlying(), qual)
				if n.TypeParams().Len() != have.Type().(*types.Named).TypeParams().Len() {
					t.Errorf("%s.%s: type parameters differ", p.Path, name)
				}
				have = types.NewVar(0, nil, "", have.Type().Underlying())
			}
			if got := types.TypeString(have.Type(), qual); got != want {
				t.Errorf("%s.%s:\n  %s\nGo's:\n  %s", p.Path, name, got, want)
			}
		}
	}
}
