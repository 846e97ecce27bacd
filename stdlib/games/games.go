// Package games holds the rules of impartial games played on heaps: Nim and
// its hypergraph relatives (SetNim, Moore's Nim, Circular, Path and Necklace
// Nim, proper Nim, exact and slow variants), Wythoff, compounds of games, and
// games given by a Go function. A game only knows its moves; stdlib/solve
// computes tables of values, outcomes and remoteness from them.
//
// Constructors read like the papers and return a single Game so that calls
// nest in a notebook cell: solve.Values(games.CN(6, 2), 11). A constructor
// given bad parameters returns a game whose Err says what to change; every
// solver reports that error instead of computing.
package games

import (
	"fmt"
	"strconv"
	"strings"
)

// Pos is a position: one heap size per coordinate.
type Pos []int

// String prints a position as (1,1,1,2,1,2), the way the papers write it.
func (p Pos) String() string {
	var b strings.Builder
	b.WriteByte('(')
	for i, x := range p {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte(')')
	return b.String()
}

// Total is the number of tokens in the position.
func (p Pos) Total() int {
	s := 0
	for _, x := range p {
		s += x
	}
	return s
}

// Clone returns a copy that does not share storage with p.
func (p Pos) Clone() Pos { return append(Pos(nil), p...) }

// Game is an impartial game under normal play: the player who cannot move
// loses. Followers must be finite and the game must have no cycles.
type Game interface {
	// Name is how the papers write the game, e.g. "CN(6,2)".
	Name() string
	// Heaps is the number of coordinates of a position; 0 means any length.
	Heaps() int
	// Followers lists every position reachable from p in one move.
	Followers(p Pos) []Pos
	// Err is non-nil when the game was built from bad parameters.
	Err() error
}

// Visitor is implemented by games that can enumerate followers without
// allocating: f receives each follower in a buffer that is reused, so it
// must copy q to keep it, and returns false to stop early.
type Visitor interface {
	VisitFollowers(p Pos, f func(q Pos) bool)
}

// VisitingGame is a Game that is also a Visitor. Visit finds a Visitor by
// asserting the Game; a notebook's interpreter hands the library a cell's
// game in a wrapper that has only the methods of the parameter's type, so
// the engine hands over a cell's game that has both enumerations as a
// VisitingGame, whose wrapper has all of them.
type VisitingGame interface {
	Game
	Visitor
}

// Visit calls f on every follower of p, using the game's allocation-free
// enumeration when it has one.
func Visit(g Game, p Pos, f func(q Pos) bool) {
	if v, ok := g.(Visitor); ok {
		v.VisitFollowers(p, f)
		return
	}
	for _, q := range g.Followers(p) {
		if !f(q) {
			return
		}
	}
}

// CheckPos reports whether p is a legal position of g: the right number of
// heaps, none negative.
func CheckPos(g Game, p Pos) error {
	if err := g.Err(); err != nil {
		return err
	}
	if n := g.Heaps(); n > 0 && len(p) != n {
		return fmt.Errorf("%s: position %v has %d heaps; give %d", g.Name(), p, len(p), n)
	}
	for i, x := range p {
		if x < 0 {
			return fmt.Errorf("%s: heap %d of %v is negative (%d); heaps are sizes >= 0", g.Name(), i+1, p, x)
		}
	}
	return nil
}

// bad is the game returned by a constructor given bad parameters: it has
// no moves and carries the error, so the mistake surfaces at the first solve.
type bad struct {
	name string
	err  error
}

func (b *bad) Name() string        { return b.name }
func (b *bad) Heaps() int          { return 0 }
func (b *bad) Followers(Pos) []Pos { return nil }
func (b *bad) Err() error          { return b.err }
func (b *bad) Error() string       { return b.err.Error() }
func (b *bad) String() string      { return b.name + ": " + b.err.Error() }
func badf(name, format string, args ...any) Game {
	return &bad{name: name, err: fmt.Errorf(name+": "+format, args...)}
}
