package solve

import (
	"cmp"
	"fmt"
	"html"
	"slices"
	"strings"

	"grundy/stdlib/games"
	"grundy/stdlib/human"
	"grundy/stdlib/progress"
)

// StrategyCheck is the verdict of running a proposed strategy from every
// position of a table: where it moved, where it declined (returned nil),
// and, smallest first, where its move is illegal or does not play well:
// from an N-position a move that is not to a P-position, or, on a
// remoteness table, any move that is not optimal in Smith's sense (the
// winner's fastest, the loser's slowest: remoteness one less).
type StrategyCheck struct {
	Name      string
	Game      string
	Kind      Kind
	Max       []int
	Positions int // positions of the table
	Moved     int // positions where the strategy proposed a move
	Declined  int // positions where it returned nil
	Illegal   int // proposals that are not moves of the game
	Failed    int // legal proposals that do not play well
	// Problems are the smallest MaxCounterexamples illegal or failing moves.
	Problems []StrategyProblem
	Err      error // set when the check stopped early (cancelled)
}

// StrategyProblem is one position where the strategy goes wrong.
type StrategyProblem struct {
	Pos, Move games.Pos
	Why       string
}

// OK reports whether every move the strategy proposed is legal and plays
// well, over the whole table.
func (s *StrategyCheck) OK() bool {
	return s != nil && s.Err == nil && s.Illegal == 0 && s.Failed == 0
}

// CheckStrategy runs strategy from every position of the table. The
// strategy returns the position it moves to, or nil to pass (at a terminal
// position, or outside the positions it claims to handle).
//
//	r, _ := solve.Remoteness(games.SlowExact(3, 2), 8)
//	r.CheckStrategy("M-rule", known.MRule)
func (t *Table) CheckStrategy(name string, strategy func(games.Pos) games.Pos) *StrategyCheck {
	t.need("CheckStrategy")
	c := &StrategyCheck{Name: name, Game: t.name, Kind: t.kind, Max: t.Max(), Positions: t.size}
	if t.game == nil {
		c.Err = fmt.Errorf("%s: this table was loaded without its game; moves need the game's rules", t.name)
		return c
	}
	const poll = 1 << 10
	for idx := 0; idx < t.size; idx++ {
		if idx%poll == poll-1 {
			if err := progress.Err(); err != nil {
				c.Err = err
				return c
			}
		}
		p := t.pos(idx)
		q, perr := callStrategy(strategy, p)
		if q == nil && perr == nil {
			c.Declined++
			continue
		}
		c.Moved++
		switch {
		case perr != nil:
			c.problem(StrategyProblem{Pos: p, Why: perr.Error()}, true)
		case !t.isMove(p, q):
			c.problem(StrategyProblem{Pos: p, Move: q, Why: "not a move"}, true)
		default:
			why, err := t.judge(idx, p, q)
			if err != nil {
				c.Err = err
				return c
			}
			if why != "" {
				c.problem(StrategyProblem{Pos: p, Move: q, Why: why}, false)
			}
		}
	}
	return c
}

// callStrategy calls a strategy written in a cell, which may panic.
func callStrategy(s func(games.Pos) games.Pos, p games.Pos) (q games.Pos, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the strategy panicked: %v", r)
		}
	}()
	return s(p.Clone()), nil
}

// judge says what is wrong with the legal move p -> q, or "".
func (t *Table) judge(idx int, p, q games.Pos) (string, error) {
	ep := t.get(idx)
	eq, ok, err := t.entry(q)
	switch {
	case err != nil:
		return "", err
	case !ok:
		return "moves outside the table", nil
	}
	if t.kind == KindRemoteness {
		if eq != ep-1 {
			return fmt.Sprintf("remoteness %d -> %d; optimal play goes to %d", ep, eq, ep-1), nil
		}
		return "", nil
	}
	if !t.isPEntry(ep) && !t.isPEntry(eq) {
		return "from an N-position to an N-position", nil
	}
	return "", nil
}

func (s *StrategyCheck) problem(e StrategyProblem, illegal bool) {
	if illegal {
		s.Illegal++
	} else {
		s.Failed++
	}
	s.Problems = keepSmallest(s.Problems, e, func(e StrategyProblem) games.Pos { return e.Pos })
}

// keepSmallest inserts e among the smallest MaxCounterexamples of list,
// ordered by the total of their positions and then lexicographically.
func keepSmallest[T any](list []T, e T, pos func(T) games.Pos) []T {
	i, _ := slices.BinarySearchFunc(list, e, func(a, b T) int {
		pa, pb := pos(a), pos(b)
		return cmp.Or(cmp.Compare(pa.Total(), pb.Total()), slices.Compare(pa, pb))
	})
	if i >= MaxCounterexamples {
		return list
	}
	list = slices.Insert(list, i, e)
	if len(list) > MaxCounterexamples {
		list = list[:MaxCounterexamples]
	}
	return list
}

func (s *StrategyCheck) verdict() string {
	what := "plays well"
	if s.Kind == KindRemoteness {
		what = "plays optimally (remoteness drops by one)"
	}
	v := fmt.Sprintf("moves at %s of %s, passes at %s", human.Count(s.Moved), human.Quantity(s.Positions, "position"), human.Count(s.Declined))
	switch {
	case s.Illegal+s.Failed > 0:
		return fmt.Sprintf("%s; illegal at %s, fails at %s", v, human.Count(s.Illegal), human.Count(s.Failed))
	case s.Err != nil:
		return fmt.Sprintf("%s before it stopped (%v)", v, s.Err)
	}
	return fmt.Sprintf("%s; %s at every one", v, what)
}

func (s *StrategyCheck) where() string {
	return s.Game + " " + s.Kind.String() + ", " + (&Table{max: s.Max}).boundText()
}

// String is one line when the strategy holds, with its problems below
// when it does not.
func (s *StrategyCheck) String() string {
	if s == nil {
		return "<nil strategy check>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s (%s)", s.Name, s.verdict(), s.where())
	for _, e := range s.Problems {
		fmt.Fprintf(&b, "\n  %v -> %s: %s", e.Pos, moveText(e.Move), e.Why)
	}
	if more := s.Illegal + s.Failed - len(s.Problems); more > 0 {
		fmt.Fprintf(&b, "\n  ... and %s more", human.Count(more))
	}
	return b.String()
}

func moveText(p games.Pos) string {
	if p == nil {
		return "?"
	}
	return p.String()
}

// HTML is the verdict in green or red, the problems as a table.
func (s *StrategyCheck) HTML() string {
	if s == nil {
		return "<div>&lt;nil strategy check&gt;</div>"
	}
	var b strings.Builder
	b.WriteString(verdictHTML(s.Name, s.OK(), s.verdict(), s.where()))
	if len(s.Problems) > 0 {
		b.WriteString("<table><tr><th>position</th><th>move</th><th>what is wrong</th></tr>")
		for _, e := range s.Problems {
			fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%s</td></tr>", e.Pos, moveText(e.Move), html.EscapeString(e.Why))
		}
		b.WriteString("</table>")
	}
	b.WriteString("</div>")
	return b.String()
}
