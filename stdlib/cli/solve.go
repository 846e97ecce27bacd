// Package cli is the game library at the command line: grundy solve (a
// table solved and reported for the shell, as text or JSON) and the
// claims half of grundy check (every statement of package known, checked
// and listed). It is plain Go over stdlib: no engine, no Jupyter.
package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"grundy/stdlib/games"
	"grundy/stdlib/human"
	"grundy/stdlib/progress"
	"grundy/stdlib/solve"
)

const solveUsage = `usage: grundy solve SPEC --max N [--values | --outcomes | --remoteness]
                   [--list VALUE [--limit K]] [--csv FILE] [--json]
                   [--certificate POS] [--face PATTERN [--guess]]

Solve every position of the game SPEC with heaps 0..N and report the number
of positions, the count per value (P-positions first), the largest value,
the time taken and the peak memory.

SPEC is a game as the papers write it (quote it for the shell):
  CN(6,2)  PN(5,2)  NN(7,4)  NN(7,4,3)  Moore(4,2)  Exact(4,2)  Proper(4)
  SlowMoore(5,2)  SlowExact(3,2)  Wythoff  Nim(3)  'SetNim(4: 12 23 34 41)'
  'Octal(0.77)'  'Subtraction(1,3,4)'  Grundy      (one heap: the sequence
                                                    G(0..N) and its period)
or games built from them:
  'CN(3,2) + Nim(2)'  'Selective(Nim(2), Wythoff)'  'Conjunctive(SlowExact(3,2), Nim(2))'
  'Slow(CN(5,2))'  'Exact(CN(6,3))'  'Subtract(CN(5,2), 1, 2)'

Options:
  --max N         largest heap size (or one per heap: --max 3,3,5)
  --values        Sprague-Grundy values (the default)
  --outcomes      P/N only (much faster and smaller)
  --remoteness    Smith's remoteness (even = P)
  --list VALUE    also print the positions with this value (P or N for
                  outcomes; P means 0 for values), by total then lexicographically
  --limit K       print at most K positions with --list
  --csv FILE      write every position and its entry to FILE
  --certificate POS  the evidence for POS (e.g. 1,1,1,2,1,2): for a P-position
                  every move with a reply back to a P-position; for an
                  N-position a winning move first (JSON key certificate)
  --face PATTERN  also print the face (or line) PATTERN, e.g. '0 a b 0 2 1'
  --guess         search the smallest formulas over the face's letters that
                  equal it (JSON key formulas); on one heap the line "a"
  --json          print one JSON object: game, kind, max, positions, counts,
                  max_value, seconds, peak_bytes (and list with --list; for
                  an octal, subtraction or Grundy game, period)

Examples:
  grundy solve 'CN(6,2)' --max 3
  grundy solve 'Octal(0.77)' --max 1000 --json
  grundy solve 'CN(6,2)' --max 11 --outcomes --json
  grundy solve 'SlowExact(3,2)' --max 5 --remoteness --list 4`

// solveOptions is the parsed command line of grundy solve.
type solveOptions struct {
	spec      string
	max       []int
	kind      solve.Kind
	list      string
	limit     int
	csv       string
	json      bool
	kindFlags int
	cert      games.Pos // --certificate
	face      string
	guess     bool
}

func parseSolveArgs(args []string, stderr io.Writer) (*solveOptions, error) {
	o := &solveOptions{kind: solve.KindValues}
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var maxText string
	var values, outcomes, remoteness bool
	fs.StringVar(&maxText, "max", "", "")
	fs.BoolVar(&values, "values", false, "")
	fs.BoolVar(&outcomes, "outcomes", false, "")
	fs.BoolVar(&remoteness, "remoteness", false, "")
	fs.StringVar(&o.list, "list", "", "")
	fs.IntVar(&o.limit, "limit", 0, "")
	fs.StringVar(&o.csv, "csv", "", "")
	fs.BoolVar(&o.json, "json", false, "")
	var certText string
	fs.StringVar(&certText, "certificate", "", "")
	fs.StringVar(&o.face, "face", "", "")
	fs.BoolVar(&o.guess, "guess", false, "")
	// The flag package stops at the first positional argument; SPEC may come
	// before or after the options, so parse in rounds.
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprintln(stderr, solveUsage)
				return nil, flag.ErrHelp
			}
			return nil, fmt.Errorf("%v\n\n%s", err, solveUsage)
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch len(positional) {
	case 0:
		return nil, fmt.Errorf("give a game, e.g. grundy solve 'CN(6,2)' --max 11\n\n%s", solveUsage)
	case 1:
		o.spec = positional[0]
	default:
		return nil, fmt.Errorf("one game at a time; got %q (quote a spec that contains spaces: 'SetNim(4: 12 23 34 41)')", positional)
	}
	if maxText == "" {
		return nil, fmt.Errorf("give the largest heap size with --max N, e.g. grundy solve '%s' --max 5", o.spec)
	}
	for _, f := range strings.Split(maxText, ",") {
		m, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || m < 0 {
			return nil, fmt.Errorf("--max %s: give a heap size >= 0, or one per heap separated by commas (--max 3,3,5)", maxText)
		}
		o.max = append(o.max, m)
	}
	for _, k := range []struct {
		set  bool
		kind solve.Kind
	}{{values, solve.KindValues}, {outcomes, solve.KindOutcomes}, {remoteness, solve.KindRemoteness}} {
		if k.set {
			o.kind = k.kind
			o.kindFlags++
		}
	}
	if o.kindFlags > 1 {
		return nil, errors.New("choose one of --values, --outcomes, --remoteness")
	}
	if o.limit < 0 {
		return nil, errors.New("--limit must be >= 0 (0 means all)")
	}
	if certText != "" {
		for _, f := range strings.Split(strings.Trim(certText, "() "), ",") {
			x, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || x < 0 {
				return nil, fmt.Errorf("--certificate %s: give a position as heap sizes separated by commas, e.g. --certificate 1,1,1,2,1,2", certText)
			}
			o.cert = append(o.cert, x)
		}
	}
	if o.limit > 0 && o.list == "" {
		// Silently printing nothing looked like an empty result.
		return nil, fmt.Errorf("--limit %d limits the positions of --list; add --list VALUE (e.g. --list P --limit %d)", o.limit, o.limit)
	}
	return o, nil
}

// listValue turns --list's argument into a table entry.
func listValue(kind solve.Kind, s string) (int, error) {
	switch strings.ToUpper(s) {
	case "P":
		if kind == solve.KindRemoteness {
			return 0, errors.New("--list P with --remoteness is ambiguous (every even remoteness is P); give a remoteness such as --list 4")
		}
		return 0, nil
	case "N":
		if kind != solve.KindOutcomes {
			return 0, fmt.Errorf("--list N needs --outcomes; with %s give a number", kind)
		}
		return 1, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("--list %s: give a value >= 0 (or P / N)", s)
	}
	if kind == solve.KindOutcomes && v > 1 {
		return 0, fmt.Errorf("--list %d: outcome tables hold only P (0) and N (1)", v)
	}
	return v, nil
}

// Solve is `grundy solve SPEC --max N ...`; cancelling ctx (Ctrl-C)
// stops the solve, and nothing is written.
func Solve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseSolveArgs(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	g, err := games.Parse(o.spec)
	if err != nil {
		return err
	}
	listV := -1
	if o.list != "" {
		if listV, err = listValue(o.kind, o.list); err != nil {
			return err
		}
	}

	restore := progress.Install(ctx, newStderrReporter(stderr))
	defer restore()
	start := time.Now()
	tb, err := solve.Solve(g, o.kind, o.max...)
	elapsed := time.Since(start)
	if err != nil {
		if errors.Is(err, progress.ErrCancelled) {
			return fmt.Errorf("%v after %s; nothing written", err, human.Duration(elapsed))
		}
		return err
	}
	if o.csv != "" {
		if err := tb.SaveCSV(o.csv); err != nil {
			return fmt.Errorf("writing --csv %s: %v", o.csv, err)
		}
	}
	var list []games.Pos
	if listV >= 0 {
		list = tb.List(listV, o.limit)
	}
	rep := solveReport{
		Game:      tb.GameName(),
		Kind:      o.kind.String(),
		Max:       tb.Max(),
		Positions: tb.Len(),
		Counts:    tb.Counts(),
		MaxValue:  tb.MaxValue(),
		Seconds:   elapsed.Seconds(),
		PeakBytes: peakBytes(),
		Method:    tb.Method(),
		List:      list,
		listValue: listV,
	}
	if _, ok := g.(*games.TakeBreak); ok && len(tb.Max()) == 1 && o.kind == solve.KindValues {
		rep.Period, _ = tb.Period("a")
	}
	if o.cert != nil {
		if rep.Certificate, err = tb.Certificate(o.cert); err != nil {
			return fmt.Errorf("--certificate: %v", err)
		}
	}
	if err := rep.addFace(tb, o.face, o.guess); err != nil {
		return err
	}
	w := bufio.NewWriter(stdout)
	if o.json {
		rep.writeJSON(w)
	} else {
		rep.writeText(w)
	}
	if o.csv != "" && !o.json {
		fmt.Fprintf(w, "csv:         %s (%s)\n", o.csv, human.Quantity(tb.Len(), "row"))
	}
	return w.Flush()
}

type solveReport struct {
	Game      string
	Kind      string
	Max       []int
	Positions int
	Counts    []int
	MaxValue  int
	Seconds   float64
	PeakBytes int64
	Method    string
	List      []games.Pos
	listValue int
	Period    *solve.Periodicity // one-heap take-and-break games
	// Certificate answers --certificate.
	Certificate *solve.Certificate
	// Face and Line answer --face (a pattern with two free letters, or
	// one); Guesses answers --guess.
	Face    *solve.Face
	Line    []int
	Pattern string
	Guesses *solve.Guesses
}

// addFace takes the face or line of --face and, with --guess, searches
// formulas for it.
func (r *solveReport) addFace(tb *solve.Table, pattern string, guess bool) error {
	if pattern == "" && guess {
		if n := len(tb.Max()); n != 1 {
			example := strings.Fields("a b" + strings.Repeat(" 0", n-2))
			return fmt.Errorf("--guess needs --face PATTERN, e.g. --face '%s'", strings.Join(example, " "))
		}
		pattern = "a"
	}
	if pattern == "" {
		return nil
	}
	r.Pattern = pattern
	var err error
	switch n := letters(pattern); {
	case n == 1:
		r.Line, err = tb.Line(pattern)
	case n != 3 || !guess:
		r.Face, err = tb.Face(pattern)
	}
	if err != nil {
		return fmt.Errorf("--face: %v", err)
	}
	if guess {
		if r.Guesses, err = tb.Guess(pattern); err != nil {
			return fmt.Errorf("--guess: %v", err)
		}
	}
	return nil
}

// letters counts the distinct free letters of a pattern.
func letters(pattern string) int {
	seen := map[string]bool{}
	for _, f := range strings.FieldsFunc(pattern, func(r rune) bool { return r == ' ' || r == ',' || r == '(' || r == ')' }) {
		if _, err := strconv.Atoi(f); err != nil {
			seen[f] = true
		}
	}
	return len(seen)
}

// label names entry v the way the kind reads it.
func (r *solveReport) label(v int) string {
	switch r.Kind {
	case "outcomes":
		return []string{"P", "N"}[v]
	case "remoteness":
		return strconv.Itoa(v)
	}
	return strconv.Itoa(v)
}

func (r *solveReport) boundText() string {
	same := true
	for _, m := range r.Max {
		same = same && m == r.Max[0]
	}
	if same && len(r.Max) > 0 {
		return fmt.Sprintf("heaps 0..%d", r.Max[0])
	}
	parts := make([]string, len(r.Max))
	for i, m := range r.Max {
		parts[i] = "0.." + strconv.Itoa(m)
	}
	return "heaps " + strings.Join(parts, " x ")
}

func (r *solveReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "%s %s, %s\n", r.Game, r.Kind, r.boundText())
	fmt.Fprintf(w, "positions:   %d\n", r.Positions)
	head := map[string]string{"values": "value", "outcomes": "outcome", "remoteness": "remoteness"}[r.Kind]
	fmt.Fprintf(w, "%-12s %12s %8s\n", head, "count", "share")
	for v, c := range r.Counts {
		if c == 0 && r.Kind != "outcomes" {
			continue
		}
		name := r.label(v)
		switch {
		case r.Kind == "values" && v == 0:
			name = "0 (P)"
		case r.Kind == "remoteness" && v%2 == 0:
			name += " (P)"
		case r.Kind == "remoteness":
			name += " (N)"
		}
		fmt.Fprintf(w, "%-12s %12d %7.3f%%\n", name, c, 100*float64(c)/float64(max(r.Positions, 1)))
	}
	if r.Kind == "remoteness" {
		p := 0
		for v := 0; v < len(r.Counts); v += 2 {
			p += r.Counts[v]
		}
		fmt.Fprintf(w, "%-12s %12d %7.3f%%\n", "all P", p, 100*float64(p)/float64(max(r.Positions, 1)))
	}
	if r.Kind != "outcomes" {
		fmt.Fprintf(w, "largest:     %d\n", r.MaxValue)
	}
	if r.Period != nil {
		fmt.Fprintf(w, "period:      %s\n", r.Period)
	}
	fmt.Fprintf(w, "elapsed:     %s (solver: %s)\n", human.Duration(time.Duration(r.Seconds*float64(time.Second))), r.Method)
	fmt.Fprintf(w, "peak memory: %s\n", human.Bytes(r.PeakBytes))
	if r.Certificate != nil {
		fmt.Fprintf(w, "certificate: %s\n", r.Certificate)
	}
	switch {
	case r.Face != nil:
		fmt.Fprintf(w, "face:        %s\n", r.Face)
	case r.Line != nil:
		fmt.Fprintf(w, "line:        %q: %s\n", r.Pattern, strings.Trim(fmt.Sprint(r.Line), "[]"))
	}
	if r.Guesses != nil {
		fmt.Fprintf(w, "formulas:    %s\n", r.Guesses)
	}
	if r.listValue >= 0 {
		all := 0
		if r.listValue < len(r.Counts) {
			all = r.Counts[r.listValue]
		}
		if all == 0 {
			fmt.Fprintf(w, "no positions with %s %s\n", head, r.label(r.listValue))
			return
		}
		shown := fmt.Sprintf("%d shown", len(r.List))
		if all > len(r.List) {
			shown = fmt.Sprintf("first %d of %d", len(r.List), all)
		}
		fmt.Fprintf(w, "positions with %s %s (%s):\n", head, r.label(r.listValue), shown)
		for _, p := range r.List {
			fmt.Fprintf(w, "  %s\n", p)
		}
	}
}

// writeJSON writes the report by hand so that counts keep numeric order
// ("2" before "10"), which encoding/json's sorted map keys would not.
func (r *solveReport) writeJSON(w io.Writer) {
	fmt.Fprintf(w, "{\"game\":%s,\"kind\":%q,\"max\":%s,\"positions\":%d,\"counts\":{",
		strconv.Quote(r.Game), r.Kind, intsJSON(r.Max), r.Positions)
	first := true
	for v, c := range r.Counts {
		if c == 0 && r.Kind != "outcomes" {
			continue
		}
		if !first {
			w.Write([]byte(","))
		}
		first = false
		fmt.Fprintf(w, "%q:%d", r.label(v), c)
	}
	fmt.Fprintf(w, "},\"max_value\":%d,\"seconds\":%.6f,\"peak_bytes\":%d,\"method\":%q",
		r.MaxValue, r.Seconds, r.PeakBytes, r.Method)
	if p := r.Period; p != nil {
		fmt.Fprintf(w, ",\"period\":{\"found\":%t", p.Found)
		if p.Found {
			fmt.Fprintf(w, ",\"preperiod\":%d,\"period\":%d,\"proved\":%t", p.Preperiod(), p.Period, p.Proved)
		}
		fmt.Fprintf(w, ",\"entries\":%d}", p.Length)
	}
	if r.Certificate != nil {
		data, _ := json.Marshal(r.Certificate)
		fmt.Fprintf(w, ",\"certificate\":%s", data)
	}
	if r.Face != nil {
		rows := make([][]int, r.Face.H)
		for y := range rows {
			rows[y] = r.Face.Cells[y*r.Face.W : (y+1)*r.Face.W]
		}
		data, _ := json.Marshal(map[string]any{"pattern": r.Pattern, "across": r.Face.X, "down": r.Face.Y, "rows": rows})
		fmt.Fprintf(w, ",\"face\":%s", data)
	}
	if r.Line != nil {
		data, _ := json.Marshal(map[string]any{"pattern": r.Pattern, "values": r.Line})
		fmt.Fprintf(w, ",\"line\":%s", data)
	}
	if g := r.Guesses; g != nil {
		data, _ := json.Marshal(append([]string{}, g.Formulas...))
		fmt.Fprintf(w, ",\"formulas\":%s,\"formula_size\":%d,\"searched_size\":%d", data, g.Size, g.Complete)
	}
	if r.listValue >= 0 {
		fmt.Fprintf(w, ",\"list\":[")
		for i, p := range r.List {
			if i > 0 {
				w.Write([]byte(","))
			}
			w.Write([]byte(intsJSON(p)))
		}
		w.Write([]byte("]"))
	}
	w.Write([]byte("}\n"))
}

func intsJSON(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// peakBytes is the process's peak resident memory (VmHWM on Linux), or
// what the Go runtime obtained from the system where /proc is missing.
func peakBytes() int64 {
	if data, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				f := strings.Fields(rest)
				if len(f) == 2 && f[1] == "kB" {
					if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil {
						return kb * 1024
					}
				}
			}
		}
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.Sys)
}

// stderrReporter shows progress of long solves on stderr: one line redrawn
// in place on a terminal, otherwise a line every few seconds (logs stay
// readable).
type stderrReporter struct {
	w    io.Writer
	tty  bool
	last time.Time
}

func newStderrReporter(w io.Writer) *stderrReporter {
	r := &stderrReporter{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			r.tty = true
		}
	}
	return r
}

func (r *stderrReporter) Report(s progress.Status) {
	if !r.tty {
		if time.Since(r.last) < 5*time.Second {
			return
		}
		r.last = time.Now()
		fmt.Fprintln(r.w, s.Line())
		return
	}
	fmt.Fprintf(r.w, "\r%s\x1b[K", s.Line())
}

// Finish ends a reported task with its summary, on a terminal and in a
// redirected log alike, so a log never stops at a percentage.
func (r *stderrReporter) Finish(s progress.Status) {
	if r.tty {
		fmt.Fprint(r.w, "\r\x1b[K")
	}
	fmt.Fprintln(r.w, s.Summary())
}
