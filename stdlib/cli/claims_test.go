package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"grundy/stdlib/known"
)

func TestCheckClaims(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		wantErr bool
		want    []string // substrings of the output
	}{
		{"seed 000 at default bounds", []string{"--only", "000/"}, false,
			[]string{"ok    000/214:", "ok    000/face:", "ok    000/certificate:", "0 unexpected"}},
		{"refuted reading is an expected failure", []string{"--only", "002/prop4-printed"}, false,
			[]string{"xfail 002/prop4-printed:", "counterexample (1,2,2)", "1 claim checked", "1 refuted printed reading fails as documented"}},
		// Heaps <= 1 cannot reach the counterexample (1,0,1,0,2): a
		// refuted reading that holds is unexpected.
		{"refuted reading holding at a small bound", []string{"--only", "001/PN(5,2)", "--bound", "1"}, true,
			[]string{"XPASS 001/PN(5,2):", "raise it", "1 unexpected"}},
		{"seed 003 search claims", []string{"--only", "003/"}, false,
			[]string{"ok    003/hero:", "ok    003/sum-rule:", "ok    003/ordinary:", "9 of 36 misread", "ok    003/worked-example:", "entailing Nim 7 -> 1", "4 claims checked"}},
		{"bound applies", []string{"--only", "000/face", "--bound", "5"}, false, []string{"heaps <= 5;"}},
		{"unknown id", []string{"--only", "no-such-claim"}, true, nil},
		{"negative bound", []string{"--bound", "-2"}, true, nil},
		{"bound and heavy", []string{"--bound", "3", "--heavy"}, true, nil},
		{"not a notebook", []string{"claims.txt"}, true, nil},
		// The ids print as "003/hero", so a seed's prefix alone selects it.
		{"claim id without --only", []string{"--bound", "4", "000/face"}, false, []string{"ok    000/face:", "heaps <= 4;", "0 unexpected"}},
		{"neither notebook nor claim", []string{"999/"}, true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			err := Claims(context.Background(), c.args, &out)
			if (err != nil) != c.wantErr {
				t.Fatalf("grundy check %v: err = %v, want error %v\n%s", c.args, err, c.wantErr, out.String())
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("grundy check %v: output lacks %q:\n%s", c.args, w, out.String())
				}
			}
		})
	}
}

// grundy check reports every claim of known, seed 003's search claims
// among them (it used to add four of its own to known's 61).
func TestCheckCountsKnownStatements(t *testing.T) {
	var out strings.Builder
	if err := Claims(context.Background(), nil, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	want := fmt.Sprintf("%d claims checked", len(known.Statements()))
	if !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "ok    003/hero:") {
		t.Errorf("grundy check does not report %q with seed 003 among them:\n%s", want, out.String())
	}
}
