package games

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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
}

// Limits that keep Parse from building games nobody could solve: the
// k-subset families have C(n,k) move sets, and building them for, say,
// Moore(40,20) would not finish.
const (
	maxSpecHeaps = 64
	maxSpecSets  = MaxMoveSets
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
//
// Names ignore case; spaces are allowed between tokens. SetNim takes the
// number of heaps, a colon, and the move sets, each written as its vertices
// (numbered from 1): "12" is {1,2} when n <= 9; "{1,2,10}" works for any n.
// A mistake gives a *ParseError pointing at the offending character; bad
// parameters (k > n, ...) point at the parameter.
func Parse(spec string) (Game, error) {
	s, err := parseSyntax(spec)
	fail := func(at int, format string, args ...any) (Game, error) {
		return nil, &ParseError{Spec: spec, Offset: at, Msg: fmt.Sprintf(format, args...)}
	}
	// An unknown name is the more useful message even when what follows it
	// does not parse either (Sum(Nim(2)) is not a spec Parse reads).
	kind := lookupKind(s.name)
	if kind == nil && s.name != "" {
		return fail(s.nameAt, "unknown game %q; known games: %s", s.name, knownNames())
	}
	if err != nil {
		return nil, err
	}
	if kind.names[0] == "SetNim" {
		return buildSetNim(spec, s)
	}
	if s.sets != nil {
		return fail(s.colonAt, "%s takes no move sets; write %s", kind.names[0], kind.usage)
	}
	if !slices.Contains(kind.arity, len(s.args)) {
		at := s.closeAt
		if len(s.args) > slices.Max(kind.arity) {
			at = s.argAt[slices.Max(kind.arity)]
		}
		if s.openAt < 0 {
			at = s.nameAt + len(s.name)
		}
		return fail(at, "%s takes %s; write %s", kind.names[0], arityText(kind.arity), kind.usage)
	}
	for i, a := range s.args {
		if a < 1 {
			return fail(s.argAt[i], "parameters must be at least 1; write %s", kind.usage)
		}
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
	g := kind.build(s.args)
	if err := g.Err(); err != nil {
		return fail(s.nameAt, "%v", err)
	}
	return g, nil
}

func arityText(ar []int) string {
	var parts []string
	for _, a := range ar {
		switch a {
		case 0:
			parts = append(parts, "no parameters")
		case 1:
			parts = append(parts, "1 parameter")
		default:
			parts = append(parts, fmt.Sprintf("%d parameters", a))
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

// parseSyntax tokenises name [ '(' int {',' int} [':' set {set}] ')' ].
func parseSyntax(spec string) (specSyntax, error) {
	s := specSyntax{openAt: -1, closeAt: -1}
	i := 0
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
		if err != nil || v > 1<<20 {
			return 0, start, false
		}
		return v, start, true
	}
	skip()
	s.nameAt = i
	for i < len(spec) && (isLetter(spec[i]) || (i > s.nameAt && spec[i] >= '0' && spec[i] <= '9')) {
		i++
	}
	s.name = spec[s.nameAt:i]
	if s.name == "" {
		if i >= len(spec) {
			return fail(i, "empty game spec; write a game such as CN(6,2)")
		}
		return fail(i, "expected a game name such as CN, PN, NN, Moore, Nim")
	}
	skip()
	if i == len(spec) {
		return s, nil
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
	skip()
	if i < len(spec) {
		return fail(i, "unexpected text after the game spec")
	}
	return s, nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
