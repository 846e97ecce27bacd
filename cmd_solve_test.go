package main

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
	err := solveCommand(context.Background(), args, &out, &errb)
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
	err := solveCommand(ctx, []string{"CN(7,3)", "--max", "13", "--outcomes", "--csv", csv}, &out, &errb)
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
	err = solveCommand(ctx, []string{"CN(7,3)", "--max", "13", "--outcomes"}, &out, &errb)
	lines = strings.Split(strings.TrimSpace(errb.String()), "\n")
	if last := lines[len(lines)-1]; err == nil || !strings.Contains(last, "CN(7,3) outcomes, heaps 0..13: stopped by an interrupt at ") || !strings.Contains(last, " positions (") {
		t.Errorf("interrupted: stderr ends %q, error %v", last, err)
	}
}
