package entail

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"grundy/stdlib/human"
	"grundy/stdlib/progress"
)

// SumRuleCheck is the result of testing the sum rule against the search on
// a family of free sums.
type SumRuleCheck struct {
	Games    []string
	MaxHeap  int  // heaps 1..MaxHeap
	MaxParts int  // sums of 1..MaxParts parts
	EachGame bool // every game of the family appears in every sum
	Sums     int  // how many sums were solved
	// Disagreements lists the sums where the rule's prediction differs from
	// the search (the text reports none).
	Disagreements []Position
}

func (c SumRuleCheck) family() string {
	return strings.Join(c.Games, " + ")
}

// Enumeration describes which sums were tested, in words.
func (c SumRuleCheck) Enumeration() string {
	each := ""
	if c.EachGame {
		each = ", each game present at least once"
	}
	return fmt.Sprintf("every multiset of 1..%d heaps drawn from {%s} x {1..%d}%s", c.MaxParts, c.family(), c.MaxHeap, each)
}

func (c SumRuleCheck) String() string {
	s := fmt.Sprintf("sum rule on %s: %d %s, %d %s (%s)", c.family(), c.Sums, human.Plural(c.Sums, "sum"), len(c.Disagreements), human.Plural(len(c.Disagreements), "disagreement"), c.Enumeration())
	for i, p := range c.Disagreements {
		if i == 10 {
			s += fmt.Sprintf("\n  ... and %d more", len(c.Disagreements)-10)
			break
		}
		s += "\n  " + p.String()
	}
	return s
}

// HTML is the check as a one-row table.
func (c SumRuleCheck) HTML() string {
	verdict := `<span style="color:#080">no error</span>`
	if len(c.Disagreements) > 0 {
		verdict = `<span style="color:#c00;font-weight:bold">` + strconv.Itoa(len(c.Disagreements)) + " " + human.Plural(len(c.Disagreements), "disagreement") + "</span>"
	}
	return `<table><tr><th>family</th><th>sums</th><th>verdict</th><th>enumeration</th></tr><tr><td>` +
		html.EscapeString(c.family()) + "</td><td>" + strconv.Itoa(c.Sums) + "</td><td>" + verdict +
		"</td><td>" + html.EscapeString(c.Enumeration()) + "</td></tr></table>"
}

// CheckSumRule solves every free sum of 1..maxParts heaps drawn from the
// given games with sizes 1..maxHeap (as multisets: the order of parts does
// not matter), and compares each outcome with the sum rule's prediction
// from the parts' values. With eachGame set, only sums in which every game
// of the list appears are tested ("Top Entails heaps beside Nim heaps").
func CheckSumRule(maxHeap, maxParts int, eachGame bool, games ...*Game) (SumRuleCheck, error) {
	c := SumRuleCheck{MaxHeap: maxHeap, MaxParts: maxParts, EachGame: eachGame}
	if maxHeap < 1 || maxParts < 1 {
		return c, fmt.Errorf("entail: CheckSumRule(%d, %d, ...): give the largest heap and the most parts, each at least 1", maxHeap, maxParts)
	}
	if len(games) == 0 || len(games) > 16 {
		return c, fmt.Errorf("entail: CheckSumRule: name 1..16 games, e.g. entail.TopEntailsGame, entail.NimGame (got %d)", len(games))
	}
	for _, g := range games {
		if g == nil {
			return c, fmt.Errorf("entail: CheckSumRule: a nil game")
		}
		c.Games = append(c.Games, g.Name())
	}
	// The parts' values first: they are the rule's whole input.
	values := make([][]Value, len(games))
	for gi, g := range games {
		values[gi] = make([]Value, maxHeap+1)
		for h := 1; h <= maxHeap; h++ {
			v, err := g.Heap(h).Value()
			if err != nil {
				return c, err
			}
			values[gi][h] = v
		}
	}
	types := len(games) * maxHeap
	task := progress.Start("sum rule", 0)
	var err error
	parts := make([]int, 0, maxParts) // type indices, nondecreasing
	var rec func(start int)
	rec = func(start int) {
		if err != nil {
			return
		}
		if len(parts) > 0 && (!eachGame || coversAll(parts, len(games), maxHeap)) {
			heaps := make([]Heap, len(parts))
			vs := make([]Value, len(parts))
			for i, t := range parts {
				g, h := t/maxHeap, t%maxHeap+1
				heaps[i] = games[g].Heap(h)
				vs[i] = values[g][h]
			}
			p := Sum(heaps...)
			var o Outcome
			o, err = p.Outcome()
			if err == nil {
				err = task.Add(1)
			}
			if err != nil {
				return
			}
			c.Sums++
			if o != SumRule(vs...) {
				c.Disagreements = append(c.Disagreements, p)
			}
		}
		if len(parts) == maxParts {
			return
		}
		for t := start; t < types; t++ {
			parts = append(parts, t)
			rec(t)
			parts = parts[:len(parts)-1]
		}
	}
	rec(0)
	task.Done(err)
	return c, err
}

func coversAll(parts []int, games, maxHeap int) bool {
	seen := 0
	for _, t := range parts {
		seen |= 1 << (t / maxHeap)
	}
	return seen == 1<<games-1
}
