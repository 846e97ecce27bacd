package games

import (
	"errors"
	"strings"
	"testing"
)

func TestParseNames(t *testing.T) {
	cases := []struct{ spec, name string }{
		{"CN(6,2)", "CN(6,2)"},
		{" cn ( 6 , 2 ) ", "CN(6,2)"},
		{"CircularNim(7,4)", "CN(7,4)"},
		{"PN(5,2)", "PN(5,2)"},
		{"NN(7,4)", "NN(7,4)"},
		{"NN(7,4,3)", "NN(7,4,3)"},
		{"Moore(4,2)", "Moore(4,2)"},
		{"Exact(4,2)", "Exact(4,2)"},
		{"Proper(4)", "Proper(4)"},
		{"SlowMoore(5,2)", "SlowMoore(5,2)"},
		{"SlowExact(3,2)", "SlowExact(3,2)"},
		{"Wythoff", "Wythoff"},
		{"Wythoff()", "Wythoff"},
		{"Nim(3)", "Nim(3)"},
		{"SetNim(4: 12 23 34 41)", ""},
		{"SN(4: {1,2} {2,3} {3,4} {4,1})", ""},
		{"SetNim(10: 1,2 2,3 9,10)", ""},
		{"CN(3,2) + Nim(2)", "Sum(CN(3,2), Nim(2))"},
		{"Sum(CN(3,2), Nim(2))", "Sum(CN(3,2), Nim(2))"},
		{"Selective(Nim(2), Wythoff)", "Selective(Nim(2), Wythoff)"},
		{"Conjunctive(SlowExact(3,2), Nim(2))", "Conjunctive(SlowExact(3,2), Nim(2))"},
		{"Slow(CN(5,2))", "Slow(CN(5,2))"},
		{"Exact(CN(6,3))", "Exact(CN(6,3))"},
		{"slow ( exact ( moore(4,2) ) )", "Slow(Exact(Moore(4,2)))"},
		{"Subtract(CN(5,2), 1, 2)", "Subtract(CN(5,2), 1, 2)"},
		{"Octal(0.77)", "Octal(0.77)"},
		{"octal(.07)", "Octal(0.07)"},
		{"Octal(0.1370)", "Octal(0.137)"},
		{"Hex(0.F)", "Octal(0.F)"},
		{"Subtraction(4,1,3)", "Subtraction(1,3,4)"},
		{"Grundy", "Grundy"},
		{"Sum(CN(3,2) + Nim(1), Wythoff)", "Sum(Sum(CN(3,2), Nim(1)), Wythoff)"},
	}
	for _, tc := range cases {
		g, err := Parse(tc.spec)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.spec, err)
			continue
		}
		if tc.name != "" && g.Name() != tc.name {
			t.Errorf("Parse(%q).Name() = %q, want %q", tc.spec, g.Name(), tc.name)
		}
		// A saved table is reloaded by parsing its game's name.
		if again, err := Parse(g.Name()); err != nil || again.Name() != g.Name() {
			t.Errorf("Parse(%q) (the name of %q) = %v, %v", g.Name(), tc.spec, again, err)
		}
	}
}

// The parsed game must have the moves of the constructor it names: compare
// follower sets at a few positions.
func TestParseBuildsTheSameGame(t *testing.T) {
	cases := []struct {
		spec string
		want Game
		p    Pos
	}{
		{"CN(6,2)", CircularNim(6, 2), Pos{1, 1, 1, 2, 1, 2}},
		{"NN(7,4,3)", NecklaceNim(7, 4, 3), Pos{1, 0, 2, 1, 1, 0, 2}},
		{"SetNim(4: 12 23 34 41)", CircularNim(4, 2), Pos{2, 1, 0, 3}},
		{"SN(4: {1,2} {2,3} {3,4} {4,1})", CircularNim(4, 2), Pos{1, 2, 1, 1}},
		{"SetNim(10: 1,2 2,3 3,4 4,5 5,6 6,7 7,8 8,9 9,10 10,1)", CircularNim(10, 2), Pos{1, 0, 1, 2, 0, 0, 1, 1, 0, 2}},
		{"Moore(4,2)", Moore(4, 2), Pos{1, 2, 0, 1}},
		{"SlowExact(3,2)", SlowExact(3, 2), Pos{3, 3, 3}},
		{"Wythoff", Wythoff(), Pos{3, 5}},
		{"CN(3,2) + Nim(2)", Sum(CN(3, 2), Nim(2)), Pos{1, 2, 1, 2, 1}},
		{"Slow(Moore(4,2))", SlowMoore(4, 2), Pos{1, 2, 0, 1}},
		{"Slow(Exact(3,2))", SlowExact(3, 2), Pos{3, 3, 3}},
		{"Exact(Moore(4,2))", ExactNim(4, 2), Pos{1, 2, 0, 3}},
		{"Subtract(Nim(1), 1, 3, 4)", Subtraction(1, 3, 4), Pos{7}},
		{"Subtract(CN(5,2), 1)", Slow(CN(5, 2)), Pos{1, 2, 0, 3, 1}},
		{"Octal(0.33)", Subtraction(1, 2), Pos{5, 1}},
	}
	for _, tc := range cases {
		g, err := Parse(tc.spec)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.spec, err)
		}
		got, want := followerKeys(g, tc.p), followerKeys(tc.want, tc.p)
		if len(want) == 0 || strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s at %v: followers %v, want %v", tc.spec, tc.p, got, want)
		}
	}
}

func followerKeys(g Game, p Pos) []string {
	var keys []string
	for _, q := range g.Followers(p) {
		keys = append(keys, q.String())
	}
	// Order of enumeration is the game's business; compare as sets.
	sortStrings(keys)
	return keys
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func TestParseErrorsPointAtTheMistake(t *testing.T) {
	cases := []struct {
		spec   string
		caret  int // offset of the offending character
		reason string
	}{
		{"CN(6,x)", 5, "expected a number"},
		{"CN(6,2", 6, "missing ')'"},
		{"CN(6,2))", 7, "unexpected text"},
		{"CN(6,)", 5, "expected a number"},
		{"XN(6,2)", 0, "unknown game"},
		{"Sum(Nim(2)", 10, "missing ')'"},
		{"Octal(0.7x)", 9, "not an octal"},
		{"Octal(1.7)", 6, "d_0"},
		{"Octal(077)", 7, "point"},
		{"Octal(7)", 7, "point"},
		{"Octal(-0.77)", 6, "'-' is not an octal"},
		{"Octal(0.7.7)", 9, "'.' is not an octal"},
		{"Octal(0.77,1)", 10, "takes one code"},
		{"Octal(0,77)", 7, "point after its first digit"},
		{"Slow(Wythoff)", 0, "applies to move-set games"},
		{"CN(3,2) + ", 10, "expected a game name"},
		{"CN(3,2) + Foo(2)", 10, "unknown game"},
		{"Sum(Octal(0.77), Nim(1))", 4, "xor"},
		{"Nim(1) +  Octal(0.77)", 10, "k.At(a) ^ v"},
		{"Selective(Nim(1), Grundy)", 18, "any length"},
		{"Conjunctive(Nim(1), Octal(0.31))", 20, "only subtraction games"},
		{"Subtract(CN(5,2))", 16, "at least one amount"},
		{"Subtract(CN(5,2), 0)", 18, "at least 1"},
		{"Slow(CN(5,2), Nim(1))", 0, "takes one game"},
		{"Exact(CN(6,3)", 13, "missing ')'"},
		{"Selective(Nim(2) Wythoff)", 17, "expected ',' or ')'"},
		{"Subtraction()", 12, "one or more"},
		{"Subtraction(1,0)", 14, "at least 1"},
		{"CN(277777,1)", 3, "more than Parse accepts"},
		{"Moore(40,20)", 9, "more than 20000 move sets"},
		{"SlowMoore(30,5)", 13, "move sets"},
		{"SetNim(99: 12)", 7, "more than Parse accepts"},
		{"  Foo", 2, "unknown game"},
		{"CN(2,6)", 5, "exceeds"},
		{"CN(6,0)", 5, "at least 1"},
		{"CN(6,-2)", 5, "negative"},
		{"CN(6)", 4, "takes 2 parameters"},
		{"CN(6,2,1)", 7, "takes 2 parameters"},
		{"CN", 2, "takes 2 parameters"},
		{"NN(7,4,5)", 7, "clasp"},
		{"Nim 3", 4, "expected '('"},
		{"SetNim(4: 12 25)", 13, "outside 1..4"},
		{"SetNim(4: 12 x)", 13, "move set"},
		{"SetNim(4)", 8, "at least one move set"},
		{"CN(6,2: 12)", 6, "takes no move sets"},
		{"CN(0:)", 4, "takes no move sets"},
		{"", 0, "empty"},
		{"Subtraction(1,5000)", 14, "amounts up to 4096"},
		{"Subtraction(1,1048577)", 14, "too large"},
		{"CN(99999999999999999999,2)", 3, "too large"},
		{"Subtract(Nim(1), 1, 2000000)", 20, "too large"},
	}
	for _, tc := range cases {
		_, err := Parse(tc.spec)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q): want a *ParseError, got %v", tc.spec, err)
			continue
		}
		if pe.Offset != tc.caret || !strings.Contains(pe.Msg, tc.reason) {
			t.Errorf("Parse(%q): caret at %d (%q), want %d with %q:\n%v", tc.spec, pe.Offset, pe.Msg, tc.caret, tc.reason, err)
		}
		// The caret line sits under the offending character.
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != 3 || lines[1] != "  "+tc.spec || strings.Index(lines[2], "^") != 2+tc.caret {
			t.Errorf("Parse(%q): caret misplaced:\n%v", tc.spec, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"CN(6,2)", "SetNim(4: 12 23 34 41)", "NN(7,4,3)", "Wythoff", "SN(10: 1,2 9,10)",
		"CN(3,2) + Nim(2)", "Selective(Nim(2), Wythoff)", "Slow(Exact(CN(6,3)))", "Subtract(CN(5,2), 1, 2)", "Octal(0.137)", "Subtraction(1,3,4)", "Grundy"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		g, err := Parse(spec)
		if err == nil && g == nil {
			t.Fatalf("Parse(%q): nil game and nil error", spec)
		}
		var pe *ParseError
		if err != nil && errors.As(err, &pe) && (pe.Offset < 0 || pe.Offset > len(spec)) {
			t.Fatalf("Parse(%q): caret offset %d outside the spec", spec, pe.Offset)
		}
	})
}
