package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"grundy/stdlib/progress"
)

func runSolve(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Solve(context.Background(), args, &out, &errb)
	return out.String(), errb.String(), err
}

func TestSolveText(t *testing.T) {
	out, _, err := runSolve(t, "CN(6,2)", "--max", "3")
	if err != nil {
		t.Fatal(err)
	}
	// Seed 000: 214 P-positions among the 4096 with heaps <= 3.
	for _, want := range []string{"CN(6,2) values, heaps 0..3", "positions:   4096", "largest:     15", "peak memory:", "elapsed:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	lines := strings.Split(out, "\n")
	var firstCount string
	for i, l := range lines {
		if strings.HasPrefix(l, "value ") {
			firstCount = lines[i+1]
			break
		}
	}
	if f := strings.Fields(firstCount); len(f) < 3 || f[0]+" "+f[1] != "0 (P)" || f[2] != "214" {
		t.Errorf("first count line %q, want P first with 214", firstCount)
	}
}

func TestSolveJSON(t *testing.T) {
	for _, c := range []struct {
		args   []string
		counts map[string]int
		maxVal int
	}{
		{[]string{"CN(6,2)", "--max", "3", "--json"}, map[string]int{"0": 214, "15": 18}, 15},
		{[]string{"--json", "--outcomes", "--max", "3", "CN(6,2)"}, map[string]int{"P": 214, "N": 3882}, 1},
		{[]string{"SlowExact(3,2)", "--max", "5", "--remoteness", "--json"}, map[string]int{"0": 16, "7": 4}, 7},
	} {
		out, _, err := runSolve(t, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Game      string         `json:"game"`
			Positions int            `json:"positions"`
			Counts    map[string]int `json:"counts"`
			MaxValue  *int           `json:"max_value"`
			Seconds   *float64       `json:"seconds"`
			PeakBytes int64          `json:"peak_bytes"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v: not one JSON object: %v\n%s", c.args, err, out)
		}
		if rep.Game == "" || rep.Positions == 0 || rep.MaxValue == nil || rep.Seconds == nil || rep.PeakBytes <= 0 {
			t.Errorf("%v: missing keys in %s", c.args, out)
		}
		total := 0
		for _, n := range rep.Counts {
			total += n
		}
		if total != rep.Positions {
			t.Errorf("%v: counts sum to %d, positions %d", c.args, total, rep.Positions)
		}
		for k, v := range c.counts {
			if rep.Counts[k] != v {
				t.Errorf("%v: counts[%q] = %d, want %d", c.args, k, rep.Counts[k], v)
			}
		}
		if *rep.MaxValue != c.maxVal {
			t.Errorf("%v: max_value %d, want %d", c.args, *rep.MaxValue, c.maxVal)
		}
	}
}

func TestSolveListAndCSV(t *testing.T) {
	csv := filepath.Join(t.TempDir(), "cn42.csv")
	out, _, err := runSolve(t, "CN(4,2)", "--max", "2", "--outcomes", "--list", "P", "--csv", csv)
	if err != nil {
		t.Fatal(err)
	}
	// CN(4,2) P-positions are (a,b,a,b): 9 of them with heaps <= 2.
	idx := strings.Index(out, "positions with outcome P (9 shown):")
	if idx < 0 {
		t.Fatalf("no list of 9 P-positions:\n%s", out)
	}
	for _, p := range []string{"(0,0,0,0)", "(1,2,1,2)", "(2,2,2,2)"} {
		if !strings.Contains(out[idx:], p) {
			t.Errorf("list lacks %s", p)
		}
	}
	// A limited list says how many there are in all (seed 000: 214).
	out, _, err = runSolve(t, "CN(6,2)", "--max", "3", "--list", "P", "--limit", "5")
	if err != nil || !strings.Contains(out, "positions with value 0 (first 5 of 214):") {
		t.Errorf("limited list: %v\n%s", err, out)
	}
	data, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	if rows := strings.Count(string(data), "\n"); rows != 81+1 {
		t.Errorf("CSV has %d lines, want 81 positions and a header", rows)
	}
}

func TestSolveErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"CN(6,x)", "--max", "3"}, "       ^"},
		{[]string{"CN(6,2)"}, "--max"},
		{[]string{"--max", "3"}, "give a game"},
		{[]string{"CN(6,2)", "--max", "3", "--values", "--outcomes"}, "choose one"},
		{[]string{"CN(6,2)", "--max", "x"}, "heap size"},
		{[]string{"CN(6,2)", "--max", "3", "--list", "N"}, "--outcomes"},
		{[]string{"CN(6,2)", "--max", "3", "--remoteness", "--list", "P"}, "ambiguous"},
		{[]string{"CN(6,2)", "PN(3,2)", "--max", "3"}, "one game"},
		{[]string{"CN(6,2)", "--max", "3", "--bogus"}, "bogus"},
		{[]string{"CN(6,2)", "--max", "1,2"}, "bounds"},
		{[]string{"CN(6,2)", "--max", "3", "--limit", "5"}, "add --list"},
	} {
		_, _, err := runSolve(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: want error containing %q, got %v", c.args, c.want, err)
		}
	}
	if _, errOut, err := runSolve(t, "-h"); err != nil || !strings.Contains(errOut, "usage: grundy solve") {
		t.Errorf("-h: err %v, stderr %q", err, errOut)
	}
}

// A cancelled context (Ctrl-C) stops a long solve promptly with a clear
// message and writes nothing.
func TestSolveCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(100 * time.Millisecond)
		cancel()
	}()
	csv := filepath.Join(t.TempDir(), "never.csv")
	var out, errb bytes.Buffer
	start := time.Now()
	err := Solve(ctx, []string{"CN(7,3)", "--max", "13", "--outcomes", "--csv", csv}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "stopped by an interrupt after") {
		t.Fatalf("want an interrupted error, got %v (after %v)", err, time.Since(start))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancel took %v", d)
	}
	if _, err := os.Stat(csv); err == nil {
		t.Error("a cancelled solve wrote its CSV")
	}
}

func TestProgressLine(t *testing.T) {
	s := progress.Status{Label: "CN(6,2) values, heaps 0..20", Done: 12_300_000, Total: 85_766_121, Elapsed: 2 * time.Second}
	got := s.Line()
	for _, want := range []string{"CN(6,2) values, heaps 0..20: ", "12.3M of 85.8M positions (14%)", "6.2M/s", "ETA 12 s"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress line %q lacks %q", got, want)
		}
	}
	var buf bytes.Buffer
	r := newStderrReporter(&buf)
	r.Report(s)
	if buf.String() != got+"\n" {
		t.Errorf("reporter wrote %q, want %q", buf.String(), got)
	}
}

// With stderr redirected (not a terminal), a long solve's log ends with
// a summary line, not with the last percentage; an interrupted one says
// where it stopped, in the same words the notebook's bar uses.
func TestSolveLogEndsWithSummary(t *testing.T) {
	old := progress.MinDuration
	progress.MinDuration = 0
	defer func() { progress.MinDuration = old }()
	_, errOut, err := runSolve(t, "CN(6,2)", "--max", "9")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "CN(6,2) values, heaps 0..9: 1.0M positions in ") {
		t.Errorf("stderr ends %q; want the summary line\n%s", last, errOut)
	}

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(400 * time.Millisecond)
		cancel()
	}()
	var out, errb bytes.Buffer
	err = Solve(ctx, []string{"CN(7,3)", "--max", "13", "--outcomes"}, &out, &errb)
	lines = strings.Split(strings.TrimSpace(errb.String()), "\n")
	if last := lines[len(lines)-1]; err == nil || !strings.Contains(last, "CN(7,3) outcomes, heaps 0..13: stopped by an interrupt at ") || !strings.Contains(last, " positions (") {
		t.Errorf("interrupted: stderr ends %q, error %v", last, err)
	}
}

// One heap of a take-and-break game: the sequence and its period in the
// text and in JSON (Kayles: period 12 from 71, proved from heap 167 on).
func TestSolveHeapGamesReportTheirPeriod(t *testing.T) {
	cases := []struct {
		spec, max    string
		found, prove bool
		pre, period  int
	}{
		{"Octal(0.77)", "1000", true, true, 71, 12},
		{"Octal(0.77)", "150", true, false, 71, 12},
		{"Subtraction(1,3,4)", "20", true, true, 0, 7},
		{"Grundy", "300", false, false, 0, 0},
	}
	for _, c := range cases {
		out, _, err := runSolve(t, c.spec, "--max", c.max, "--json")
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Period *struct {
				Found     bool `json:"found"`
				Preperiod int  `json:"preperiod"`
				Period    int  `json:"period"`
				Proved    bool `json:"proved"`
				Entries   int  `json:"entries"`
			} `json:"period"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%s: %v\n%s", c.spec, err, out)
		}
		p := rep.Period
		if p == nil || p.Found != c.found || p.Proved != c.prove || p.Preperiod != c.pre || p.Period != c.period {
			t.Errorf("%s --max %s: period %+v, want found %t proved %t %d/%d\n%s", c.spec, c.max, p, c.found, c.prove, c.pre, c.period, out)
		}
		text, _, _ := runSolve(t, c.spec, "--max", c.max)
		if !strings.Contains(text, "period:      ") {
			t.Errorf("%s: no period line:\n%s", c.spec, text)
		}
	}
	// Tables that are not one heap of such a game carry no period.
	out, _, _ := runSolve(t, "CN(3,2)", "--max", "3", "--json")
	if strings.Contains(out, `"period"`) {
		t.Errorf("CN(3,2) has a period key: %s", out)
	}
}

// --certificate: seed 000's 18 rows for (1,1,1,2,1,2) of CN(6,2), and for
// an N-position a winning move first.
func TestSolveCertificate(t *testing.T) {
	out, _, err := runSolve(t, "CN(6,2)", "--max", "3", "--certificate", "1,1,1,2,1,2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "(1,1,1,2,1,2) is a P-position of CN(6,2)") || !strings.Contains(out, "  (1,1,1,2,1,1)  (1,1,1,1,1,1)") {
		t.Errorf("text certificate:\n%s", out)
	}
	for _, c := range []struct {
		pos  string
		rows int
		p    bool
	}{{"1,1,1,2,1,2", 18, true}, {"(0,1,2,0,2,3)", 0, false}} {
		out, _, err := runSolve(t, "CN(6,2)", "--max", "3", "--certificate", c.pos, "--json")
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Certificate []map[string][]int `json:"certificate"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		rows := rep.Certificate
		if len(rows) == 0 || (c.p && len(rows) != c.rows) {
			t.Fatalf("%s: %d rows: %s", c.pos, len(rows), out)
		}
		first := 0
		if !c.p {
			if _, ok := rows[0]["reply"]; ok || len(rows[0]["move"]) != 6 {
				t.Errorf("%s: first row %v, want the winning move alone", c.pos, rows[0])
			}
			first = 1
		}
		for _, r := range rows[first:] {
			if len(r["move"]) != 6 || len(r["reply"]) != 6 {
				t.Errorf("%s: row %v", c.pos, r)
			}
		}
	}
	for _, bad := range []string{"1,x", "1,1,1"} {
		if _, _, err := runSolve(t, "CN(6,2)", "--max", "3", "--certificate", bad); err == nil {
			t.Errorf("--certificate %s accepted", bad)
		}
	}
}

// --face PATTERN --guess: seed 000's face formula from the shell.
func TestSolveFaceGuess(t *testing.T) {
	out, _, err := runSolve(t, "CN(6,2)", "--max", "8", "--face", "0 a b 0 2 1", "--guess", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Face struct {
			Rows [][]int `json:"rows"`
		} `json:"face"`
		Formulas []string `json:"formulas"`
		Size     int      `json:"formula_size"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Face.Rows) != 9 || rep.Face.Rows[0][0] != 3 || len(rep.Formulas) == 0 || rep.Formulas[0] != "(a+b)^3" || rep.Size != 5 {
		t.Errorf("%s", out)
	}
	text, _, err := runSolve(t, "Subtraction(1,2,3)", "--max", "30", "--guess")
	if err != nil || !strings.Contains(text, "formulas:    2 formulas fit: a%4   a&3") || !strings.Contains(text, `line:        "a": 0 1 2 3 0`) {
		t.Errorf("%v\n%s", err, text)
	}
	if _, _, err := runSolve(t, "CN(6,2)", "--max", "3", "--guess"); err == nil || !strings.Contains(err.Error(), "--face 'a b 0 0 0 0'") {
		t.Errorf("--guess without --face: %v", err)
	}
	if _, _, err := runSolve(t, "CN(6,2)", "--max", "3", "--face", "0 a b"); err == nil {
		t.Error("a face of the wrong length accepted")
	}
}
