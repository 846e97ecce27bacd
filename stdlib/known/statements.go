package known

import (
	"fmt"
	"html"
	"slices"
	"strings"

	"grundy/stdlib/games"
	"grundy/stdlib/human"
	"grundy/stdlib/solve"
)

// Statement is one claim of a source document in checkable form: the game
// it is about, and how to compare it with an exhaustive table. Check
// computes the table (through solve's cache) and reports whether the claim
// holds up to the bound, or the first counterexample.
//
//	known.Lookup("000/face").Check(10)   // g(0,a,b,0,c,d) = (a+b) xor (c+d), heaps <= 10
//	known.Check("000/")                   // every claim of seed 000 at its default bound
//	known.CheckAll()                      // every statement at its default bound
type Statement struct {
	ID    string // seed/short name, e.g. "000/face"
	Seed  string // the source document, e.g. "000"
	Game  string // a games.Parse spec, e.g. "CN(6,2)"
	Claim string // the statement in words
	// Default is the heap bound Check(0) uses: meaningful but quick.
	Default int
	// Kind of table the check needs.
	Kind solve.Kind
	// Refuted marks a literal reading of a printed formula that the tables
	// refute; it is kept so that the counterexample stays on record, and
	// its check is expected to fail.
	Refuted bool
	// Heavy is the bound `grundy check --heavy` uses; 2*Default when 0.
	Heavy int
	// Exactly one of these is set.
	isP    func(p games.Pos) (isP, applies bool)       // a P-position claim
	value  func(p games.Pos) (value int, applies bool) // a value claim
	custom func(tb *solve.Table) (int, []int, string)  // checked, counterexample, detail
	search searchCheck                                 // a claim checked without a table (seed 003)
}

// HeavyBound is the larger bound a thorough check uses.
func (s *Statement) HeavyBound() int {
	if s.Heavy > 0 {
		return s.Heavy
	}
	return 2 * s.Default
}

func (s *Statement) String() string {
	r := ""
	if s.Refuted {
		r = " [refuted as printed]"
	}
	return fmt.Sprintf("%s: %s (%s, default heaps <= %d)%s", s.ID, s.Claim, s.Game, s.Default, r)
}

// Result is the outcome of checking a statement against a table.
type Result struct {
	Statement      *Statement
	Bound          int       // heaps 0..Bound
	Positions      int       // positions in the table
	Checked        int       // positions the statement applies to
	Holds          bool      // no counterexample up to Bound
	Counterexample games.Pos // the first position that disagrees, if any
	Detail         string
}

func (r Result) String() string {
	s := r.Statement
	verdict := "holds"
	switch {
	case !r.Holds && s.Refuted:
		verdict = "fails, as documented (refuted reading)"
	case !r.Holds:
		verdict = "FAILS"
	case s.Refuted:
		verdict = "holds, though documented as refuted (the bound is too small to show it)"
	}
	out := fmt.Sprintf("%s %s (%s, heaps <= %d): %s at %s of %s", s.ID, verdict, s.Game, r.Bound, s.Claim, human.Count(r.Checked), human.Quantity(r.Positions, "position"))
	if r.Detail != "" {
		out += "; " + r.Detail
	}
	return out
}

// HTML shows the result as one table row's worth of text, green or red.
func (r Result) HTML() string {
	color, verdict := "#1a7f37", "holds"
	if !r.Holds {
		color, verdict = "#cf222e", "fails"
		if r.Statement.Refuted {
			color, verdict = "#9a6700", "refuted as printed"
		}
	}
	d := ""
	if r.Detail != "" {
		d = "<br><small>" + html.EscapeString(r.Detail) + "</small>"
	}
	return fmt.Sprintf("<div><b>%s</b> <span style=\"color:%s\">%s</span> for %s, heaps &le; %d (%s of %s): %s%s</div>",
		html.EscapeString(r.Statement.ID), color, verdict, html.EscapeString(r.Statement.Game), r.Bound, human.Count(r.Checked), human.Quantity(r.Positions, "position"), html.EscapeString(r.Statement.Claim), d)
}

// Results is a list of check results; it renders as one table.
type Results []Result

func (rs Results) String() string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func (rs Results) HTML() string {
	var b strings.Builder
	b.WriteString("<table><tr><th>statement</th><th>game</th><th>heaps &le;</th><th>checked</th><th>verdict</th><th>claim</th></tr>")
	for _, r := range rs {
		color, verdict := "#1a7f37", "holds"
		if !r.Holds {
			// A search claim (seed 003) has no position to show: its detail says what failed.
			at := r.Detail
			if r.Counterexample != nil {
				at = games.Pos(r.Counterexample).String()
			}
			color, verdict = "#cf222e", "fails: "+at
			if r.Statement.Refuted {
				color, verdict = "#9a6700", "refuted as printed: "+at
			}
		}
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%d</td><td>%s</td><td style=\"color:%s\">%s</td><td>%s</td></tr>",
			html.EscapeString(r.Statement.ID), html.EscapeString(r.Statement.Game), r.Bound, human.Count(r.Checked), color, html.EscapeString(verdict), html.EscapeString(r.Statement.Claim))
	}
	b.WriteString("</table>")
	return b.String()
}

// Check compares the statement with the exhaustive table of its game with
// heaps 0..bound (bound <= 0 means the statement's Default).
func (s *Statement) Check(bound int) (Result, error) {
	if bound <= 0 {
		bound = s.Default
	}
	if s.search != nil {
		checked, holds, detail, err := s.search(bound)
		if err != nil {
			return Result{}, err
		}
		return Result{Statement: s, Bound: bound, Positions: checked, Checked: checked, Holds: holds, Detail: detail}, nil
	}
	g, err := games.Parse(s.Game)
	if err != nil {
		return Result{}, err
	}
	tb, err := solve.Solve(g, s.Kind, bound)
	if err != nil {
		return Result{}, err
	}
	return s.CheckTable(tb), nil
}

// CheckTable compares the statement with a table already computed (of the
// statement's game and kind, at any bound). A seed 003 statement needs no
// table: it is checked by search at the table's bound.
func (s *Statement) CheckTable(tb *solve.Table) Result {
	if s.search != nil {
		r, err := s.Check(slices.Max(tb.Max()))
		if err != nil {
			return Result{Statement: s, Detail: err.Error()}
		}
		return r
	}
	r := Result{Statement: s, Bound: slices.Max(tb.Max()), Positions: tb.Len(), Holds: true}
	if s.custom != nil {
		r.Checked, r.Counterexample, r.Detail = s.custom(tb)
		r.Holds = r.Counterexample == nil
		return r
	}
	forEach(tb.Max(), func(p games.Pos) bool {
		var ok bool
		switch {
		case s.isP != nil:
			var claim, applies bool
			if claim, applies = s.isP(p); !applies {
				return true
			}
			ok = claim == tb.IsP(p...)
			if !ok {
				r.Detail = fmt.Sprintf("%v is %s, the statement says %s", games.Pos(p), pn(tb.IsP(p...)), pn(claim))
			}
		default:
			v, applies := s.value(p)
			if !applies {
				return true
			}
			ok = v == tb.At(p...)
			if !ok {
				r.Detail = fmt.Sprintf("g%v = %d, the statement says %d", games.Pos(p), tb.At(p...), v)
			}
		}
		r.Checked++
		if !ok {
			r.Holds = false
			r.Counterexample = slices.Clone(p)
			return false
		}
		return true
	})
	return r
}

// CheckAll checks every statement at its default bound.
func CheckAll() (Results, error) {
	var rs Results
	for _, s := range statements {
		r, err := s.Check(0)
		if err != nil {
			return rs, fmt.Errorf("%s: %w", s.ID, err)
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// Check checks, each at its default bound, the statements whose ID starts
// with one of the prefixes: "000/" for every claim of seed 000,
// "000/antipodal" for one family, Check("004/", "wythoff") for several.
// It is an error when a prefix matches no statement (Statements lists the
// IDs).
func Check(prefixes ...string) (Results, error) {
	if len(prefixes) == 0 {
		return nil, fmt.Errorf("known.Check needs an ID prefix such as \"000/\"; CheckAll checks every statement")
	}
	var rs Results
	for _, prefix := range prefixes {
		matched := false
		for _, s := range statements {
			if !strings.HasPrefix(strings.ToLower(s.ID), strings.ToLower(prefix)) {
				continue
			}
			matched = true
			r, err := s.Check(0)
			if err != nil {
				return rs, fmt.Errorf("%s: %w", s.ID, err)
			}
			rs = append(rs, r)
		}
		if !matched {
			return rs, fmt.Errorf("no known statement ID starts with %q; IDs look like \"000/face\" (see known.Statements())", prefix)
		}
	}
	return rs, nil
}

// Statements lists every checkable statement, in seed order.
func Statements() []*Statement { return slices.Clone(statements) }

// Lookup finds a statement by ID ("000/face"); nil if there is none.
func Lookup(id string) *Statement {
	for _, s := range statements {
		if strings.EqualFold(s.ID, id) {
			return s
		}
	}
	return nil
}

// forEach visits every position of the box 0..max[i] in index order until
// f returns false. f must not keep p.
func forEach(max []int, f func(p games.Pos) bool) {
	p := make([]int, len(max))
	for {
		if !f(p) {
			return
		}
		i := len(p) - 1
		for ; i >= 0; i-- {
			if p[i] < max[i] {
				p[i]++
				break
			}
			p[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

func pn(isP bool) string {
	if isP {
		return "P"
	}
	return "N"
}

func always(f func(p games.Pos) bool) func(p games.Pos) (bool, bool) {
	return func(p games.Pos) (bool, bool) { return f(p), true }
}

func orErr(f func(p games.Pos) (bool, error)) func(p games.Pos) (bool, bool) {
	return func(p games.Pos) (bool, bool) {
		v, err := f(p)
		return v, err == nil
	}
}

var statements = buildStatements()

func buildStatements() []*Statement {
	var ss []*Statement
	add := func(s *Statement) { ss = append(ss, s) }

	// Seed 000.
	add(&Statement{ID: "000/214", Seed: "000", Game: "CN(6,2)", Default: 3, Kind: solve.KindValues,
		Claim: "heaps <= 3: 214 P-positions among 4096; (1,1,1,2,1,2) and (0,2,0,0,1,1) are P",
		custom: func(tb *solve.Table) (int, []int, string) {
			if slices.Min(tb.Max()) < 3 {
				return 0, []int{}, "the count 214 is for heaps <= 3; check with a bound of at least 3"
			}
			for _, p := range [][]int{{1, 1, 1, 2, 1, 2}, {0, 2, 0, 0, 1, 1}} {
				if !tb.IsP(p...) {
					return tb.Len(), p, fmt.Sprintf("%v has value %d", games.Pos(p), tb.At(p...))
				}
			}
			// Count in the sub-box of heaps <= 3, whatever the table's bound.
			count := 0
			forEach([]int{3, 3, 3, 3, 3, 3}, func(p games.Pos) bool {
				if tb.IsP(p...) {
					count++
				}
				return true
			})
			if count != 214 {
				return 4096, []int{}, human.Quantity(count, "P-position") + " with heaps <= 3, not 214"
			}
			return 4096, nil, "214 P-positions of 4096 with heaps <= 3"
		}})
	add(&Statement{ID: "000/face", Seed: "000", Game: "CN(6,2)", Default: 8, Kind: solve.KindValues,
		Claim: "g(0,a,b,0,c,d) = (a+b) xor (c+d), and rotations",
		value: func(p games.Pos) (int, bool) {
			for r := 0; r < 3; r++ {
				if p[r] == 0 && p[r+3] == 0 {
					return CN62ZeroFace(p[(r+1)%6], p[(r+2)%6], p[(r+4)%6], p[(r+5)%6]), true
				}
			}
			return 0, false
		}})
	for _, n := range []int{4, 5, 6, 7} {
		add(&Statement{ID: fmt.Sprintf("000/separated-%d", n), Seed: "000", Game: fmt.Sprintf("CN(%d,2)", n),
			Default: map[int]int{4: 14, 5: 9, 6: 7, 7: 5}[n], Kind: solve.KindValues,
			Claim: "with a zero heap and positive blocks of length <= 2, g = xor of block sums",
			value: CNSeparated})
	}
	for _, c := range [][2]int{{2, 1}, {2, 2}, {3, 1}, {3, 2}, {3, 3}, {4, 2}, {4, 4}} {
		m, k := c[0], c[1]
		add(&Statement{ID: fmt.Sprintf("000/antipodal-%d-%d", 2*m, k), Seed: "000", Game: fmt.Sprintf("CN(%d,%d)", 2*m, k),
			Default: map[int]int{2: 12, 3: 6, 4: 2}[m], Kind: solve.KindOutcomes,
			Claim: "every antipodal position (a_1..a_m, a_1..a_m) is P (k <= m)",
			isP: func(p games.Pos) (bool, bool) {
				if IsAntipodal(p) {
					return true, true
				}
				return false, false
			}})
	}
	add(&Statement{ID: "000/path", Seed: "000", Game: "CN(6,2)", Default: 8, Kind: solve.KindOutcomes,
		Claim: "support in three consecutive heaps (a,b,c): P iff b = 0 and a = c", isP: CNThreeHeapPath})
	add(&Statement{ID: "000/certificate", Seed: "000", Game: "CN(6,2)", Default: 2, Kind: solve.KindOutcomes,
		Claim: "the 18-row certificate proves (1,1,1,2,1,2) is P from the two theorems",
		custom: func(tb *solve.Table) (int, []int, string) {
			c := Seed000Certificate()
			if err := c.Check(CN62ProvedP); err != nil {
				return 18, c.X, err.Error()
			}
			if !tb.IsP(c.X...) {
				return 1, c.X, "the table says N"
			}
			return 18, nil, "every row checked; the table agrees that x is P"
		}})

	// Seed 001.
	add(&Statement{ID: "001/CN(3,2)", Seed: "001", Game: "CN(3,2)", Default: 30, Kind: solve.KindOutcomes,
		Claim: "P iff all heaps are equal", isP: always(CN32IsP)})
	add(&Statement{ID: "001/CN(4,2)", Seed: "001", Game: "CN(4,2)", Default: 16, Kind: solve.KindOutcomes,
		Claim: "P iff (a,b,a,b)", isP: always(CN42IsP)})
	for _, n := range []int{3, 4, 5, 6} {
		add(&Statement{ID: fmt.Sprintf("001/NN(%d,%d)", n, n-1), Seed: "001", Game: fmt.Sprintf("NN(%d,%d)", n, n-1),
			Default: map[int]int{3: 20, 4: 10, 5: 6, 6: 4}[n], Kind: solve.KindOutcomes,
			Claim: "NN(n,n-1): P iff p_1 = p_2+...+p_(n-1) = p_n", isP: always(NNn1IsP)})
	}
	for _, n := range []int{4, 5, 6, 7} {
		add(&Statement{ID: fmt.Sprintf("001/NN(%d,%d)", n, n-2), Seed: "001", Game: fmt.Sprintf("NN(%d,%d)", n, n-2),
			Default: map[int]int{4: 12, 5: 7, 6: 5, 7: 3}[n], Kind: solve.KindOutcomes,
			Claim: "NN(n,n-2): P iff p_1 = p_3+...+p_(n-1) and p_n = p_2+...+p_(n-2)", isP: always(NNn2IsP)})
	}
	for _, c := range [][3]int{{4, 2, 12}, {6, 3, 6}, {8, 4, 3}, {5, 3, 8}, {7, 4, 4}} {
		add(&Statement{ID: fmt.Sprintf("001/anchor-NN(%d,%d)", c[0], c[1]), Seed: "001", Game: fmt.Sprintf("NN(%d,%d)", c[0], c[1]),
			Default: c[2], Kind: solve.KindOutcomes,
			Claim: "anchor game: P iff (SE) and (ME)", isP: always(NNAnchorIsP)})
	}
	for _, c := range [][3]int{{3, 2, 20}, {4, 2, 10}, {4, 3, 10}, {5, 3, 7}, {6, 3, 5}, {6, 4, 5}, {8, 4, 2}} {
		n, k := c[0], c[1]
		add(&Statement{ID: fmt.Sprintf("001/PN(%d,%d)", n, k), Seed: "001", Game: fmt.Sprintf("PN(%d,%d)", n, k),
			Default: c[2], Kind: solve.KindOutcomes,
			Claim: "P iff (a_1..a_u, 0^(k-1), b_1..b_v) with equal side sums (k < n <= 2k)",
			isP:   always(func(p games.Pos) bool { return PNZeroGapIsP(k, p) })})
	}
	add(&Statement{ID: "001/PN(5,2)", Seed: "001", Game: "PN(5,2)", Default: 3, Kind: solve.KindOutcomes,
		Refuted: true,
		Claim:   "the zero-gap P-set as quoted, for n = 2k+1 (it holds only for n <= 2k)",
		isP:     always(func(p games.Pos) bool { return PNZeroGapIsP(2, p) })})
	add(&Statement{ID: "001/cheatsheet", Seed: "001", Game: "NN(6,3)", Default: 6, Kind: solve.KindOutcomes,
		Claim: "cheat sheet Case 1 (m >= s*): the rule's move is legal and reaches a P-position",
		custom: func(tb *solve.Table) (int, []int, string) {
			n := len(tb.Max())
			sets := necklaceSets(n, (n+1)/2)
			checked := 0
			var bad []int
			detail := ""
			forEach(tb.Max(), func(p games.Pos) bool {
				if tb.IsP(p...) || min(p[0], p[n-1]) < minOf(NNWindowSums(p)) {
					return true
				}
				checked++
				q, ok := NNCheatSheetMove(p)
				if !ok || !legalMove(p, q, sets) || !tb.IsP(q...) {
					bad = slices.Clone(p)
					detail = fmt.Sprintf("rule from %v gives %v", games.Pos(p), q)
					return false
				}
				return true
			})
			return checked, bad, detail
		}})

	// Moore and Wythoff.
	for _, c := range [][3]int{{3, 1, 15}, {3, 2, 15}, {4, 2, 7}, {4, 3, 7}, {5, 2, 7}, {6, 4, 4}} {
		n, k := c[0], c[1]
		add(&Statement{ID: fmt.Sprintf("moore/Moore(%d,%d)", n, k), Seed: "001", Game: fmt.Sprintf("Moore(%d,%d)", n, k),
			Default: c[2], Kind: solve.KindOutcomes,
			Claim: "P iff every binary digit column sums to a multiple of k+1",
			isP:   always(func(p games.Pos) bool { return MooreIsP(k, p) })})
	}
	add(&Statement{ID: "wythoff", Seed: "004", Game: "Wythoff", Default: 300, Kind: solve.KindOutcomes,
		Claim: "P iff (floor(j*phi), floor(j*phi)+j)", isP: always(func(p games.Pos) bool { return WythoffIsP(p[0], p[1]) })})

	// Seed 002.
	add(&Statement{ID: "002/prop2-2", Seed: "002", Game: "SlowMoore(2,2)", Default: 80, Kind: solve.KindValues,
		Claim: "Proposition 2(i): value by sorted parity vector", value: func(p games.Pos) (int, bool) {
			v, err := SlowMooreValue(2, p)
			return v, err == nil
		}})
	add(&Statement{ID: "002/prop2-3", Seed: "002", Game: "SlowMoore(3,2)", Default: 30, Kind: solve.KindValues,
		Claim: "Proposition 2(ii): value by sorted parity vector", value: func(p games.Pos) (int, bool) {
			v, err := SlowMooreValue(2, p)
			return v, err == nil
		}})
	for _, c := range [][3]int{{2, 2, 40}, {3, 2, 16}, {4, 2, 8}, {4, 3, 8}, {5, 3, 6}, {5, 2, 7}, {6, 3, 5}} {
		n, k := c[0], c[1]
		add(&Statement{ID: fmt.Sprintf("002/prop3-SlowMoore(%d,%d)", n, k), Seed: "002", Game: fmt.Sprintf("SlowMoore(%d,%d)", n, k),
			Default: c[2], Kind: solve.KindOutcomes,
			Claim: "Proposition 3: P iff the sorted parity vector is in the listed set",
			isP:   orErr(func(p games.Pos) (bool, error) { return SlowMooreIsP(k, p) })})
	}
	add(&Statement{ID: "002/prop3-printed-k1", Seed: "002", Game: "SlowMoore(3,1)", Default: 6, Kind: solve.KindOutcomes,
		Refuted: true,
		Claim:   "Proposition 3 case n = k+2 as printed, for k = 1",
		isP:     orErr(func(p games.Pos) (bool, error) { return SlowMooreIsPAsPrinted(1, p) })})
	add(&Statement{ID: "002/prop4", Seed: "002", Game: "SlowExact(3,2)", Default: 90, Kind: solve.KindValues,
		Claim: "Proposition 4 with C = C0 u C1, D = D0 u D1, D over a <= b", value: func(p games.Pos) (int, bool) {
			v, err := SlowExact32Value(p)
			return v, err == nil
		}})
	add(&Statement{ID: "002/prop4-printed", Seed: "002", Game: "SlowExact(3,2)", Default: 12, Kind: solve.KindValues,
		Refuted: true,
		Claim:   "Proposition 4 with D over a < b, as printed", value: func(p games.Pos) (int, bool) {
			v, err := SlowExact32ValueAsPrinted(p)
			return v, err == nil
		}})

	// Seed 003: sums of entailing games, checked by search.
	for _, s := range seed003() {
		add(s)
	}

	// Seed 004.
	for _, c := range [][2]int{{2, 60}, {3, 20}, {4, 10}} {
		k := c[0]
		add(&Statement{ID: fmt.Sprintf("004/M-rule-%d", k), Seed: "004", Game: fmt.Sprintf("SlowExact(%d,%d)", k+1, k),
			Default: c[1], Kind: solve.KindRemoteness,
			Claim: "every M-move lowers remoteness by exactly one (so M = R, and P iff M is even)",
			custom: func(tb *solve.Table) (int, []int, string) {
				checked := 0
				var bad []int
				detail := ""
				forEach(tb.Max(), func(p games.Pos) bool {
					checked++
					r := tb.At(p...)
					q, ok := MMove(p)
					switch {
					case !ok && r != 0:
						detail = fmt.Sprintf("%v: no M-move, remoteness %d", games.Pos(p), r)
					case ok && tb.At(q...) != r-1:
						detail = fmt.Sprintf("M-move %v -> %v: remoteness %d -> %d", games.Pos(p), games.Pos(q), r, tb.At(q...))
					default:
						return true
					}
					bad = slices.Clone(p)
					return false
				})
				if bad == nil && k == 2 && slices.Max(tb.Max()) >= 5 {
					detail = fmt.Sprintf("R(3,3,3) = %d, R(3,5,5) = %d", tb.At(3, 3, 3), tb.At(3, 5, 5))
					if tb.At(3, 3, 3) != 4 || tb.At(3, 5, 5) != 6 {
						bad = []int{3, 3, 3}
					}
				}
				return checked, bad, detail
			}})
	}
	return ss
}
