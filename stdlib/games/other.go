package games

import (
	"fmt"
	"slices"
	"strings"
)

// Wythoff is Wythoff's game on two heaps: lower one heap by any positive
// amount, or both by the same positive amount.
func Wythoff() Game { return WythoffGame{} }

// WythoffGame is the game built by Wythoff.
//
// Its one field, of size zero, is for the notebook's interpreter, which
// asserts on a Game holding a struct by looking at the struct's first
// field and panicked on one without fields (g.(games.WythoffGame)).
type WythoffGame struct{ _ [0]int }

func (WythoffGame) Name() string   { return "Wythoff" }
func (WythoffGame) String() string { return "Wythoff" }
func (WythoffGame) Heaps() int     { return 2 }
func (WythoffGame) Err() error     { return nil }
func (w WythoffGame) Followers(p Pos) []Pos {
	var out []Pos
	w.VisitFollowers(p, func(q Pos) bool { out = append(out, q.Clone()); return true })
	return out
}
func (WythoffGame) VisitFollowers(p Pos, f func(Pos) bool) {
	if len(p) != 2 {
		return
	}
	q := Pos{0, 0}
	for x := 0; x < p[0]; x++ {
		q[0], q[1] = x, p[1]
		if !f(q) {
			return
		}
	}
	for y := 0; y < p[1]; y++ {
		q[0], q[1] = p[0], y
		if !f(q) {
			return
		}
	}
	for d := 1; d <= min(p[0], p[1]); d++ {
		q[0], q[1] = p[0]-d, p[1]-d
		if !f(q) {
			return
		}
	}
}

// CompoundKind says how the components of a Compound are played together.
type CompoundKind int

const (
	// Disjunctive: move in exactly one component (the sum; values xor).
	Disjunctive CompoundKind = iota
	// Selective: move in any nonempty set of components (seed 002).
	Selective
	// Conjunctive: move in every component; play ends when any component
	// has no move (remoteness is the minimum of the parts', Smith; seed 004).
	Conjunctive
)

func (k CompoundKind) String() string {
	switch k {
	case Disjunctive:
		return "Sum"
	case Selective:
		return "Selective"
	case Conjunctive:
		return "Conjunctive"
	}
	return fmt.Sprintf("CompoundKind(%d)", int(k))
}

// Compound is several games played side by side. A position is the
// components' positions written one after another, so Sum(Nim(1), CN(3,2))
// has positions of 4 heaps: (a, b, c, d) = Nim heap a, CN position (b,c,d).
type Compound struct {
	Kind  CompoundKind
	Parts []Game
	name  string
	err   error
}

// Sum is the disjunctive compound (the ordinary sum) of the games.
func Sum(parts ...Game) Game { return newCompound(Disjunctive, parts) }

// SelectiveCompound lets a move play in any nonempty set of the components.
func SelectiveCompound(parts ...Game) Game { return newCompound(Selective, parts) }

// ConjunctiveCompound makes a move play in every component.
func ConjunctiveCompound(parts ...Game) Game { return newCompound(Conjunctive, parts) }

func newCompound(kind CompoundKind, parts []Game) Game {
	names := make([]string, len(parts))
	parts = slices.Clone(parts)
	for i, g := range parts {
		names[i] = g.Name()
		// A subtraction game's heap never splits: inside a compound it is
		// one heap, played as the move-set game it equals (keeping its name).
		if tb, ok := g.(*TakeBreak); ok {
			if set, ok := tb.subtractionSet(); ok {
				parts[i] = Nim(1).(*SetGame).lowered(tb.name, false, set)
			}
		}
	}
	c := &Compound{Kind: kind, Parts: parts, name: kind.String() + "(" + strings.Join(names, ", ") + ")"}
	if len(parts) == 0 {
		c.err = fmt.Errorf("%s: give at least one component game", c.name)
	}
	for _, g := range parts {
		if err := g.Err(); err != nil {
			c.err = fmt.Errorf("%s: %w", c.name, err)
			break
		}
		if g.Heaps() == 0 {
			c.err = &anyLengthPartError{Compound: c.name, Kind: kind, Part: g}
			break
		}
	}
	return c
}

// anyLengthPartError is a compound given a part whose positions are rows
// of any length (a take-and-break game, a Func game with heaps 0): the
// parts of a compound are laid side by side with a fixed number of heaps
// each, and a move that splits a heap would not fit.
type anyLengthPartError struct {
	Compound string
	Kind     CompoundKind
	Part     Game
}

func (e *anyLengthPartError) Error() string {
	msg := fmt.Sprintf("%s: %s is played on a row of heaps of any length, which cannot be one part of a compound (each part has a fixed number of heaps, and a move that splits a heap would not fit)", e.Compound, e.Part.Name())
	tb, ok := e.Part.(*TakeBreak)
	if !ok || e.Kind != Disjunctive {
		if ok {
			msg += "; of the take-and-break games only subtraction games (codes of digits 0 and 3, such as Subtraction(1,3,4)) can be parts, one heap each"
		}
		return msg
	}
	return msg + fmt.Sprintf("; a row is already the sum of its heaps, and a sum's value is the xor of its parts' values: solve %s alone and xor (in a cell: k, _ := solve.Values(%s, 20), then k.At(a) ^ v; a row of two of its heaps: --max N,N)",
		tb.Name(), tb.goExpr())
}

// Name is like "Sum(CN(3,2), Nim(1))".
func (c *Compound) Name() string { return c.name }

// String is the compound's name.
func (c *Compound) String() string { return c.name }

// Err reports a bad component.
func (c *Compound) Err() error { return c.err }

// Heaps is the total of the components' heaps.
func (c *Compound) Heaps() int {
	n := 0
	for _, g := range c.Parts {
		n += g.Heaps()
	}
	return n
}

// Split cuts a compound position into its components' positions.
func (c *Compound) Split(p Pos) []Pos {
	out := make([]Pos, len(c.Parts))
	off := 0
	for i, g := range c.Parts {
		out[i] = p[off : off+g.Heaps()]
		off += g.Heaps()
	}
	return out
}

// Followers moves in one component (sum), any nonempty set of them
// (selective) or all of them (conjunctive).
func (c *Compound) Followers(p Pos) []Pos {
	if c.err != nil || len(p) != c.Heaps() {
		return nil
	}
	parts := c.Split(p)
	opts := make([][]Pos, len(parts))
	for i, g := range c.Parts {
		opts[i] = g.Followers(parts[i])
	}
	var out []Pos
	switch c.Kind {
	case Disjunctive:
		off := 0
		for i, g := range c.Parts {
			for _, q := range opts[i] {
				r := p.Clone()
				copy(r[off:], q)
				out = append(out, r)
			}
			off += g.Heaps()
		}
	case Selective, Conjunctive:
		if c.Kind == Conjunctive {
			for _, o := range opts {
				if len(o) == 0 {
					return nil
				}
			}
		}
		// Each component either stays (only when selective) or moves.
		var rec func(i, off int, cur Pos, moved bool)
		rec = func(i, off int, cur Pos, moved bool) {
			if i == len(parts) {
				if moved {
					out = append(out, cur.Clone())
				}
				return
			}
			h := c.Parts[i].Heaps()
			if c.Kind == Selective {
				rec(i+1, off+h, cur, moved)
			}
			for _, q := range opts[i] {
				copy(cur[off:], q)
				rec(i+1, off+h, cur, true)
			}
			copy(cur[off:], parts[i])
		}
		rec(0, 0, p.Clone(), false)
	}
	return out
}

// Func is a game given by a Go function from a position to its followers:
// the escape hatch for rules the library does not know. heaps is the
// number of heaps of a position (0: any length). f may be interpreted code;
// the solvers call it once per reachable position. The game must be finite
// and without cycles (the solvers report a cycle as an error).
func Func(name string, heaps int, f func(p Pos) []Pos) Game {
	if name == "" {
		name = "Func"
	}
	g := &FuncGame{name: name, heaps: heaps, f: f}
	switch {
	case f == nil:
		g.err = fmt.Errorf("%s: the followers function is nil; pass func(p games.Pos) []games.Pos", name)
	case heaps < 0:
		g.err = fmt.Errorf("%s: heaps=%d; give the number of heaps, or 0 for any length", name, heaps)
	}
	return g
}

// FuncGame is the game built by Func.
type FuncGame struct {
	name  string
	heaps int
	f     func(Pos) []Pos
	err   error
}

// Name is the name given to Func.
func (g *FuncGame) Name() string { return g.name }

// String is the name given to Func.
func (g *FuncGame) String() string { return g.name }

// Heaps is the number of heaps given to Func (0: any length).
func (g *FuncGame) Heaps() int { return g.heaps }

// Err reports a nil function or bad heap count.
func (g *FuncGame) Err() error { return g.err }

// Followers calls the function on a copy of p, so the function may reuse
// or change its argument without corrupting the solver's state.
func (g *FuncGame) Followers(p Pos) []Pos {
	if g.err != nil {
		return nil
	}
	return g.f(p.Clone())
}
