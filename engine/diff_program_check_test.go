package engine

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDiffProgram pins down the conversion of cells into a program (see
// diff_program_test.go), the definition the oracle rests on.
func TestDiffProgram(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	o, err := newGoOracle(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cells := []string{
		"import \"os\"\nn, err := strconv.Atoi(\"4\")\nfunc twice() int { return 2 * n }\ntype Pair struct{ A, B int }\nconst K = 3\nvar names []string\nfmt.Fprintln(os.Stdout, err)",
		"m, err := strconv.Atoi(\"x\")\nvar p = Pair{n, m}\nif q := 1; q > 0 {\n\tdefer fmt.Println(\"cell end\")\n}\ntwice() + K",
		"fmt.Println(filepath.Base(\"/a/b\"), p, names)\nfmt.Sprint(1)\nstrconv.Atoi(\"7\")",
	}
	p, err := o.conv.convert(cells)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.conv.check(p); err != nil {
		t.Fatalf("%v\n%s", err, p.main)
	}
	want := `package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

var (
	n     int
	err   error
	names []string
	m     int
	p     Pair
)

func main() {
	_diffRun(_diffCell1)
	_diffRun(_diffCell2)
	_diffRun(_diffCell3)
}

func twice() int { return 2 * n }

type Pair struct{ A, B int }

const K = 3

func _diffCell1() {
	n, err = strconv.Atoi("4")

	fmt.Fprintln(os.Stdout, err)
}

func _diffCell2() {
	var _diffLater func()
	defer func() {
		if _diffLater != nil {
			_diffLater()
		}
	}()
	m, err = strconv.Atoi("x")
	p = Pair{n, m}
	if q := 1; q > 0 {
		defer fmt.Println("cell end")
	}
	func(vs ...any) { _diffLater = func() { _diffShow(vs...) } }(twice() + K)
}

func _diffCell3() {
	fmt.Println(filepath.Base("/a/b"), p, names)
	fmt.Sprint(1)
	_diffShowCall(strconv.Atoi("7"))
}
`
	if p.main != want {
		t.Errorf("got:\n%s\nwant:\n%s", p.main, want)
	}
	for _, bad := range [][]string{
		{"x := 1", "x := 2"},
		{"var x int", "var x = 3"},
	} {
		if _, err := o.conv.convert(bad); err == nil || !strings.Contains(err.Error(), "redefinition") {
			t.Errorf("%q: want a redefinition error, got %v", bad, err)
		}
	}
	// Top-level variables become package-level, but the cells still run in
	// order: a use before the declaration is not a valid case.
	if _, err := o.conv.convert([]string{"var a = b + 1", "var b = 2"}); err == nil || !strings.Contains(err.Error(), "undefined: b") {
		t.Errorf("a variable used before its cell: want an error, got %v", err)
	}
}
