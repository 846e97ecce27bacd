package engine

import (
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDiffResplit is a metamorphic companion of TestDiff, run on demand
// (GRUNDY_RESPLIT=1; GRUNDY_RESPLIT_RUN=regexp picks cases by name): a
// notebook's cells may be cut anywhere between top-level statements
// without changing what they print, as the one Go program TestDiff makes of
// a case has the same meaning either way. Each case TestDiff expects to
// match go run is run again with its cells cut at every such place (after
// an import, a declaration or a statement that is not an expression, or a
// fmt.Print call, which the engine never shows); its output must be the
// uncut cells' output. A cut that leaves a name used before the cell that
// declares it (a function called above its declaration, a function
// reading a variable declared below it) is not a notebook that runs, and
// is skipped. A difference found here becomes an ordinary case of
// testdata/diff, written cut (GRUNDY_RESPLIT_OUT=dir writes each one).
//
// GRUNDY_RESPLIT=merge does the opposite: a case's cells are made one
// cell, their imports first, when no cell but the last shows a value
// or has a top-level defer (mergeCells), as a notebook written in one
// long cell.
func TestDiffResplit(t *testing.T) {
	if os.Getenv("GRUNDY_RESPLIT") == "" {
		t.Skip("set GRUNDY_RESPLIT=1 (or merge) to run the cases again with their cells cut between statements (or made one cell)")
	}
	merge := os.Getenv("GRUNDY_RESPLIT") == "merge"
	pick := regexp.MustCompile(os.Getenv("GRUNDY_RESPLIT_RUN"))
	files, known := diffCaseFiles(t)
	out := os.Getenv("GRUNDY_RESPLIT_OUT")
	compared, differ := 0, 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".go.txt")
		if known.entries[name] != nil || !pick.MatchString(name) {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cells := strings.Split(string(src), "\n// ---\n")
		var cut []string
		if merge {
			if len(cells) < 2 {
				continue
			}
			one, ok := mergeCells(cells)
			if !ok {
				continue
			}
			cut = []string{one}
		} else {
			for _, c := range cells {
				cut = append(cut, cutCell(c)...)
			}
			if len(cut) == len(cells) {
				continue
			}
		}
		if out != "" {
			// The case being run, should it end the test process.
			// (sessions numbers its sessions, as goroutine labels do.)
			appendFile(filepath.Join(out, "running"), fmt.Sprintf("%s %d\n", name, sessions.Load()+1))
			os.WriteFile(filepath.Join(out, "running_cut.go.txt"), []byte(strings.Join(cut, "\n// ---\n")), 0o644)
		}
		want := runEngineCells(cells)
		if strings.Contains(want.Stdout, "!! ") {
			// A failing cell stops where it fails; cut, the cells after
			// the failure run.
			continue
		}
		got := runEngineCells(cut)
		compared++
		if got == want {
			continue
		}
		if undefinedAbove.MatchString(firstFailure(got.Stdout)) {
			continue
		}
		differ++
		t.Errorf("%s: cut into %d cell(s), the engine prints otherwise\n%s%s", name, len(cut),
			"stdout:\n"+lineDiff(got.Stdout, want.Stdout), "stderr:\n"+lineDiff(got.Stderr, want.Stderr))
		if out != "" {
			os.WriteFile(filepath.Join(out, name+"_cut.go.txt"), []byte(strings.Join(cut, "\n// ---\n")), 0o644)
		}
	}
	t.Logf("%d cases compared cut, %d differ", compared, differ)
}

// undefinedAbove: the cut left a name used before the cell declaring it
// (or naming a package there: a function entail of the cells, used above
// its cell, is the package entail).
// It is asked of the first failure only: a cell failing otherwise (the
// engine's internal error) leaves its names undefined for the cells
// after it, and that failure is the one to see.
var undefinedAbove = regexp.MustCompile(`!! [^\n]*(undefined: |has no field or method |missing method |use of package \w+ not in selector)`)

// firstFailure is the first line of stdout the engine wrote for a failed
// cell ("!! ..."), "" if none.
func firstFailure(stdout string) string {
	for line := range strings.Lines(stdout) {
		if strings.HasPrefix(line, "!! ") {
			return line
		}
	}
	return ""
}

// mergeCells makes the cells one cell, their imports gathered in front;
// ok is false when a cell but the last may show a value, or cellItems
// keeps one whole.
func mergeCells(cells []string) (string, bool) {
	var specs []string
	seen := map[string]bool{}
	var bodies []string
	for i, c := range cells {
		items, ok := cellItems(c)
		if !ok {
			return "", false
		}
		if i < len(cells)-1 && len(items) > 0 && !items[len(items)-1].mayEnd(c) {
			return "", false
		}
		var body strings.Builder
		start := 0
		for _, it := range items {
			if it.first != token.IMPORT {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+c[it.from:it.to], parser.ImportsOnly)
			if err != nil {
				return "", false
			}
			for _, sp := range f.Imports {
				text := sp.Path.Value
				if sp.Name != nil {
					text = sp.Name.Name + " " + text
				}
				if !seen[text] {
					seen[text] = true
					specs = append(specs, text)
				}
			}
			body.WriteString(c[start:it.from])
			start = it.to
		}
		body.WriteString(c[start:])
		bodies = append(bodies, strings.TrimSpace(body.String()))
	}
	head := ""
	if len(specs) > 0 {
		head = "import (\n\t" + strings.Join(specs, "\n\t") + "\n)\n\n"
	}
	return head + strings.Join(bodies, "\n\n"), true
}

// cellItem is one top-level item of a cell (a declaration, an import or
// a statement), as cellItems scans it.
type cellItem struct {
	from, to int
	first    token.Token
	lit      string // the first token's text
	second   string // the second token's text, for fmt.Print
	third    string
	last     token.Token // the item's last token
	idents   int
	defers   bool // it holds a defer or return statement
}

// cellItems scans a cell's top-level items; ok is false for a cell whose
// meaning depends on where it ends, which stays whole: one with a
// top-level defer, label, goto or return, or an init function (the
// program runs init before every cell), and one that does not scan.
func cellItems(src string) (items []cellItem, ok bool) {
	fset := token.NewFileSet()
	f := fset.AddFile("cell", -1, len(src))
	var sc scanner.Scanner
	failed := false
	sc.Init(f, []byte(src), func(token.Position, string) { failed = true }, 0)
	var cur *cellItem
	depth := 0
	var prev token.Token
	for {
		p, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		off := f.Offset(p)
		if tok == token.SEMICOLON && depth == 0 && lit == "\n" {
			if cur != nil {
				cur.last = prev
				items = append(items, *cur)
				cur = nil
			}
			continue
		}
		if tok == token.COLON && depth == 0 && cur != nil && cur.idents == 1 && prev == token.IDENT {
			return nil, false // a label
		}
		if cur == nil {
			cur = &cellItem{from: off, first: tok, lit: lit}
			if tok == token.IDENT {
				cur.lit = lit
			}
		} else if cur.second == "" {
			cur.second = tok.String() + lit
		} else if cur.third == "" {
			cur.third = lit
		}
		if tok == token.IDENT {
			cur.idents++
		}
		cur.to = off + len(lit)
		if lit == "" {
			cur.to = off + len(tok.String())
		}
		switch tok {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			depth--
		case token.DEFER, token.RETURN:
			cur.defers = true
		case token.GOTO, token.FALLTHROUGH:
			if depth == 0 {
				return nil, false
			}
		case token.PACKAGE:
			return nil, false
		}
		prev = tok
	}
	if cur != nil {
		cur.last = prev
		items = append(items, *cur)
	}
	if failed {
		return nil, false
	}
	for _, it := range items {
		decl := it.first == token.FUNC && (strings.HasPrefix(it.second, "IDENT") || it.last == token.RBRACE)
		if it.first == token.FUNC && it.second == "IDENTinit" {
			return nil, false
		}
		if it.defers && !decl {
			// A defer among the cell's statements, in a loop too, runs
			// when the cell ends; a return ends the cell.
			return nil, false
		}
	}
	return items, true
}

// mayEnd: a cell of src ending with it shows no value it did not show
// before.
func (it cellItem) mayEnd(src string) bool {
	switch it.first {
	case token.IMPORT, token.FUNC, token.TYPE, token.CONST, token.VAR, token.FOR, token.IF, token.SWITCH, token.SELECT, token.GO:
		return it.first != token.FUNC || it.second != "(" || it.last == token.RBRACE
	case token.IDENT:
		if it.lit == "fmt" && strings.HasPrefix(it.third, "Print") {
			return true
		}
		// An assignment or a definition: x := ..., x = ..., x += ...,
		// a, b := ..., x++.
		return assignLike.MatchString(src[it.from:it.to])
	}
	return false
}

// cutCell cuts a cell after each top-level item that may end one (see
// TestDiffResplit); a cell cellItems finds no items of stays whole.
func cutCell(src string) []string {
	items, ok := cellItems(src)
	if !ok || len(items) < 2 {
		return []string{src}
	}
	var out []string
	start := 0
	for i, it := range items[:len(items)-1] {
		if !it.mayEnd(src) {
			continue
		}
		out = append(out, strings.TrimSpace(src[start:it.to]))
		start = items[i+1].from
	}
	out = append(out, strings.TrimSpace(src[start:]))
	return out
}

// assignLike: an item that starts as an assignment, definition or
// increment does.
var assignLike = regexp.MustCompile(`^[\w.]+(\[[^\]\n]*\])?(\s*,\s*[\w.]+)*\s*(:=|=([^=]|$)|[-+*/%&|^]=|<<=|>>=|&^=|\+\+|--)`)

func appendFile(name, text string) {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		f.WriteString(text)
		f.Close()
	}
}
