package runner

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"grundy/engine"
	"grundy/stdlib/human"
)

// CheckCommand is `grundy check [-v] NOTEBOOK.ipynb...`: each notebook
// rerun headless in a fresh session and every code cell's outputs
// compared with the stored ones; an error when any differs.
func CheckCommand(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stdout)
	verbose := fs.Bool("v", false, "print the outputs of every cell as it runs")
	// The claims' options, so that giving them with notebooks is
	// answered in words rather than as unknown flags.
	only := fs.String("only", "", "")
	bound := fs.Int("bound", 0, "")
	heavy := fs.Bool("heavy", false, "")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: grundy check [-v] NOTEBOOK.ipynb...\n\ngrundy check -h says what is compared.")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if *only != "" || *bound != 0 || *heavy {
		return errors.New("--only, --bound and --heavy apply to the claims; a notebook check takes only -v")
	}
	for _, a := range fs.Args() {
		if strings.HasPrefix(a, "-") {
			return fmt.Errorf("%s: options go before the notebooks (grundy check [-v] NOTEBOOK.ipynb...)", a)
		}
		if !strings.EqualFold(filepath.Ext(a), ".ipynb") {
			return fmt.Errorf("%s: not a .ipynb notebook; claims and notebooks are checked separately (grundy check ID, grundy check NOTEBOOK.ipynb...)", a)
		}
	}
	if fs.NArg() == 0 {
		return errors.New("no notebook to check; usage: grundy check [-v] NOTEBOOK.ipynb...")
	}
	return checkNotebooks(ctx, fs.Args(), *verbose, stdout)
}

// checkNotebooks checks each notebook in turn, in an engine process of
// its own, so that a cell that crashes one is reported like any other
// failure (the process's own report goes to a file, as under grundy run).
func checkNotebooks(ctx context.Context, paths []string, verbose bool, w io.Writer) error {
	report := engineLog("check")
	defer report.close()
	var failed []string
	for _, path := range paths {
		if err := ctx.Err(); err != nil {
			return errors.New("interrupted")
		}
		diffs, err := checkNotebook(ctx, path, supervised(report, notebookDir(path)), verbose, w)
		switch {
		case err != nil:
			fmt.Fprintf(w, "FAIL  %s: %v\n", path, err)
			failed = append(failed, path)
		case len(diffs) > 0:
			fmt.Fprintf(w, "FAIL  %s: %s from the stored outputs\n", path, human.Quantity(len(diffs), "cell differs", "cells differ"))
			for _, d := range diffs {
				fmt.Fprint(w, d)
			}
			fmt.Fprint(w, whatToDo(path))
			failed = append(failed, path)
		default:
			fmt.Fprintf(w, "ok    %s reproduces\n", path)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %s: %s", len(failed), human.Quantity(len(paths), "notebook does not reproduce", "notebooks do not reproduce"), strings.Join(failed, ", "))
	}
	return nil
}

// whatToDo says, under a notebook's differences, the two usual ways to
// settle them.
func whatToDo(path string) string {
	return fmt.Sprintf("  If the code changed since its outputs were stored, store them again: grundy run %s --out %s\n"+
		"  A cell whose output depends on the clock, randomness or the machine: tag it nondeterministic\n"+
		"  (Notebook: View > Cell Toolbar > Tags) and grundy check skips it.\n", path, path)
}

// checkNotebook runs the notebook at path afresh in a session from
// newSession and returns one report per code cell whose outputs differ
// from the stored ones. A failing cell is not an error by itself: its
// error output is compared like any other (a stored notebook may show an
// error on purpose), and every later cell then differs.
func checkNotebook(ctx context.Context, path string, newSession func() (engine.Session, error), verbose bool, w io.Writer) ([]string, error) {
	stored, err := readNotebook(path)
	if err != nil {
		return nil, err
	}
	fresh, err := readNotebook(path)
	if err != nil {
		return nil, err
	}
	echo := io.Discard
	if verbose {
		echo = w
	}
	sess, err := newSession()
	if err != nil {
		return nil, fmt.Errorf("starting the interpreter: %w", err)
	}
	defer sess.Close()
	start := time.Now()
	runErr := fresh.run(ctx, sess, echo)
	// Compare the outputs as the written notebook would hold them.
	data, err := fresh.encode()
	if err == nil {
		fresh, err = parseNotebook(data, path)
	}
	if err != nil {
		return nil, err
	}
	var diffs []string
	for i, s := range stored.cells {
		if s.kind() != "code" || s.hasTag("nondeterministic") {
			continue
		}
		a, b := comparable(s), comparable(fresh.cells[i])
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

// comparable flattens a cell's outputs to the parts that must reproduce,
// one "kind\x00content" string each, in order. The text a cell prints
// between two displays is compared as its stdout, then its stderr: how
// the two streams interleave depends on timing (each reaches the kernel
// through a pipe of its own), so a notebook mixing them would otherwise
// fail to reproduce now and then; and Jupyter splits a stream into
// several outputs where grundy writes one.
func comparable(c cell) []string {
	var items []string
	var streams [2]strings.Builder // stdout, stderr since the last display
	flush := func() {
		for i, name := range []string{"stdout", "stderr"} {
			if streams[i].Len() > 0 {
				items = append(items, name+"\x00"+streams[i].String())
				streams[i].Reset()
			}
		}
	}
	for _, o := range c.outputs() {
		name, _ := o["name"].(string)
		data, _ := o["data"].(map[string]any)
		if o["output_type"] == "stream" && (name == "stdout" || name == "stderr") {
			i := 0
			if name == "stderr" {
				i = 1
			}
			streams[i].WriteString(multiline(o["text"]))
			continue
		}
		flush()
		switch o["output_type"] {
		case "stream":
			items = append(items, name+"\x00"+multiline(o["text"]))
		case "error":
			items = append(items, "error\x00"+multiline(o["ename"])+": "+multiline(o["evalue"]))
		case "execute_result", "display_data":
			// A task's summary line, kept with progress.Keep, says how
			// long the task took: it reproduces without its timing.
			md, _ := o["metadata"].(map[string]any)
			if untimed, ok := md[engine.ProgressSummaryKey].(string); ok {
				items = append(items, "progress summary\x00"+untimed)
				continue
			}
			// Every format must match: text/plain, text/html, text/markdown,
			// image/png, image/svg+xml, whatever the value showed itself as.
			for _, mime := range slices.Sorted(maps.Keys(data)) {
				if d := data[mime]; d != nil {
					items = append(items, mime+"\x00"+multiline(d))
				}
			}
		default:
			items = append(items, "unreadable output\x00"+compactJSON(o))
		}
	}
	flush()
	return items
}

// cellDiff reports how one cell's outputs changed: the cell's first
// source line, then stored (-) and fresh (+) outputs, text line by line,
// images by size. Outputs are aligned by a longest common subsequence, so
// one missing output does not make every later one differ.
func cellDiff(i int, c cell, stored, fresh []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  cell %d (id %s): %s\n", i+1, c.id(), firstLine(c.source()))
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
					fmt.Fprintf(&b, "    %s differs (stored %s, now %s)\n", sk, human.Bytes(int64(len(sv))), human.Bytes(int64(len(fv))))
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
		fmt.Fprintf(b, "    %s [%s, %s]\n", sign, kind, human.Bytes(int64(len(text))))
		return
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		if i == 8 {
			fmt.Fprintf(b, "    %s ... (%s)\n", sign, human.Quantity(len(lines)-i, "more line"))
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
				fmt.Fprintf(b, "    %s ... (%s)\n", sign, human.Quantity(len(lines)-i, "more line"))
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
