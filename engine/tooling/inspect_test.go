package tooling

import (
	"reflect"
	"strings"
	"testing"
)

type panicky struct{}

func (panicky) String() string { panic("boom") }

// withDocs adds doc entries for the test's duration, standing in for the
// generated ones so the test does not depend on what the library holds.
func withDocs(t *testing.T, entries map[string]docEntry) {
	t.Helper()
	for k, e := range entries {
		old, had := libDocs[k]
		libDocs[k] = e
		t.Cleanup(func() {
			if had {
				libDocs[k] = old
			} else {
				delete(libDocs, k)
			}
		})
	}
}

func TestInspect(t *testing.T) {
	withDocs(t, map[string]docEntry{
		"grundy/stdlib/games":                  {Kind: "package", Sig: `package games // import "grundy/stdlib/games"`, Doc: "Package games holds the rules.\n"},
		"grundy/stdlib/games.New":              {Kind: "func", Sig: "func New(n int) *Game", Doc: "New makes a game of n heaps.\n"},
		"grundy/stdlib/games.Default":          {Kind: "var", Sig: "var Default = &Game{}", Doc: "Default is the game used when none is named.\n"},
		"grundy/engine/tooling.fakeGame":       {Kind: "type", Sig: "type fakeGame struct {\n\tName  string\n\tHeaps int\n}", Doc: "fakeGame is a game.\n"},
		"grundy/engine/tooling.fakeGame.Solve": {Kind: "method", Sig: "func (g fakeGame) Solve(max int) *fakeTable", Doc: "Solve builds the table up to max.\n"},
		"grundy/engine/tooling.fakeGame.Moves": {Kind: "method", Sig: "func (g *fakeGame) Moves(pos []int) [][]int", Doc: "Moves lists the moves from pos.\n"},
	})
	sc := newFakeScope(t)
	sc.values["long"] = reflect.ValueOf(strings.Repeat("ab", 3000))
	sc.values["bad"] = reflect.ValueOf(panicky{})
	hasGoroot := goroot() != ""

	tests := []struct {
		name    string
		code    string // | marks the cursor
		detail  int
		needSrc bool     // needs GOROOT's source
		has     []string // substrings of text/plain; nil: expect not found
		hasnt   []string
	}{
		{name: "library function", code: "games.New|", has: []string{"func New(n int) *Game", "New makes a game of n heaps."}},
		{name: "cursor inside the name", code: "x := games.Ne|w(3)", has: []string{"func New(n int) *Game"}},
		{name: "inside the call's parentheses", code: "x := games.New(|", has: []string{"func New(n int) *Game"}},
		{name: "inside a nested call", code: "x := games.New(len(xs), |", has: []string{"func New(n int) *Game"}},
		{name: "after the call closed", code: "x := games.New(3)|", has: nil},
		{name: "package", code: "games|", has: []string{"package games", "holds the rules"}},
		{name: "package before its dot", code: "games.|", has: []string{"package games", "holds the rules"}},
		{name: "library variable with value", code: "games.Default|", has: []string{"var Default", "value: {default 0}", "used when none is named"}},
		{name: "method of a value declared in the cell", code: "g := games.New(3)\ng.Solve|(4)", has: []string{"func (g fakeGame) Solve(max int) *fakeTable", "builds the table"}},
		{name: "method expression", code: "games.Game.Solve|", has: []string{"func (g fakeGame) Solve(max int) *fakeTable"}},
		{name: "session variable", code: "table|", has: []string{"var table *tooling.fakeTable", "value: &{CN(6,2) 12}"}},
		{name: "variable's type docs and methods", code: "g := games.New(2)\ng|", has: []string{"var g *tooling.fakeGame", "fakeGame is a game.", "func (g *fakeGame) Moves(pos []int) [][]int"}},
		{name: "undocumented method", code: "table.Count|", has: []string{"func (*tooling.fakeTable) Count(int) int"}},
		{name: "field with value", code: "table.Max|", has: []string{"field Max int", "value: 12"}},
		{name: "cell-typed variable", code: "pt|", has: []string{"var pt point", "func (point) Norm() float64"}, hasnt: []string{"Nope"}},
		{name: "cell-declared method", code: "pt.Norm|()", has: []string{"func (point) Norm() float64"}},
		{name: "cell-defined struct field", code: "pt.count|", has: []string{"field count int"}},
		{name: "global function", code: "tally|(3)", has: []string{"func tally(n int) int"}},
		{name: "function declared in the cell", code: "// double doubles a heap.\nfunc double(x int) int {\n\treturn 2 * x\n}\ndou|ble(3)", has: []string{"func double(x int) int", "double doubles a heap."}, hasnt: []string{"return"}},
		{name: "long value cut at detail 0", code: "long|", has: []string{"more characters"}},
		{name: "long value whole at detail 1", code: "long|", detail: 1, has: []string{"var long string"}, hasnt: []string{"more characters"}},
		{name: "panicking String", code: "bad|", has: []string{"boom"}},
		{name: "unknown name", code: "nothing|", has: nil},
		{name: "in a comment", code: "// games.New|", has: nil},
		{name: "standard library function", code: "strings.ToUpper|", needSrc: true, has: []string{"func ToUpper(s string) string", "upper case"}},
		{name: "standard library inside call string", code: "fmt.Println(\"héllo → |", needSrc: true, has: []string{"func Println(a ...any) (n int, err error)"}},
		{name: "standard library type", code: "strings.Builder|", needSrc: true, has: []string{"type Builder struct", "efficiently build a string"}},
		{name: "package imported in this cell", code: "import b \"math/bits\"\nb.OnesCount|(3)", needSrc: true, has: []string{"func OnesCount(x uint) int"}},
		{name: "builtin", code: "n := len|(xs)", needSrc: true, has: []string{"func len(v Type) int"}},
		{name: "new builtin", code: "max|", needSrc: true, has: []string{"func max[T cmp.Ordered]"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.needSrc && !hasGoroot {
				t.Skip("no Go source tree (GOROOT) on this machine")
			}
			code, cursor := at(tc.code)
			b, found := inspect(sc, code, cursor, tc.detail)
			if tc.has == nil {
				if found {
					t.Errorf("found %q; want nothing", b["text/plain"])
				}
				return
			}
			if !found {
				t.Fatalf("nothing found; want %q", tc.has)
			}
			text, _ := b["text/plain"].(string)
			for _, h := range tc.has {
				if !strings.Contains(text, h) {
					t.Errorf("text/plain lacks %q:\n%s", h, text)
				}
			}
			for _, h := range tc.hasnt {
				if strings.Contains(text, h) {
					t.Errorf("text/plain has %q:\n%s", h, text)
				}
			}
			md, _ := b["text/markdown"].(string)
			if !strings.Contains(md, "```go") {
				t.Errorf("text/markdown lacks a Go block:\n%s", md)
			}
		})
	}
}

// TestInspectGeneratedDocs checks that every generated entry can be shown,
// so a change in the generator's output format cannot go unnoticed.
func TestInspectGeneratedDocs(t *testing.T) {
	if len(libDocs) == 0 {
		t.Skip("no library docs generated yet")
	}
	for key, e := range libDocs {
		if e.Sig == "" || e.Kind == "" {
			t.Errorf("%s: empty entry %+v", key, e)
		}
	}
}
