// Package entail solves impartial heap games with entailing moves (seed 003,
// "One value more than Nim"): a move may compel the opponent to reply in the
// heap just moved in. It provides the games of the text (Top Entails,
// entailing Nim, plain Nim) and a general form for new ones, an exact
// outcome search that honours every compulsion, the value of a heap read
// against Nim heaps (a nimber *k, or loony), the hero table, the sum rule,
// the ordinary-theory comparison and winning moves.
//
// A cell reads like the mathematics:
//
//	p := entail.Sum(entail.TopEntails(3), entail.TopEntails(5), entail.Nim(1), entail.EntailingNim(7))
//	p.Outcome()         // N (Describe: the player to move wins)
//	p.WinningMoves()    // [entailing Nim 7 -> 1]
//	entail.EntailingNim(7).Value()   // *4
//	entail.HeroTable(25, entail.TopEntailsGame, entail.EntailingNimGame)
//
// Conventions, from the text: the compelled reply must be made in the heap
// the entailing move left; a move that empties its heap compels nothing; a
// player compelled into a heap with no move there has no legal move and
// loses (normal play). Values are defined only for free positions (no
// compulsion pending).
package entail

import (
	"fmt"
	"sync"
)

// Move is one move in a heap: the heap becomes the heaps in Heaps (sizes;
// zeros are dropped, so an empty list removes the heap), and if Entails is
// set the opponent must reply in the heap left behind. An entailing move
// must leave at most one non-empty heap (the reply has to go somewhere
// definite); one that leaves none compels nothing.
type Move struct {
	Heaps   []int
	Entails bool
}

// Game is an entailing heap game: a rule giving the moves from a heap of
// each size. Make new ones with NewGame; the three games of the text are
// TopEntailsGame, EntailingNimGame and NimGame.
type Game struct {
	name  string
	id    uint32
	moves func(n int) []Move

	mu    sync.Mutex
	cache map[int][]Move // the checked moves of each heap size
}

var (
	gameIDMu   sync.Mutex
	nextGameID uint32
)

// maxGames bounds how many games one session can define: the game id shares
// a 32-bit word with the heap size in the search's canonical form.
const maxGames = 1 << 10

// maxHeapSize is the largest heap the search can represent.
const maxHeapSize = 1<<21 - 1

// NewGame defines an entailing heap game from its move rule: moves(n) lists
// the moves from a heap of n >= 1 (Move.Heaps are what the heap becomes,
// Move.Entails marks a move that compels the reply in the heap it leaves).
// The rule may be a function written in a notebook cell:
//
//	// Nim where taking exactly two (and not emptying) compels the reply.
//	g := entail.NewGame("two entails", func(n int) []entail.Move {
//		var ms []entail.Move
//		for k := 1; k <= n; k++ {
//			ms = append(ms, entail.Move{Heaps: []int{n - k}, Entails: k == 2 && n > k})
//		}
//		return ms
//	})
//	entail.HeroTable(12, g)
//
// Play must end: a rule that lets play repeat a position is reported as an
// error by the search. The rule is called once per heap size (its answers
// are cached in the game, so redefine the game rather than change what the
// function returns), and it must not call back into this package, which
// holds its lock while the rule runs.
func NewGame(name string, moves func(n int) []Move) *Game {
	gameIDMu.Lock()
	id := nextGameID
	nextGameID++
	gameIDMu.Unlock()
	return &Game{name: name, id: id, moves: moves}
}

// Name is the game's name as given to NewGame.
func (g *Game) Name() string {
	if g == nil {
		return "<nil game>"
	}
	return g.name
}

func (g *Game) String() string { return g.Name() }

// Heap is a heap of n in this game, for use in Sum.
func (g *Game) Heap(n int) Heap { return Heap{Game: g, Size: n} }

// Moves returns the moves from a heap of n, checked: sizes non-negative,
// at most one non-empty heap left by an entailing move. The result is shared:
// do not modify it.
func (g *Game) Moves(n int) ([]Move, error) {
	if g == nil {
		return nil, fmt.Errorf("entail: nil game; use entail.TopEntailsGame, entail.EntailingNimGame, entail.NimGame or entail.NewGame")
	}
	if n < 0 {
		return nil, fmt.Errorf("entail: %s heap of %d: heap sizes must be >= 0", g.name, n)
	}
	if n == 0 {
		return nil, nil
	}
	g.mu.Lock()
	ms, ok := g.cache[n]
	g.mu.Unlock()
	if ok {
		return ms, nil
	}
	if g.id >= maxGames {
		return nil, fmt.Errorf("entail: too many games defined in this session (limit %d); restart the kernel", maxGames)
	}
	raw, err := callMoves(g, n)
	if err != nil {
		return nil, err
	}
	ms = make([]Move, 0, len(raw))
	for _, m := range raw {
		var hs []int
		for _, h := range m.Heaps {
			if h < 0 {
				return nil, fmt.Errorf("entail: %s: a move from %d leaves a heap of %d; heap sizes must be >= 0", g.name, n, h)
			}
			if h > maxHeapSize {
				return nil, fmt.Errorf("entail: %s: a move from %d leaves a heap of %d, above the limit %d", g.name, n, h, maxHeapSize)
			}
			if h > 0 {
				hs = append(hs, h)
			}
		}
		if m.Entails && len(hs) > 1 {
			return nil, fmt.Errorf("entail: %s: an entailing move from %d leaves %d heaps %v; an entailing move must leave one heap for the reply (or none, and then it compels nothing)", g.name, n, len(hs), hs)
		}
		ms = append(ms, Move{Heaps: hs, Entails: m.Entails && len(hs) == 1})
	}
	g.mu.Lock()
	if g.cache == nil {
		g.cache = make(map[int][]Move)
	}
	g.cache[n] = ms
	g.mu.Unlock()
	return ms, nil
}

// callMoves runs a (possibly interpreted) move rule, turning a panic in it
// into an error so that a buggy rule in a cell does not take the search
// down with it.
func callMoves(g *Game, n int) (ms []Move, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("entail: %s: the move rule panicked on a heap of %d: %v", g.name, n, r)
		}
	}()
	if g.moves == nil {
		return nil, fmt.Errorf("entail: %s has no move rule", g.name)
	}
	return g.moves(n), nil
}

// TopEntailsGame is Top Entails: take the top coin of a heap, after which
// the opponent must move in that same heap (unless it is now empty), or
// split a heap into two non-empty heaps, which compels nothing.
var TopEntailsGame = NewGame("Top Entails", func(n int) []Move {
	ms := []Move{{Heaps: []int{n - 1}, Entails: true}}
	for a := 1; a <= n/2; a++ {
		ms = append(ms, Move{Heaps: []int{a, n - a}})
	}
	return ms
})

// EntailingNimGame is entailing Nim: take any number of counters from a
// heap; a take of exactly one that leaves the heap non-empty compels the
// reply in that heap.
var EntailingNimGame = NewGame("entailing Nim", func(n int) []Move {
	ms := make([]Move, 0, n)
	for k := 1; k <= n; k++ {
		ms = append(ms, Move{Heaps: []int{n - k}, Entails: k == 1})
	}
	return ms
})

// NimGame is plain Nim: take any number of counters; nothing is compelled.
var NimGame = NewGame("Nim", func(n int) []Move {
	ms := make([]Move, 0, n)
	for k := 1; k <= n; k++ {
		ms = append(ms, Move{Heaps: []int{n - k}})
	}
	return ms
})

// TopEntails is a Top Entails heap of n coins.
func TopEntails(n int) Heap { return Heap{Game: TopEntailsGame, Size: n} }

// EntailingNim is an entailing Nim heap of n counters.
func EntailingNim(n int) Heap { return Heap{Game: EntailingNimGame, Size: n} }

// Nim is a plain Nim heap of n counters.
func Nim(n int) Heap { return Heap{Game: NimGame, Size: n} }
