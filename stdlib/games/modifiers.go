package games

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Modifiers change how a move-set game (a *SetGame: SetNim and every named
// family built on move sets) lowers the heaps of the move set it chooses,
// keeping the move sets. The result is again a *SetGame, so the solvers
// keep their fast paths and modifiers compose: Slow(Exact(CN(6,3))).

// Slow lowers each heap of the chosen part of a move set by exactly one:
// Slow(Moore(n,k)) is slow Moore Nim, Slow(Exact(n,k)) is Exact Slow NIM.
func Slow(g Game) Game {
	s, b := setGameOf("Slow", g)
	if b != nil {
		return b
	}
	return s.lowered("Slow("+g.Name()+")", s.exact(), []int{1})
}

// Exact makes every move lower every heap of the move set it chooses:
// Exact(Moore(n,k)) is exact k-Nim, Exact(CN(6,3)) lowers three
// consecutive heaps at once. Every move set given to SetNim is one, also
// one inside another (which adds no move to SetNim itself).
func Exact(g Game) Game {
	s, b := setGameOf("Exact", g)
	if b != nil {
		return b
	}
	_, amounts := s.Lowering()
	return s.lowered("Exact("+g.Name()+")", true, amounts)
}

// Subtract lets a move lower a heap only by one of the given amounts (a
// per-heap subtraction set): Subtract(Nim(1), 1, 3, 4) is the subtraction
// game S(1,3,4) on one heap, Subtract(CN(5,2), 1, 2) takes one or two from
// each heap it lowers.
func Subtract(g Game, amounts ...int) Game {
	parts := make([]string, len(amounts))
	for i, x := range amounts {
		parts[i] = strconv.Itoa(x)
	}
	name := "Subtract(" + g.Name() + ", " + strings.Join(parts, ", ") + ")"
	s, b := setGameOf("Subtract", g)
	if b != nil {
		return b
	}
	set := slices.Clone(amounts)
	slices.Sort(set)
	set = slices.Compact(set)
	switch {
	case len(set) == 0:
		return badf(name, "give at least one amount, e.g. games.Subtract(g, 1, 2)")
	case set[0] < 1:
		return badf(name, "amount %d: every amount must be at least 1", set[0])
	}
	if _, old := s.Lowering(); old != nil {
		// Already restricted: only amounts allowed by both remain.
		set = slices.DeleteFunc(set, func(x int) bool { return !slices.Contains(old, x) })
		if len(set) == 0 {
			return badf(name, "no amount is allowed both by %s (%v) and here (%v)", g.Name(), old, amounts)
		}
	}
	return s.lowered(name, s.exact(), set)
}

func (g *SetGame) exact() bool { e, _ := g.Lowering(); return e }

// lowered is g with its move sets, lowering exactly or not, by the given
// amounts (nil: any); amounts {1} is spelled with the slow rules.
func (g *SetGame) lowered(name string, exact bool, amounts []int) Game {
	rule := RuleSubset
	switch {
	case slices.Equal(amounts, []int{1}) && exact:
		rule, amounts = RuleSlowExact, nil
	case slices.Equal(amounts, []int{1}):
		rule, amounts = RuleSlow, nil
	case exact:
		rule = RuleExact
	}
	sets := g.Sets
	if exact && g.given != nil {
		// Lowering every heap of a set makes each set a move of its own,
		// those a subset rule dropped as inside another included.
		sets = g.given
	}
	return &SetGame{name: name, N: g.N, Sets: sets, Rule: rule, Amounts: slices.Clone(amounts), given: g.given}
}

// setGameOf is g as a move-set game, or the error the modifier reports.
func setGameOf(modifier string, g Game) (*SetGame, Game) {
	name := modifier + "(" + g.Name() + ")"
	if err := g.Err(); err != nil {
		return nil, &bad{name: name, err: fmt.Errorf("%s: %w", name, err)}
	}
	s, ok := g.(*SetGame)
	if !ok {
		return nil, badf(name, "%s applies to move-set games (SetNim, CN, PN, NN, Moore, Nim, Proper, Exact, and their Slow/Exact/Subtract forms); %s is not one", modifier, g.Name())
	}
	return s, nil
}
