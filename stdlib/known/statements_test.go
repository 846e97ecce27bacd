package known

import (
	"grundy/stdlib/games"
	"strings"
	"testing"
)

// Every registered statement at its default bound: the claims hold and
// the refuted literal readings fail with a counterexample.
func TestStatementsAtDefaultBounds(t *testing.T) {
	rs, err := CheckAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != len(Statements()) {
		t.Fatalf("%d results for %d statements", len(rs), len(Statements()))
	}
	for _, r := range rs {
		switch {
		case r.Checked == 0:
			t.Errorf("%s: nothing checked (%s)", r.Statement.ID, r)
		case r.Statement.Refuted && r.Holds:
			t.Errorf("%s is recorded as refuted but holds at heaps <= %d: %s", r.Statement.ID, r.Bound, r)
		case !r.Statement.Refuted && !r.Holds:
			t.Errorf("%s", r)
		default:
			t.Log(r)
		}
	}
	if h := rs.HTML(); !strings.Contains(h, "<table>") || !strings.Contains(h, "refuted as printed: (1,2,2)") {
		t.Errorf("HTML summary lacks the table or the Proposition 4 counterexample:\n%s", h)
	}
}

func TestLookupAndCheck(t *testing.T) {
	s := Lookup("000/face")
	if s == nil || s.Game != "CN(6,2)" {
		t.Fatalf("Lookup(000/face) = %v", s)
	}
	r, err := s.Check(4)
	if err != nil || !r.Holds || r.Bound != 4 || r.Positions != 5*5*5*5*5*5 || r.Checked == 0 || r.Checked >= r.Positions {
		t.Fatalf("000/face at heaps <= 4: %v, %v", r, err)
	}
	// The seed 000 count is about heaps <= 3 even in a larger table.
	if r, err := Lookup("000/214").Check(5); err != nil || !r.Holds {
		t.Errorf("000/214 at heaps <= 5: %v, %v", r, err)
	}
	if r, _ := Lookup("000/214").Check(2); r.Holds {
		t.Errorf("000/214 at heaps <= 2 cannot hold: %v", r)
	}
	if got := Lookup("002/prop4-printed").String(); !strings.Contains(got, "refuted") || !strings.Contains(got, "SlowExact(3,2)") {
		t.Errorf("statement shows as %q", got)
	}
	if Lookup("no such") != nil {
		t.Error("Lookup of an unknown ID must be nil")
	}
	// A false claim is caught, with its first counterexample.
	wrong := &Statement{ID: "test/wrong", Game: "CN(4,2)", Default: 3, Kind: s.Kind,
		Claim: "g = a+b+c+d", value: func(p games.Pos) (int, bool) { return p[0] + p[1] + p[2] + p[3], true }}
	r, err = wrong.Check(0)
	if err != nil || r.Holds || r.Counterexample == nil || !strings.Contains(r.String(), "FAILS") {
		t.Fatalf("a false statement passed: %v, %v", r, err)
	}
	t.Log(r)
}

func TestCheckByPrefix(t *testing.T) {
	var want []string
	for _, s := range Statements() {
		if strings.HasPrefix(s.ID, "000/antipodal") || strings.HasPrefix(s.ID, "wythoff") {
			want = append(want, s.ID)
		}
	}
	rs, err := Check("000/antipodal", "wythoff")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rs {
		got = append(got, r.Statement.ID)
		if !r.Holds || r.Bound != r.Statement.Default {
			t.Errorf("%s at its default bound %d: %v", r.Statement.ID, r.Statement.Default, r)
		}
	}
	if len(want) < 2 || strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Check(000/antipodal, wythoff) checked %v, want %v", got, want)
	}
	for _, bad := range [][]string{nil, {"999/"}, {"000/", "nope"}} {
		if _, err := Check(bad...); err == nil {
			t.Errorf("Check(%q): want an error", bad)
		}
	}
}

// Seed 003's claims are statements like the others, checked by search at
// any bound: the hero table to heap 9, and the ordinary theory's misreads
// for heaps 1..8 (16 of 64, the even pairs).
func TestSeed003Statements(t *testing.T) {
	n := 0
	for _, s := range Statements() {
		if s.Seed == "003" {
			n++
		}
	}
	if n != 4 {
		t.Errorf("%d seed 003 statements, want hero, sum-rule, ordinary and worked-example", n)
	}
	if r, err := Lookup("003/hero").Check(9); err != nil || !r.Holds || r.Checked != 18 {
		t.Errorf("003/hero to heap 9: %v, %v", r, err)
	}
	r, err := Lookup("003/ordinary").Check(8)
	if err != nil || !r.Holds || !strings.Contains(r.Detail, "16 of 64 misread") {
		t.Errorf("003/ordinary for heaps 1..8: %v, %v", r, err)
	}
}
