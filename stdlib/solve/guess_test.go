package solve

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
	"time"

	"grundy/stdlib/games"
)

// evalGo evaluates a formula as Go does, by go/parser and go/constant, at
// one assignment of its letters: an oracle that shares no code with the
// search.
func evalGo(t *testing.T, formula string, env map[string]int64) int64 {
	t.Helper()
	e, err := parser.ParseExpr(formula)
	if err != nil {
		t.Fatalf("%q is not a Go expression: %v", formula, err)
	}
	var ev func(ast.Expr) constant.Value
	ev = func(x ast.Expr) constant.Value {
		switch x := x.(type) {
		case *ast.BasicLit:
			return constant.MakeFromLiteral(x.Value, x.Kind, 0)
		case *ast.Ident:
			return constant.MakeInt64(env[x.Name])
		case *ast.ParenExpr:
			return ev(x.X)
		case *ast.CallExpr:
			a, b := ev(x.Args[0]), ev(x.Args[1])
			less := constant.Compare(a, token.LSS, b)
			if x.Fun.(*ast.Ident).Name == "min" == less {
				return a
			}
			return b
		case *ast.BinaryExpr:
			a, b := ev(x.X), ev(x.Y)
			switch x.Op {
			case token.SHL, token.SHR:
				s, _ := constant.Uint64Val(b)
				return constant.Shift(a, x.Op, uint(s))
			case token.QUO:
				return constant.BinaryOp(a, token.QUO_ASSIGN, b) // integer division
			}
			return constant.BinaryOp(a, x.Op, b)
		}
		t.Fatalf("unexpected %T in %q", x, formula)
		return nil
	}
	v, _ := constant.Int64Val(ev(e))
	return v
}

func TestGuessFindsTheSeed000Face(t *testing.T) {
	tab, err := Values(games.CN(6, 2), 8)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	g, err := tab.Guess("0 a b 0 2 1")
	if err != nil {
		t.Fatal(err)
	}
	if !g.Found() || !slices.Contains(g.Formulas, "(a+b)^3") || g.Size != 5 {
		t.Fatalf("%v", g)
	}
	t.Logf("%v in %v", g, time.Since(start))
	// Every formula it returns is Go and equals the table on the face.
	f, _ := tab.Face("0 a b 0 2 1")
	for _, formula := range g.Formulas {
		for y := 0; y < f.H; y++ {
			for x := 0; x < f.W; x++ {
				if got := evalGo(t, formula, map[string]int64{"a": int64(x), "b": int64(y)}); got != int64(f.At(x, y)) {
					t.Fatalf("%s at a=%d b=%d: %d, table %d", formula, x, y, got, f.At(x, y))
				}
			}
		}
	}
}

// Small formulas over lines and faces of tables whose formulas are known:
// Nim's xor, Wythoff's diagonal P-line, a subtraction game's mod.
func TestGuessSmallFormulas(t *testing.T) {
	nim, _ := Values(games.Nim(2), 9)
	sub, _ := Values(games.Subtraction(1, 2, 3), 40)
	moore, _ := Values(games.Moore(3, 1), 6)
	cases := []struct {
		t       *Table
		pattern string
		want    string
	}{
		{nim, "a b", "a^b"},
		{nim, "a 5", "a^5"},
		{sub, "a", "a%4"},
		{moore, "a b 0", "a^b"},
	}
	for _, c := range cases {
		g, err := c.t.Guess(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(g.Formulas, c.want) {
			t.Errorf("%s on %q: %v, want %s among them", c.t.GameName(), c.pattern, g, c.want)
		}
	}
}

// Kayles along a line is periodic only from 71 on: no small formula fits
// heaps 0..60; the answer says how large a formula was searched.
func TestGuessSaysHowFarItLooked(t *testing.T) {
	k, _ := Values(games.Octal("0.77"), 60)
	g, err := k.Guess("a")
	if err != nil {
		t.Fatal(err)
	}
	if g.Found() || g.Complete < 5 || !strings.Contains(g.String(), "no formula of size <=") {
		t.Errorf("%v", g)
	}
	if _, err := k.Guess("3"); err == nil {
		t.Error("a pattern without letters accepted")
	}
}

// Past the memory budget a size is still searched in full, each candidate
// only checked against the table: with room for a few hundred expressions
// the face formula of size 5 is found all the same, and the search says why
// it could go no further.
func TestGuessChecksWhatItCannotKeep(t *testing.T) {
	defer func(b int) { guessKeepBytes = b }(guessKeepBytes)
	guessKeepBytes = 300 * 81 * 8
	tab, _ := Values(games.CN(6, 2), 8)
	g, err := tab.Guess("0 a b 0 2 1")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(g.Formulas, "(a+b)^3") || g.Kept > 310 {
		t.Errorf("%v (kept %d)", g, g.Kept)
	}
	k, _ := Values(games.Octal("0.77"), 30)
	none, _ := k.Guess("a")
	if none.Found() || !strings.Contains(none.Stopped, "memory budget") {
		t.Errorf("%v", none)
	}
}
