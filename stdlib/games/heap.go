package games

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// TakeBreak is a take-and-break game on a row of heaps: a move takes k
// tokens from one heap and leaves the rest as no heap, one heap, or two or
// three nonempty heaps, as the game's code allows for k. Octal games
// (Kayles 0.77, Dawson's Kayles 0.07), hexadecimal games, subtraction games
// and Grundy's game are all of this kind. A position is a row of heaps of
// any length; its value is the xor of its heaps' values, so the solvers
// compute the value sequence G(0), G(1), ... of one heap.
type TakeBreak struct {
	name    string
	code    string
	digits  []uint8 // digits[k]: bit 1 leave no heap, 2 one heap, 4 two, 8 three
	unequal bool    // a split must leave heaps of different sizes (Grundy's game)
	err     error
}

// Octal is the octal (or hexadecimal) game with the given code, as Winning
// Ways writes it: "0.77" is Kayles, "0.07" Dawson's Kayles, "0.137"
// Dawson's chess. Digit d_k says what may remain of a heap after taking k
// tokens from it: bit 1 no heap, bit 2 one heap, bit 4 two nonempty heaps;
// hexadecimal digits (up to F) add bit 8, three nonempty heaps. The digit
// before the point is d_0 (taking nothing, so only splits: 0, 4, 8 or C).
func Octal(code string) Game {
	name := "Octal(" + code + ")"
	digits, canon, err := parseCode(code)
	if err != nil {
		return &bad{name: name, err: fmt.Errorf("%s: %v", name, err)}
	}
	return &TakeBreak{name: "Octal(" + canon + ")", code: canon, digits: digits}
}

// parseCode reads an octal or hexadecimal code d0.d1d2... and returns its
// digits and its canonical spelling (trailing zeros dropped, "0" before the
// point). On a mistake, the error is a *CodeError naming the offending byte.
func parseCode(code string) ([]uint8, string, error) {
	if code == "" {
		return nil, "", &CodeError{0, "empty code; write one such as 0.77 (Kayles)"}
	}
	dot := strings.IndexByte(code, '.')
	// A stray character is the first thing to point at: "-0.77", "0.7.7".
	for i := 0; i < len(code); i++ {
		if _, ok := hexDigit(code[i]); !ok && i != dot {
			return nil, "", &CodeError{i, fmt.Sprintf("%q is not an octal or hexadecimal digit", code[i])}
		}
	}
	if dot < 0 {
		// Point where the point belongs: "077" means 0.77.
		return nil, "", &CodeError{min(1, len(code)), "a code has a point after its first digit, e.g. 0.77"}
	}
	if dot > 1 {
		return nil, "", &CodeError{1, "one digit before the point (d_0: 0, 4, 8 or C), e.g. 0.77 or 4.07"}
	}
	var digits []uint8
	if dot == 0 {
		digits = append(digits, 0) // ".77" is "0.77"
	}
	for i := 0; i < len(code); i++ {
		if i == dot {
			continue
		}
		d, ok := hexDigit(code[i])
		if !ok {
			return nil, "", &CodeError{i, fmt.Sprintf("%q is not an octal or hexadecimal digit", code[i])}
		}
		if i == 0 && d&3 != 0 {
			return nil, "", &CodeError{0, "d_0 takes no tokens, so it may only split a heap: use 0, 4, 8 or C"}
		}
		digits = append(digits, d)
	}
	if len(digits) < 2 {
		return nil, "", &CodeError{len(code), "give at least one digit after the point, e.g. 0.77"}
	}
	if len(digits) > maxCodeDigits+1 {
		return nil, "", &CodeError{maxCodeDigits + 2, fmt.Sprintf("codes longer than %d digits after the point are not supported", maxCodeDigits)}
	}
	for len(digits) > 2 && digits[len(digits)-1] == 0 {
		digits = digits[:len(digits)-1]
	}
	return digits, codeText(digits), nil
}

// maxCodeDigits bounds a code's length: the periodicity check and the
// solvers look back that far from every heap.
const maxCodeDigits = 1 << 12

// CodeError is a mistake in an octal code, at byte Offset of the code.
type CodeError struct {
	Offset int
	Msg    string
}

func (e *CodeError) Error() string { return e.Msg }

func hexDigit(c byte) (uint8, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// Subtraction is the subtraction game S(s1, s2, ...): take s tokens from
// one heap, s in the set. It is the octal game with digit 3 at each s.
func Subtraction(set ...int) Game {
	s := slices.Clone(set)
	slices.Sort(s)
	s = slices.Compact(s)
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = strconv.Itoa(x)
	}
	name := "Subtraction(" + strings.Join(parts, ",") + ")"
	switch {
	case len(s) == 0:
		return badf(name, "give at least one amount, e.g. games.Subtraction(1, 3, 4)")
	case s[0] < 1:
		return badf(name, "amount %d: every amount must be at least 1", s[0])
	case s[len(s)-1] > maxCodeDigits:
		return badf(name, "amount %d: amounts up to %d are supported", s[len(s)-1], maxCodeDigits)
	}
	digits := make([]uint8, s[len(s)-1]+1)
	for _, x := range s {
		digits[x] = 3
	}
	return &TakeBreak{name: name, code: codeText(digits), digits: digits}
}

func codeText(digits []uint8) string {
	var b strings.Builder
	for k, d := range digits {
		b.WriteString(strings.ToUpper(strconv.FormatInt(int64(d), 16)))
		if k == 0 {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// Grundy is Grundy's game: split one heap into two nonempty heaps of
// different sizes.
func Grundy() Game {
	return &TakeBreak{name: "Grundy", code: "4.0 (unequal)", digits: []uint8{4}, unequal: true}
}

// subtractionSet is the set S when the game is the subtraction game S
// (every nonzero digit 3, none before the point): its heaps never split,
// so one heap of it is the move-set game Subtract(Nim(1), S...).
func (g *TakeBreak) subtractionSet() ([]int, bool) {
	var set []int
	for k, d := range g.digits {
		switch {
		case d == 3 && k > 0:
			set = append(set, k)
		case d != 0:
			return nil, false
		}
	}
	return set, len(set) > 0 && !g.unequal
}

// goExpr is the Go expression that builds the game, as a cell writes it:
// games.Octal("0.77"), games.Subtraction(1, 3, 4), games.Grundy().
func (g *TakeBreak) goExpr() string {
	switch {
	case g.unequal:
		return "games.Grundy()"
	case strings.HasPrefix(g.name, "Subtraction("):
		return "games." + strings.ReplaceAll(g.name, ",", ", ")
	}
	return fmt.Sprintf("games.Octal(%q)", g.code)
}

// Name is the game as specs write it: "Octal(0.77)", "Subtraction(1,3,4)", "Grundy".
func (g *TakeBreak) Name() string { return g.name }

// String is the game's name.
func (g *TakeBreak) String() string { return g.name }

// Heaps is 0: a position is a row of heaps of any length.
func (g *TakeBreak) Heaps() int { return 0 }

// Err reports a bad code.
func (g *TakeBreak) Err() error { return g.err }

// Code is the game's code, d0.d1d2... (for Grundy's game "4.0 (unequal)").
func (g *TakeBreak) Code() string { return g.code }

// Digit is d_k, what may remain after taking k tokens (0 beyond the code).
func (g *TakeBreak) Digit(k int) int {
	if k < 0 || k >= len(g.digits) {
		return 0
	}
	return int(g.digits[k])
}

// CodeLength is t, the index of the code's last nonzero digit: no move
// takes more than t tokens.
func (g *TakeBreak) CodeLength() int {
	for k := len(g.digits) - 1; k > 0; k-- {
		if g.digits[k] != 0 {
			return k
		}
	}
	return 0
}

// MaxParts is the most heaps a move leaves where there was one: 1 for
// subtraction games, 2 for octal games that split, 3 for hexadecimal
// games with a digit of 8 or more.
func (g *TakeBreak) MaxParts() int {
	parts := 1
	for _, d := range g.digits {
		if d&8 != 0 {
			return 3
		}
		if d&4 != 0 {
			parts = 2
		}
	}
	return parts
}

// UnequalSplits is true for Grundy's game: a heap splits only into heaps
// of different sizes.
func (g *TakeBreak) UnequalSplits() bool { return g.unequal }

// Describe says what each move does, digit by digit.
func (g *TakeBreak) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: code %s", g.name, g.code)
	for k, d := range g.digits {
		if d == 0 {
			continue
		}
		var leave []string
		for bit, what := range []string{"no heap", "one heap", "two heaps", "three heaps"} {
			if d>>bit&1 == 1 {
				leave = append(leave, what)
			}
		}
		fmt.Fprintf(&b, "; take %d: leave %s", k, strings.Join(leave, " or "))
	}
	if g.unequal {
		b.WriteString(" (of different sizes)")
	}
	return b.String()
}

// HeapMoves calls f with the heaps a move may leave of one heap of n
// tokens (none, one, or a split, smallest part first), each once.
func (g *TakeBreak) HeapMoves(n int, f func(parts []int) bool) {
	var buf [3]int
	for k, d := range g.digits {
		r := n - k
		if d == 0 || r < 0 {
			continue
		}
		if d&1 != 0 && r == 0 && k > 0 {
			if !f(buf[:0]) {
				return
			}
		}
		if d&2 != 0 && r >= 1 && k > 0 {
			buf[0] = r
			if !f(buf[:1]) {
				return
			}
		}
		if d&4 != 0 {
			for a := 1; 2*a <= r; a++ {
				if g.unequal && 2*a == r {
					continue
				}
				buf[0], buf[1] = a, r-a
				if !f(buf[:2]) {
					return
				}
			}
		}
		if d&8 != 0 {
			for a := 1; 3*a <= r; a++ {
				for b := a; a+2*b <= r; b++ {
					buf[0], buf[1], buf[2] = a, b, r-a-b
					if !f(buf[:3]) {
						return
					}
				}
			}
		}
	}
}

// Followers replaces one heap by what a move leaves of it, in place: from
// (5) Kayles reaches (3), (4), (1,3), (2,2), (1,2) and so on; a heap taken
// whole disappears from the row.
func (g *TakeBreak) Followers(p Pos) []Pos {
	var out []Pos
	g.VisitFollowers(p, func(q Pos) bool { out = append(out, q.Clone()); return true })
	return out
}

// VisitFollowers enumerates the followers without building a slice.
func (g *TakeBreak) VisitFollowers(p Pos, f func(Pos) bool) {
	if g.err != nil {
		return
	}
	q := make(Pos, 0, len(p)+2)
	for i, n := range p {
		ok := true
		g.HeapMoves(n, func(parts []int) bool {
			q = append(append(append(q[:0], p[:i]...), parts...), p[i+1:]...)
			ok = f(q)
			return ok
		})
		if !ok {
			return
		}
	}
}

// Canonical sorts a row of heaps and drops empty ones: two rows with the
// same canonical form are the same position of a take-and-break game.
func (g *TakeBreak) Canonical(p Pos) Pos {
	var q Pos
	for _, x := range p {
		if x != 0 {
			q = append(q, x)
		}
	}
	slices.Sort(q)
	return q
}
