package tooling

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIsComplete(t *testing.T) {
	tests := []struct {
		name, code     string
		status, indent string
	}{
		{"empty", "", "complete", ""},
		{"blank lines", "\n  \n", "complete", ""},
		{"expression", "1 + 2", "complete", ""},
		{"statement", "x := games.CircularNim(6, 2)", "complete", ""},
		{"call with trailing semicolon", "fmt.Println(1);", "complete", ""},
		{"mixed decls and statements", "import \"strings\"\nfunc f(x int) int { return x }\nx := f(2)\ntype T struct{ A int }\nstrings.ToUpper(\"a\")", "complete", ""},
		{"method decl", "func (t T) M() int { return t.A }", "complete", ""},
		{"func literal call", "func() { fmt.Println(1) }()", "complete", ""},
		{"generic func", "func Max[T cmp.Ordered](a, b T) T { if a > b { return a }; return b }", "complete", ""},
		{"closed raw string", "s := `a\nb`", "complete", ""},
		{"label then loop", "L:\nfor {\nbreak L\n}", "complete", ""},
		{"comment only", "// nothing", "complete", ""},
		{"three-clause loop", "var fs []int\nfor i := 0; i < 3; i++ {\n\tfs = append(fs, i)\n}\nfs", "complete", ""},
		{"statements joined by semicolons", "x := 1; y := x + 1", "complete", ""},
		{"comment before a func", "// doc\n/* more */\nfunc f() {}\nf()", "complete", ""},

		{"open brace", "for i := range 10 {", "incomplete", "    "},
		{"nested braces", "func f() {\n\tif true {", "incomplete", "        "},
		{"open paren", "fmt.Println(1,", "incomplete", "    "},
		{"open bracket", "xs := []int{1, 2,\n3", "incomplete", "    "},
		{"open index", "m[", "incomplete", "    "},
		{"trailing plus", "x := 1 +", "incomplete", "    "},
		{"trailing and", "ok := a &&", "incomplete", "    "},
		{"trailing assign", "x =", "incomplete", "    "},
		{"trailing define", "x :=", "incomplete", "    "},
		{"expression list is no statement", "a, b", "invalid", ""},
		{"trailing comma", "a, b,", "incomplete", "    "},
		{"trailing dot", "fmt.", "incomplete", "    "},
		{"else follows", "if x {\n} else", "incomplete", "    "},
		{"unterminated raw string", "s := `abc", "incomplete", ""},
		{"unterminated raw string in call", "f(`abc", "incomplete", "    "},
		{"unterminated block comment", "x := 1 /* more", "incomplete", ""},
		{"import group open", "import (\n\"fmt\"", "incomplete", "    "},

		{"extra close brace", "x := 1 }", "invalid", ""},
		{"mismatched brackets", "f(1]", "invalid", ""},
		{"unterminated string", "s := \"abc\nx := 1", "invalid", ""},
		{"unterminated string at end", "s := \"abc", "invalid", ""},
		{"illegal character", "x := 1 # 2", "invalid", ""},
		{"brace on next line", "func f()\n{\n}", "invalid", ""},
		{"bad statement", "x := := 1", "invalid", ""},
		{"bad import", "import 12", "invalid", ""},
		{"bad second chunk", "x := 1\nfor i := 0; i < 3; i++\n{}", "invalid", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, indent := isComplete(tc.code)
			if status != tc.status || indent != tc.indent {
				t.Errorf("isComplete(%q) = %q, %q; want %q, %q", tc.code, status, indent, tc.status, tc.indent)
			}
		})
	}
}

// TestIsCompleteOnSnippetCorpus: every cell of the engine's snippet corpus
// is a whole cell a user ran, so none may be reported incomplete, and only
// snippets expecting a compile error may be reported invalid.
func TestIsCompleteOnSnippetCorpus(t *testing.T) {
	files, err := filepath.Glob("../testdata/snippets/*.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no snippet corpus found in ../testdata/snippets")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src, _, _ := strings.Cut(string(data), "// Output:")
		expectsCompileError := strings.Contains(string(data), "!! CompileError")
		for i, cell := range strings.Split(src, "// ---\n") {
			status, _ := isComplete(cell)
			if status == "incomplete" || status == "invalid" && !expectsCompileError {
				t.Errorf("%s cell %d: %s\n%s", filepath.Base(f), i+1, status, cell)
			}
		}
	}
}
