package games

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"grundy/stdlib/human"
)

// ParseError is a mistake in a game spec. Its message shows the spec with a
// caret under the offending character, so a command line or a notebook
// points at the mistake:
//
//	CN(6,x): expected a number
//	  CN(6,x)
//	       ^
type ParseError struct {
	Spec   string
	Offset int // byte offset of the offending character in Spec
	Msg    string
}

func (e *ParseError) Error() string {
	head := e.Msg
	if e.Spec != "" {
		head = e.Spec + ": " + e.Msg
	}
	return fmt.Sprintf("%s\n  %s\n  %s^", head, e.Spec, strings.Repeat(" ", e.Offset))
}

// specKind describes one family that Parse knows: its names, how many
// integer parameters it takes, and how to build it.
type specKind struct {
	names []string // the first is canonical; matching ignores case
	arity []int    // accepted numbers of integer arguments
	usage string
	build func(args []int) Game
	// moveSets counts the move sets the game would have (nil: few).
	moveSets func(args []int) int
	// variadic: any positive number of integer arguments (Subtraction).
	variadic bool
	// games builds a compound or a modifier from game arguments (and, with
	// trailingInts, integers after them); oneGame: exactly one game.
	games        func(parts []Game, ints []int) Game
	oneGame      bool
	trailingInts bool
	// code builds a game from an octal code argument.
	code func(code string) Game
}

// Limits that keep Parse from building games nobody could solve: the
// k-subset families have C(n,k) move sets, and building them for, say,
// Moore(40,20) would not finish.
const (
	maxSpecHeaps  = 64
	maxSpecSets   = MaxMoveSets
	maxSpecNumber = 1 << 20
)

// binomialSum is sum_{j=lo..hi} C(n,j), saturating above maxSpecSets.
func binomialSum(n, lo, hi int) int {
	total := 0
	for j := lo; j <= hi && j <= n; j++ {
		c := 1
		for i := 0; i < j; i++ {
			c = c * (n - i) / (i + 1)
			if c > maxSpecSets {
				return maxSpecSets + 1
			}
		}
		total += c
		if total > maxSpecSets {
			return maxSpecSets + 1
		}
	}
	return total
}

func setsText(n int) string {
	if n > maxSpecSets {
		return fmt.Sprintf("more than %d", maxSpecSets)
	}
	return fmt.Sprint(n)
}

// specSyntax is a parsed spec before its game is built.
type specSyntax struct {
	name    string
	nameAt  int
	args    []int
	argAt   []int
	sets    [][]int // SetNim move sets, vertices numbered from 1
	setAt   []int
	colonAt int // offset of ':' before SetNim's move sets
	openAt  int // offset of '(' or -1
	closeAt int
}

// Parse reads a game spec as written on the command line and in the papers:
//
//	CN(6,2)  PN(5,2)  NN(7,4)  NN(7,4,3)  Moore(4,2)  Exact(4,2)  Proper(4)
//	SlowMoore(5,2)  SlowExact(3,2)  Wythoff  Nim(3)  SetNim(4: 12 23 34 41)
//	Octal(0.77)  Subtraction(1,3,4)  Grundy
//
// and games built from them: a sum "CN(3,2) + Nim(2)" (or Sum(...)),
// Selective(Nim(2), Wythoff), Conjunctive(...), and the modifiers of
// move-set games Slow(CN(5,2)), Exact(CN(6,3)), Subtract(CN(5,2), 1, 2).
//
// Names ignore case; spaces are allowed between tokens. SetNim takes the
// number of heaps, a colon, and the move sets, each written as its vertices
// (numbered from 1): "12" is {1,2} when n <= 9; "{1,2,10}" works for any n.
// A mistake gives a *ParseError pointing at the offending character; bad
// parameters (k > n, ...) point at the parameter.
func Parse(spec string) (Game, error) {
	ps := &parser{spec: spec}
	g, err := ps.sum(true)
	if err != nil {
		return nil, err
	}
	ps.skip()
	if ps.i < len(spec) {
		return nil, ps.fail(ps.i, "unexpected text after the game spec")
	}
	return g, nil
}

// parser reads a spec by recursive descent: a sum of terms, a term a name
// with arguments that are numbers, a code, or games.
type parser struct {
	spec string
	i    int
}

func (ps *parser) fail(at int, format string, args ...any) error {
	return &ParseError{Spec: ps.spec, Offset: at, Msg: fmt.Sprintf(format, args...)}
}

func (ps *parser) skip() {
	for ps.i < len(ps.spec) && (ps.spec[ps.i] == ' ' || ps.spec[ps.i] == '\t') {
		ps.i++
	}
}

func (ps *parser) peek() byte {
	ps.skip()
	if ps.i < len(ps.spec) {
		return ps.spec[ps.i]
	}
	return 0
}

// sum reads term { '+' term }: the disjunctive sum, heaps concatenated in
// order.
func (ps *parser) sum(top bool) (Game, error) {
	at := ps.i
	g, err := ps.term(top)
	if err != nil {
		return nil, err
	}
	parts, partAt := []Game{g}, []int{ps.termAt(at)}
	for ps.peek() == '+' {
		ps.i++
		partAt = append(partAt, ps.termAt(ps.i))
		g, err := ps.term(false)
		if err != nil {
			return nil, err
		}
		parts = append(parts, g)
	}
	if len(parts) == 1 {
		return g, nil
	}
	return ps.built(at, Sum(parts...), partAt...)
}

// termAt is where the term starting at or after offset at begins.
func (ps *parser) termAt(at int) int {
	for at < len(ps.spec) && (ps.spec[at] == ' ' || ps.spec[at] == '\t') {
		at++
	}
	return at
}

// built returns g, or its error pointing at offset at, or for a part a
// compound cannot hold, at that part (partAt: where each part begins).
func (ps *parser) built(at int, g Game, partAt ...int) (Game, error) {
	var part *anyLengthPartError
	if c, ok := g.(*Compound); ok && errors.As(g.Err(), &part) {
		for i, p := range c.Parts {
			if p == part.Part && i < len(partAt) {
				at = partAt[i]
				break
			}
		}
	}
	if err := g.Err(); err != nil {
		// The spec already heads the message; do not say it twice.
		return nil, ps.fail(at, "%s", strings.TrimPrefix(err.Error(), ps.spec+": "))
	}
	return g, nil
}

// term reads one game: a name and, if it takes any, its arguments.
func (ps *parser) term(top bool) (Game, error) {
	ps.skip()
	nameAt := ps.i
	for ps.i < len(ps.spec) && (isLetter(ps.spec[ps.i]) || (ps.i > nameAt && ps.spec[ps.i] >= '0' && ps.spec[ps.i] <= '9')) {
		ps.i++
	}
	name := ps.spec[nameAt:ps.i]
	if name == "" {
		if ps.i >= len(ps.spec) && top {
			return nil, ps.fail(ps.i, "empty game spec; write a game such as CN(6,2)")
		}
		return nil, ps.fail(ps.i, "expected a game name such as CN, PN, NN, Moore, Nim")
	}
	kind := lookupKind(name)
	if kind == nil {
		return nil, ps.fail(nameAt, "unknown game %q; known games: %s", name, knownNames())
	}
	switch {
	case kind.games != nil && (kind.build == nil || ps.gameArgument()):
		return ps.gameArgs(kind, nameAt)
	case kind.code != nil:
		return ps.codeArg(kind, nameAt)
	}
	s, err := ps.syntax(name, nameAt)
	if err != nil {
		return nil, err
	}
	if kind.names[0] == "SetNim" {
		return buildSetNim(ps.spec, s)
	}
	return buildInts(ps.spec, kind, s)
}

// gameArgument reports whether the term's parentheses open on a game
// (Exact(CN(6,3))) rather than on numbers (Exact(4,2)).
func (ps *parser) gameArgument() bool {
	save := ps.i
	defer func() { ps.i = save }()
	if ps.peek() != '(' {
		return false
	}
	ps.i++
	return isLetter(ps.peek())
}

// open expects '(' after a name; a name written alone takes no arguments.
func (ps *parser) open(kind *specKind, nameAt int) error {
	if c := ps.peek(); c != '(' {
		return ps.fail(nameAt+len(ps.spec[nameAt:ps.i]), "%s takes arguments; write %s", kind.names[0], kind.usage)
	}
	ps.i++
	return nil
}

func (ps *parser) close(kind *specKind) error {
	switch c := ps.peek(); {
	case c == ')':
		ps.i++
		return nil
	case c == 0:
		return ps.fail(ps.i, "missing ')'")
	default:
		return ps.fail(ps.i, "expected ',' or ')'; write %s", kind.usage)
	}
}

// gameArgs reads '(' game {',' game} [',' ints] ')' for compounds and
// modifiers.
func (ps *parser) gameArgs(kind *specKind, nameAt int) (Game, error) {
	if err := ps.open(kind, nameAt); err != nil {
		return nil, err
	}
	var parts []Game
	var partAt, ints []int
	for {
		if c := ps.peek(); kind.trailingInts && len(parts) > 0 && c >= '0' && c <= '9' || c == '-' {
			v, at, err := ps.number()
			if err != nil {
				return nil, err
			}
			if !kind.trailingInts || v < 1 {
				return nil, ps.fail(at, "%s takes games, then amounts of at least 1; write %s", kind.names[0], kind.usage)
			}
			ints = append(ints, v)
		} else {
			if len(ints) > 0 {
				return nil, ps.fail(ps.i, "the games come first, then the amounts; write %s", kind.usage)
			}
			partAt = append(partAt, ps.termAt(ps.i))
			g, err := ps.sum(false)
			if err != nil {
				return nil, err
			}
			parts = append(parts, g)
		}
		if ps.peek() != ',' {
			break
		}
		ps.i++
	}
	if err := ps.close(kind); err != nil {
		return nil, err
	}
	if kind.oneGame && len(parts) != 1 {
		return nil, ps.fail(nameAt, "%s takes one game; write %s", kind.names[0], kind.usage)
	}
	if kind.trailingInts && len(ints) == 0 {
		return nil, ps.fail(ps.i-1, "%s needs at least one amount; write %s", kind.names[0], kind.usage)
	}
	return ps.built(nameAt, kind.games(parts, ints), partAt...)
}

// number reads a nonnegative integer.
func (ps *parser) number() (int, int, error) {
	ps.skip()
	at := ps.i
	for ps.i < len(ps.spec) && ps.spec[ps.i] >= '0' && ps.spec[ps.i] <= '9' {
		ps.i++
	}
	if at < len(ps.spec) && ps.spec[at] == '-' {
		return 0, at, ps.fail(at, "parameters must be at least 1, not negative")
	}
	v, err := strconv.Atoi(ps.spec[at:ps.i])
	if at < ps.i && (err != nil || v > maxSpecNumber) {
		return 0, at, ps.fail(at, "%s is too large (at most %d)", ps.spec[at:ps.i], maxSpecNumber)
	}
	if err != nil {
		return 0, at, ps.fail(at, "expected a number")
	}
	return v, at, nil
}

// codeArg reads '(' code ')' for Octal: the code's digits and point.
func (ps *parser) codeArg(kind *specKind, nameAt int) (Game, error) {
	if err := ps.open(kind, nameAt); err != nil {
		return nil, err
	}
	ps.skip()
	at := ps.i
	for ps.i < len(ps.spec) && ps.spec[ps.i] != ')' && ps.spec[ps.i] != ' ' && ps.spec[ps.i] != ',' {
		ps.i++
	}
	code := ps.spec[at:ps.i]
	if _, _, err := parseCode(code); err != nil {
		var ce *CodeError
		if errors.As(err, &ce) {
			return nil, ps.fail(at+min(ce.Offset, len(code)), "%s", ce.Msg)
		}
		return nil, ps.fail(at, "%v", err)
	}
	if ps.peek() == ',' {
		return nil, ps.fail(ps.i, "%s takes one code, with a point and no commas; write %s", kind.names[0], kind.usage)
	}
	if err := ps.close(kind); err != nil {
		return nil, err
	}
	return ps.built(nameAt, kind.code(code))
}

// buildInts checks the integer parameters of a named family and builds it.
func buildInts(spec string, kind *specKind, s specSyntax) (Game, error) {
	fail := func(at int, format string, args ...any) (Game, error) {
		return nil, &ParseError{Spec: spec, Offset: at, Msg: fmt.Sprintf(format, args...)}
	}
	if s.sets != nil {
		return fail(s.colonAt, "%s takes no move sets; write %s", kind.names[0], kind.usage)
	}
	if kind.variadic && len(s.args) == 0 || !kind.variadic && !slices.Contains(kind.arity, len(s.args)) {
		at := s.closeAt
		if !kind.variadic && len(s.args) > slices.Max(kind.arity) {
			at = s.argAt[slices.Max(kind.arity)]
		}
		if s.openAt < 0 {
			at = s.nameAt + len(s.name)
		}
		what := arityText(kind.arity)
		if kind.variadic {
			what = "one or more parameters"
		}
		return fail(at, "%s takes %s; write %s", kind.names[0], what, kind.usage)
	}
	for i, a := range s.args {
		if a < 1 {
			return fail(s.argAt[i], "parameters must be at least 1; write %s", kind.usage)
		}
	}
	if kind.variadic {
		for i, a := range s.args {
			if a > maxCodeDigits {
				return fail(s.argAt[i], "amount %d: amounts up to %d are supported", a, maxCodeDigits)
			}
		}
		return kindBuilt(spec, s, kind.build(s.args))
	}
	if len(s.args) >= 2 {
		if n, k := s.args[0], s.args[1]; k > n {
			return fail(s.argAt[1], "k = %d exceeds n = %d; a move set cannot be larger than the number of heaps", k, n)
		}
	}
	if len(s.args) >= 1 && s.args[0] > maxSpecHeaps {
		return fail(s.argAt[0], "%d heaps is more than Parse accepts (at most %d; a table of so many heaps could never be stored)", s.args[0], maxSpecHeaps)
	}
	if kind.moveSets != nil {
		if sets := kind.moveSets(s.args); sets > maxSpecSets {
			return fail(s.argAt[len(s.args)-1], "%s(%d,%d) has %s move sets; Parse accepts at most %d (lower n or k)", kind.names[0], s.args[0], s.args[1], setsText(sets), maxSpecSets)
		}
	}
	if kind.names[0] == "NN" && len(s.args) == 3 {
		if k, c := s.args[1], s.args[2]; c < 2 || c > k {
			return fail(s.argAt[2], "clasp width c = %d; use 2 <= c <= k = %d", c, k)
		}
	}
	return kindBuilt(spec, s, kind.build(s.args))
}

func kindBuilt(spec string, s specSyntax, g Game) (Game, error) {
	if err := g.Err(); err != nil {
		// The spec heads the message; when it is just this game, do not
		// name the game twice.
		msg := err.Error()
		if strings.TrimSpace(spec) == g.Name() {
			msg = strings.TrimPrefix(msg, g.Name()+": ")
		}
		return nil, &ParseError{Spec: spec, Offset: s.nameAt, Msg: msg}
	}
	return g, nil
}

func arityText(ar []int) string {
	var parts []string
	for _, a := range ar {
		if a == 0 {
			parts = append(parts, "no parameters")
		} else {
			parts = append(parts, human.Quantity(a, "parameter"))
		}
	}
	return strings.Join(parts, " or ")
}

func lookupKind(name string) *specKind {
	for i := range specKinds {
		for _, n := range specKinds[i].names {
			if strings.EqualFold(n, name) {
				return &specKinds[i]
			}
		}
	}
	return nil
}

func knownNames() string {
	var ns []string
	for _, k := range specKinds {
		ns = append(ns, k.usage)
	}
	return strings.Join(ns, ", ")
}

func buildSetNim(spec string, s specSyntax) (Game, error) {
	fail := func(at int, format string, args ...any) (Game, error) {
		return nil, &ParseError{Spec: spec, Offset: at, Msg: fmt.Sprintf(format, args...)}
	}
	const usage = "SetNim(4: 12 23 34 41)"
	if len(s.args) != 1 {
		at := s.closeAt
		if len(s.args) > 1 {
			at = s.argAt[1]
		}
		if s.openAt < 0 {
			at = s.nameAt + len(s.name)
		}
		return fail(at, "SetNim takes the number of heaps, a colon and the move sets; write %s", usage)
	}
	n := s.args[0]
	if n < 1 {
		return fail(s.argAt[0], "SetNim needs at least 1 heap; write %s", usage)
	}
	if n > maxSpecHeaps {
		return fail(s.argAt[0], "%d heaps is more than Parse accepts (at most %d)", n, maxSpecHeaps)
	}
	if len(s.sets) == 0 {
		return fail(s.closeAt, "SetNim needs at least one move set after the colon; write %s", usage)
	}
	for i, set := range s.sets {
		for _, v := range set {
			if v < 1 || v > n {
				return fail(s.setAt[i], "vertex %d is outside 1..%d", v, n)
			}
		}
	}
	g := SetNim(n, s.sets...)
	if err := g.Err(); err != nil {
		return fail(s.nameAt, "%v", err)
	}
	return g, nil
}

// syntax reads the arguments of a family with integer parameters, after
// its name: [ '(' int {',' int} [':' set {set}] ')' ].
func (ps *parser) syntax(name string, nameAt int) (specSyntax, error) {
	s := specSyntax{openAt: -1, closeAt: -1, name: name, nameAt: nameAt}
	spec, i := ps.spec, ps.i
	defer func() { ps.i = i }()
	fail := func(at int, format string, args ...any) (specSyntax, error) {
		return s, &ParseError{Spec: spec, Offset: at, Msg: fmt.Sprintf(format, args...)}
	}
	skip := func() {
		for i < len(spec) && (spec[i] == ' ' || spec[i] == '\t') {
			i++
		}
	}
	number := func() (int, int, bool) {
		start := i
		for i < len(spec) && spec[i] >= '0' && spec[i] <= '9' {
			i++
		}
		if start == i {
			return 0, start, false
		}
		v, err := strconv.Atoi(spec[start:i])
		if err != nil || v > maxSpecNumber {
			return 0, start, false
		}
		return v, start, true
	}
	skip()
	if i == len(spec) || spec[i] != '(' && !isLetter(spec[i]) && !(spec[i] >= '0' && spec[i] <= '9') {
		return s, nil // a name alone, followed by the end, ',', ')' or '+'
	}
	if spec[i] != '(' {
		return fail(i, "expected '(' after %s", s.name)
	}
	s.openAt = i
	i++
	skip()
	for afterComma := false; afterComma || i >= len(spec) || spec[i] != ')'; {
		skip()
		v, at, ok := number()
		if !ok {
			if at < len(spec) && spec[at] == '-' {
				return fail(at, "parameters must be at least 1, not negative")
			}
			if at < i {
				return fail(at, "%s is too large (at most %d)", spec[at:i], maxSpecNumber)
			}
			return fail(at, "expected a number")
		}
		s.args = append(s.args, v)
		s.argAt = append(s.argAt, at)
		skip()
		afterComma = i < len(spec) && spec[i] == ','
		if afterComma {
			i++
			continue
		}
		break
	}
	if i < len(spec) && spec[i] == ':' {
		s.colonAt = i
		i++
		s.sets = [][]int{}
		for {
			skip()
			if i >= len(spec) || spec[i] == ')' {
				break
			}
			at := i
			var set []int
			switch {
			case spec[i] == '{':
				i++
				for {
					skip()
					v, vat, ok := number()
					if !ok {
						return fail(vat, "expected a vertex number in the move set")
					}
					set = append(set, v)
					skip()
					if i < len(spec) && spec[i] == ',' {
						i++
						continue
					}
					if i < len(spec) && spec[i] == '}' {
						i++
						break
					}
					return fail(i, "expected ',' or '}' in the move set")
				}
			case spec[i] >= '0' && spec[i] <= '9' && s.args[0] > 9:
				// With more than 9 heaps a vertex takes several digits, so a
				// set is written 1,2,10 and sets are separated by spaces.
				for {
					v, _, _ := number()
					set = append(set, v)
					if i < len(spec) && spec[i] == ',' && i+1 < len(spec) && spec[i+1] >= '0' && spec[i+1] <= '9' {
						i++
						continue
					}
					break
				}
			case spec[i] >= '0' && spec[i] <= '9':
				for i < len(spec) && spec[i] >= '0' && spec[i] <= '9' {
					set = append(set, int(spec[i]-'0'))
					i++
				}
			default:
				return fail(i, "expected a move set such as 12 or {1,2}")
			}
			s.sets = append(s.sets, set)
			s.setAt = append(s.setAt, at)
			if i < len(spec) && spec[i] == ',' {
				i++ // sets may also be separated by commas
			}
		}
	}
	skip()
	if i >= len(spec) {
		return fail(i, "missing ')'")
	}
	if spec[i] != ')' {
		if spec[i] == '-' {
			return fail(i, "parameters must be at least 1, not negative")
		}
		return fail(i, "expected ',' or ')'")
	}
	s.closeAt = i
	i++
	return s, nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
