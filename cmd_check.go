package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"grundy/engine"
	"grundy/stdlib/games"
	"grundy/stdlib/human"
	"grundy/stdlib/known"
)

func init() {
	register("check", "reproduce the source documents' claims, or check that notebooks reproduce", func(args []string) error {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		return checkCommand(ctx, args, os.Stdout)
	})
}

const checkUsage = `usage: grundy check [--only ID | ID] [--bound N | --heavy] [-v]
       grundy check NOTEBOOK.ipynb...

With no notebook, check every claim of the source documents against
exhaustive tables (one line per statement) and exit non-zero when a claim
fails. Printed readings that the tables refute are kept on record and
listed as expected failures (xfail).

With notebooks, run each one headless in a fresh session and compare every
code cell's outputs with the stored ones (text, HTML, PNG and SVG exactly;
execution counts, progress lines and cells tagged "nondeterministic" are
ignored, durations such as "1.2ms" are masked); exit non-zero when any output differs. This is how a collaborator
verifies that a shared notebook reproduces.

Options:
  --only ID   check only statements whose id contains ID (e.g. 000/, face, 003/)
  --bound N   check with heaps 0..N instead of each statement's default
              (use with --only: the games differ widely in size)
  --heavy     check each statement at twice its default bound
  -v          with notebooks: print the outputs of every cell as it runs

Examples:
  grundy check
  grundy check --only 000/face --bound 12
  grundy check notebooks/*.ipynb`

func checkCommand(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stdout)
	only := fs.String("only", "", "")
	bound := fs.Int("bound", 0, "")
	heavy := fs.Bool("heavy", false, "")
	verbose := fs.Bool("v", false, "")
	fs.Usage = func() { fmt.Fprintln(fs.Output(), checkUsage) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	// The claims print as "ok 003/hero ...", so "grundy check 003/" is the
	// natural way to ask for one seed: a lone argument that names claims
	// and is not a notebook means --only.
	if a := fs.Arg(0); fs.NArg() == 1 && *only == "" && !strings.EqualFold(filepath.Ext(a), ".ipynb") && claimsMatch(a) {
		return checkClaims(ctx, a, *bound, *heavy, stdout)
	}
	for _, a := range fs.Args() {
		if strings.HasPrefix(a, "-") {
			return fmt.Errorf("%s: options go before the notebooks (grundy check [-v] NOTEBOOK.ipynb...)", a)
		}
		if !strings.EqualFold(filepath.Ext(a), ".ipynb") {
			return fmt.Errorf("%s: expected a .ipynb notebook or a claim id such as 000/ or face (no claim matches); run grundy check with no arguments to list the claims", a)
		}
	}
	if fs.NArg() > 0 {
		if *only != "" || *bound != 0 || *heavy {
			return errors.New("--only, --bound and --heavy apply to the claims; a notebook check takes only -v")
		}
		return checkNotebooks(ctx, fs.Args(), *verbose, stdout)
	}
	if *bound < 0 {
		return fmt.Errorf("--bound %d: give a heap bound >= 1", *bound)
	}
	if *bound > 0 && *heavy {
		return errors.New("give either --bound or --heavy, not both")
	}
	return checkClaims(ctx, *only, *bound, *heavy, stdout)
}

// claimsMatch reports whether some claim's id contains id, as --only
// selects them.
func claimsMatch(id string) bool {
	id = strings.ToLower(id)
	for _, s := range known.Statements() {
		if strings.Contains(strings.ToLower(s.ID), id) {
			return true
		}
	}
	return false
}

// claimLine is one checked claim as the command prints it.
type claimLine struct {
	status string // ok, FAIL, xfail, XPASS
	text   string
}

func (c claimLine) unexpected() bool { return c.status == "FAIL" || c.status == "XPASS" }

func checkClaims(ctx context.Context, only string, bound int, heavy bool, w io.Writer) error {
	var lines []claimLine
	report := func(l claimLine) {
		lines = append(lines, l)
		fmt.Fprintf(w, "%-5s %s\n", l.status, l.text)
	}
	start := time.Now()
	matched := 0
	for _, s := range known.Statements() {
		if only != "" && !strings.Contains(strings.ToLower(s.ID), strings.ToLower(only)) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return errors.New("interrupted")
		}
		matched++
		b := bound
		if heavy {
			b = s.HeavyBound()
		}
		r, err := s.Check(b)
		if err != nil {
			report(claimLine{"FAIL", fmt.Sprintf("%s (%s): %v", s.ID, s.Game, err)})
			continue
		}
		report(resultLine(r))
	}
	if matched == 0 {
		return fmt.Errorf("no statement id contains %q (try grundy check --only 000/)", only)
	}
	var bad, xfail int
	for _, l := range lines {
		if l.unexpected() {
			bad++
		}
		if l.status == "xfail" {
			xfail++
		}
	}
	fmt.Fprintf(w, "%d claims checked in %.1fs: %d as expected (%d refuted printed readings fail as documented), %d unexpected\n",
		len(lines), time.Since(start).Seconds(), len(lines)-bad, xfail, bad)
	if bad > 0 {
		return fmt.Errorf("%d claims did not check out as expected", bad)
	}
	return nil
}

func resultLine(r known.Result) claimLine {
	s := r.Statement
	text := fmt.Sprintf("%s: %s (%s, heaps <= %d; %s of %s positions)", s.ID, s.Claim, s.Game, r.Bound, human.Count(r.Checked), human.Count(r.Positions))
	if r.Counterexample != nil {
		text += "; counterexample " + games.Pos(r.Counterexample).String()
	}
	if r.Detail != "" {
		text += "; " + r.Detail
	}
	switch {
	case r.Holds && !s.Refuted:
		return claimLine{"ok", text}
	case !r.Holds && s.Refuted:
		return claimLine{"xfail", text + " [printed reading, refuted as documented]"}
	case r.Holds && s.Refuted:
		return claimLine{"XPASS", text + " [documented as refuted, but no counterexample at this bound: raise it]"}
	}
	return claimLine{"FAIL", text}
}

// Notebooks.

// duration matches the timings values print about themselves ("solved in
// 1.01ms"): a reproduction compares results, not how fast this machine
// computed them, so text outputs are compared with durations masked (as
// nbval's sanitizers do).
var duration = regexp.MustCompile(`\b(\d+(\.\d+)?(h|ms|µs|us|ns|m|s))+\b`)

func sanitize(text string) string { return duration.ReplaceAllString(text, "<duration>") }

func checkNotebooks(ctx context.Context, paths []string, verbose bool, w io.Writer) error {
	tmp, err := os.MkdirTemp("", "grundy-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var failed []string
	for i, path := range paths {
		if err := ctx.Err(); err != nil {
			return errors.New("interrupted")
		}
		out := filepath.Join(tmp, fmt.Sprintf("%d.ipynb", i))
		diffs, err := checkNotebook(ctx, path, out, verbose, w)
		switch {
		case err != nil:
			fmt.Fprintf(w, "FAIL  %s: %v\n", path, err)
			failed = append(failed, path)
		case len(diffs) > 0:
			fmt.Fprintf(w, "FAIL  %s: %d cells differ from the stored outputs\n", path, len(diffs))
			for _, d := range diffs {
				fmt.Fprint(w, d)
			}
			failed = append(failed, path)
		default:
			fmt.Fprintf(w, "ok    %s reproduces\n", path)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d notebooks do not reproduce: %s", len(failed), len(paths), strings.Join(failed, ", "))
	}
	return nil
}

// checkNotebook runs path into out and returns one report per code cell
// whose outputs differ. A failing cell is not an error by itself: its
// error output is compared like any other (a stored notebook may show an
// error on purpose), and every later cell then differs.
func checkNotebook(ctx context.Context, path, out string, verbose bool, w io.Writer) ([]string, error) {
	stored, err := readCells(path)
	if err != nil {
		return nil, err
	}
	var echo io.Writer
	if verbose {
		echo = w
	}
	start := time.Now()
	runErr := engine.RunNotebookContext(ctx, path, out, echo)
	if _, statErr := os.Stat(out); statErr != nil {
		if runErr != nil {
			return nil, runErr
		}
		return nil, statErr
	}
	fresh, err := readCells(out)
	if err != nil {
		return nil, err
	}
	if len(fresh) != len(stored) {
		return nil, fmt.Errorf("the run wrote %d cells, the notebook has %d", len(fresh), len(stored))
	}
	var diffs []string
	for i := range stored {
		s, f := stored[i], fresh[i]
		if s.Type != "code" || s.hasTag("nondeterministic") {
			continue
		}
		a, b := s.comparable(), f.comparable()
		if slices.Equal(a, b) {
			continue
		}
		diffs = append(diffs, cellDiff(i, s, a, b))
	}
	if runErr != nil && len(diffs) == 0 {
		// The stored notebook fails the same way; say so, but it reproduces.
		fmt.Fprintf(w, "note  %s: %v (as stored)\n", path, firstLine(runErr.Error()))
	}
	if verbose {
		fmt.Fprintf(w, "      %s ran in %.1fs\n", path, time.Since(start).Seconds())
	}
	return diffs, nil
}

type nbCell struct {
	Type     string            `json:"cell_type"`
	ID       string            `json:"id"`
	Source   json.RawMessage   `json:"source"`
	Metadata map[string]any    `json:"metadata"`
	Outputs  []json.RawMessage `json:"outputs"`
}

func readCells(path string) ([]nbCell, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb struct {
		Cells []nbCell `json:"cells"`
	}
	if err := json.Unmarshal(raw, &nb); err != nil {
		return nil, fmt.Errorf("%s is not a Jupyter notebook: %v", path, err)
	}
	return nb.Cells, nil
}

func (c nbCell) hasTag(tag string) bool {
	tags, _ := c.Metadata["tags"].([]any)
	return slices.Contains(tags, any(tag))
}

func (c nbCell) source() string { return multiline(c.Source) }

// multiline decodes nbformat's "multiline string": a string or a list of
// lines.
func multiline(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var lines []string
	json.Unmarshal(raw, &lines)
	return strings.Join(lines, "")
}

// comparable flattens a cell's outputs to the parts that must reproduce,
// one "kind\x00content" string each, in order.
func (c nbCell) comparable() []string {
	var items []string
	for _, raw := range c.Outputs {
		var o struct {
			Type   string                     `json:"output_type"`
			Name   string                     `json:"name"`
			Text   json.RawMessage            `json:"text"`
			Data   map[string]json.RawMessage `json:"data"`
			EName  string                     `json:"ename"`
			EValue string                     `json:"evalue"`
		}
		if json.Unmarshal(raw, &o) != nil {
			items = append(items, "unreadable output\x00"+string(raw))
			continue
		}
		switch o.Type {
		case "stream":
			text := multiline(o.Text)
			// Jupyter splits a stream into several outputs where grundy
			// writes one; joining consecutive ones makes them compare.
			if n := len(items); n > 0 && strings.HasPrefix(items[n-1], o.Name+"\x00") {
				items[n-1] += sanitize(text)
				continue
			}
			items = append(items, o.Name+"\x00"+sanitize(text))
		case "error":
			items = append(items, "error\x00"+o.EName+": "+o.EValue)
		case "execute_result", "display_data":
			// Every format must match: text/plain, text/html, text/markdown,
			// image/png, image/svg+xml, whatever the value showed itself as.
			mimes := slices.Sorted(maps.Keys(o.Data))
			for _, mime := range mimes {
				if d := o.Data[mime]; d != nil {
					text := multiline(d)
					if strings.HasPrefix(mime, "text/") {
						text = sanitize(text)
					}
					items = append(items, mime+"\x00"+text)
				}
			}
		}
	}
	return items
}

// cellDiff reports how one cell's outputs changed: the cell's first
// source line, then stored (-) and fresh (+) outputs, text line by line,
// images by size. Outputs are aligned by a longest common subsequence, so
// one missing output does not make every later one differ.
func cellDiff(i int, c nbCell, stored, fresh []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  cell %d (id %s): %s\n", i+1, c.ID, firstLine(c.source()))
	ops := alignOutputs(stored, fresh)
	for j := 0; j < len(ops); j++ {
		op := ops[j]
		if op.kind == '=' {
			continue
		}
		if op.kind == '-' && j+1 < len(ops) && ops[j+1].kind == '+' {
			sk, sv, _ := strings.Cut(op.item, "\x00")
			fk, fv, _ := strings.Cut(ops[j+1].item, "\x00")
			if sk == fk {
				j++
				if strings.HasPrefix(sk, "image/") {
					fmt.Fprintf(&b, "    %s differs (stored %d bytes, now %d bytes)\n", sk, len(sv), len(fv))
				} else {
					fmt.Fprintf(&b, "    %s differs\n", sk)
					lineDiff(&b, sv, fv)
				}
				continue
			}
		}
		k, v, _ := strings.Cut(op.item, "\x00")
		if op.kind == '-' {
			fmt.Fprintf(&b, "    stored %s missing\n", k)
		} else {
			fmt.Fprintf(&b, "    new %s\n", k)
		}
		writeLines(&b, string(op.kind), k, v)
	}
	return b.String()
}

type alignOp struct {
	kind byte // '=', '-' (only stored), '+' (only fresh)
	item string
}

func alignOutputs(a, b []string) []alignOp {
	// lcs[i][j] is the LCS length of a[i:] and b[j:]; cells have few outputs.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []alignOp
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, alignOp{'=', a[i]})
			i, j = i+1, j+1
		case j == len(b) || (i < len(a) && lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, alignOp{'-', a[i]})
			i++
		default:
			ops = append(ops, alignOp{'+', b[j]})
			j++
		}
	}
	return ops
}

func writeLines(b *strings.Builder, sign, kind, text string) {
	if strings.HasPrefix(kind, "image/") {
		fmt.Fprintf(b, "    %s [%s, %d bytes]\n", sign, kind, len(text))
		return
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		if i == 8 {
			fmt.Fprintf(b, "    %s ... (%d more lines)\n", sign, len(lines)-i)
			break
		}
		fmt.Fprintf(b, "    %s %s\n", sign, truncate(l, 160))
	}
}

// lineDiff prints the lines that differ between two texts: the common
// prefix and suffix are skipped, which is what a reader needs for the
// small changes a reproduction check finds.
func lineDiff(b *strings.Builder, a, c string) {
	x := strings.Split(a, "\n")
	y := strings.Split(c, "\n")
	p := 0
	for p < len(x) && p < len(y) && x[p] == y[p] {
		p++
	}
	s := 0
	for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
		s++
	}
	if p > 0 {
		fmt.Fprintf(b, "    @ line %d\n", p+1)
	}
	show := func(sign string, lines []string) {
		for i, l := range lines {
			if i == 8 {
				fmt.Fprintf(b, "    %s ... (%d more lines)\n", sign, len(lines)-i)
				return
			}
			fmt.Fprintf(b, "    %s %s\n", sign, truncate(l, 160))
		}
	}
	show("-", x[p:len(x)-s])
	show("+", y[p:len(y)-s])
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	return truncate(s, 100)
}
