package solve

import (
	"errors"

	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// pick chooses the fastest solver that applies to the game and kind.
func pick(g games.Game, kind Kind) string {
	switch g := g.(type) {
	case *games.SetGame:
		switch g.Rule {
		case games.RuleSubset, games.RuleExact:
			return "box"
		default:
			return "slow"
		}
	case *games.Compound:
		return compoundMethod(g, kind)
	}
	if _, ok := g.(games.WythoffGame); ok {
		return "wythoff"
	}
	return "plain"
}

// valueWords is the first bitset width (in 64-bit words) the box solver
// tries: values never exceed the number of tokens, which bounds the width;
// beyond 4 words it tries 4 and widens only if a value needs it.
func valueWords(t *Table) int {
	total := 0
	for _, m := range t.max {
		total += m
	}
	return min(total/64+1, 4)
}

// workBytes estimates the memory a solver needs beside the table itself.
func workBytes(g games.Game, kind Kind, t *Table, method string) int64 {
	switch method {
	case "plain":
		if !monotone(g) {
			// The memo holds every reachable position as a map entry.
			return int64(t.size) * 64
		}
	case "wythoff":
		return int64(t.max[0]+2*t.max[1]+2) * int64((t.max[0]+t.max[1])/64+1) * 8
	case "box":
		b := newBoxPlan(t, g.(*games.SetGame))
		switch kind {
		case KindValues:
			return b.ringSlots() * int64(b.L) * 8 * int64(valueWords(t))
		case KindRemoteness:
			return b.ringSlots() * int64(b.L) * 4 // two uint16 rings
		default:
			return b.ringSlots() * int64((b.L+63)/64) * 8
		}
	}
	return 0
}

func solveFast(t *Table, method string, task *progress.Task) error {
	switch method {
	case "box":
		g := t.game.(*games.SetGame)
		switch t.kind {
		case KindValues:
			total := 0
			for _, m := range t.max {
				total += m
			}
			for W := valueWords(t); ; W *= 2 {
				err := boxValues(t, g, task, W)
				var ew errWidth
				if !errors.As(err, &ew) || 64*W > total+1 {
					return err
				}
			}
		case KindOutcomes:
			return boxOutcomes(t, g, task)
		case KindRemoteness:
			return boxRemoteness(t, g, task)
		}
	case "slow":
		return solveSlow(t, t.game.(*games.SetGame), task)
	case "sum", "conjunctive":
		return solveCompound(t, task)
	case "wythoff":
		return solveWythoff(t, task)
	}
	return solvePlain(t, task)
}
