package known

import (
	"fmt"
	"strings"

	"grundy/stdlib/entail"
	"grundy/stdlib/human"
)

// Seed 003's claims are about sums of entailing games, solved by search
// (package entail), not about tables; they are statements like the others
// so that known.CheckAll, known.Check("003/") and `grundy check` list and
// count every claim of the five documents alike.

// searchCheck checks a statement without a table, for heaps up to bound:
// how many cases it judged, whether the claim held, and a detail line.
type searchCheck func(bound int) (checked int, holds bool, detail string, err error)

func seed003() []*Statement {
	const family = "Top Entails, entailing Nim"
	return []*Statement{
		{ID: "003/hero", Seed: "003", Game: family, Default: 25, Heavy: 31,
			Claim: "even heaps are loony in both games; Top Entails odd h: * for h = 1, 0 above; entailing Nim odd h: *((h+1)/2)",
			search: func(n int) (int, bool, string, error) {
				t, err := entail.HeroTable(n, entail.TopEntailsGame, entail.EntailingNimGame)
				if err != nil {
					return 0, false, "", err
				}
				checked := 0
				for g := range 2 {
					for i, h := range t.Heaps {
						checked++
						if v, want := t.Values[g][i], heroValue(g, h); v != want {
							return checked, false, fmt.Sprintf("%s %d is %v, the text says %v", t.Games[g], h, v, want), nil
						}
					}
				}
				return checked, true, human.Quantity(checked, "value"), nil
			}},
		{ID: "003/sum-rule", Seed: "003", Game: family + ", Nim", Default: 7, Heavy: 8,
			Claim: "a free sum with a loony part is a win for the mover, else the nim-sum of the values decides (1..5 parts, every game present)",
			search: func(n int) (int, bool, string, error) {
				fams := [][]*entail.Game{
					{entail.TopEntailsGame, entail.NimGame},
					{entail.EntailingNimGame, entail.NimGame},
					{entail.TopEntailsGame, entail.EntailingNimGame, entail.NimGame},
				}
				var counts []string
				total := 0
				for _, f := range fams {
					c, err := entail.CheckSumRule(n, 5, true, f...)
					if err != nil {
						return total, false, "", err
					}
					total += c.Sums
					if len(c.Disagreements) > 0 {
						return total, false, fmt.Sprintf("%s: %s, first %v", c.Enumeration(), human.Quantity(len(c.Disagreements), "disagreement"), c.Disagreements[0]), nil
					}
					counts = append(counts, human.Count(c.Sums))
				}
				return total, true, fmt.Sprintf("%s sums, no disagreement; the text counts 1,322 / 1,322 / 1,372", strings.Join(counts, " / ")), nil
			}},
		{ID: "003/ordinary", Seed: "003", Game: "Top Entails", Default: 6, Heavy: 12,
			Claim: "read as nim-sums, the ordinary Grundy values misread exactly the two-heap positions with both heaps even (9 of 36 for heaps 1..6)",
			search: func(n int) (int, bool, string, error) {
				mis, judged, err := entail.OrdinaryMisreads(entail.TopEntailsGame, n)
				if err != nil {
					return 0, false, "", err
				}
				for _, m := range mis {
					if m.A%2 != 0 || m.B%2 != 0 {
						return judged, false, "misread " + m.String(), nil
					}
				}
				want := (n / 2) * (n / 2)
				return judged, len(mis) == want, fmt.Sprintf("%d of %d misread", len(mis), judged), nil
			}},
		{ID: "003/worked-example", Seed: "003", Game: family + ", Nim", Default: 7, Heavy: 7,
			Claim:  "Top Entails 3 + Top Entails 5 + Nim 1 + entailing Nim 7: the one winning move takes six from the 7; taking one from the 7 loses, and so does removing the Nim heap",
			search: func(int) (int, bool, string, error) { return workedExample() }},
	}
}

// heroValue is the hero table as the text states it (game 0: Top
// Entails, game 1: entailing Nim).
func heroValue(game, h int) entail.Value {
	switch {
	case h%2 == 0:
		return entail.Loony
	case game == 0 && h == 1:
		return entail.Nimber(1)
	case game == 0:
		return entail.Nimber(0)
	}
	return entail.Nimber((h + 1) / 2)
}

func workedExample() (int, bool, string, error) {
	p := entail.Sum(entail.TopEntails(3), entail.TopEntails(5), entail.Nim(1), entail.EntailingNim(7))
	moves, err := p.Moves()
	if err != nil {
		return 0, false, "", err
	}
	var wins []string
	var takeOneWins, dropNimWins, takeSixWins, sawOne, sawDrop, sawSix bool
	for _, m := range moves {
		o, err := m.After.Outcome()
		if err != nil {
			return 0, false, "", err
		}
		win := o == entail.P
		if win {
			wins = append(wins, m.String())
		}
		switch {
		case m.Part == 3 && len(m.To) == 1 && m.To[0].Size == 6:
			sawOne, takeOneWins = true, win
		case m.Part == 3 && len(m.To) == 1 && m.To[0].Size == 1:
			sawSix, takeSixWins = true, win
		case m.Part == 2 && len(m.To) == 0:
			sawDrop, dropNimWins = true, win
		}
	}
	holds := sawOne && sawDrop && sawSix && !takeOneWins && !dropNimWins && takeSixWins && len(wins) == 1
	return len(moves), holds, "winning moves by search: " + strings.Join(wins, ", "), nil
}
