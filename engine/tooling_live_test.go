package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"grundy/engine/display"

	"grundy/engine/tooling"
)

// liveOut is an Output that keeps the text a cell printed.
type liveOut struct {
	mu   sync.Mutex
	text strings.Builder
}

func (o *liveOut) Stdout(s string)                                      { o.mu.Lock(); o.text.WriteString(s); o.mu.Unlock() }
func (o *liveOut) Stderr(s string)                                      { o.mu.Lock(); o.text.WriteString(s); o.mu.Unlock() }
func (o *liveOut) Display(display.Bundle, map[string]any, string, bool) {}
func (o *liveOut) ClearOutput(bool)                                     {}
func (o *liveOut) Input(string, bool) (string, error)                   { return "", errors.New("no stdin") }

// liveSession starts a real session and runs setup cells in it.
func liveSession(t *testing.T, cells ...string) Session {
	t.Helper()
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	for _, c := range cells {
		if _, err := s.Execute(context.Background(), c, &liveOut{}); err != nil {
			t.Fatalf("setup cell %q: %v", c, err)
		}
	}
	return s
}

// TestCompleteLive drives completion through a real session: the names and
// types come from the interpreter and the library's symbol tables.
func TestCompleteLive(t *testing.T) {
	s := liveSession(t,
		"g := games.CN(6, 2)",
		"tb, err := solve.Values(g, 3)",
		"type pt struct{ x, Y int }\np := pt{1, 2}",
		// Shadowed in blocks: p stays the session's pt.
		"{\n\tp := \"shadow\"\n\t_ = p\n}",
		"for _, p := range []int{1} {\n\t_ = p\n}",
		"heapSizes := []int{3, 1, 2}",
		"func helperFunc(n int) int { return n }",
		"type heapN int\nvar heapBox any = []heapN{1}",
	)
	tests := []struct {
		code string   // | marks the cursor
		want []string // all present
		not  []string // all absent
	}{
		{code: "hea", want: []string{"heapSizes", "heapBox"}},
		// The engine's hidden composite type of []heapN is not offered.
		{code: "_", not: []string{"_grundyComposite1"}},
		{code: "helper", want: []string{"helperFunc"}},
		{code: "gam", want: []string{"games"}},
		{code: "x := mi", want: []string{"min"}},
		{code: "games.CircularN", want: []string{"CircularNim"}},
		{code: "solve.Val", want: []string{"Values", "ValueOf"}},
		{code: "tb.", want: []string{"At", "Count", "Face"}, not: []string{"layout"}},
		{code: "f, _ := tb.Face(\"a b 0 0 0 0\")\nf.", want: []string{"At", "Cells", "W"}},
		// Face returns (*Face, error): Go has no selector on the pair.
		{code: "tb.Face(\"a b 0 0 0 0\").", not: []string{"At", "Cells"}},
		{code: "g.", want: []string{"Heaps", "Name", "Followers"}},
		{code: "p.", want: []string{"Y", "x"}},
		{code: "{\n\tp := strings.NewReader(\"\")\n\tp.Rea", want: []string{"Read", "ReadByte"}, not: []string{"Y"}},
		{code: "if p := strings.NewReader(\"\"); p != nil {\n\tp.Rea", want: []string{"Read", "ReadByte"}},
		{code: "fmt.Prin", want: []string{"Printf", "Println"}},
		{code: "strings.ToU", want: []string{"ToUpper"}},
		{code: "slices.So", want: []string{"Sort", "SortFunc"}},
		{code: "t2 := solve.Remoteness(g, 3)\nt3, _ := solve.Outcomes(g, 2)\nt3.Co", want: []string{"Count", "Counts"}},
		{code: "s := \"ünïcödé → \"; strings.Spl|", want: []string{"Split", "SplitN"}},
		{code: "import \"math/bi", want: []string{"math/bits", "math/big"}},
		{code: "import \"grundy/stdlib/ga", want: []string{"grundy/stdlib/games"}},
		{code: "import \"math/bits\"\nbits.OnesC", want: []string{"OnesCount", "OnesCount64"}},
		// Imported when the cell runs (see autoImport).
		{code: "filepath.J", want: []string{"Join"}},
		{code: "template.Mu", want: []string{"Must"}},
		{code: "filepath := \"x\"\nfilepath.J", not: []string{"Join"}},
	}
	for _, tc := range tests {
		code, cursor := at(tc.code)
		c := s.Complete(code, cursor)
		for _, w := range tc.want {
			if !slices.Contains(c.Matches, w) {
				t.Errorf("complete %q: %q lacks %q", tc.code, c.Matches, w)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(c.Matches, n) {
				t.Errorf("complete %q: %q has %q", tc.code, c.Matches, n)
			}
		}
		r := []rune(code)
		if c.CursorEnd > len(r) || c.CursorStart > cursor || c.CursorEnd < cursor {
			t.Errorf("complete %q: span %d..%d around cursor %d", tc.code, c.CursorStart, c.CursorEnd, cursor)
			continue
		}
		if len(c.Matches) > 0 && len(tc.want) > 0 {
			// The replaced span is exactly the word being typed.
			word := string(r[c.CursorStart:c.CursorEnd])
			if !strings.HasPrefix(strings.ToLower(tc.want[0]), strings.ToLower(word[:min(len(word), 1)])) {
				t.Errorf("complete %q: replaces %q", tc.code, word)
			}
		}
	}
}

// TestInspectLive shows library docs and live values through a real session.
func TestInspectLive(t *testing.T) {
	s := liveSession(t,
		"g := games.CN(6, 2)",
		"tb, err := solve.Values(g, 3)",
		"heapSizes := []int{3, 1, 2}",
		"type box struct {\n\tn    int\n\tName string\n}\ntype holder struct{ B box }\nhold := holder{B: box{n: 7, Name: \"x\"}}",
		"// mex is the least number not in xs.\nfunc mex(xs []int) int { return 0 }\n\n// Pos is a position of the game.\ntype Pos struct{ H []int }\n\n// Moves lists p's moves.\nfunc (p Pos) Moves() []Pos { return nil }\nlen := 3",
	)
	tests := []struct {
		code string
		has  []string
	}{
		{"hold|", []string{"var hold holder", "value: {{7 x}}"}},
		{"hold.B.n|", []string{"field n int // in box", "value: 7"}},
		{"hold.B.Name|", []string{"field Name string // in box", "value: x"}},
		{"solve.Values|", []string{"func Values(", "Sprague-Grundy"}},
		{"t, _ := solve.Values(|", []string{"func Values("}},
		{"games.CN|", []string{"func CN(n, k int)"}},
		{"tb|", []string{"var tb *solve.Table", "value: CN(6,2)", "type Table", "func (t *Table) At("}},
		{"tb.At|(1, 2, 0, 0, 0, 0)", []string{"func (t *Table) At("}},
		{"heapSizes|", []string{"var heapSizes []int", "value: [3 1 2]"}},
		{"strings.Fields|", []string{"func Fields(s string) []string"}},
		{"g.Followers|", []string{"func (Game) Followers("}},
		{"filepath.Join|", []string{"func Join(elem ...string) string"}},
		// Declared in an earlier cell, with their doc comments.
		{"mex|", []string{"func mex(xs []int) int", "mex is the least number not in xs."}},
		{"var p Pos|", []string{"Pos is a position of the game."}},
		{"Pos{}.Moves|", []string{"Moves lists p's moves."}},
		// A variable named like a builtin (see compat's shadowVars).
		{"len|", []string{"var len int", "value: 3"}},
	}
	for _, tc := range tests {
		code, cursor := at(tc.code)
		b, ok := s.Inspect(code, cursor, 0)
		if !ok {
			t.Errorf("inspect %q: nothing found", tc.code)
			continue
		}
		text, _ := b["text/plain"].(string)
		for _, h := range tc.has {
			if strings.Contains(h, "Fields") && !tooling.StdlibDocs() {
				continue
			}
			if !strings.Contains(text, h) {
				t.Errorf("inspect %q lacks %q:\n%s", tc.code, h, text)
			}
		}
	}
}

func TestIsCompleteLive(t *testing.T) {
	s := liveSession(t)
	for code, want := range map[string]string{
		"for i := range 3 {":         "incomplete",
		"x := 1":                     "complete",
		"x := 1 }":                   "invalid",
		"t, _ := solve.Values(g, 3,": "incomplete",
	} {
		if got, _ := s.IsComplete(code); got != want {
			t.Errorf("IsComplete(%q) = %q; want %q", code, got, want)
		}
	}
}

// BenchmarkCompleteLive: a completion after "t." in a live session, the
// case a user waits on while typing.
func BenchmarkCompleteLive(b *testing.B) {
	s, err := New()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for _, c := range []string{"g := games.CN(6, 2)", "t, err := solve.Values(g, 3)"} {
		if _, err := s.Execute(context.Background(), c, &liveOut{}); err != nil {
			b.Fatal(err)
		}
	}
	code := "x, _ := t.Face(\"a b 0 0 0 0\")\nx.Ce"
	for b.Loop() {
		if c := s.Complete(code, len(code)); len(c.Matches) == 0 {
			b.Fatal("no matches")
		}
	}
}

// BenchmarkInspectLive: Shift-Tab on a library function.
func BenchmarkInspectLive(b *testing.B) {
	s, err := New()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	code := "t, err := solve.Values("
	for b.Loop() {
		if _, ok := s.Inspect(code, len(code), 0); !ok {
			b.Fatal("not found")
		}
	}
}

// at splits "code|more" into the code without the bar and the cursor
// (in code points) where the bar was.
func at(s string) (string, int) {
	i := strings.Index(s, "|")
	if i < 0 {
		return s, utf8.RuneCountInString(s)
	}
	return s[:i] + s[i+1:], utf8.RuneCountInString(s[:i])
}
