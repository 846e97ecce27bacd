package typecheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/stdlib"

	"grundy/engine/symbols"
)

var testSources = map[string][]string{
	"gen": {`package gen

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
`},
}

func testUniverse() *Universe { return NewUniverse(testSources, stdlib.Symbols, symbols.Symbols) }

var testPackages = map[string]string{
	"fmt": "fmt", "strings": "strings", "games": "grundy/stdlib/games", "solve": "grundy/stdlib/solve",
	"gen": "gen", "time": "time", "errors": "errors", "display": "grundy/engine/display",
}

// Every table the interpreter is given converts, and every function keeps
// its signature's shape.
func TestImportEveryTable(t *testing.T) {
	u := testUniverse()
	start := time.Now()
	n := 0
	for _, tables := range []map[string]Table{stdlib.Symbols, symbols.Symbols} {
		for key, syms := range tables {
			i := strings.LastIndexByte(key, '/')
			if i < 0 {
				continue // yaegi's "." entry: not a package
			}
			path := key[:i]
			pkg, err := u.Import(path)
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			for name, v := range syms {
				if strings.HasPrefix(name, "_") {
					continue
				}
				obj := pkg.Scope().Lookup(name)
				if obj == nil {
					t.Errorf("%s.%s: no object", path, name)
					continue
				}
				n++
				if v.Kind() == reflect.Func && !v.CanAddr() {
					sig, ok := obj.Type().(*types.Signature)
					if !ok || sig.Params().Len() != v.Type().NumIn() || sig.Results().Len() != v.Type().NumOut() || sig.Variadic() != v.Type().IsVariadic() {
						t.Errorf("%s.%s: %v does not match %v", path, name, obj.Type(), v.Type())
					}
				}
			}
		}
	}
	t.Logf("%d objects in %v", n, time.Since(start))
}

// cells checks each cell in turn, committing it, and returns the last Info
// with the file set.
func cells(t *testing.T, s *Session, srcs ...string) (*Info, *ast.File) {
	t.Helper()
	var in *Info
	var f *ast.File
	fset := token.NewFileSet()
	for _, src := range srcs {
		in, f = checkCell(t, s, fset, src)
		s.Commit(in)
	}
	return in, f
}

// checkCell checks src, declarations and a func cell() whose body is the
// cell's statements, in s, without committing it.
func checkCell(t *testing.T, s *Session, fset *token.FileSet, src string) (*Info, *ast.File) {
	t.Helper()
	f, err := parser.ParseFile(fset, "cell", "package main\n"+src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var c Cell
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "cell" {
			c.Stmts = fd.Body.List
			continue
		}
		c.Decls = append(c.Decls, d)
	}
	return s.Check(fset, c), f
}

// exprOf finds the expression printed as src in f.
func exprOf(t *testing.T, f *ast.File, src string) ast.Expr {
	t.Helper()
	var found ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && found == nil && types.ExprString(e) == src {
			found = e
		}
		return found == nil
	})
	if found == nil {
		t.Fatalf("no expression %s", src)
	}
	return found
}

func newTestSession() *Session {
	return NewSession(testUniverse(), func() map[string]string { return testPackages })
}

func TestCellsSeeEarlierCells(t *testing.T) {
	cases := []struct {
		cells []string
		expr  string
		want  string
	}{
		{[]string{`func cell() { g := games.CN(6, 2); tb, err := solve.Values(g, 3); _, _ = tb, err }`,
			`func cell() { tb.Count(0) }`}, "tb.Count(0)", "int"},
		{[]string{`func cell() { tb, _ := solve.Values(games.CN(6, 2), 3); _ = tb }`,
			`func cell() { for p := range tb.Positions(0) { _ = p } }`}, "tb.Positions(0)", "func(func(grundy/stdlib/games.Pos) bool)"},
		{[]string{`const N = 10`, `func cell() { for i := range N { _ = i } }`}, "N", "int"},
		{[]string{`type C float64`, `func (c C) String() string { return "c" }`, `func cell() { var c C; c.String() }`}, "c.String()", "string"},
		{[]string{`func cell() { xs := []int{1, 2} ; _ = xs }`, `func cell() { f := func(x int) string { return "" }; gen.Map(xs, f) }`}, "gen.Map(xs, f)", "[]string"},
		{[]string{`type P struct{ x, y int }`, `func cell() { p := P{1, 2}; _ = p }`, `func cell() { p.x }`}, "p.x", "int"},
		{[]string{`func cell() { d := 3 * time.Second; _ = d }`, `func cell() { d.Minutes() }`}, "d.Minutes()", "float64"},
		{[]string{`func cell() { err := errors.New("x"); _ = err }`, `func cell() { err.Error() }`}, "err.Error()", "string"},
		// A method the cell adds to an earlier cell's type, called by the
		// cell's statements (a receiver named like a variable the cell
		// declares too).
		{[]string{`type N int`, `func (n N) Plus(m N) N { return n ^ m }; func cell() { N(1).Plus(2) }`}, "N(1).Plus(2)", "main.N"},
		{[]string{`type P struct{ x int }`, `var p P; func (p P) Flip() []P { return nil }; func cell() { p.Flip() }`}, "p.Flip()", "[]main.P"},
		// A method of an earlier cell's type called in the cell that declares it.
		{[]string{`type M [][]float64`, `func (a M) Inv() (M, error) { return a, nil }
			func cell() { var a M; a.Inv() }`}, "a.Inv()", "(main.M, error)"},
		{[]string{`type M [][]float64`, `func (a *M) Rows() int { return len(*a) }
			var a = (&M{}).Rows()`}, "(&M{}).Rows()", "int"},
		// ... whose result is of a type that cell declares.
		{[]string{`type D []string`, `type H struct{ L D }
			func (d D) Split() H { return H{d} }
			func cell() { var d D; h := d.Split(); h.L }`}, "h.L", "main.D"},
		{[]string{`type D []string`, `type H struct{ L D }
			func (d D) Split() H { return H{d} }
			func cell() { h := D{}.Split(); strings.Join(h.L, ",") }`}, "strings.Join(h.L, \",\")", "string"},
		{[]string{`type D []string`, `type H struct{ L D }
			func (d D) Split() H { return H{d} }
			var h = D{}.Split()`, `func cell() { h.L }`}, "h.L", "main.D"},
	}
	for _, c := range cases {
		s := newTestSession()
		in, f := cells(t, s, c.cells...)
		got := in.TypeOf(exprOf(t, f, c.expr))
		if got == nil || got.String() != c.want {
			t.Errorf("%q: type of %s is %v, want %s (errors %v)", c.cells, c.expr, got, c.want, in.Errors)
		}
	}
}

func TestInferredTypeArguments(t *testing.T) {
	s := newTestSession()
	in, f := cells(t, s, `func cell() { ps := []games.Pos{{1}}; gen.Map(ps, func(p games.Pos) int { return p[0] }) }`)
	call := exprOf(t, f, "gen.Map").(*ast.SelectorExpr)
	inst, ok := in.Instances[call.Sel]
	if !ok || inst.TypeArgs.Len() != 2 {
		t.Fatalf("no instance for gen.Map: %v", in.Errors)
	}
	var got []string
	for i := range inst.TypeArgs.Len() {
		s, ok := in.TypeString(inst.TypeArgs.At(i))
		if !ok {
			t.Fatalf("cannot write %v", inst.TypeArgs.At(i))
		}
		got = append(got, s)
	}
	if strings.Join(got, ", ") != "games.Pos, int" {
		t.Errorf("type arguments %v", got)
	}
}

func TestIntegerQuestions(t *testing.T) {
	s := newTestSession()
	in, f := cells(t, s, `type ID int`, `func cell() { var a ID = 3; b := 2.5; var c byte; _, _, _ = a, b, c }`,
		`func cell() { a; b; c; len("x"); games.MaxMoveSets }`)
	for expr, want := range map[string]bool{"a": true, "b": false, "c": true, `len("x")`: true, "games.MaxMoveSets": true} {
		if got := in.IsInteger(exprOf(t, f, expr)); got != want {
			t.Errorf("IsInteger(%s) = %v, want %v", expr, got, want)
		}
	}
}

// The oracle never stops at an error: what can be typed is.
func TestErrorsDoNotStopTheCheck(t *testing.T) {
	s := newTestSession()
	in, f := cells(t, s, `func cell() { x := nope(3); y := strings.ToUpper("a"); _ = x }`)
	if len(in.Errors) == 0 {
		t.Error("no error for an undefined name")
	}
	if got := in.TypeOf(exprOf(t, f, `strings.ToUpper("a")`)); got == nil || got.String() != "string" {
		t.Errorf("type after an error: %v", got)
	}
}

// A method a later cell declares on a generic type whose instances earlier
// cells made is not added to the type (go/types panicked looking a method
// up on such an instance: Named.Method's index out of range): the check
// ends with an error for the engine to refuse the method by.
func TestLaterMethodOfGenericType(t *testing.T) {
	s := newTestSession()
	in, _ := cells(t, s, `type Tree[T any] struct{ L, R *Tree[T]; V T }
		func (t *Tree[T]) Insert(v T) *Tree[T] {
			if t == nil { return &Tree[T]{V: v} }
			t.L = t.L.Insert(v)
			return t
		}`,
		`var root *Tree[int]; func cell() { root = root.Insert(1) }`,
		`func (t *Tree[T]) Walk(f func(T)) { if t != nil { t.L.Walk(f); f(t.V) } }
		func cell() { root.Walk(func(int) {}) }`)
	if len(in.Errors) == 0 {
		t.Error("no error for a method added to an earlier generic type")
	}
}

// A type declared on an earlier cell's type, directly or through a type
// the cell declares, or an alias of one with a method: go/types (go1.26)
// took the earlier type for one the check declares and panicked.
func TestTypesOnEarlierTypes(t *testing.T) {
	s := newTestSession()
	in, f := cells(t, s, `type Nimber int; type Heap struct{ N int }`,
		`type Grundy Nimber; type Row Grundy; type H = Heap
		func (h H) Take(k int) H { return H{h.N - k} }
		func cell() { h := Heap{3}; _ = Row(1); _ = h.Take(1) }`)
	if len(in.Errors) > 0 {
		t.Fatal(in.Errors)
	}
	if got := in.TypeOf(exprOf(t, f, `h.Take(1)`)); got == nil || types.Unalias(got).String() != "main.Heap" {
		t.Errorf("Take's result: %v", got)
	}
	if got := in.TypeOf(exprOf(t, f, `Row(1)`)); got == nil || got.Underlying().String() != "int" {
		t.Errorf("Row(1): %v", got)
	}
}

// A cell costs what its own code costs: checking a small cell in a session
// of many names stays well under the interpreter's own cost of a cell.
func BenchmarkCheckTrivialCell(b *testing.B) {
	s := newTestSession()
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "cell", "package main\nfunc cell() { x := 1; _ = x }", 0)
	s.Commit(s.Check(fset, Cell{Stmts: f.Decls[0].(*ast.FuncDecl).Body.List}))
	f2, _ := parser.ParseFile(fset, "cell", "package main\nfunc cell() { x + 1 }", 0)
	c := Cell{Stmts: f2.Decls[0].(*ast.FuncDecl).Body.List}
	for b.Loop() {
		s.Check(fset, c)
	}
}

// A draft is checked like a cell but leaves the session as it was: a
// method it declares on an earlier cell's type is listed apart, and the
// packages it names come from the caller besides the session's.
func TestDraft(t *testing.T) {
	s := newTestSession()
	cells(t, s, "type pt struct{ X int }\nvar p pt")
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "draft", "package main\nfunc (q *pt) Move() {}\nfunc cell() { _ = bits.OnesCount(3); _ = p }", parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	c := Cell{Decls: f.Decls[:1], Stmts: f.Decls[1].(*ast.FuncDecl).Body.List}
	in := s.Draft(fset, c, func(name string) string {
		if name == "bits" {
			return "math/bits"
		}
		return ""
	})
	if got := in.TypeOf(exprOf(t, f, "bits.OnesCount(3)")); got == nil || got.String() != "int" {
		t.Errorf("bits.OnesCount(3): %v; want int", got)
	}
	if len(in.Scopes) == 0 {
		t.Error("a draft records no scopes")
	}
	named := s.Lookup("pt").Type().(*types.Named)
	if ms := in.DraftMethods(named); len(ms) != 1 || ms[0].Name() != "Move" {
		t.Errorf("DraftMethods(pt) = %v; want Move", ms)
	}
	if named.NumMethods() != 0 {
		t.Errorf("the draft gave the session's pt %d methods", named.NumMethods())
	}
	if got := strings.Join(s.Names(), " "); got != "p pt" {
		t.Errorf("Names() = %q", got)
	}
	if s.Packages()["games"] != "grundy/stdlib/games" {
		t.Errorf("Packages() = %v", s.Packages())
	}
}

// A table's package gains the generic declarations WithGeneric gives it,
// beside its table's names, which they may use.
func TestWithGeneric(t *testing.T) {
	u := NewUniverse(nil, stdlib.Symbols).WithGeneric(map[string][]string{"sync": {`package sync

func OnceValue[T any](f func() T) func() T { var o Once; _ = o; return f }
`}})
	pkg, err := u.Import("sync")
	if err != nil {
		t.Fatal(err)
	}
	f, ok := pkg.Scope().Lookup("OnceValue").(*types.Func)
	if !ok || f.Type().(*types.Signature).TypeParams().Len() != 1 || f.Pkg() != pkg {
		t.Fatalf("sync.OnceValue = %v, want a generic function of package sync", pkg.Scope().Lookup("OnceValue"))
	}
	if pkg.Scope().Lookup("Mutex") == nil {
		t.Error("sync lost its table's Mutex")
	}
	bad := NewUniverse(nil, stdlib.Symbols).WithGeneric(map[string][]string{"sync": {"package sync\n\nfunc Mutex() {}\n"}})
	if _, err := bad.Import("sync"); err == nil {
		t.Error("a declaration clashing with the table's is not reported")
	}
}

// TestRuneConsts checks runeConsts against the toolchain's api files,
// which call an untyped rune constant's type ideal-char, and that the
// universe types them so.
func TestRuneConsts(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "api", "*.txt"))
	if len(files) == 0 {
		t.Skip("no api files")
	}
	want := map[string]bool{}
	re := regexp.MustCompile(`^pkg ([^ ,]+)(?:, [^,]+)?, const (\w+) ideal-char$`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(src), "\n") {
			if m := re.FindStringSubmatch(line); m != nil {
				want[m[1]+"."+m[2]] = true
			}
		}
	}
	for k := range want {
		if !runeConsts[k] {
			t.Errorf("runeConsts lacks %s", k)
		}
	}
	for k := range runeConsts {
		if !want[k] {
			t.Errorf("runeConsts has %s, which the api files do not call ideal-char", k)
		}
	}
	u := testUniverse()
	for _, k := range []string{"unicode/utf8.RuneError", "unicode.MaxRune", "os.PathSeparator"} {
		i := strings.LastIndexByte(k, '.')
		pkg, err := u.Import(k[:i])
		if err != nil {
			t.Fatal(err)
		}
		if typ := pkg.Scope().Lookup(k[i+1:]).Type(); typ != types.Typ[types.UntypedRune] {
			t.Errorf("%s: %v, want untyped rune", k, typ)
		}
	}
	pkg, _ := u.Import("unicode/utf8")
	if typ := pkg.Scope().Lookup("UTFMax").Type(); typ != types.Typ[types.UntypedInt] {
		t.Errorf("utf8.UTFMax: %v, want untyped int", typ)
	}
}
