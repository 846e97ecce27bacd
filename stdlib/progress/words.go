package progress

import (
	"errors"
	"fmt"
	"strings"

	"grundy/stdlib/human"
)

// The words for progress, in one place: the notebook's bar and the
// command line say the same thing the same way.

// Line is a running task in one line:
// "CN(6,2) values: 1.2M of 3.0M positions (40%), 2.1M/s, ETA 2.0 s".
func (s Status) Line() string {
	var b strings.Builder
	b.WriteString(s.Label + ": " + s.done())
	if r := s.Rate(); r > 0 {
		fmt.Fprintf(&b, ", %s/s", human.Short(r))
	}
	if eta := s.ETA(); eta > 0 {
		b.WriteString(", ETA " + human.Duration(eta))
	}
	return b.String()
}

// Summary is a finished task's last line: "CN(6,2) values: 3.0M positions
// in 1.4 s (2.1M/s)", or "CN(6,2) values: stopped by an interrupt at 1.2M
// of 3.0M positions (40%), after 0.6 s".
func (s Status) Summary() string {
	what, rest := s.finished()
	if s.Err == nil {
		line := what + " in " + human.Duration(s.Elapsed)
		if r := s.Rate(); r > 0 {
			line += fmt.Sprintf(" (%s/s)", human.Short(r))
		}
		return line
	}
	return what + ", after " + human.Duration(s.Elapsed) + rest
}

// Untimed is Summary without how long the task took, which is all of it
// that a run on another machine reproduces: "CN(6,2) values: 3.0M
// positions", "CN(6,2) values: stopped by an interrupt at 1.2M of 3.0M
// positions (40%)".
func (s Status) Untimed() string {
	what, rest := s.finished()
	return what + rest
}

// finished is a finished task's summary in the two parts that its timing
// goes between.
func (s Status) finished() (what, rest string) {
	if s.Err == nil {
		return fmt.Sprintf("%s: %s %s", s.Label, human.Short(s.Done), human.Plural(s.Done, "position")), ""
	}
	if errors.Is(s.Err, ErrCancelled) {
		why := s.Err.Error()
		var ce *cancelError
		if errors.As(s.Err, &ce) {
			why = ce.Error()
		}
		return fmt.Sprintf("%s: %s at %s", s.Label, why, s.done()), ""
	}
	return fmt.Sprintf("%s: stopped at %s", s.Label, s.done()), ": " + s.Err.Error()
}

// Fraction is how much of the task is done, in [0, 1] (0 when the total
// is unknown).
func (s Status) Fraction() float64 {
	if s.Total <= 0 {
		return 0
	}
	return min(1, float64(s.Done)/float64(s.Total))
}

// done is "1.2M of 3.0M positions (40%)", or "1.2M positions" when the
// total is unknown.
func (s Status) done() string {
	if s.Total > 0 {
		return fmt.Sprintf("%s of %s %s (%.0f%%)", human.Short(s.Done), human.Short(s.Total), human.Plural(s.Total, "position"), 100*s.Fraction())
	}
	return human.Short(s.Done) + " " + human.Plural(s.Done, "position")
}
