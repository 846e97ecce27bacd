package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"grundy/stdlib/games"
	"grundy/stdlib/human"
	"grundy/stdlib/known"
)

const claimsUsage = `usage: grundy check [--only ID | ID] [--bound N | --heavy]
       grundy check [-v] NOTEBOOK.ipynb...

With no notebook, check every claim of the source documents against
exhaustive tables (one line per statement) and exit non-zero when a claim
fails. Printed readings that the tables refute are kept on record and
listed as expected failures (xfail).

With notebooks, run each one headless in a fresh session and compare every
code cell's outputs with the stored ones (text, HTML, PNG and SVG exactly;
execution counts and cells tagged "nondeterministic" are ignored, and a
progress summary kept with progress.Keep is compared without its timing);
exit non-zero when any output differs. This is how a collaborator
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

// Claims is `grundy check [--only ID | ID] [--bound N | --heavy]`: every
// statement of package known (or those whose id contains ID) checked
// against exhaustive tables, one line each, then a summary; an error when
// a claim does not check out as documented. Cancelling ctx stops between
// claims.
func Claims(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stdout)
	only := fs.String("only", "", "")
	bound := fs.Int("bound", 0, "")
	heavy := fs.Bool("heavy", false, "")
	fs.Usage = func() { fmt.Fprintln(fs.Output(), claimsUsage) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	switch a := fs.Arg(0); {
	case fs.NArg() == 0:
	// The claims print as "ok 003/hero ...", so "grundy check 003/" is
	// the natural way to ask for one seed: a lone argument that names
	// claims means --only.
	case fs.NArg() == 1 && *only == "" && claimsMatch(a):
		*only = a
	case strings.HasPrefix(a, "-"):
		return fmt.Errorf("%s: options go before the claim id (grundy check --bound 4 000/face)", a)
	default:
		return fmt.Errorf("%s: expected a .ipynb notebook or a claim id such as 000/ or face (no claim matches); run grundy check with no arguments to list the claims", a)
	}
	if *bound < 0 {
		return fmt.Errorf("--bound %d: give a heap bound >= 1", *bound)
	}
	if *bound > 0 && *heavy {
		return errors.New("give either --bound or --heavy, not both")
	}
	return checkClaims(ctx, *only, *bound, *heavy, stdout)
}

// IsNotebook reports whether an argument of grundy check names a
// notebook rather than claims.
func IsNotebook(arg string) bool { return strings.EqualFold(filepath.Ext(arg), ".ipynb") }

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
	fmt.Fprintf(w, "%s checked in %.1fs: %d as expected (%s as documented), %d unexpected\n",
		human.Quantity(len(lines), "claim"), time.Since(start).Seconds(), len(lines)-bad,
		human.Quantity(xfail, "refuted printed reading fails", "refuted printed readings fail"), bad)
	if bad > 0 {
		return fmt.Errorf("%s did not check out as expected", human.Quantity(bad, "claim"))
	}
	return nil
}

func resultLine(r known.Result) claimLine {
	s := r.Statement
	text := fmt.Sprintf("%s: %s (%s, heaps <= %d; %s of %s)", s.ID, s.Claim, s.Game, r.Bound, human.Count(r.Checked), human.Quantity(r.Positions, "position"))
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
