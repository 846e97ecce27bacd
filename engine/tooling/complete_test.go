package tooling

import (
	"fmt"
	"go/constant"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/traefik/yaegi/stdlib"

	"grundy/engine/cell"
	"grundy/engine/typecheck"
)

// Compiled types standing in for the library in tests of the tooling.

// fakeGame is a game.
type fakeGame struct {
	Name  string
	Heaps int
}

// Moves lists the moves from pos.
func (g *fakeGame) Moves(pos []int) [][]int { return nil }

// Solve builds the table up to max.
func (g fakeGame) Solve(max int) *fakeTable { return &fakeTable{Game: g.Name, Max: max} }

type fakeTable struct {
	Game string
	Max  int
}

func (t *fakeTable) At(pos ...int) int             { return len(pos) }
func (t *fakeTable) Count(v int) int               { return v }
func (t *fakeTable) Face(pattern string) *fakeFace { return &fakeFace{Pattern: pattern} }

type fakeFace struct {
	Pattern string
	Cells   []int
}

func (f *fakeFace) IsP(x, y int) bool { return x == y }

func newFakeGame(n int) *fakeGame { return &fakeGame{Heaps: n} }

// fakeScope is a Session without an interpreter: a real type oracle over
// symbol tables of the fake library above (and a few of Go's packages),
// given the cells of a session to check, and fixed values.
type fakeScope struct {
	tc     *typecheck.Session
	values map[string]reflect.Value
}

func (f *fakeScope) Types() *typecheck.Session { return f.tc }
func (f *fakeScope) ValueOf(expr string) (reflect.Value, bool) {
	if v, ok := f.values[expr]; ok {
		return v, true
	}
	parts := strings.Split(expr, ".")
	v, ok := f.values[parts[0]]
	for _, p := range parts[1:] {
		if !ok {
			break
		}
		v = reflect.Indirect(v)
		if v.Kind() != reflect.Struct {
			return reflect.Value{}, false
		}
		v = v.FieldByName(p)
		ok = v.IsValid()
	}
	return v, ok
}

// fakeCells are the cells the fake session ran.
var fakeCells = []string{
	"var table *games.Table\nfunc tally(n int) int { return n }",
	"type point struct {\n\tcount int\n\tTotal float64\n}\nvar pt point",
	"func (p point) Norm() float64 { return p.Total }",
	"type other struct{ count, total int }\nfunc (o other) Nope() {}\ntype Pair struct{}",
	"var long string\nvar bad fmt.Stringer",
}

// newFakeScope is the session after fakeCells, then cells.
func newFakeScope(t testing.TB, cells ...string) *fakeScope {
	t.Helper()
	tables := map[string]typecheck.Table{
		"strings/strings": {
			"ToUpper": reflect.ValueOf(strings.ToUpper),
			"ToLower": reflect.ValueOf(strings.ToLower),
			"ToTitle": reflect.ValueOf(strings.ToTitle),
			"Split":   reflect.ValueOf(strings.Split),
			"Builder": reflect.ValueOf((*strings.Builder)(nil)),
		},
		"fmt/fmt": {
			"Println":  reflect.ValueOf(fmt.Println),
			"Sprintf":  reflect.ValueOf(fmt.Sprintf),
			"Stringer": reflect.ValueOf((*fmt.Stringer)(nil)),
		},
		"grundy/stdlib/games/games": {
			"New":       reflect.ValueOf(newFakeGame),
			"Game":      reflect.ValueOf((*fakeGame)(nil)),
			"Table":     reflect.ValueOf((*fakeTable)(nil)),
			"MaxHeaps":  reflect.ValueOf(constant.MakeFromLiteral("64", token.INT, 0)),
			"Default":   reflect.ValueOf(&fakeGame{Name: "default"}),
			"_Iface":    reflect.ValueOf((*fmt.Stringer)(nil)),
			"Circular":  reflect.ValueOf(newFakeGame),
			"CNDefault": reflect.ValueOf(3),
			"Load":      reflect.ValueOf(func(string) (*fakeTable, error) { return nil, nil }),
		},
	}
	u := typecheck.NewUniverse(nil, tables, stdlib.Symbols)
	pkgs := map[string]string{"strings": "strings", "fmt": "fmt", "games": "grundy/stdlib/games"}
	tc := typecheck.NewSession(u, func() map[string]string { return pkgs })
	fset := token.NewFileSet()
	for _, src := range append(slices.Clone(fakeCells), cells...) {
		pc, err := cell.Parse(fset, "cell", src)
		if err != nil {
			t.Fatal(err)
		}
		var c typecheck.Cell
		if pc.Decls != nil {
			c.Decls = pc.Decls.Decls
		}
		if pc.Stmts != nil {
			c.Stmts = pc.Stmts.List
		}
		in := tc.Check(fset, c)
		if len(in.Errors) > 0 {
			t.Fatalf("%s: %v", src, in.Errors)
		}
		tc.Commit(in)
	}
	return &fakeScope{tc: tc, values: map[string]reflect.Value{
		"table": reflect.ValueOf(&fakeTable{Game: "CN(6,2)", Max: 12}),
		"pt":    reflect.ValueOf(struct{ count int }{}),
		// A package's variable, as the engine reads it from its table.
		"games.Default": reflect.ValueOf(fakeGame{Name: "default"}),
	}}
}

// at splits "before|after" into code and the cursor in code points.
func at(s string) (string, int) {
	i := strings.Index(s, "|")
	if i < 0 {
		return s, utf8.RuneCountInString(s)
	}
	return s[:i] + s[i+1:], utf8.RuneCountInString(s[:i])
}

func TestComplete(t *testing.T) {
	tests := []struct {
		name       string
		code       string // | marks the cursor (default: end)
		want       []string
		wantAbsent []string
		exact      bool // want is the whole match list
		start, end int  // cursor_start/end in code points; -1: don't check
	}{
		{name: "builtins", code: "pri", want: []string{"print", "println"}, exact: true, start: 0, end: 3},
		{name: "new builtins", code: "x := mi", want: []string{"min"}, start: 5, end: 7},
		{name: "clear", code: "cle", want: []string{"clear"}, exact: true, start: 0, end: 3},
		{name: "keyword", code: "fo", want: []string{"for"}, start: 0, end: 2},
		{name: "globals", code: "ta", want: []string{"table", "tally"}, exact: true, start: 0, end: 2},
		{name: "packages", code: "x := str", want: []string{"string", "strings", "struct"}, exact: true, start: 5, end: 8},
		{name: "package members", code: "strings.To", want: []string{"ToLower", "ToTitle", "ToUpper"}, exact: true, start: 8, end: 10},
		{name: "all package members", code: "games.", want: []string{"CNDefault", "Circular", "Default", "Game", "Load", "MaxHeaps", "New", "Table"}, exact: true, start: 6, end: 6},
		{name: "members ignore case when nothing matches", code: "games.circ", want: []string{"Circular"}, exact: true, start: 6, end: 10},
		{name: "cursor inside a word", code: "strings.ToU|pper(s)", want: []string{"ToUpper"}, exact: true, start: 8, end: 15},
		{name: "non-ASCII before cursor", code: "s := \"héllo→ wörld\" + strings.ToU", want: []string{"ToUpper"}, exact: true, start: 30, end: 33},
		{name: "non-ASCII identifier", code: "größe := 1\ngrö", want: []string{"größe"}, exact: true, start: 11, end: 14},
		{name: "selector after a newline", code: "strings.\n\tSpl", want: []string{"Split"}, exact: true, start: 10, end: 13},
		{name: "methods and fields of a session variable", code: "table.", want: []string{"At", "Count", "Face", "Game", "Max"}, exact: true, start: 6, end: 6},
		{name: "method prefix", code: "n := table.Co", want: []string{"Count"}, exact: true},
		{name: "chain through a call", code: "table.Face(\"0 a b\").", want: []string{"Cells", "IsP", "Pattern"}, exact: true},
		{name: "index into a field", code: "table.Face(\"a b\").Cells[0].", want: nil, exact: true},
		{name: "methods of a cell type from the session", code: "pt.", want: []string{"Norm", "Total", "count"}, exact: true},
		{name: "methods of a cell type declared in this cell", code: "func (p *point) Scale(k int) point { return *p }\npt.Sc", want: []string{"Scale"}, exact: true},
		{name: "method names are not top-level names", code: "poi", want: []string{"point"}, exact: true},
		{name: "declared earlier in the cell", code: "g := games.New(3)\ng.", want: []string{"Heaps", "Moves", "Name", "Solve"}, exact: true},
		{name: "declared earlier, chained", code: "g := games.New(3)\nt := g.Solve(10)\nt.Fa", want: []string{"Face"}, exact: true},
		{name: "second result of a call", code: "t, err := games.Load(\"x\")\nerr.", want: []string{"Error"}, exact: true},
		{name: "blank first", code: "_, err := games.Load(\"x\")\nerr.", want: []string{"Error"}, exact: true},
		{name: "first result of a call", code: "t, err := games.Load(\"x\")\nt.Fa", want: []string{"Face"}, exact: true},
		{name: "one value per name", code: "a, b := games.New(1), table\nb.Ma", want: []string{"Max"}, exact: true},
		{name: "var with a type", code: "var g games.Game\ng.So", want: []string{"Solve"}, exact: true},
		{name: "composite literal", code: "g := &games.Game{Name: \"x\"}\ng.He", want: []string{"Heaps"}, exact: true},
		{name: "package variable", code: "games.Default.Na", want: []string{"Name"}, exact: true},
		{name: "cell local shadows a global", code: "table := games.New(2)\ntable.Mo", want: []string{"Moves"}, exact: true},
		{name: "cell local names", code: "func helper(limit int) {}\nvar hedge = 3\ntype heap struct{}\nhe", want: []string{"heap", "hedge", "helper"}, exact: true},
		{name: "function parameters", code: "func f(alpha, alps int, beta string) {\n\tal", want: []string{"alpha", "alps"}, exact: true},
		{name: "multiple assignment", code: "quot, quirk := 1, 2\nqu", want: []string{"quirk", "quot"}, exact: true},
		{name: "range variables", code: "for idx, item := range xs {\n\tit", want: []string{"item"}, exact: true},
		{name: "imports in the cell", code: "import (\n\tstrs \"strings\"\n\t\"math/bits\"\n)\nbi", want: []string{"bits"}, exact: true},
		{name: "import path", code: "import \"math/bi", want: []string{"math/big", "math/bits"}, exact: true, start: 8, end: 15},
		{name: "import path in a group", code: "import (\n\t\"fmt\"\n\tb \"encoding/bas", want: []string{"encoding/base32", "encoding/base64"}, exact: true},
		{name: "import path after non-ASCII", code: "// é→\nimport \"strc", want: []string{"strconv"}, exact: true, start: 14, end: 18},
		{name: "library import path", code: "import \"grundy/stdlib/ga", want: []string{"grundy/stdlib/games"}, exact: true},
		{name: "closed import path", code: "import \"fmt\"", want: nil, exact: true},
		{name: "package imported in this cell", code: "import \"math/bits\"\nbits.OnesCount6", want: []string{"OnesCount64"}, exact: true},
		{name: "aliased import in this cell", code: "import b \"math/bits\"\nb.Len3", want: []string{"Len32"}, exact: true},
		{name: "not the word being typed", code: "zebra", want: nil, exact: true},
		{name: "inside a string", code: "s := \"strings.To", want: nil, exact: true},
		{name: "inside a comment", code: "// strings.To", want: nil, exact: true},
		{name: "after a comment", code: "/* c */ pri", want: []string{"print", "println"}, exact: true},
		{name: "after a line comment", code: "// c\n  pri", want: []string{"print", "println"}, exact: true},
		{name: "unknown receiver", code: "nothing.", want: nil, exact: true},
		{name: "number", code: "x := 12", want: nil, exact: true},
		{name: "unexported interface wrappers hidden", code: "games._", want: nil, exact: true},
		{name: "empty prefix lists everything", code: "", want: []string{"table", "strings", "for", "len"}},
	}
	sc := newFakeScope(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, cursor := at(tc.code)
			c := complete(sc, code, cursor)
			if tc.exact {
				if !slices.Equal(c.Matches, tc.want) && !(len(c.Matches) == 0 && len(tc.want) == 0) {
					t.Errorf("matches = %q; want %q", c.Matches, tc.want)
				}
			} else {
				for _, w := range tc.want {
					if !slices.Contains(c.Matches, w) {
						t.Errorf("matches %q lack %q", c.Matches, w)
					}
				}
			}
			if !slices.IsSorted(c.Matches) || len(slices.Compact(slices.Clone(c.Matches))) != len(c.Matches) {
				t.Errorf("matches not sorted and unique: %q", c.Matches)
			}
			if tc.want != nil && tc.start >= 0 && (tc.start != 0 || tc.end != 0) {
				if c.CursorStart != tc.start || c.CursorEnd != tc.end {
					t.Errorf("cursor = %d..%d; want %d..%d", c.CursorStart, c.CursorEnd, tc.start, tc.end)
				}
			}
			if c.CursorStart > cursor || c.CursorEnd < cursor {
				t.Errorf("span %d..%d does not contain the cursor %d", c.CursorStart, c.CursorEnd, cursor)
			}
		})
	}
}

func TestCompleteReplacesTheRightText(t *testing.T) {
	// Applying a match the way a frontend does must give valid text, with
	// multi-byte characters before the cursor.
	sc := newFakeScope(t)
	code, cursor := at("ä := \"→\"; strings.toup|")
	c := complete(sc, code, cursor)
	if len(c.Matches) != 1 {
		t.Fatalf("matches = %q; want just ToUpper", c.Matches)
	}
	r := []rune(code)
	got := string(r[:c.CursorStart]) + c.Matches[0] + string(r[c.CursorEnd:])
	if want := "ä := \"→\"; strings.ToUpper"; got != want {
		t.Errorf("after applying: %q; want %q", got, want)
	}
}

func TestCompleteMetadata(t *testing.T) {
	sc := newFakeScope(t)
	c := complete(sc, "games.", 6)
	types, ok := c.Metadata["_jupyter_types_experimental"].([]any)
	if !ok || len(types) != len(c.Matches) {
		t.Fatalf("metadata types = %v for %d matches", c.Metadata, len(c.Matches))
	}
	kinds := map[string]string{}
	sigs := map[string]string{}
	for _, x := range types {
		m := x.(map[string]any)
		kinds[m["text"].(string)] = m["type"].(string)
		sigs[m["text"].(string)] = m["signature"].(string)
	}
	want := map[string]string{"New": "function", "Game": "class", "MaxHeaps": "instance", "Default": "instance"}
	for name, kind := range want {
		if kinds[name] != kind {
			t.Errorf("%s: type %q; want %q", name, kinds[name], kind)
		}
	}
	if !strings.Contains(sigs["New"], "func(int)") {
		t.Errorf("New's signature %q lacks its parameters", sigs["New"])
	}
}
